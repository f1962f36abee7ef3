//! One chart on a `<canvas>`: sized from its CSS box × devicePixelRatio, redrawn when the
//! signals its draw function reads change, when the box is resized and when the colour
//! scheme flips; `role="img"` with the chart's summary as `aria-label`; a "Download PNG"
//! button. Nothing here unwraps anything the browser hands back.

use leptos::html;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use crate::charts::text::words;
use crate::charts::{self, ChartError, ChartStyle};
use crate::i18n::Lang;
use crate::web::canvas_backend::ChartBackend;

type DrawFn = dyn Fn(&DrawingArea<ChartBackend, Shift>, &ChartStyle) -> Result<(), ChartError>;

/// An off-screen chart redraws this long after its data last changed (a slider being
/// dragged redraws only the charts in view, each frame).
const OFFSCREEN_REDRAW_MS: u32 = 120;

/// The CSS size a chart is drawn at for print (at 2× for the printer's resolution): the
/// width of an A4 page's text and a quarter of its height, as style/charts.css sizes the
/// canvas on paper.
const PRINT_SIZE: (f64, f64) = (720.0, 260.0);

/// A chart module's `draw` on the canvas backend (`charts::cost::draw` etc.).
pub type DrawOn<T> =
    fn(&DrawingArea<ChartBackend, Shift>, &T, &ChartStyle) -> Result<(), ChartError>;

/// How a [`ChartCanvas`] draws its chart: the data signal (tracked, so the chart knows
/// when it is stale without drawing) and the drawing on it.
pub struct ChartDraw {
    track: Box<dyn Fn()>,
    how: How,
}

/// A chart drawn whole on its canvas, or in layers.
enum How {
    Whole(Box<DrawFn>),
    Layered(Layered),
}

/// A chart module's `frame` on the canvas backend (`charts::usage::frame`).
pub type FrameOn<T> = charts::FrameFn<ChartBackend, T>;

/// A chart module's layer on its frame (`charts::usage::draw_base`, `…::draw_over`).
pub type LayerOn<T> = charts::LayerFn<ChartBackend, T>;

/// A chart drawn in two layers (see [`charts::Frame`]): its module's frame, base and over
/// functions, and which data draw the same base (`charts::usage::same_base`).
pub struct Layers<T> {
    pub frame: FrameOn<T>,
    pub base: LayerOn<T>,
    pub over: LayerOn<T>,
    pub same_base: fn(&T, &T) -> bool,
}

type FrameFn = dyn Fn(
    &DrawingArea<ChartBackend, Shift>,
    &ChartStyle,
) -> Result<Option<charts::Frame>, ChartError>;
type LayerFn = dyn Fn(
    &DrawingArea<ChartBackend, Shift>,
    &charts::Frame,
    &ChartStyle,
) -> Result<(), ChartError>;

/// [`Layers`] on the chart's data.
struct Layered {
    frame: Box<FrameFn>,
    base: Box<LayerFn>,
    over: Box<LayerFn>,
    /// Whether the base drawn last is that of the data now; the data now is kept as the
    /// base drawn last (the caller draws it when not).
    same_base: Box<dyn Fn() -> bool>,
}

impl ChartDraw {
    /// One of the chart modules' `draw` functions on reactive data; `None` draws the
    /// "no data" message. E.g. `ChartDraw::of(data, charts::load_duration::draw)`.
    pub fn of<T>(data: impl Into<Signal<Option<T>>>, draw: DrawOn<T>) -> Self
    where
        T: Send + Sync + 'static,
    {
        let data: Signal<Option<T>> = data.into();
        ChartDraw {
            track: Box::new(move || data.track()),
            how: How::Whole(Box::new(move |area, style| {
                data.with_untracked(|d| match d {
                    Some(d) => draw(area, d, style),
                    None => charts::no_data(area, style),
                })
            })),
        }
    }

    /// A chart drawn in two layers: the base (axes and the history) on a canvas off the
    /// page, drawn again only when its frame, the style or its part of the data changes, and
    /// copied onto the chart's canvas; then the layer over it (what moves with the plan).
    /// Without a frame (no data, too small), the "no data" message (`charts::no_data`).
    pub fn layered<T>(data: impl Into<Signal<Option<T>>>, layers: Layers<T>) -> Self
    where
        T: Clone + Send + Sync + 'static,
    {
        let data: Signal<Option<T>> = data.into();
        let drawn = std::cell::RefCell::new(None::<T>);
        let with = move |f: &dyn Fn(&T) -> Result<(), ChartError>| {
            data.with_untracked(|d| d.as_ref().map_or(Ok(()), f))
        };
        let Layers {
            frame,
            base,
            over,
            same_base,
        } = layers;
        let layered = Layered {
            frame: Box::new(move |area, style| {
                data.with_untracked(|d| d.as_ref().map_or(Ok(None), |d| frame(area, d, style)))
            }),
            base: Box::new(move |area, f, style| with(&|d| base(area, d, f, style))),
            over: Box::new(move |area, f, style| with(&|d| over(area, d, f, style))),
            same_base: Box::new(move || {
                data.with_untracked(|d| {
                    let mut drawn = drawn.borrow_mut();
                    let same = matches!((d, &*drawn), (Some(d), Some(k)) if same_base(d, k));
                    if !same {
                        drawn.clone_from(d);
                    }
                    same
                })
            }),
        };
        ChartDraw {
            track: Box::new(move || data.track()),
            how: How::Layered(layered),
        }
    }
}

/// Browser hooks to undo when the component goes away.
struct Hooks {
    observer: Option<web_sys::ResizeObserver>,
    _on_resize: Closure<dyn FnMut()>,
    scheme: Option<web_sys::MediaQueryList>,
    on_scheme: Closure<dyn FnMut()>,
    print: Option<web_sys::MediaQueryList>,
    on_print: Closure<dyn FnMut(web_sys::Event)>,
}

impl Hooks {
    fn detach(&self) {
        if let Some(o) = &self.observer {
            o.disconnect();
        }
        if let Some(m) = &self.scheme {
            let _ = m.remove_event_listener_with_callback(
                "change",
                self.on_scheme.as_ref().unchecked_ref(),
            );
        }
        if let Some(m) = &self.print {
            let _ = m.remove_event_listener_with_callback(
                "change",
                self.on_print.as_ref().unchecked_ref(),
            );
        }
        if let Some(w) = web_sys::window() {
            let _ = w.remove_event_listener_with_callback(
                "resize",
                self._on_resize.as_ref().unchecked_ref(),
            );
            for event in ["beforeprint", "afterprint"] {
                let _ = w.remove_event_listener_with_callback(
                    event,
                    self.on_print.as_ref().unchecked_ref(),
                );
            }
        }
    }
}

fn dark_scheme() -> Option<web_sys::MediaQueryList> {
    web_sys::window()?
        .match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten()
}

/// CSS box size and devicePixelRatio of the canvas.
fn measure(canvas: &web_sys::HtmlCanvasElement) -> (f64, f64, f64) {
    let rect = canvas.get_bounding_client_rect();
    let dpr = web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .filter(|r| r.is_finite() && *r > 0.0)
        .unwrap_or(1.0);
    (rect.width(), rect.height(), dpr)
}

/// Save the canvas as `<file_name>.png` through a temporary `<a download>`.
fn download(canvas: &web_sys::HtmlCanvasElement, file_name: &str) {
    let Ok(url) = canvas.to_data_url() else {
        return;
    };
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(a) = doc
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    else {
        return;
    };
    a.set_href(&url);
    a.set_download(&format!("{file_name}.png"));
    let body = doc.body();
    if let Some(b) = &body {
        let _ = b.append_child(&a);
    }
    a.click();
    if let Some(b) = &body {
        let _ = b.remove_child(&a);
    }
}

/// A canvas off the page for a layered chart's base (`<testid>-base`, for the tests).
fn off_page_canvas(testid: &str) -> Option<web_sys::HtmlCanvasElement> {
    let canvas = web_sys::window()?
        .document()?
        .create_element("canvas")
        .ok()?
        .dyn_into::<web_sys::HtmlCanvasElement>()
        .ok()?;
    let _ = canvas.set_attribute("data-testid", &format!("{testid}-base"));
    Some(canvas)
}

/// What a layered chart's base was drawn for: the canvas, the style and the frame.
#[derive(Clone, Copy, PartialEq)]
struct BaseKey {
    size: (f64, f64, f64),
    lang: Lang,
    currency: &'static str,
    dark: bool,
    frame: Option<charts::Frame>,
}

/// A layered chart's base: drawn on a canvas of its own, off the page, for `key`.
struct Base {
    canvas: web_sys::HtmlCanvasElement,
    key: Option<BaseKey>,
}

/// Size `canvas`' drawing buffer (only when it differs: setting it clears the canvas) and
/// its backend.
fn backend_for(
    canvas: &web_sys::HtmlCanvasElement,
    (pw, ph): (u32, u32),
) -> Result<ChartBackend, ChartError> {
    if canvas.width() != pw {
        canvas.set_width(pw);
    }
    if canvas.height() != ph {
        canvas.set_height(ph);
    }
    ChartBackend::new(canvas.clone())
        .ok_or_else(|| ChartError("canvas 2D context unavailable".into()))
}

/// A layered chart: its frame, the base (drawn again when it was drawn for another frame,
/// canvas, style or base data) copied onto the chart's canvas, and the layer over it.
/// Without a frame (no data, too small), the "no data" message.
fn paint_layers(
    canvas: &web_sys::HtmlCanvasElement,
    pixels: (u32, u32),
    l: &Layered,
    style: &ChartStyle,
    mut key: BaseKey,
    base: &mut Base,
) -> Result<(), ChartError> {
    let off = backend_for(&base.canvas, pixels)?.into_drawing_area();
    key.frame = (l.frame)(&off, style)?;
    let on = backend_for(canvas, pixels)?;
    let Some(frame) = key.frame else {
        base.key = None;
        return charts::no_data(&on.into_drawing_area(), style);
    };
    // Always asked: it keeps the data the base is drawn from.
    let same = (l.same_base)();
    if !same || base.key != Some(key) {
        base.key = None;
        (l.base)(&off, &frame, style)?;
        base.key = Some(key);
    }
    on.copy(&base.canvas);
    (l.over)(&on.into_drawing_area(), &frame, style)
}

/// One chart. The canvas takes its size from CSS (`style/charts.css`: full width, fixed
/// height), so the drawing buffer is that box × devicePixelRatio.
#[component]
pub fn ChartCanvas(
    /// `data-testid` of the figure; the canvas gets `<testid>-canvas`, the button
    /// `<testid>-download`. Also the PNG's file name.
    testid: &'static str,
    /// Text alternative (`aria-label`), e.g. `charts::load_duration::summary(…)`.
    #[prop(into)]
    summary: Signal<String>,
    #[prop(into)] lang: Signal<Lang>,
    /// Currency symbol for money axes.
    #[prop(into)]
    currency: Signal<&'static str>,
    /// What to draw; see [`ChartDraw::of`].
    draw: ChartDraw,
) -> impl IntoView {
    let canvas_ref = NodeRef::<html::Canvas>::new();
    let size = RwSignal::new((0.0_f64, 0.0_f64, 1.0_f64));
    let dark = RwSignal::new(dark_scheme().map(|m| m.matches()).unwrap_or(false));
    let failed = RwSignal::new(None::<String>);
    let draw = StoredValue::new_local(draw);
    let hooks = StoredValue::new_local(None::<Hooks>);
    let in_view = RwSignal::new(false);
    let stale = StoredValue::new(false);
    let pending = StoredValue::new_local(None::<gloo_timers::callback::Timeout>);
    let base = StoredValue::new_local(None::<Base>);

    // Draw now. Reads are untracked: the effects below say when.
    let paint = move || {
        stale.set_value(false);
        let (w, h, dpr) = size.get_untracked();
        let (lang, currency, dark) = (
            lang.get_untracked(),
            currency.get_untracked(),
            dark.get_untracked(),
        );
        let style = ChartStyle::new(lang, currency, dark, dpr);
        let Some(canvas) = canvas_ref.get_untracked() else {
            return;
        };
        if !(w >= 1.0 && h >= 1.0) {
            return;
        }
        let pixels = ((w * dpr).round() as u32, (h * dpr).round() as u32);
        let result = draw
            .try_with_value(|f| match &f.how {
                How::Whole(draw) => {
                    backend_for(&canvas, pixels).and_then(|b| draw(&b.into_drawing_area(), &style))
                }
                How::Layered(l) => {
                    let key = BaseKey {
                        size: (w, h, dpr),
                        lang,
                        currency,
                        dark,
                        frame: None,
                    };
                    base.update_value(|b| {
                        if b.is_none() {
                            *b = off_page_canvas(testid).map(|canvas| Base { canvas, key: None });
                        }
                    });
                    base.try_update_value(|b| match b {
                        Some(b) => paint_layers(&canvas, pixels, l, &style, key, b),
                        None => Err(ChartError("canvas unavailable".into())),
                    })
                    .unwrap_or(Ok(()))
                }
            })
            .unwrap_or(Ok(()));
        let err = result.err().map(|e| e.to_string());
        if failed.get_untracked() != err {
            failed.set(err);
        }
    };
    canvas_ref.on_load(move |canvas: web_sys::HtmlCanvasElement| {
        // No measuring here: that forces a layout of the half-mounted page per chart
        // (measured 35 ms on a 4× slowed CPU). The ResizeObserver reports the first size
        // right after the next layout.
        let watched = canvas.clone();
        let on_resize = Closure::<dyn FnMut()>::new(move || {
            let m = measure(&watched);
            if size.try_get_untracked() != Some(m) {
                let _ = size.try_set(m);
            }
        });
        // The box (layout changes) and the window (devicePixelRatio changes with zoom).
        let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok();
        if let Some(o) = &observer {
            o.observe(&canvas);
        }
        if let Some(w) = web_sys::window() {
            let _ =
                w.add_event_listener_with_callback("resize", on_resize.as_ref().unchecked_ref());
        }
        // In view (or nearly): only then is a change drawn at once.
        crate::page::on_screen::watch(canvas.clone().into(), in_view);
        let scheme = dark_scheme();
        let mq = scheme.clone();
        let on_scheme = Closure::<dyn FnMut()>::new(move || {
            if let Some(m) = &mq {
                let _ = dark.try_set(m.matches());
            }
        });
        if let Some(m) = &scheme {
            let _ =
                m.add_event_listener_with_callback("change", on_scheme.as_ref().unchecked_ref());
        }
        // Printing: every chart is drawn now, in view or not (an off-screen card has no box
        // until it is measured, so it would print blank), at the paper's proportions
        // (`PRINT_SIZE`; style/charts.css scales it to the page width). `beforeprint`, and
        // the print media query for browsers that print without that event; when printing
        // ends (`afterprint`, the query stops matching) the chart is drawn for the screen.
        let printed = canvas.clone();
        let print = web_sys::window().and_then(|w| w.match_media("print").ok().flatten());
        let print_mq = print.clone();
        let on_print = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            let printing =
                e.type_() == "beforeprint" || print_mq.as_ref().is_some_and(|m| m.matches());
            let m = if printing {
                (PRINT_SIZE.0, PRINT_SIZE.1, 2.0)
            } else {
                measure(&printed)
            };
            size.update_untracked(|s| *s = m);
            pending.set_value(None);
            paint();
        });
        if let Some(m) = &print {
            let _ = m.add_event_listener_with_callback("change", on_print.as_ref().unchecked_ref());
        }
        if let Some(w) = web_sys::window() {
            for event in ["beforeprint", "afterprint"] {
                let _ =
                    w.add_event_listener_with_callback(event, on_print.as_ref().unchecked_ref());
            }
        }
        hooks.set_value(Some(Hooks {
            observer,
            _on_resize: on_resize,
            scheme,
            on_scheme,
            print,
            on_print,
        }));
    });
    on_cleanup(move || {
        hooks.try_with_value(|h| {
            if let Some(h) = h {
                h.detach();
            }
        });
        crate::page::on_screen::unwatch(in_view);
    });

    // Anything the picture depends on changed: in view, redraw in this frame; out of view,
    // once the changes pause (so it is current when scrolled to, printed or downloaded).
    Effect::new(move |_| {
        size.track();
        lang.track();
        currency.track();
        dark.track();
        canvas_ref.track();
        draw.with_value(|f| (f.track)());
        if in_view.get_untracked() {
            pending.set_value(None);
            paint();
        } else {
            stale.set_value(true);
            let later = gloo_timers::callback::Timeout::new(OFFSCREEN_REDRAW_MS, move || {
                if stale.try_get_value() == Some(true) {
                    paint();
                }
            });
            // Replacing the handle cancels the previous one.
            pending.set_value(Some(later));
        }
    });
    // Scrolled into view with a change not drawn yet.
    Effect::new(move |_| {
        if in_view.get() && stale.get_value() {
            pending.set_value(None);
            paint();
        }
    });

    let on_download = move |_| {
        if let Some(c) = canvas_ref.get_untracked() {
            download(&c, testid);
        }
    };

    view! {
        <figure class="chart" data-testid=testid>
            <canvas
                class="chart-canvas"
                role="img"
                aria-label=move || summary.get()
                data-testid=format!("{testid}-canvas")
                node_ref=canvas_ref
            >
                {move || summary.get()}
            </canvas>
            <figcaption class="chart-tools">
                {move || {
                    failed
                        .get()
                        .map(|e| {
                            view! {
                                <span class="chart-error" role="status">
                                    {e}
                                </span>
                            }
                        })
                }}
                <button
                    type="button"
                    class="chart-download"
                    data-testid=format!("{testid}-download")
                    on:click=on_download
                >
                    {move || words(lang.get()).download_png}
                </button>
            </figcaption>
        </figure>
    }
}

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

use crate::canvas_backend::ChartBackend;
use crate::charts::text::words;
use crate::charts::{self, ChartError, ChartStyle};
use crate::i18n::Lang;

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
    draw: Box<DrawFn>,
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
            draw: Box::new(move |area, style| {
                data.with_untracked(|d| match d {
                    Some(d) => draw(area, d, style),
                    None => charts::no_data(area, style),
                })
            }),
        }
    }
}

/// Browser hooks to undo when the component goes away.
struct Hooks {
    observer: Option<web_sys::ResizeObserver>,
    _on_resize: Closure<dyn FnMut()>,
    seen: Option<web_sys::IntersectionObserver>,
    _on_seen: Closure<dyn FnMut(js_sys::Array)>,
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
        if let Some(o) = &self.seen {
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

    // Draw now. Reads are untracked: the effects below say when.
    let paint = move || {
        stale.set_value(false);
        let (w, h, dpr) = size.get_untracked();
        let style = ChartStyle::new(
            lang.get_untracked(),
            currency.get_untracked(),
            dark.get_untracked(),
            dpr,
        );
        let Some(canvas) = canvas_ref.get_untracked() else {
            return;
        };
        if !(w >= 1.0 && h >= 1.0) {
            return;
        }
        let (pw, ph) = ((w * dpr).round() as u32, (h * dpr).round() as u32);
        if canvas.width() != pw {
            canvas.set_width(pw);
        }
        if canvas.height() != ph {
            canvas.set_height(ph);
        }
        let Some(backend) = ChartBackend::new(canvas) else {
            failed.set(Some("canvas 2D context unavailable".into()));
            return;
        };
        let area = backend.into_drawing_area();
        let result = draw
            .try_with_value(|f| (f.draw)(&area, &style))
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
        let on_seen = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            if let Some(e) = entries
                .iter()
                .last()
                .and_then(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
            {
                let _ = in_view.try_set(e.is_intersecting());
            }
        });
        let options = web_sys::IntersectionObserverInit::new();
        options.set_root_margin("200px");
        let seen = web_sys::IntersectionObserver::new_with_options(
            on_seen.as_ref().unchecked_ref(),
            &options,
        )
        .ok();
        if let Some(o) = &seen {
            o.observe(&canvas);
        }
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
            seen,
            _on_seen: on_seen,
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

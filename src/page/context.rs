//! What components share: the context `Planner` provides (state, history text, parse
//! status, outputs, language) and the helpers that bind a view to one part of the state.

use leptos::prelude::*;

use crate::core::error::InputError;
use crate::core::plan::PlanOutputs;
use crate::core::profile::HistoryProfile;
use crate::page::on_screen::CardView;
use crate::present::{self, Page, Presented, Shown};
use crate::state::{AppState, Lang, ParseStatus};

/// The link, the autosave and where the state came from: provided by `App` for the share
/// panel (absent when `Planner` is mounted alone).
#[derive(Clone, Copy)]
pub struct ShareCtx {
    /// The plan's query string (`?v=1…`, history included): what the address bar holds
    /// once it is written (`App`'s URL writer).
    pub query: Memo<String>,
    /// The query last written to the address bar (the share field shows it: a long one is
    /// written once the changes pause, and laying out the field costs ~0.1 ms per 1 000
    /// characters, 12 ms for a year of 8 types).
    pub written: RwSignal<String>,
    /// The state was restored from the autosave (the page was opened without a link).
    pub restored: bool,
    /// Opened with a link while another session was saved: its query.
    pub last_session: StoredValue<Option<String>>,
    /// localStorage refused to save (unavailable or full).
    pub autosave_off: RwSignal<bool>,
    /// The link carried only the load-duration histogram of a history.
    pub histogram: bool,
    /// Set when the page is about to leave on purpose ("Start fresh", "Open my last
    /// session"): a save still waiting on its delay must not write the session back.
    pub autosave_stopped: StoredValue<bool>,
}

/// A history file read from disk in slices (larger than the box holds as text): the file
/// itself, never its whole text (`core::ingest::ByteStepper`).
#[derive(Clone)]
pub struct HistoryFile {
    pub file: web_sys::File,
    /// Its name and size in bytes, as the browser gave them.
    pub name: String,
    pub size: f64,
    /// Its first lines, shown in the box.
    pub preview: String,
}

/// Everything components read, provided once by `Planner`.
#[derive(Clone, Copy)]
pub struct Ctx {
    pub state: RwSignal<AppState>,
    pub usage_text: RwSignal<String>,
    /// A large history file, read from disk in slices (then `usage_text` is empty).
    pub usage_file: RwSignal<Option<HistoryFile>, LocalStorage>,
    pub parse_status: RwSignal<ParseStatus>,
    pub profile: Memo<Option<Result<HistoryProfile, InputError>>>,
    pub outputs: Memo<PlanOutputs>,
    /// The fleet's plan (`None` for one GPU type).
    pub fleet: Memo<crate::present::FleetResult>,
    pub lang: Signal<Lang>,
    pub currency: Signal<&'static str>,
}

pub fn use_ctx() -> Ctx {
    expect_context::<Ctx>()
}

/// One part of the state as a memo: views that read it re-run only when that part changes
/// (a closure reading `state` directly re-runs on every input change).
pub fn memo_of<T>(state: RwSignal<AppState>, part: fn(&AppState) -> T) -> Memo<T>
where
    T: PartialEq + Send + Sync + 'static,
{
    Memo::new(move |_| state.with(part))
}

/// The page's presentation (`present::page`), provided by `Planner` beside [`Ctx`]: the
/// memo, and the trigger its readers track.
///
/// reactive_graph marks a memo's readers once for every path by which a change reaches
/// it, and about a dozen lead from the state to the page (directly, through the outputs,
/// the fleet's memos, the profiles …): each price change marked every text of the page a
/// dozen times (~1.5 ms with a fleet, issue 15). One effect reads the memo and notifies
/// `changed` once; the cards' texts track that.
///
/// During a burst of field inputs (each within [`SETTLE_MS`] of the one before: a slider
/// dragged, a price typed; [`typed`]) only the cards on screen follow each change; the others (`on_screen`)
/// follow `settled`, notified once the changes pause. A single change reaches every card at
/// once. While such a catch-up is pending, `<html>` carries `data-settling` (the end-to-end
/// tests wait for it to go).
#[derive(Clone, Copy)]
pub struct PageCtx {
    pub page: Memo<Page>,
    changed: Trigger,
    settled: Trigger,
}

/// How long after the last of a burst of changes the cards off screen catch up (as the
/// charts off screen redraw, `chart_canvas::OFFSCREEN_REDRAW_MS`).
pub const SETTLE_MS: u32 = 120;

/// The time now, ms.
fn now_ms() -> f64 {
    js_sys::Date::now()
}

thread_local! {
    /// When a field was last typed in or dragged ([`typed`]), and whether that input came
    /// within [`SETTLE_MS`] of the one before (then its change is part of a burst).
    static TYPED: std::cell::Cell<(f64, Option<f64>)> =
        const { std::cell::Cell::new((f64::NEG_INFINITY, None)) };
}

/// A field's input is about to change the state (`InputField`'s commit): when it follows the
/// field input before it within [`SETTLE_MS`], the change it makes is part of a burst. Only
/// such changes wait for the cards off screen: a change the page makes itself (a history
/// read, a link opened) reaches every card at once.
pub fn typed() {
    let now = now_ms();
    TYPED.with(|t| {
        let (last, _) = t.get();
        t.set((now, (now - last < f64::from(SETTLE_MS)).then_some(now)));
    });
}

/// Whether the change the page is following now came from a burst of field inputs (the
/// input's mark is taken: it counts for the page's next recomputation only, and only at once).
fn in_burst(now: f64) -> bool {
    TYPED.with(|t| {
        let (last, burst) = t.get();
        t.set((last, None));
        burst.is_some_and(|at| now - at < 50.0)
    })
}

/// Mark `<html>` while the cards off screen wait for a burst to end.
fn mark_settling(on: bool) {
    if let Some(html) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = if on {
            html.set_attribute("data-settling", "")
        } else {
            html.remove_attribute("data-settling")
        };
    }
}

/// The presentation memo of the page: every card's texts, recomputed when the state or the
/// outputs change (one memo, so its reactive code is generated once for all cards).
///
/// It notifies on every recomputation without comparing the old page with the new one: every
/// reader compares its own small part (and the DOM write compares the text), so a whole-page
/// comparison would only repeat that work, and its generated code was ~4.5 KB of wasm.
pub fn page_memo(ctx: Ctx) -> PageCtx {
    let page = Memo::new_with_compare(
        move |_| {
            let from_history = ctx.profile.with(|p| matches!(p, Some(Ok(_))));
            ctx.state.with(|s| {
                ctx.outputs
                    .with(|o| ctx.fleet.with(|f| present::page(s, o, f, from_history)))
            })
        },
        |_, _| true,
    );
    let changed = Trigger::new();
    let settled = Trigger::new();
    // The catch-up of the cards off screen while one is pending.
    let pending = StoredValue::new_local(None::<gloo_timers::callback::Timeout>);
    let settle = move || {
        if pending.try_update_value(|p| p.take()).flatten().is_some() {
            mark_settling(false);
        }
        settled.notify();
    };
    // Run at once (the texts built now read the page as it is), kept as long as the page.
    StoredValue::new_local(RenderEffect::new(move |_| {
        page.track();
        changed.notify();
        if in_burst(now_ms()) {
            if pending.with_value(Option::is_none) {
                mark_settling(true);
            }
            // Replacing the handle cancels the one before.
            pending.set_value(Some(gloo_timers::callback::Timeout::new(SETTLE_MS, settle)));
        } else {
            settle();
        }
    }));
    // Printing shows every card as it is now.
    if let Some(w) = web_sys::window() {
        let on_print = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
            if pending.try_with_value(Option::is_some) == Some(true) {
                settle();
            }
        });
        let _ = w.add_event_listener_with_callback(
            "beforeprint",
            wasm_bindgen::JsCast::unchecked_ref(on_print.as_ref()),
        );
        on_print.forget(); // one listener for the page's life
    }
    PageCtx {
        page,
        changed,
        settled,
    }
}

/// The page's presentation (a card mounted alone, as in the component tests, makes one).
pub fn use_page() -> PageCtx {
    use_context::<PageCtx>().unwrap_or_else(|| page_memo(use_ctx()))
}

/// What a card's texts read the page through: the page memo, untracked, and a memo of its
/// own that changes with it. A change of the page then notifies each card's memo, which
/// notifies that card's few readers: with every text subscribed to the page itself, its
/// subscriber set held every text of the page (~800 with a fleet), and each text's re-run
/// removed and re-added itself there, linear in its size (`IndexSet::shift_remove`, ~5 ms a
/// price change with a fleet, issue 15).
///
/// A card on screen ([`CardView`]) ticks with every change; off screen, with the page's
/// `settled` (at once for a single change, when a burst pauses otherwise), and once more
/// when it comes on screen.
#[derive(Clone, Copy)]
struct Src {
    page: Memo<Page>,
    tick: Memo<()>,
}

impl Src {
    fn new(page: PageCtx, card: CardView) -> Self {
        Src {
            page: page.page,
            tick: Memo::new_with_compare(
                move |_| {
                    if card.visible.get() {
                        page.changed.track()
                    } else {
                        page.settled.track()
                    }
                },
                |_, _| true,
            ),
        }
    }

    fn with<R>(self, f: impl FnOnce(&Page) -> R) -> R {
        self.tick.get(); // read, not only tracked: a memo never read has no sources yet
        self.page.with_untracked(f)
    }
}

/// One card's part of the page's presentation: what its view reads.
pub struct Part<V: 'static> {
    src: Src,
    card: fn(&Page) -> &Presented<V>,
    /// Where the card is: its `<section>` takes `node_ref=part.view.node`.
    pub view: CardView,
}

impl<V> Clone for Part<V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V> Copy for Part<V> {}

impl<V> Part<V> {
    /// `Part::of(|p| &p.headline)`.
    pub fn of(card: fn(&Page) -> &Presented<V>) -> Self {
        Self::in_card(CardView::new(), card)
    }

    /// A second part of the same card: `Part::in_card(first.view, |p| &p.spot_no_checkpoint)`.
    pub fn in_card(view: CardView, card: fn(&Page) -> &Presented<V>) -> Self {
        Part {
            src: Src::new(use_page(), view),
            card,
            view,
        }
    }

    /// Read the card's presentation (tracked).
    pub fn with<R>(&self, f: impl FnOnce(&Presented<V>) -> R) -> R {
        let card = self.card;
        self.src.with(|p| f(card(p)))
    }

    /// `part.text(|v| v.verdict.clone())`: [`text_of`].
    pub fn text(self, part: fn(&V) -> String) -> Signal<String> {
        text_of(self, part)
    }

    /// `part.shown(|v| &v.total)`: [`shown_of`].
    pub fn shown(self, part: fn(&V) -> &Shown) -> Signal<Shown> {
        shown_of(self, part)
    }

    /// `part.flag(|v| v.warning.is_some())`: [`flag_of`].
    pub fn flag(self, part: fn(&V) -> bool) -> Memo<bool> {
        flag_of(self, part)
    }
}

// The helpers below are generic over the card's presentation type only in a thin shim: each
// boxes a small closure that reads its part of the page, and hands it to one non-generic
// function. A helper generic all the way through was ~2 KB of wasm per card (the derive
// closure, the memo and guard code for every presentation type); see docs/decisions.md.

/// A part of the page's presentation, read through one boxed closure.
type Read<T> = Box<dyn Fn(&Page) -> T + Send + Sync>;

fn page_text(src: Src, read: Read<String>) -> Signal<String> {
    Signal::derive(move || src.with(|p| read(p)))
}

/// A figure of the page's presentation, read through one boxed closure that finds it (the
/// copy and the empty figure while the card shows its error are made here, once for all).
type Find = Box<dyn for<'a> Fn(&'a Page) -> Option<&'a Shown> + Send + Sync>;

fn page_shown(src: Src, find: Find) -> Signal<Shown> {
    Signal::derive(move || src.with(|p| find(p).cloned().unwrap_or_default()))
}

fn page_flag(src: Src, read: Read<bool>) -> Memo<bool> {
    Memo::new(move |_| src.with(|p| read(p)))
}

fn page_count(src: Src, read: Read<usize>) -> Memo<usize> {
    Memo::new(move |_| src.with(|p| read(p)))
}

/// One text of a card's presentation, read by its own closure. Empty while the card shows
/// its error.
pub fn text_of<V>(view: Part<V>, part: fn(&V) -> String) -> Signal<String> {
    let card = view.card;
    page_text(
        view.src,
        Box::new(move |p| card(p).as_ref().map(part).unwrap_or_default()),
    )
}

/// One figure (text and `data-value`) of a card's presentation; see [`text_of`].
pub fn shown_of<V>(view: Part<V>, part: fn(&V) -> &Shown) -> Signal<Shown> {
    let card = view.card;
    page_shown(view.src, Box::new(move |p| card(p).as_ref().ok().map(part)))
}

/// The error message a card shows instead of its figures (empty when there is none).
pub fn error_of<V>(view: Part<V>) -> Signal<String> {
    let card = view.card;
    page_text(
        view.src,
        Box::new(move |p| card(p).as_ref().err().cloned().unwrap_or_default()),
    )
}

/// Whether a card's presentation succeeded (a memo: the view switches only when it flips).
pub fn is_ok<V>(view: Part<V>) -> Memo<bool> {
    let card = view.card;
    page_flag(view.src, Box::new(move |p| card(p).is_ok()))
}

/// Whether a part of a card's presentation is there (false while the card shows its error):
/// a memo, so the `<When>` it drives rebuilds only when it flips.
pub fn flag_of<V>(view: Part<V>, part: fn(&V) -> bool) -> Memo<bool> {
    let card = view.card;
    page_flag(
        view.src,
        Box::new(move |p| card(p).as_ref().is_ok_and(part)),
    )
}

/// The number of rows of a table in a card's presentation (0 while it shows its error):
/// `<Rows count=… row=…/>` builds the rows again only when it changes.
pub fn count_of<V>(view: Part<V>, rows: fn(&V) -> usize) -> Memo<usize> {
    let card = view.card;
    page_count(
        view.src,
        Box::new(move |p| card(p).as_ref().map(rows).unwrap_or(0)),
    )
}

/// One text of row `i` of a table of `rows(view)` rows in a card's presentation: empty when
/// the card shows its error or `i` is past the table's end; see [`text_of`]. A table's row
/// count and its cells read the page apart, and the order their effects run in is not fixed,
/// so a cell can read a page whose table has just lost its row before `<Rows>` removes it:
/// indexing there would panic, and a panic aborts the module (a DCGM threshold of 0 emptied
/// the terms table so, session 16).
pub fn text_at<V>(
    view: Part<V>,
    i: usize,
    rows: fn(&V) -> usize,
    part: fn(&V, usize) -> String,
) -> Signal<String> {
    let card = view.card;
    page_text(
        view.src,
        Box::new(move |p| {
            row(card(p), i, rows)
                .map(|v| part(v, i))
                .unwrap_or_default()
        }),
    )
}

/// One figure of row `i` of a table of `rows(view)` rows; see [`text_at`] and [`shown_of`].
pub fn shown_at<V>(
    view: Part<V>,
    i: usize,
    rows: fn(&V) -> usize,
    part: fn(&V, usize) -> &Shown,
) -> Signal<Shown> {
    let card = view.card;
    page_shown(
        view.src,
        Box::new(move |p| row(card(p), i, rows).map(|v| part(v, i))),
    )
}

/// The card's presentation when it has a row `i` (see [`text_at`]).
fn row<V>(card: &Presented<V>, i: usize, rows: fn(&V) -> usize) -> Option<&V> {
    card.as_ref().ok().filter(|v| i < rows(v))
}

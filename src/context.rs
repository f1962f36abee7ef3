//! What components share: the context `Planner` provides (state, history text, parse
//! status, outputs, language) and the helpers that bind a view to one part of the state.

use leptos::prelude::*;

use crate::core::error::InputError;
use crate::core::plan::{PlanInputs, PlanOutputs};
use crate::core::profile::HistoryProfile;
use crate::present::{Presented, Shown};
use crate::state::{AppState, Lang, ParseStatus};

/// localStorage key of the autosaved session: the same query string as the link.
pub const AUTOSAVE_KEY: &str = "gpu-rent-planner/v1/last";

/// The link, the autosave and where the state came from: provided by `App` for the share
/// panel (absent when `Planner` is mounted alone).
#[derive(Clone, Copy)]
pub struct ShareCtx {
    /// The query string the address bar holds (`?v=1…`, history included).
    pub query: Memo<String>,
    /// The state was restored from the autosave (the page was opened without a link).
    pub restored: bool,
    /// Opened with a link while another session was saved: its query.
    pub last_session: StoredValue<Option<String>>,
    /// localStorage refused to save (unavailable or full).
    pub autosave_off: RwSignal<bool>,
    /// The link carried only the load-duration histogram of a history.
    pub histogram: bool,
}

/// Everything components read, provided once by `Planner`.
#[derive(Clone, Copy)]
pub struct Ctx {
    pub state: RwSignal<AppState>,
    pub usage_text: RwSignal<String>,
    pub parse_status: RwSignal<ParseStatus>,
    pub profile: Memo<Option<Result<HistoryProfile, InputError>>>,
    pub outputs: Memo<PlanOutputs>,
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

/// A `(value, setter)` pair bound to one numeric input of the plan.
pub fn bind_input(
    state: RwSignal<AppState>,
    get: fn(&PlanInputs) -> f64,
    set: fn(&mut PlanInputs, f64),
) -> (Signal<f64>, Callback<f64>) {
    (
        // A memo, not a derived signal: a change to another input must not re-run
        // everything that reads this one.
        Memo::new(move |_| state.with(|s| get(&s.inputs))).into(),
        Callback::new(move |v: f64| state.update(|s| set(&mut s.inputs, v))),
    )
}

/// One text of a card's presentation memo, read by its own closure (the view code that
/// renders a `Signal<String>` is generated once for every card). Empty while the card shows
/// its error instead.
pub fn text_of<V>(view: Memo<Presented<V>>, part: fn(&V) -> String) -> Signal<String>
where
    V: PartialEq + Send + Sync + 'static,
{
    Signal::derive(move || view.with(|v| v.as_ref().map(part).unwrap_or_default()))
}

/// One figure (text and `data-value`) of a card's presentation memo; see [`text_of`].
pub fn shown_of<V>(view: Memo<Presented<V>>, part: fn(&V) -> &Shown) -> Signal<Shown>
where
    V: PartialEq + Send + Sync + 'static,
{
    Signal::derive(move || view.with(|v| v.as_ref().map(|v| part(v).clone()).unwrap_or_default()))
}

/// The error message a card shows instead of its figures (empty when there is none).
pub fn error_of<V>(view: Memo<Presented<V>>) -> Signal<String>
where
    V: PartialEq + Send + Sync + 'static,
{
    Signal::derive(move || view.with(|v| v.as_ref().err().cloned().unwrap_or_default()))
}

/// Whether a card's presentation succeeded (a memo: the view switches only when it flips).
pub fn is_ok<V>(view: Memo<Presented<V>>) -> Memo<bool>
where
    V: PartialEq + Send + Sync + 'static,
{
    Memo::new(move |_| view.with(Result::is_ok))
}

/// The number of rows of a table in a card's presentation (0 while it shows its error):
/// `<For each=move || 0..rows.get() key=|i| *i …>` builds each row once.
pub fn count_of<V>(view: Memo<Presented<V>>, rows: fn(&V) -> usize) -> Memo<usize>
where
    V: PartialEq + Send + Sync + 'static,
{
    Memo::new(move |_| view.with(|v| v.as_ref().map(rows).unwrap_or(0)))
}

/// One text of row `i` of a table in a card's presentation (empty when absent); see [`text_of`].
pub fn text_at<V>(
    view: Memo<Presented<V>>,
    i: usize,
    part: fn(&V, usize) -> String,
) -> Signal<String>
where
    V: PartialEq + Send + Sync + 'static,
{
    Signal::derive(move || view.with(|v| v.as_ref().map(|v| part(v, i)).unwrap_or_default()))
}

/// One figure of row `i` of a table in a card's presentation; see [`shown_of`].
pub fn shown_at<V>(
    view: Memo<Presented<V>>,
    i: usize,
    part: fn(&V, usize) -> Shown,
) -> Signal<Shown>
where
    V: PartialEq + Send + Sync + 'static,
{
    Signal::derive(move || view.with(|v| v.as_ref().map(|v| part(v, i)).unwrap_or_default()))
}

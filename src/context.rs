//! What components share: the context `Planner` provides (state, history text, parse
//! status, outputs, language) and the helpers that bind a view to one part of the state.

use leptos::prelude::*;

use crate::core::error::InputError;
use crate::core::plan::{PlanInputs, PlanOutputs};
use crate::core::profile::HistoryProfile;
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

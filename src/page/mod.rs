//! What the page derives from its state (issue 39's layer "page"): the context, the pipeline
//! from inputs to outputs, the memos the cards read (charts, fleet, teams), what is on screen,
//! the exports. Leptos, no DOM bindings of its own (those are in `web`); the state's plain
//! types are in `state`, and `App` and `Planner` (the mount, the one state signal) are
//! components.

pub mod chart_memos;
pub mod context;
pub mod export;
pub mod fleet_memos;
pub mod on_screen;
pub mod pipeline;
pub mod team_memos;

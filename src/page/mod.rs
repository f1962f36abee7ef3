//! The page's state and what it derives (issue 39's layer "page"): the app and its mount,
//! the one state signal, the context, the pipeline from inputs to outputs, the memos the cards
//! read (charts, fleet, teams), what is on screen, the exports. Leptos, no DOM bindings of its
//! own (those are in `web`); the state's plain types are in `state`.

pub mod chart_memos;
pub mod context;
pub mod export;
pub mod fleet_memos;
pub mod on_screen;
pub mod pipeline;
pub mod team_memos;

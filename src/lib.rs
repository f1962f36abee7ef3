//! GPU Rent Planner: the pure engine (`core`) and the Leptos page on top of it.

pub mod charts;
pub mod components;
pub mod core;
pub mod first_stage;
pub mod format;
pub mod i18n;
pub mod inputs;
pub mod link;
pub mod page;
pub mod present;
pub mod state;
pub mod web;
pub mod workers;

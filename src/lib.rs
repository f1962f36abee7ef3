//! GPU Rent Planner: the pure engine (`core`) and the Leptos page on top of it.

pub mod app;
pub mod browser;
pub mod canvas_backend;
pub mod chart_memos;
pub mod charts;
pub mod components;
pub mod context;
pub mod core;
pub mod export;
pub mod first_stage;
pub mod fleet;
pub mod fleet_memos;
pub mod format;
pub mod i18n;
pub mod inputs;
pub mod offline;
pub mod on_screen;
pub mod pipeline;
pub mod present;
pub mod presets;
pub mod scroll_signal;
pub mod state;
pub mod time_zones;
pub mod url;

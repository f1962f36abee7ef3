//! GPU Rent Planner: the pure engine (`core`) and the Leptos page on top of it.

pub mod core;

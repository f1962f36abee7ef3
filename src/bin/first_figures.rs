//! The first-stage module (issue 21): fills a link's first screen with its headline before
//! the application has arrived. Everything is in `gpu_rent_planner::first_stage`; no Leptos.

fn main() {
    gpu_rent_planner::first_stage::run();
}

//! The query writer's worker module (issue 38): `core::query` in a Web Worker, fetched when
//! the query panel is first opened. Everything is in `gpu_rent_planner::workers::query_worker`.

fn main() {
    gpu_rent_planner::workers::query_worker::run();
}

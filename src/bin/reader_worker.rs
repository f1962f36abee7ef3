//! The readers' worker module (issue 36): `core::ingest` in a Web Worker. Everything is in
//! `gpu_rent_planner::workers::reader_worker`; no Leptos.

fn main() {
    gpu_rent_planner::workers::reader_worker::run();
}

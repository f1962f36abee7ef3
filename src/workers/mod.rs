//! The worker modules and the page's side of them (issue 39's layer "workers"): the readers'
//! worker (`reader_*`, issue 36) and the query writer's (`query_*`, issue 38), with the wire
//! format both sides share.

pub mod query_client;
pub mod query_worker;
pub mod reader_client;
pub mod reader_wire;
pub mod reader_worker;

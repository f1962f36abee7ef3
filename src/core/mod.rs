//! The pure planning engine: no leptos, web-sys or gloo imports here.
//! Plain types in, plain types or typed errors out.

pub mod breakeven;
pub mod error;
pub mod plan;
pub mod series;
pub mod money;
pub mod profile;
pub mod prices;
pub mod effective;
pub mod commitment;
pub mod waterline;
pub mod sizing;
pub mod spot;
pub mod pools;
pub mod budget;
pub mod burst;
pub mod own_hw;
pub mod hidden;
pub mod review;
pub mod ingest;
pub mod samples;

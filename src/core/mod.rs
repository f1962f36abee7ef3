//! The pure planning engine: no leptos, web-sys or gloo imports here.
//! Plain types in, plain types or typed errors out.

pub mod action;
pub mod answer;
pub mod breakeven;
pub mod budget;
pub mod burst;
pub mod calendar;
pub mod commitment;
pub mod cur_samples;
pub mod decimal;
pub mod effective;
pub mod error;
pub mod examples;
pub mod fleet;
pub mod fleet_plan;
pub mod gpu_instances;
pub mod hidden;
pub mod ingest;
pub mod money;
pub mod own_hw;
pub mod plan;
pub mod pools;
pub mod prices;
pub mod profile;
pub mod prom_samples;
pub mod query;
pub mod region;
pub mod review;
pub mod series;
pub mod sizing;
pub mod slurm_sample;
pub mod spot;
pub mod teams;
pub mod terms;
pub mod waterline;
pub mod zone;

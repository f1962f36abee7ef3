//! One component per file, named after it.

pub mod breakeven_card;
pub mod chart_canvas;
pub mod link_notice;
pub mod slider_field;

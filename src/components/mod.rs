//! One component per file, named after it.

pub mod breakeven_card;
pub mod link_notice;
pub mod slider_field;

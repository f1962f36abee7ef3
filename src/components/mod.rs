//! One component per file, named after it.

pub mod breakeven_card;
pub mod budget_card;
pub mod burst_card;
pub mod chart_canvas;
pub mod charts_panel;
pub mod effective_cost_card;
pub mod headline_card;
pub mod hidden_costs_card;
pub mod link_notice;
pub mod own_hardware_card;
pub mod parse_report;
pub mod pools_card;
pub mod prices_panel;
pub mod review_card;
pub mod share_panel;
pub mod sizing_card;
pub mod slider_field;
pub mod spot_card;
pub mod usage_panel;
pub mod waterline_card;

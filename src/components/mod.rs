//! One component per file, named after it.

pub mod action_card;
pub mod app;
pub mod bill_report;
pub mod breakeven_card;
pub mod budget_card;
pub mod burst_card;
pub mod card_body;
pub mod cell;
pub mod chart_canvas;
pub mod column_heads;
pub mod effective_cost_card;
pub mod figure;
pub mod fleet_card;
pub mod growth_card;
pub mod growth_field;
pub mod headline_card;
pub mod hidden_costs_card;
pub mod how_computed;
pub mod input_field;
pub mod input_fields;
pub mod link_notice;
pub mod note;
pub mod own_hardware_card;
pub mod parse_report;
pub mod planner;
pub mod pools_card;
pub mod prices_panel;
pub mod query_writer;
pub mod read_check;
pub mod review_card;
pub mod rows;
pub mod section_index;
pub mod share_panel;
pub mod sizing_card;
pub mod slider_field;
pub mod spot_card;
pub mod sticky_bar;
pub mod teams_card;
pub mod terms_card;
pub mod text_field;
pub mod type_bar;
pub mod update_notice;
pub mod usage_panel;
pub mod value;
pub mod waterline_card;
pub mod what_if;
pub mod when;

use leptos::prelude::{Get, Signal};

use crate::i18n::{pick, Lang};

/// A bilingual text that follows the page language: `{bilingual(lang, "Usage", "用量")}`.
/// Every call site shares this one closure type, so the view code that renders it is
/// generated once; a `move || pick(lang.get(), …)` at each site is a type (and a copy of that
/// code) per site.
pub fn bilingual(
    lang: Signal<Lang>,
    en: &'static str,
    zh: &'static str,
) -> impl Fn() -> &'static str + Clone + Send + Sync + 'static {
    move || pick(lang.get(), en, zh)
}

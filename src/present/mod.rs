//! What the cards say, as pure functions of (language, currency, outputs): every sentence,
//! figure and formula of a card as text, natively tested. A card computes its presentation
//! in one memo and its view places the parts, each part read by its own closure, so a change
//! touches only the text and attributes that changed. No leptos or browser imports here.

pub mod action;
pub mod bill_read;
pub mod breakeven;
pub mod budget;
pub mod burst;
pub mod effective;
pub mod fleet;
pub mod growth;
pub mod headline;
pub mod hidden;
pub mod own_hardware;
pub mod pools;
pub mod prom_read;
pub mod query_form;
pub mod read_check;
pub mod review;
pub mod sizing;
pub mod slurm_read;
pub mod spot;
pub mod teams;
pub mod terms;
pub mod waterline;

/// One line a source adds to the parse report (Prometheus, Slurm): its term, its text, a
/// stable test id, a `data-value` for the tests, and whether it is shown as a warning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportLine {
    pub testid: &'static str,
    pub term: &'static str,
    pub text: String,
    pub value: String,
    pub warn: bool,
}

use crate::core::error::InputError;
use crate::core::plan::PlanOutputs;
use crate::i18n::error_message;
use crate::state::{AppState, Lang, UsageMode};

/// What every card says, computed at once (one memo in the page: the reactive machinery of a
/// memo is generated once, not once per card; each card reads its own field).
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub headline: Presented<headline::HeadlineView>,
    pub effective: Presented<effective::EffectiveView>,
    pub waterline: Presented<waterline::WaterlineView>,
    pub sizing: Presented<sizing::SizingView>,
    pub spot: Presented<spot::SpotView>,
    pub spot_no_checkpoint: Presented<spot::NoCheckpointView>,
    pub pools: Presented<pools::PoolsView>,
    pub breakeven: Presented<breakeven::BreakevenView>,
    pub budget: Presented<budget::BudgetView>,
    pub burst: Presented<burst::BurstView>,
    pub hidden: Presented<hidden::HiddenView>,
    pub own_hardware: Presented<own_hardware::OwnHardwareView>,
    pub review: Presented<review::ReviewView>,
    pub terms: Presented<terms::TermsView>,
    /// § 22 growth over the horizon, the ladder, the risks.
    pub growth: Presented<growth::GrowthView>,
    /// § 16 the fleet table (an empty message for one GPU type: the card is not shown).
    pub fleet: Presented<fleet::FleetView>,
    /// §§ 17–18 "Put it into practice": the configuration snippets and the elastic region.
    pub action: Presented<action::ActionView>,
}

/// The fleet's plan as the page holds it: `None` for one GPU type.
pub type FleetResult =
    Option<Result<crate::core::fleet_plan::FleetPlan, crate::core::fleet_plan::FleetError>>;

/// Every card's presentation for a state and its outputs (the selected type's, in a fleet).
/// `from_history`: a usable history was read (else the sliders stand in for it). With a
/// fleet, the headline speaks for the fleet.
pub fn page(s: &AppState, o: &PlanOutputs, fleet: &FleetResult, from_history: bool) -> Page {
    let (l, cur, i) = (s.lang, s.currency.symbol(), &s.inputs);
    let (p, r) = (i.monthly_price, i.on_demand_price);
    let names: Vec<String> = s.fleet.types.iter().map(|t| t.name.clone()).collect();
    Page {
        headline: headline(s, o, fleet, from_history),
        effective: effective::present(l, cur, &o.effective_cost, p, r, from_history),
        waterline: waterline::present(l, &o.waterline, i.day_start_hour, i.day_end_hour),
        sizing: sizing::present(l, cur, &o.sizing, &o.commitment, &o.recent_drop_guard, p, r),
        spot: spot::present(l, cur, &o.spot, i),
        spot_no_checkpoint: spot::present_no_checkpoint(l, cur, &o.spot_no_checkpoint, i),
        pools: pools::present(l, cur, &o.pools, p, r),
        breakeven: breakeven::present(l, &o.breakeven, p, r),
        budget: budget::present(l, cur, &o.budget, &o.budget_implied, i),
        burst: burst::present(l, cur, &o.burst, i),
        hidden: hidden::present(
            l,
            cur,
            &o.hidden,
            o.pools.as_ref().ok().map(|p| p.elastic_gpu_hours),
            i,
        ),
        own_hardware: own_hardware::present(l, cur, &o.own_hardware, i),
        review: review::present(
            l,
            cur,
            &o.review,
            i.review_utilization_threshold_percent,
            i.review_queue_limit_hours,
        ),
        terms: terms::present(l, cur, &o.terms, i.hours_per_month),
        growth: match &o.growth {
            Some(g) => growth::present(l, cur, g),
            None => Err(String::new()),
        },
        fleet: match fleet {
            Some(f) => fleet::present(l, cur, f, &names),
            None => Err(String::new()),
        },
        action: match fleet {
            Some(Ok(plan)) => action::present(
                l,
                cur,
                i,
                o,
                Some(action::FleetScope {
                    plan,
                    selected: s.fleet.selected,
                }),
            ),
            Some(Err(e)) => Err(fleet::failed(l, e, &names)),
            None => action::present(l, cur, i, o, None),
        },
    }
}

/// The headline card: the fleet's plan in a fleet, else the selected type's (the first-stage
/// module shows it alone, `pipeline::headline_for_query`).
pub fn headline(
    s: &AppState,
    o: &PlanOutputs,
    fleet: &FleetResult,
    from_history: bool,
) -> Presented<headline::HeadlineView> {
    let (l, cur) = (s.lang, s.currency.symbol());
    match fleet {
        Some(Ok(f)) => headline::present_fleet(l, cur, f),
        Some(Err(e)) => {
            let names: Vec<String> = s.fleet.types.iter().map(|t| t.name.clone()).collect();
            Err(fleet::failed(l, e, &names))
        }
        None => headline::present(
            l,
            cur,
            &o.baseline,
            &o.pools,
            &o.sizing,
            s.mode == UsageMode::Data,
            from_history,
        ),
    }
}

/// A card's presentation, or the message of the input error that stops it.
pub type Presented<T> = Result<T, String>;

/// The message a card shows instead of its figures.
pub fn failed<T>(lang: Lang, err: &InputError) -> Presented<T> {
    Err(error_message(lang, err))
}

/// A figure as shown: its text and its machine value (`data-value`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Shown {
    pub text: String,
    pub value: String,
}

impl Shown {
    pub fn new(text: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            value: value.into(),
        }
    }
}

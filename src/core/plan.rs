//! One entry point for the page: all inputs in, every result out.
//!
//! Two steps so the page can memoise the expensive one:
//! 1. [`profile`](super::profile::profile)`(&series, &inputs.profile_settings())` — O(T log T),
//!    only when the history, the lookback or the day band change;
//! 2. [`plan_with_history`]`(&inputs, Some(&profile))` — O(peak + months × peak), on every
//!    input change. [`plan`]`(&inputs)` is step 2 without a history (sliders).
//!
//! Each section is its own `Result`, so one bad field blanks only the sections that use it.
//! Without a history, the history sections run on the on/off profile of the sliders
//! (G GPUs busy h hours a month); the recent-drop guard is then `Ok(None)` and the review
//! uses typed-in months only (`Ok(None)` when there are none).

use super::breakeven::{break_even, BreakEven, DEFAULT_HOURS_PER_MONTH};
use super::budget::{budget_split, implied_split, BudgetSplit, ImpliedSplit, DEFAULT_SHARES};
use super::burst::{burst, BillingIncrement, Burst, BurstInputs};
use super::commitment::{commitment, load_duration, Commitment, LoadDuration};
use super::effective::{effective_cost, EffectiveCost};
use super::error::{Field, InputError, Problem};
use super::growth::{growth_plan, GrowthInputs, GrowthPlan};
use super::hidden::{hidden_costs, HiddenCosts, HiddenInputs};
use super::own_hw::{own_hardware, OwnHardware, OwnHardwareInputs};
use super::pools::{three_pools, ThreePools};
use super::prices::{spot_price, Prices};
use super::profile::{HistoryProfile, Lookback, ProfileSettings, ProfileSource, MAX_GPUS};
use super::review::{review_history, review_typed, Review, ReviewMonthInput, ReviewThresholds};
use super::sizing::{
    level_rule_n, recent_drop_guard, sizing_table, RecentDropGuard, SizingRule, SizingTable,
};
use super::spot::{no_checkpoint_run, spot_effective, NoCheckpointRun, SpotEffective, SpotInputs};
use super::terms::{
    drop_level, terms, Payment, Term, TermInputs, TermOffer, Terms, DEFAULT_HORIZON_MONTHS,
};
use super::waterline::{quantile_fraction, waterline, Waterline, DEFAULT_QUANTILE_PERCENT};

/// Which N the plan commits to (pools, implied budget split, review).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BaselineRule {
    Average,
    Waterline,
    CostOptimal,
    /// min(N* of the last 3 days, N* of the last 30 days); N* without a history. The default:
    /// the spec recommends the lower of the two (as Azure does), both shown.
    #[default]
    Guarded,
    Peak,
    /// `PlanInputs::custom_baseline_gpus`.
    Custom,
}

impl BaselineRule {
    pub fn key(self) -> &'static str {
        match self {
            BaselineRule::Average => "average",
            BaselineRule::Waterline => "waterline",
            BaselineRule::CostOptimal => "cost-optimal",
            BaselineRule::Guarded => "guarded",
            BaselineRule::Peak => "peak",
            BaselineRule::Custom => "custom",
        }
    }
}

/// Every input of the planner (the URL carries these). Money in currency units, durations
/// in hours, shares and quantiles in percent.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanInputs {
    /// P: monthly price per GPU. Default 9000.
    pub monthly_price: f64,
    /// r: on-demand price per GPU-hour. Default 25.
    pub on_demand_price: f64,
    /// H: hours in a month (720, 730 or 744). Default 730.
    pub hours_per_month: f64,
    /// s: spot price per GPU-hour. Default 8.
    pub spot_price: f64,
    /// Slider G: GPUs (used without a history, and for the fleet figures of § 2). Default 4.
    pub gpus: u32,
    /// Slider h: hours used per GPU per month, 0..=H. Default 200.
    pub used_hours: f64,
    /// Lookback for sizing. Default 30 days.
    pub lookback: Lookback,
    /// Weekday day band start, local hour 0–23. Default 8.
    pub day_start_hour: u32,
    /// Weekday day band end (exclusive), local hour 1–24. Default 20.
    pub day_end_hour: u32,
    /// q: waterline quantile, percent 0..=50 (0 = strict minimum). Default 5.
    pub quantile_percent: f64,
    /// The N the plan commits to. Default: the recent-drop guard, min(N* of 3 days, N* of 30 days).
    pub baseline_rule: BaselineRule,
    /// N when `baseline_rule` is `Custom`. Default 0.
    pub custom_baseline_gpus: u32,
    /// λ: spot reclaims per hour. Default 0.02 (one per 50 h).
    pub interruption_rate: f64,
    /// δ: hours to save a checkpoint. Default 0.05 (3 min).
    pub checkpoint_save_hours: f64,
    /// R: hours to restart after a reclaim. Default 0.25 (15 min).
    pub restart_hours: f64,
    /// τ: hours between checkpoints; `None` = Young's √(2δ/λ). Default `None`.
    pub checkpoint_interval_hours: Option<f64>,
    /// J: job length for the no-checkpoint estimate, hours. Default 8.
    pub job_hours: f64,
    /// f: share of elastic GPU-hours that may run on spot, percent. Default 50.
    pub interruptible_percent: f64,
    /// B: monthly budget. Default 100 000.
    pub budget: f64,
    /// Budget shares, percent, must sum to 100. Defaults 60 / 25 / 15.
    pub budget_fixed_percent: f64,
    pub budget_elastic_percent: f64,
    pub budget_spot_percent: f64,
    /// Burst: J jobs (36), g GPUs per job (4), d hours per job (4), F fixed GPUs free (6),
    /// E elastic GPUs at most (48), billing increment (minute). The seed-001 LoRA example.
    pub burst_jobs: u32,
    pub burst_gpus_per_job: u32,
    pub burst_job_hours: f64,
    pub burst_fixed_gpus: u32,
    pub burst_elastic_gpus: u32,
    pub billing_increment: BillingIncrement,
    /// Own hardware per GPU: purchase 100 000, 36 months, 0.4 kW, PUE 1.5, 0.8 per kWh,
    /// colo & ops 500 per month.
    pub own_purchase: f64,
    pub own_depreciation_months: f64,
    pub own_power_kw: f64,
    pub own_pue: f64,
    pub own_electricity_price: f64,
    pub own_colo_ops_monthly: f64,
    /// Hidden elastic costs per month: storage 200, public IP 20, snapshots 50,
    /// egress 0.8 per GB × 100 GB, 60 sessions × 0.5 h idle before auto-stop.
    pub hidden_storage_monthly: f64,
    pub hidden_public_ip_monthly: f64,
    pub hidden_snapshots_monthly: f64,
    pub hidden_egress_per_gb: f64,
    pub hidden_egress_gb: f64,
    pub hidden_sessions: f64,
    pub hidden_idle_timeout_hours: f64,
    /// Review: low-utilization threshold (percent, default 60) and queue limit (hours, default 2).
    pub review_utilization_threshold_percent: f64,
    pub review_queue_limit_hours: f64,
    /// Months typed in; when non-empty they replace the history's calendar months. Default empty.
    pub review_months: Vec<ReviewMonthInput>,
    /// § 15 terms per GPU: one year and three years, the upfront and the monthly recurring
    /// amount (both 0: not offered; default: not offered).
    pub term_1y_upfront: f64,
    pub term_1y_monthly: f64,
    pub term_3y_upfront: f64,
    pub term_3y_monthly: f64,
    /// Months the team is confident the workload lasts. Default 12.
    pub horizon_months: u32,
    /// Months left on a current commitment (new terms start after them). Default 0.
    pub months_left: u32,
    /// § 22 growth per month in percent (`None`: automatic, the fitted trend), the projected
    /// waterline at the horizon's end (0: not given), the decline per month of the risk
    /// scenario and the ladder's cap as a share of the projected waterline (percent).
    pub growth_percent: Option<f64>,
    pub growth_end_level: f64,
    pub growth_decline_percent: f64,
    pub ladder_cap_percent: f64,
    /// § 17 a second region for the elastic and spot pools: on-demand and spot prices per
    /// GPU-hour (0: none), GB moved per elastic GPU-hour, transfer price per GB. Default 0.
    pub alt_on_demand_price: f64,
    pub alt_spot_price: f64,
    pub data_gb_per_gpu_hour: f64,
    pub transfer_price_per_gb: f64,
    /// § 17 / § 18 free text (cleaned, ≤ 200 characters; empty: the snippets' placeholders):
    /// the region note, the Prometheus address, the queue metric and the KEDA target.
    pub region_note: String,
    pub prometheus_address: String,
    pub queue_metric: String,
    pub target_name: String,
    /// § 21 how the idle committed cost is shared among the teams. Default proportional.
    pub idle_split: super::idle_split::IdleSplit,
    /// § 21 the fixed percentages per team for [`super::idle_split::IdleSplit::Fixed`], as typed
    /// (`A=50, B=30, C=20`; [`super::teams::parse_fixed`]). Default empty.
    pub team_shares: String,
}

impl Default for PlanInputs {
    fn default() -> Self {
        Self {
            monthly_price: 9000.0,
            on_demand_price: 25.0,
            hours_per_month: DEFAULT_HOURS_PER_MONTH,
            spot_price: 8.0,
            gpus: 4,
            used_hours: 200.0,
            lookback: Lookback::Days(30),
            day_start_hour: 8,
            day_end_hour: 20,
            quantile_percent: DEFAULT_QUANTILE_PERCENT,
            baseline_rule: BaselineRule::Guarded,
            custom_baseline_gpus: 0,
            interruption_rate: 0.02,
            checkpoint_save_hours: 0.05,
            restart_hours: 0.25,
            checkpoint_interval_hours: None,
            job_hours: 8.0,
            interruptible_percent: 50.0,
            budget: 100_000.0,
            budget_fixed_percent: DEFAULT_SHARES[0],
            budget_elastic_percent: DEFAULT_SHARES[1],
            budget_spot_percent: DEFAULT_SHARES[2],
            burst_jobs: 36,
            burst_gpus_per_job: 4,
            burst_job_hours: 4.0,
            burst_fixed_gpus: 6,
            burst_elastic_gpus: 48,
            billing_increment: BillingIncrement::Minute,
            own_purchase: 100_000.0,
            own_depreciation_months: 36.0,
            own_power_kw: 0.4,
            own_pue: 1.5,
            own_electricity_price: 0.8,
            own_colo_ops_monthly: 500.0,
            hidden_storage_monthly: 200.0,
            hidden_public_ip_monthly: 20.0,
            hidden_snapshots_monthly: 50.0,
            hidden_egress_per_gb: 0.8,
            hidden_egress_gb: 100.0,
            hidden_sessions: 60.0,
            hidden_idle_timeout_hours: 0.5,
            review_utilization_threshold_percent: 60.0,
            review_queue_limit_hours: 2.0,
            review_months: Vec::new(),
            term_1y_upfront: 0.0,
            term_1y_monthly: 0.0,
            term_3y_upfront: 0.0,
            term_3y_monthly: 0.0,
            horizon_months: DEFAULT_HORIZON_MONTHS,
            months_left: 0,
            growth_percent: None,
            growth_end_level: 0.0,
            growth_decline_percent: crate::core::growth::DEFAULT_DECLINE_PERCENT,
            ladder_cap_percent: crate::core::growth::DEFAULT_CAP_PERCENT,
            alt_on_demand_price: 0.0,
            alt_spot_price: 0.0,
            data_gb_per_gpu_hour: 0.0,
            transfer_price_per_gb: 0.0,
            region_note: String::new(),
            prometheus_address: String::new(),
            queue_metric: String::new(),
            target_name: String::new(),
            idle_split: super::idle_split::IdleSplit::Proportional,
            team_shares: String::new(),
        }
    }
}

impl PlanInputs {
    /// The settings the history profile depends on (memoise `profile` on these + the series).
    pub fn profile_settings(&self) -> ProfileSettings {
        ProfileSettings {
            lookback: self.lookback,
            day_start_hour: self.day_start_hour,
            day_end_hour: self.day_end_hour,
        }
    }

    /// The § 15 offers and horizon.
    pub fn term_inputs(&self) -> TermInputs {
        TermInputs {
            one_year: TermOffer {
                upfront: self.term_1y_upfront,
                monthly: self.term_1y_monthly,
            },
            three_year: TermOffer {
                upfront: self.term_3y_upfront,
                monthly: self.term_3y_monthly,
            },
            horizon_months: self.horizon_months,
            months_left: self.months_left,
        }
    }

    /// The § 22 inputs.
    pub fn growth_inputs(&self) -> GrowthInputs {
        GrowthInputs {
            growth_percent: self.growth_percent,
            end_level: self.growth_end_level,
            decline_percent: self.growth_decline_percent,
            cap_percent: self.ladder_cap_percent,
        }
    }

    fn spot_inputs(&self) -> SpotInputs {
        SpotInputs {
            price: self.spot_price,
            interruption_rate: self.interruption_rate,
            checkpoint_save_hours: self.checkpoint_save_hours,
            restart_hours: self.restart_hours,
            checkpoint_interval_hours: self.checkpoint_interval_hours,
        }
    }
}

/// What the sizing looked at.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryInfo {
    pub source: ProfileSource,
    /// Lookback asked for (meaningless for sliders).
    pub lookback: Lookback,
    /// T: hours in the lookback window (H for sliders).
    pub window_hours: f64,
    /// Hours in the whole series (0 for sliders).
    pub series_hours: usize,
    /// The lookback asked for more than the history holds; all of it was used.
    pub lookback_exceeds_history: bool,
}

/// The N the plan commits to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Baseline {
    pub rule: BaselineRule,
    /// N: GPUs committed (for `term`).
    pub gpus: u32,
    /// The term they are bought on: monthly, or the 1- or 3-year term § 15 recommends.
    pub term: Term,
    /// The payment of that term.
    pub payment: Payment,
}

/// Every result the page shows. Each part fails on its own, naming the field at fault.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanOutputs {
    /// § 1 break-even.
    pub breakeven: Result<BreakEven, InputError>,
    /// What the history sections were computed on.
    pub history: Result<HistoryInfo, InputError>,
    /// § 2 effective idle-adjusted cost: from the sliders G and h without a history; with one,
    /// from the committed N and the hours each committed GPU actually worked.
    pub effective_cost: Result<EffectiveCost, InputError>,
    /// § 3 load-duration curve.
    pub load_duration: Result<LoadDuration, InputError>,
    /// § 4 cost of committing N, and N*.
    pub commitment: Result<Commitment, InputError>,
    /// § 5 minimum stable waterline.
    pub waterline: Result<Waterline, InputError>,
    /// § 6 sizing rules side by side.
    pub sizing: Result<SizingTable, InputError>,
    /// § 7 recent-drop guard (`Ok(None)` without a history).
    pub recent_drop_guard: Result<Option<RecentDropGuard>, InputError>,
    /// The N used by §§ 9, 10 (reverse) and 14.
    pub baseline: Result<Baseline, InputError>,
    /// § 8 spot with checkpoints.
    pub spot: Result<SpotEffective, InputError>,
    /// § 8 spot without checkpoints.
    pub spot_no_checkpoint: Result<NoCheckpointRun, InputError>,
    /// § 9 three pools at the baseline N.
    pub pools: Result<ThreePools, InputError>,
    /// § 10 what the budget buys.
    pub budget: Result<BudgetSplit, InputError>,
    /// § 10 reverse: the split the plan (§ 9) implies.
    pub budget_implied: Result<ImpliedSplit, InputError>,
    /// § 11 burst what-if.
    pub burst: Result<Burst, InputError>,
    /// § 12 own hardware.
    pub own_hardware: Result<OwnHardware, InputError>,
    /// § 13 hidden costs (per elastic GPU-hour of § 9).
    pub hidden: Result<HiddenCosts, InputError>,
    /// § 14 monthly review (`Ok(None)` without a history and without typed months).
    pub review: Result<Option<Review>, InputError>,
    /// § 15 commitment terms: which to buy, when it pays back, what it risks.
    pub terms: Result<Terms, InputError>,
    /// § 22 the plan over the horizon with growth, the ladder and the risks ([`plan_growth`]);
    /// `None` where nothing shows it (the first stage, a fleet's other types).
    pub growth: Option<Result<GrowthPlan, InputError>>,
}

/// Plan without a history (the sliders stand in for it).
pub fn plan(inputs: &PlanInputs) -> PlanOutputs {
    plan_with_history(inputs, None)
}

fn baseline_n(
    inputs: &PlanInputs,
    prof: &HistoryProfile,
    prices: &Prices,
    wl: &Result<Waterline, InputError>,
) -> Result<u32, InputError> {
    let lv = &prof.window;
    // Only the waterline rule needs § 5 (and fails with it).
    let rule = |r: SizingRule| -> Result<u32, InputError> {
        match level_rule_n(lv, prices, r) {
            Some(n) => Ok(n),
            None => Ok(wl.as_ref().map_err(Clone::clone)?.buy),
        }
    };
    match inputs.baseline_rule {
        BaselineRule::Average => rule(SizingRule::Average),
        BaselineRule::Waterline => rule(SizingRule::Waterline),
        BaselineRule::CostOptimal => rule(SizingRule::CostOptimal),
        BaselineRule::Peak => rule(SizingRule::Peak),
        BaselineRule::Guarded => match recent_drop_guard(prof, prices) {
            Some(g) => Ok(g.recommended),
            None => rule(SizingRule::CostOptimal),
        },
        BaselineRule::Custom => {
            if inputs.custom_baseline_gpus as f64 > MAX_GPUS {
                Err(InputError::new(
                    Field::FixedGpus,
                    Problem::TooLarge { max: MAX_GPUS },
                ))
            } else {
                Ok(inputs.custom_baseline_gpus)
            }
        }
    }
}

/// The history's profile, or without one the sliders' on/off profile standing in for it (which
/// needs valid prices: their month length).
fn profile_or_sliders<'a>(
    inputs: &PlanInputs,
    history: Option<&'a HistoryProfile>,
    prices: &Result<Prices, InputError>,
) -> Result<std::borrow::Cow<'a, HistoryProfile>, InputError> {
    match (history, prices) {
        (Some(h), _) => Ok(std::borrow::Cow::Borrowed(h)),
        (None, Ok(p)) => {
            HistoryProfile::from_sliders(inputs.gpus, inputs.used_hours, p.hours_per_month)
                .map(std::borrow::Cow::Owned)
        }
        (None, Err(e)) => Err(e.clone()),
    }
}

/// § 22 for the plan's inputs and history (the sliders' on/off profile without one), scaling
/// the § 5 waterline of `outputs`. Apart from [`plan_with_history`]: only the growth card reads
/// it, so the first stage and a fleet's other types never run it (nor carry its code).
pub fn plan_growth(
    inputs: &PlanInputs,
    history: Option<&HistoryProfile>,
    outputs: &PlanOutputs,
) -> Result<GrowthPlan, InputError> {
    let prices = Prices::new(
        inputs.monthly_price,
        inputs.on_demand_price,
        inputs.hours_per_month,
    );
    let p = prices.clone()?;
    let w = outputs.waterline.as_ref().map_err(Clone::clone)?;
    let h = profile_or_sliders(inputs, history, &prices)?;
    growth_plan(
        &h,
        &p,
        &inputs.term_inputs(),
        w.overall,
        w.quantile,
        &inputs.growth_inputs(),
    )
}

/// Plan with an optional history profile built by [`super::profile::profile`].
pub fn plan_with_history(inputs: &PlanInputs, history: Option<&HistoryProfile>) -> PlanOutputs {
    let breakeven = break_even(
        inputs.monthly_price,
        inputs.on_demand_price,
        inputs.hours_per_month,
    );
    let prices = Prices::new(
        inputs.monthly_price,
        inputs.on_demand_price,
        inputs.hours_per_month,
    );

    // The profile: the history's, or the sliders' on/off profile.
    let profile = profile_or_sliders(inputs, history, &prices);
    let prof: Result<&HistoryProfile, InputError> = profile.as_deref().map_err(Clone::clone);
    let both = match (&prices, &prof) {
        (Ok(p), Ok(h)) => Ok((p, *h)),
        (Err(e), _) | (_, Err(e)) => Err(e.clone()),
    };

    let history_info = prof.clone().map(|h| HistoryInfo {
        source: h.source,
        lookback: h.settings.lookback,
        window_hours: h.window.hours(),
        series_hours: h.series_hours,
        lookback_exceeds_history: h.lookback_exceeds_history,
    });
    let load = both.clone().map(|(p, h)| load_duration(&h.window, p));
    let commit = both.clone().map(|(p, h)| commitment(&h.window, p));
    let wl = prof
        .clone()
        .and_then(|h| waterline(h, inputs.quantile_percent));
    let sizing = both
        .clone()
        .and_then(|(p, h)| Ok(sizing_table(h, p, wl.as_ref().map_err(Clone::clone)?)));
    let guard = both.clone().map(|(p, h)| recent_drop_guard(h, p));
    // § 15: the plan's rule at each term's effective price; the drop level is the 3-day
    // waterline at the waterline quantile.
    let term_table = both.clone().and_then(|(p, h)| {
        let recent = match &h.guard {
            Some((recent, _)) => Some(drop_level(
                recent,
                quantile_fraction(inputs.quantile_percent)?,
            )),
            None => None,
        };
        let rule = |at: &Prices| baseline_n(inputs, h, at, &wl);
        terms(&h.window, p, &inputs.term_inputs(), &rule, recent)
    });

    // The plan buys the recommended term when it is a 1- or 3-year one (else monthly, as
    // the rule says): N and the fixed price of §§ 9, 10 (reverse) and 14 are that term's.
    let plan_term = term_table
        .as_ref()
        .ok()
        .map(Terms::recommended)
        .filter(|r| matches!(r.term, Term::OneYear | Term::ThreeYear));
    let plan_prices = match (plan_term, &prices) {
        (Some(r), Ok(p)) => Prices::new(r.effective_price, p.on_demand, p.hours_per_month),
        _ => prices.clone(),
    };
    let baseline = both.clone().and_then(|(p, h)| {
        let (gpus, term, payment) = match plan_term {
            Some(r) => (r.gpus, r.term, r.payment),
            None => (
                baseline_n(inputs, h, p, &wl)?,
                Term::Monthly,
                Payment::NoUpfront,
            ),
        };
        Ok(Baseline {
            rule: inputs.baseline_rule,
            gpus,
            term,
            payment,
        })
    });

    // § 2 with a history: the committed GPUs (at least one) and the hours each actually
    // worked per month, Σ min(u_t, G) / G × H / T; without one: the sliders G and h.
    let effective = match (history, &both, &baseline) {
        (Some(_), Ok((p, h)), Ok(b)) => {
            let g = b.gpus.max(1);
            let hours = h.window.hours();
            let used = if hours > 0.0 {
                (h.window.covered(g) / f64::from(g) * p.hours_per_month / hours)
                    .clamp(0.0, p.hours_per_month)
            } else {
                0.0
            };
            effective_cost(p, used, g)
        }
        (Some(_), Err(e), _) | (Some(_), _, Err(e)) => Err(e.clone()),
        (None, _, _) => prices
            .clone()
            .and_then(|p| effective_cost(&p, inputs.used_hours, inputs.gpus)),
    };

    let spot_in = inputs.spot_inputs();
    let spot = prices
        .clone()
        .and_then(|p| spot_effective(&spot_in, p.on_demand));
    let no_ckpt = prices
        .clone()
        .and_then(|p| no_checkpoint_run(&spot_in, p.on_demand, inputs.job_hours));
    let pools = both.clone().and_then(|(_, h)| {
        let p = plan_prices.as_ref().map_err(Clone::clone)?;
        let n = baseline.clone()?.gpus;
        let s = spot.clone()?;
        three_pools(
            &h.window,
            p,
            n,
            inputs.interruptible_percent,
            s.effective_price,
        )
    });
    let shares = [
        inputs.budget_fixed_percent,
        inputs.budget_elastic_percent,
        inputs.budget_spot_percent,
    ];
    let budget = prices.clone().and_then(|p| {
        let s = spot_price(inputs.spot_price)?;
        budget_split(
            inputs.budget,
            shares,
            &p,
            s,
            spot.as_ref().ok().map(|x| x.effective_price),
        )
    });
    let budget_implied = pools
        .clone()
        .map(|t| implied_split(t.reserved, t.on_demand, t.spot));
    let burst_res = prices.clone().and_then(|p| {
        burst(
            &BurstInputs {
                jobs: inputs.burst_jobs,
                gpus_per_job: inputs.burst_gpus_per_job,
                job_hours: inputs.burst_job_hours,
                fixed_gpus: inputs.burst_fixed_gpus,
                elastic_gpus: inputs.burst_elastic_gpus,
                increment: inputs.billing_increment,
            },
            p.on_demand,
        )
    });
    let own = prices.clone().and_then(|p| {
        own_hardware(
            &OwnHardwareInputs {
                purchase: inputs.own_purchase,
                depreciation_months: inputs.own_depreciation_months,
                power_kw: inputs.own_power_kw,
                pue: inputs.own_pue,
                electricity_price: inputs.own_electricity_price,
                colo_ops_monthly: inputs.own_colo_ops_monthly,
            },
            &p,
        )
    });
    let hidden = prices.clone().and_then(|p| {
        let elastic_hours = pools.as_ref().map(|t| t.elastic_gpu_hours).unwrap_or(0.0);
        hidden_costs(
            &HiddenInputs {
                storage_monthly: inputs.hidden_storage_monthly,
                public_ip_monthly: inputs.hidden_public_ip_monthly,
                snapshots_monthly: inputs.hidden_snapshots_monthly,
                egress_per_gb: inputs.hidden_egress_per_gb,
                egress_gb: inputs.hidden_egress_gb,
                sessions: inputs.hidden_sessions,
                idle_timeout_hours: inputs.hidden_idle_timeout_hours,
            },
            p.on_demand,
            elastic_hours,
        )
    });
    let thresholds = ReviewThresholds {
        utilization_percent: inputs.review_utilization_threshold_percent,
        queue_limit_hours: inputs.review_queue_limit_hours,
    };
    let review = both.clone().and_then(|(_, h)| {
        let p = plan_prices.as_ref().map_err(Clone::clone)?;
        let n = baseline.clone()?.gpus;
        if !inputs.review_months.is_empty() {
            review_typed(&inputs.review_months, n, &thresholds).map(Some)
        } else if h.months.is_empty() {
            Ok(None)
        } else {
            review_history(&h.months, p, n, &thresholds).map(Some)
        }
    });

    PlanOutputs {
        terms: term_table,
        growth: None,
        breakeven,
        history: history_info,
        effective_cost: effective,
        load_duration: load,
        commitment: commit,
        waterline: wl,
        sizing,
        recent_drop_guard: guard,
        baseline,
        spot,
        spot_no_checkpoint: no_ckpt,
        pools,
        budget,
        budget_implied,
        burst: burst_res,
        own_hardware: own,
        hidden,
        review,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::profile::profile;

    /// 28 hours at 2 GPUs, then 20 hours at 6 (T = 48 h, no timestamps).
    fn two_level_history() -> HistoryProfile {
        let mut v = vec![2.0; 28];
        v.extend(vec![6.0; 20]);
        let series = crate::core::series::UsageSeries::from_values(v);
        let inputs = PlanInputs {
            lookback: Lookback::All,
            ..PlanInputs::default()
        };
        profile(&series, &inputs.profile_settings()).unwrap()
    }

    #[test]
    fn effective_cost_with_a_history_uses_the_committed_gpus_hours() {
        let prof = two_level_history();
        // N* = 2 (levels 3..6 busy 20 h of 48 → 304.2 h/month < 360). The two committed GPUs
        // are busy all 48 h: Σ min(u, 2) = 96 → 96 / 2 × 730 / 48 = 730 h each.
        let out = plan_with_history(&PlanInputs::default(), Some(&prof));
        let ec = out.effective_cost.unwrap();
        assert_eq!(ec.gpus, 2);
        assert!((ec.used_hours - 730.0).abs() < 1e-9);
        assert_eq!(ec.cost_per_used_hour.unwrap().to_plain_string(), "12.33"); // 9000 / 730
        assert_eq!(ec.idle_money.to_plain_string(), "0.00");

        // Commit 3: Σ min(u, 3) = 28·2 + 20·3 = 116 → 116 / 3 × 730 / 48 = 588.06 h each;
        // 9000 / 588.0556 = 15.30 per used hour; idle 141.94 h → 9000 × 141.94 / 730 = 1750.00.
        let custom = PlanInputs {
            baseline_rule: BaselineRule::Custom,
            custom_baseline_gpus: 3,
            ..PlanInputs::default()
        };
        let ec = plan_with_history(&custom, Some(&prof))
            .effective_cost
            .unwrap();
        assert_eq!(ec.gpus, 3);
        assert_eq!(format!("{:.2}", ec.used_hours), "588.06");
        assert_eq!(ec.cost_per_used_hour.unwrap().to_plain_string(), "15.30");
        assert_eq!(ec.idle_money.to_plain_string(), "1750.00");

        // Commit 0 (custom): the figures are for one GPU, the busiest level: 48 h of 48 → 730 h.
        let none = PlanInputs {
            custom_baseline_gpus: 0,
            ..custom
        };
        let ec = plan_with_history(&none, Some(&prof))
            .effective_cost
            .unwrap();
        assert_eq!(ec.gpus, 1);
        assert!((ec.used_hours - 730.0).abs() < 1e-9);
    }

    #[test]
    fn effective_cost_without_a_history_uses_the_sliders() {
        let ec = plan(&PlanInputs::default()).effective_cost.unwrap();
        assert_eq!((ec.gpus, ec.used_hours), (4, 200.0));
        assert_eq!(ec.cost_per_used_hour.unwrap().to_plain_string(), "45.00");
    }

    #[test]
    fn defaults_give_360_hours() {
        let out = plan(&PlanInputs::default());
        assert_eq!(out.breakeven.unwrap().hours, 360.0);
    }

    #[test]
    fn defaults_compute_every_section() {
        // Sliders: 4 GPUs × 200 h < H* = 360 → N* = 0, all elastic: 800 GPU-h a month.
        // Pools at f = 50 %: 400 h on demand = 10 000.00; 400 useful spot hours at
        // 8·(1 + 0.05/√5 + 0.02(√5/2 + 0.25)) = 8·(1 + 0.0223607 + 0.0273607) = 8·1.0497214
        // = 8.3977709 per useful hour → 400 h = 3359.108… → 3359.11; total 13359.11.
        let out = plan(&PlanInputs::default());
        assert_eq!(out.history.as_ref().unwrap().source, ProfileSource::Sliders);
        assert_eq!(out.commitment.as_ref().unwrap().n_star, 0);
        assert_eq!(out.baseline.as_ref().unwrap().gpus, 0);
        let pools = out.pools.as_ref().unwrap();
        assert_eq!(pools.elastic_gpu_hours, 800.0);
        assert_eq!(pools.on_demand.to_plain_string(), "10000.00");
        assert_eq!(pools.spot.to_plain_string(), "3359.11");
        assert_eq!(pools.total.to_plain_string(), "13359.11");
        assert_eq!(out.budget_implied.as_ref().unwrap().total, pools.total);
        assert_eq!(out.budget.as_ref().unwrap().fixed_gpus, 6);
        assert_eq!(
            out.effective_cost
                .as_ref()
                .unwrap()
                .cost_per_used_hour
                .unwrap()
                .to_plain_string(),
            "45.00"
        );
        assert_eq!(out.burst.as_ref().unwrap().with_elastic.wall_hours, 12.0);
        assert_eq!(
            out.own_hardware.as_ref().unwrap().monthly.to_plain_string(),
            "3628.18"
        );
        assert_eq!(
            out.hidden.as_ref().unwrap().total.to_plain_string(),
            "1100.00"
        );
        assert_eq!(out.recent_drop_guard, Ok(None));
        assert_eq!(out.review, Ok(None));
        assert!(out.spot.is_ok() && out.spot_no_checkpoint.is_ok() && out.sizing.is_ok());
        assert!(out.waterline.is_ok() && out.load_duration.is_ok());
    }

    #[test]
    fn one_bad_field_blanks_only_its_sections() {
        let inputs = PlanInputs {
            budget_spot_percent: 10.0,
            ..PlanInputs::default()
        };
        let out = plan(&inputs);
        assert_eq!(out.budget.unwrap_err().field, Field::BudgetShare);
        assert!(out.pools.is_ok() && out.breakeven.is_ok() && out.sizing.is_ok());

        let inputs = PlanInputs {
            spot_price: -1.0,
            ..PlanInputs::default()
        };
        let out = plan(&inputs);
        assert_eq!(out.spot.unwrap_err().field, Field::SpotPrice);
        assert_eq!(out.pools.unwrap_err().field, Field::SpotPrice);
        assert_eq!(out.budget.unwrap_err().field, Field::SpotPrice);
        assert!(out.commitment.is_ok() && out.burst.is_ok());

        let inputs = PlanInputs {
            monthly_price: 0.0,
            ..PlanInputs::default()
        };
        let out = plan(&inputs);
        assert_eq!(out.commitment.unwrap_err().field, Field::MonthlyPrice);
        assert_eq!(out.burst.unwrap_err().field, Field::MonthlyPrice);

        let inputs = PlanInputs {
            used_hours: 1000.0,
            ..PlanInputs::default()
        };
        let out = plan(&inputs);
        assert_eq!(out.sizing.unwrap_err().field, Field::UsedHours);
        assert!(out.spot.is_ok() && out.own_hardware.is_ok());

        let inputs = PlanInputs {
            quantile_percent: 80.0,
            baseline_rule: BaselineRule::Waterline,
            ..Default::default()
        };
        let out = plan(&inputs);
        assert_eq!(out.baseline.unwrap_err().field, Field::Quantile);
        assert!(out.commitment.is_ok());
    }

    #[test]
    fn with_history_the_seed_table_drives_the_plan() {
        // Seed 000's table (waterline.rs test): weekday day 6/10, night 2/6, weekend 1/5, 28 days.
        // Waterline rule buys 1; review runs on the history's calendar month(s).
        let series = crate::core::waterline::tests::seed_table_series();
        let inputs = PlanInputs {
            baseline_rule: BaselineRule::Waterline,
            ..Default::default()
        };
        let prof = profile(&series, &inputs.profile_settings()).unwrap();
        let out = plan_with_history(&inputs, Some(&prof));
        let h = out.history.unwrap();
        assert_eq!(
            (h.source, h.window_hours, h.lookback_exceeds_history),
            (ProfileSource::History, 672.0, true)
        );
        assert_eq!(out.waterline.unwrap().buy, 1);
        assert_eq!(out.baseline.unwrap().gpus, 1);
        assert!(out.recent_drop_guard.unwrap().is_some());
        let review = out.review.unwrap().unwrap();
        assert_eq!(review.rows.len(), 1);
        assert_eq!(review.rows[0].label, "2024-01");
        // Level 1 is always busy (u ≥ 1): utilization 100 %.
        assert_eq!(review.rows[0].fixed_utilization, Some(1.0));
    }

    #[test]
    fn absurd_inputs_never_leak_nan() {
        let inputs = PlanInputs {
            monthly_price: f64::NAN,
            on_demand_price: f64::INFINITY,
            spot_price: 1e300,
            used_hours: -5.0,
            interruption_rate: f64::NAN,
            budget: -1.0,
            burst_job_hours: f64::NAN,
            own_pue: 0.0,
            hidden_egress_gb: f64::NEG_INFINITY,
            ..Default::default()
        };
        let out = plan(&inputs);
        assert!(out.breakeven.is_err() && out.commitment.is_err() && out.spot.is_err());
        assert!(
            out.budget.is_err()
                && out.burst.is_err()
                && out.own_hardware.is_err()
                && out.hidden.is_err()
        );
    }
}

//! § 16 on the page: the plan of a mixed fleet. Each GPU type is planned by the same engine
//! as a one-type page (`plan::plan_with_history` on its own inputs and history, done by the
//! caller so the selected type's run is shared with its cards); then the fixed share of the
//! budget is spent across the types (`fleet::allocate`, each type at most its rule's N) and
//! each type's three pools (§ 9) are costed at the N the budget buys.

use std::borrow::Cow;

use super::action::TypeBasis;
use super::commitment::monthly_cost;
use super::error::InputError;
use super::fleet::{allocate, FleetAllocation, FleetType};
use super::money::Money;
use super::plan::{PlanInputs, PlanOutputs};
use super::pools::three_pools;
use super::prices::Prices;
use super::profile::HistoryProfile;
use super::terms::{Payment, Term};

/// One type as the caller planned it.
#[derive(Debug, Clone, Copy)]
pub struct TypePlan<'a> {
    /// The type's name as shown.
    pub name: &'a str,
    /// The type's inputs (its prices and sliders; the rest is the fleet's).
    pub inputs: &'a PlanInputs,
    /// Its history; `None`: its sliders.
    pub history: Option<&'a HistoryProfile>,
    /// `plan_with_history(inputs, history)`.
    pub outputs: &'a PlanOutputs,
}

/// One row of the fleet table (money per month).
#[derive(Debug, Clone, PartialEq)]
pub struct FleetRow {
    pub name: String,
    /// § 5: whole GPUs under the minimum stable waterline.
    pub waterline: u32,
    /// N*_t at the price the type's plan buys at (§ 4).
    pub n_star: u32,
    /// N of the type's own plan (its sizing rule and term, as its cards show).
    pub rule_gpus: u32,
    /// What the plan buys them on.
    pub term: Term,
    pub payment: Payment,
    /// Fixed price per GPU-month: P_t, or the term's effective monthly price E_t.
    pub price: Money,
    /// N_t: what the fixed budget buys (≤ rule_gpus).
    pub committed: u32,
    /// N_t × price.
    pub fixed: Money,
    /// § 9 at N_t: the elastic GPU-hours on demand and on spot.
    pub on_demand: Money,
    pub spot: Money,
    /// fixed + on_demand + spot.
    pub total: Money,
    /// M_t(0): every GPU-hour of this type on demand.
    pub all_on_demand: Money,
    /// all_on_demand − total.
    pub saving: Money,
    /// Committed GPUs' busy share, 0..=1 (0 when N_t = 0).
    pub utilization: f64,
    /// What §§ 17–18 read at N_t (the pools at N_t): the page's configuration and region.
    pub action: Result<TypeBasis, InputError>,
}

/// The fleet's plan.
#[derive(Debug, Clone, PartialEq)]
pub struct FleetPlan {
    /// One row per type, in the order given.
    pub rows: Vec<FleetRow>,
    /// § 16: the fixed budget across the types.
    pub allocation: FleetAllocation,
    /// Σ of the rows.
    pub fixed: Money,
    pub on_demand: Money,
    pub spot: Money,
    pub total: Money,
    pub all_on_demand: Money,
    pub saving: Money,
}

/// A type whose plan failed, or the shared budget.
#[derive(Debug, Clone, PartialEq)]
pub struct FleetError {
    /// The type at fault; `None`: an input all types share (the budget).
    pub index: Option<usize>,
    pub error: InputError,
}

fn at(index: usize) -> impl Fn(InputError) -> FleetError {
    move |error| FleetError {
        index: Some(index),
        error,
    }
}

/// § 16 over the planned types. The fixed budget F is the budget card's fixed share (§ 10).
pub fn plan_fleet<'a>(types: &[TypePlan<'a>]) -> Result<FleetPlan, FleetError> {
    let shared = |error| FleetError { index: None, error };
    let first = types.first().ok_or_else(|| {
        shared(InputError::new(
            super::error::Field::UsageHistory,
            super::error::Problem::Empty,
        ))
    })?;
    let fixed_budget = first
        .outputs
        .budget
        .as_ref()
        .map_err(|e| shared(e.clone()))?
        .fixed;

    // Each type's levels, the price its plan buys at, and its rule's N.
    struct Planned<'a> {
        /// The type's history, or its sliders' profile (built here, cheap).
        levels: Cow<'a, HistoryProfile>,
        prices: Prices,
        rule: u32,
        term: Term,
        payment: Payment,
        spot_effective: f64,
    }
    let mut planned = Vec::with_capacity(types.len());
    for (k, t) in types.iter().enumerate() {
        let o = t.outputs;
        let levels = match t.history {
            Some(h) => Cow::Borrowed(h),
            None => {
                let p = o.breakeven.as_ref().map_err(|e| at(k)(e.clone()))?;
                Cow::Owned(
                    HistoryProfile::from_sliders(
                        t.inputs.gpus,
                        t.inputs.used_hours,
                        p.hours_per_month,
                    )
                    .map_err(at(k))?,
                )
            }
        };
        let b = o.baseline.clone().map_err(at(k))?;
        let p = Prices::new(
            t.inputs.monthly_price,
            t.inputs.on_demand_price,
            t.inputs.hours_per_month,
        )
        .map_err(at(k))?;
        let prices = match b.term {
            Term::OneYear | Term::ThreeYear => {
                let terms = o.terms.as_ref().map_err(|e| at(k)(e.clone()))?;
                Prices::new(
                    terms.recommended().effective_price,
                    p.on_demand,
                    p.hours_per_month,
                )
                .map_err(at(k))?
            }
            _ => p,
        };
        let spot_effective = o
            .spot
            .as_ref()
            .map_err(|e| at(k)(e.clone()))?
            .effective_price;
        planned.push(Planned {
            levels,
            prices,
            rule: b.gpus,
            term: b.term,
            payment: b.payment,
            spot_effective,
        });
    }

    let fleet: Vec<FleetType> = types
        .iter()
        .zip(&planned)
        .map(|(t, p)| FleetType {
            name: t.name,
            levels: &p.levels.window,
            prices: p.prices,
            most: Some(p.rule),
        })
        .collect();
    let allocation = allocate(&fleet, fixed_budget).map_err(shared)?;

    let mut rows = Vec::with_capacity(types.len());
    for (k, ((t, p), a)) in types
        .iter()
        .zip(&planned)
        .zip(&allocation.types)
        .enumerate()
    {
        let pools = three_pools(
            &p.levels.window,
            &p.prices,
            a.committed,
            t.inputs.interruptible_percent,
            p.spot_effective,
        )
        .map_err(at(k))?;
        let all_on_demand = monthly_cost(&p.levels.window, &p.prices, 0).total;
        let waterline = t
            .outputs
            .waterline
            .as_ref()
            .map_err(|e| at(k)(e.clone()))?
            .buy;
        let action = TypeBasis::of(t.inputs, t.outputs, a.committed, &pools);
        rows.push(FleetRow {
            name: t.name.to_string(),
            waterline,
            n_star: a.n_star,
            rule_gpus: p.rule,
            term: p.term,
            payment: p.payment,
            price: p.prices.monthly_money,
            committed: a.committed,
            fixed: pools.reserved,
            on_demand: pools.on_demand,
            spot: pools.spot,
            total: pools.total,
            all_on_demand,
            saving: all_on_demand - pools.total,
            utilization: a.fixed_utilization,
            action,
        });
    }
    let sum = |f: fn(&FleetRow) -> Money| rows.iter().map(f).sum::<Money>();
    Ok(FleetPlan {
        fixed: sum(|r| r.fixed),
        on_demand: sum(|r| r.on_demand),
        spot: sum(|r| r.spot),
        total: sum(|r| r.total),
        all_on_demand: sum(|r| r.all_on_demand),
        saving: sum(|r| r.saving),
        allocation,
        rows,
    })
}

/// The worked example of `docs/formulas.md` § 16, for this module's tests and the exports'.
#[cfg(test)]
pub(crate) mod example {
    use super::*;
    use crate::core::plan::{plan_with_history, BaselineRule, PlanOutputs};
    use crate::core::profile::{profile, Lookback};
    use crate::core::series::UsageSeries;

    /// `hours` hours at `gpus` GPUs busy, for each (hours, gpus) in turn, hourly from
    /// 2026-01-01 UTC.
    pub(crate) fn series(parts: &[(usize, f64)]) -> UsageSeries {
        let values: Vec<f64> = parts
            .iter()
            .flat_map(|&(hours, gpus)| std::iter::repeat_n(gpus, hours))
            .collect();
        let start = 1_767_225_600; // 2026-01-01T00:00:00Z
        UsageSeries {
            timestamps: Some((0..values.len() as i64).map(|h| start + h * 3600).collect()),
            values,
            utc_offset_minutes: 0,
            offset_changes: Vec::new(),
        }
    }

    /// The § 16 example: cost-optimal rule, H = 730, all 730 hours of history, budget
    /// 90 000 at 60 % fixed, no spot (f = 0), so each pool total is M_t(N_t).
    pub(crate) fn inputs() -> PlanInputs {
        PlanInputs {
            hours_per_month: 730.0,
            lookback: Lookback::All,
            baseline_rule: BaselineRule::CostOptimal,
            budget: 90_000.0,
            interruptible_percent: 0.0,
            ..PlanInputs::default()
        }
    }

    /// The example planned: A100 at 9 000 / 25 (200 h at 6 GPUs, then 530 h at 4), H100 at
    /// 20 000 / 50 (300 h at 4, then 430 h at 3); `a100` changes A100's inputs first. Returns
    /// A100's inputs and plan, and the fleet's.
    pub(crate) fn plan(a100: impl FnOnce(&mut PlanInputs)) -> (PlanInputs, PlanOutputs, FleetPlan) {
        plan_with(|_| {}, a100)
    }

    /// [`plan`] with `shared` changing both types' inputs first (the fleet's own inputs, as
    /// the page shares them: the burst quota, the idle timeout, …).
    pub(crate) fn plan_with(
        shared: impl FnOnce(&mut PlanInputs),
        a100: impl FnOnce(&mut PlanInputs),
    ) -> (PlanInputs, PlanOutputs, FleetPlan) {
        let mut base = inputs();
        shared(&mut base);
        let mut a = PlanInputs {
            monthly_price: 9000.0,
            on_demand_price: 25.0,
            ..base.clone()
        };
        a100(&mut a);
        let h = PlanInputs {
            monthly_price: 20_000.0,
            on_demand_price: 50.0,
            ..base
        };
        let ha = profile(&series(&[(200, 6.0), (530, 4.0)]), &a.profile_settings()).unwrap();
        let hh = profile(&series(&[(300, 4.0), (430, 3.0)]), &h.profile_settings()).unwrap();
        let oa = plan_with_history(&a, Some(&ha));
        let oh = plan_with_history(&h, Some(&hh));
        let f = plan_fleet(&[
            TypePlan {
                name: "A100",
                inputs: &a,
                history: Some(&ha),
                outputs: &oa,
            },
            TypePlan {
                name: "H100",
                inputs: &h,
                history: Some(&hh),
                outputs: &oh,
            },
        ])
        .unwrap();
        (a, oa, f)
    }
}

#[cfg(test)]
mod tests {
    use super::example::inputs as example_inputs;
    use super::*;
    use crate::core::plan::{plan_with_history, BaselineRule};

    #[test]
    fn two_types_worked_example_to_the_cent() {
        let (_, _, f) = super::example::plan(|_| {});
        let m = |x: f64| Money::from_f64(x);
        // Unconstrained: N* = 4 and 3 (96 000 fixed); 54 000 buys 3 A100 + 1 H100.
        assert_eq!(f.rows[0].n_star, 4);
        assert_eq!(f.rows[1].n_star, 3);
        assert_eq!(f.rows[0].rule_gpus, 4);
        assert_eq!(f.rows[1].rule_gpus, 3);
        assert_eq!(f.allocation.fixed_budget, m(54_000.0));
        assert_eq!(f.rows[0].committed, 3);
        assert_eq!(f.rows[1].committed, 1);
        assert_eq!(f.rows[0].fixed, m(27_000.0));
        assert_eq!(f.rows[1].fixed, m(20_000.0));
        // A100 at 3: excess = 730 + 200 + 200 = 1 130 GPU-hours × 25 = 28 250.
        assert_eq!(f.rows[0].on_demand, m(28_250.0));
        // H100 at 1: 730 + 730 + 300 = 1 760 × 50 = 88 000.
        assert_eq!(f.rows[1].on_demand, m(88_000.0));
        assert_eq!(f.rows[0].spot, Money::ZERO);
        assert_eq!(f.rows[0].total, m(55_250.0));
        assert_eq!(f.rows[1].total, m(108_000.0));
        assert_eq!(f.rows[0].all_on_demand, m(83_000.0));
        assert_eq!(f.rows[1].all_on_demand, m(124_500.0));
        assert_eq!(f.rows[0].saving, m(27_750.0));
        assert_eq!(f.rows[1].saving, m(16_500.0));
        assert_eq!(f.saving, m(44_250.0));
        assert_eq!(f.total, m(163_250.0));
        assert_eq!(f.fixed, m(47_000.0));
        assert_eq!(f.allocation.left, m(7_000.0));
        assert_eq!(f.allocation.unconstrained_saving, m(86_500.0));
        assert!(f.allocation.budget_binds);
        // Waterline (q = 5 %): A100 never below 4, H100 never below 3.
        assert_eq!(f.rows[0].waterline, 4);
        assert_eq!(f.rows[1].waterline, 3);
        // Utilisation of 3 A100: fully busy.
        assert!((f.rows[0].utilization - 1.0).abs() < 1e-12);
    }

    #[test]
    fn the_budget_never_buys_more_than_the_rule() {
        // A custom rule of 2 A100: 54 000 then buys 2 H100 + 1 A100 (42 250, § 16 table)
        // over 1 H100 + 2 A100 (35 000).
        let (_, _, f) = super::example::plan(|a| {
            a.baseline_rule = BaselineRule::Custom;
            a.custom_baseline_gpus = 2;
        });
        assert_eq!(f.rows[0].committed, 1);
        assert_eq!(f.rows[1].committed, 2);
        assert_eq!(f.allocation.saving, Money::from_f64(42_250.0));
        assert_eq!(f.rows[0].n_star, 4);
    }

    #[test]
    fn a_type_that_fails_is_named() {
        let base = example_inputs();
        let good = PlanInputs::default();
        let bad = PlanInputs {
            monthly_price: -1.0,
            ..base
        };
        let og = plan_with_history(&good, None);
        let ob = plan_with_history(&bad, None);
        let e = plan_fleet(&[
            TypePlan {
                name: "A",
                inputs: &good,
                history: None,
                outputs: &og,
            },
            TypePlan {
                name: "B",
                inputs: &bad,
                history: None,
                outputs: &ob,
            },
        ])
        .unwrap_err();
        assert_eq!(e.index, Some(1));
        assert_eq!(e.error.field, crate::core::error::Field::MonthlyPrice);
    }

    #[test]
    fn sliders_types_plan_from_their_sliders() {
        // 4 GPUs × 500 h of 730 at P 9 000, r 25 (H* 360): N = 4 on the cost-optimal rule;
        // budget 100 000 × 60 % buys all 4 (36 000).
        let i = PlanInputs {
            used_hours: 500.0,
            baseline_rule: BaselineRule::CostOptimal,
            interruptible_percent: 0.0,
            ..PlanInputs::default()
        };
        let o = plan_with_history(&i, None);
        let f = plan_fleet(&[TypePlan {
            name: "GPU",
            inputs: &i,
            history: None,
            outputs: &o,
        }])
        .unwrap();
        assert_eq!(f.rows[0].committed, 4);
        assert_eq!(f.rows[0].fixed, Money::from_f64(36_000.0));
        // Nothing elastic: 4 × 500 h all covered.
        assert_eq!(f.rows[0].total, Money::from_f64(36_000.0));
        // All on demand: 4 × 500 × 25 = 50 000.
        assert_eq!(f.rows[0].all_on_demand, Money::from_f64(50_000.0));
    }
}

//! Robustness of the engine entry points (`profile`, `plan`, `plan_with_history`) on
//! arbitrary inputs, absurd ones included (NaN, ±infinity, negatives, 1e308, 0): never
//! panics and no NaN or infinity ever comes out, in any section, Ok or Err.
//! Long run: `PROPTEST_CASES=20000 cargo test --release --test fuzz_engine` (scripts/bench).
#![cfg(not(target_arch = "wasm32"))]

#[allow(dead_code)] // each suite uses part of it
#[path = "common/fuzz.rs"]
mod common;

use gpu_rent_planner::core::burst::BillingIncrement;
use gpu_rent_planner::core::error::MIN_MAGNITUDE;
use gpu_rent_planner::core::plan::{plan, plan_with_history, BaselineRule, PlanInputs};
use gpu_rent_planner::core::profile::{profile, Lookback};
use gpu_rent_planner::core::review::ReviewMonthInput;
use gpu_rent_planner::core::series::UsageSeries;
use proptest::prelude::*;

/// Numbers a person, a link or a bug could put in a field.
fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => 0.0..20_000.0f64,
        2 => 0.0..10.0f64,
        1 => Just(0.0),
        1 => Just(-1.0),
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        1 => Just(1e308),
        // Tiny positives (1e-308 …) included: validation refuses them (they once gave inf).
        1 => any::<f64>(),
        1 => prop_oneof![Just(720.0), Just(730.0), Just(744.0), Just(100.0), Just(50.0)],
    ]
}

fn count() -> impl Strategy<Value = u32> {
    prop_oneof![6 => 0u32..64, 1 => Just(0), 1 => Just(100_000), 1 => Just(100_001), 1 => any::<u32>()]
}

fn inputs() -> impl Strategy<Value = PlanInputs> {
    (
        prop::collection::vec(number(), 36),
        prop::collection::vec(count(), 8),
        (
            prop_oneof![
                (0u32..4000).prop_map(Lookback::Days),
                Just(Lookback::All),
                any::<u32>().prop_map(Lookback::Days)
            ],
            prop_oneof![
                Just(BaselineRule::Average),
                Just(BaselineRule::Waterline),
                Just(BaselineRule::CostOptimal),
                Just(BaselineRule::Guarded),
                Just(BaselineRule::Peak),
                Just(BaselineRule::Custom)
            ],
            prop_oneof![
                Just(BillingIncrement::Second),
                Just(BillingIncrement::Minute),
                Just(BillingIncrement::Hour)
            ],
            prop::option::of(number()),
            prop::collection::vec(
                (
                    ".{0,8}",
                    number(),
                    number(),
                    number(),
                    prop::option::of(number()),
                )
                    .prop_map(|(label, u, f, e, q)| ReviewMonthInput {
                        label,
                        fixed_utilization_percent: u,
                        fixed_spend: f,
                        elastic_spend: e,
                        queue_hours: q,
                    }),
                0..4,
            ),
        ),
    )
        .prop_map(|(f, c, (lookback, rule, billing, tau, months))| {
            let mut i = PlanInputs::default();
            let n = float_fields(&mut i);
            // One field in three takes only finite values (a non-finite one keeps the
            // default), so that some inputs get past validation into the deeper sections.
            for (k, slot) in n.into_iter().enumerate() {
                if k % 3 != 2 || f[k].is_finite() {
                    *slot = f[k];
                }
            }
            let u = [
                &mut i.gpus,
                &mut i.day_start_hour,
                &mut i.day_end_hour,
                &mut i.custom_baseline_gpus,
                &mut i.burst_jobs,
                &mut i.burst_gpus_per_job,
                &mut i.burst_fixed_gpus,
                &mut i.burst_elastic_gpus,
            ];
            for (k, slot) in u.into_iter().enumerate() {
                *slot = c[k];
            }
            i.lookback = lookback;
            i.baseline_rule = rule;
            i.billing_increment = billing;
            i.checkpoint_interval_hours = tau;
            i.review_months = months;
            i
        })
}

fn series() -> impl Strategy<Value = UsageSeries> {
    (
        prop::collection::vec(prop_oneof![8 => 0.0..64.0f64, 1 => number()], 1..800),
        prop_oneof![
            Just(None),
            Just(Some(0i64)),
            Just(Some(3600)),
            Just(Some(7200)),
            Just(Some(-3600)),
            Just(Some(86_400 * 40))
        ],
        any::<i64>(),
        prop_oneof![
            Just(0i32),
            Just(480),
            Just(-300),
            -1440i32..1440,
            any::<i32>()
        ],
    )
        .prop_map(|(values, step, start, utc)| {
            let start = start % 4_000_000_000;
            let timestamps = step.map(|s| {
                (0..values.len() as i64)
                    .map(|k| start.saturating_add(k.saturating_mul(s)))
                    .collect()
            });
            UsageSeries {
                values,
                timestamps,
                utc_offset_minutes: utc,
                offset_changes: Vec::new(),
            }
        })
}

fn check_outputs(what: &str, dump: &str) -> Result<(), String> {
    match common::non_finite_in(dump) {
        Some(bad) => Err(format!("{what}: {bad}")),
        None => Ok(()),
    }
}

fn config(default_cases: u32) -> ProptestConfig {
    common::config(default_cases, "tests/regressions/fuzz_engine.txt")
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn plan_without_history(i in inputs()) {
        let out = plan(&i);
        if let Err(e) = check_outputs("plan", &format!("{out:?}")) {
            prop_assert!(false, "{e}\ninputs: {i:?}");
        }
    }

    #[test]
    fn profile_then_plan(s in series(), i in inputs()) {
        let prof = profile(&s, &i.profile_settings());
        let dump = format!("{prof:?}");
        if let Err(e) = check_outputs("profile", &dump) {
            prop_assert!(false, "{e}\nseries: {s:?}");
        }
        if let Ok(p) = &prof {
            let out = plan_with_history(&i, Some(p));
            if let Err(e) = check_outputs("plan_with_history", &format!("{out:?}")) {
                prop_assert!(false, "{e}\ninputs: {i:?}\nseries: {s:?}");
            }
        } else if s.values.iter().all(|v| {
            // The engine's rule for every input (core::error::non_negative): zero, or a
            // magnitude of at least MIN_MAGNITUDE (a value of 2e-168 GPUs is refused with
            // TooSmall, by design).
            v.is_finite() && (*v == 0.0 || *v >= MIN_MAGNITUDE) && *v <= 100_000.0
        })
            && s.timestamps.as_ref().is_none_or(|t| t.windows(2).all(|w| w[0] < w[1]))
            && i.profile_settings().validate().is_ok()
        {
            prop_assert!(false, "a valid series was refused: {prof:?}");
        }
    }
}

/// The extremes, one by one, on every field (the defaults elsewhere).
#[test]
fn each_field_at_each_extreme() {
    for x in [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -1.0,
        0.0,
        1e308,
        5e-324,
        f64::MAX,
    ] {
        for k in 0..31 {
            let mut i = PlanInputs::default();
            let slots = float_fields(&mut i);
            *slots.into_iter().nth(k).expect("31 fields") = x;
            let out = plan(&i);
            check_outputs("plan", &format!("{out:?}"))
                .unwrap_or_else(|e| panic!("field {k} = {x}: {e}"));
        }
    }
}

/// Found by this suite: tiny positive prices or hours (1e-308 is read as a valid number)
/// made quotients infinite; validation now refuses non-zero values below 1e-9.
#[test]
fn tiny_positive_inputs_are_refused_not_infinite() {
    for i in [
        PlanInputs {
            on_demand_price: 1e-308,
            ..PlanInputs::default()
        },
        PlanInputs {
            used_hours: 1e-308,
            ..PlanInputs::default()
        },
        PlanInputs {
            spot_price: 5e-324,
            ..PlanInputs::default()
        },
    ] {
        check_outputs("plan", &format!("{:?}", plan(&i))).unwrap();
    }
}

/// The 31 `f64` fields of the inputs, in one order for every test here.
fn float_fields(i: &mut PlanInputs) -> [&mut f64; 31] {
    [
        &mut i.monthly_price,
        &mut i.on_demand_price,
        &mut i.hours_per_month,
        &mut i.spot_price,
        &mut i.used_hours,
        &mut i.quantile_percent,
        &mut i.interruption_rate,
        &mut i.checkpoint_save_hours,
        &mut i.restart_hours,
        &mut i.job_hours,
        &mut i.interruptible_percent,
        &mut i.budget,
        &mut i.budget_fixed_percent,
        &mut i.budget_elastic_percent,
        &mut i.budget_spot_percent,
        &mut i.burst_job_hours,
        &mut i.own_purchase,
        &mut i.own_depreciation_months,
        &mut i.own_power_kw,
        &mut i.own_pue,
        &mut i.own_electricity_price,
        &mut i.own_colo_ops_monthly,
        &mut i.hidden_storage_monthly,
        &mut i.hidden_public_ip_monthly,
        &mut i.hidden_snapshots_monthly,
        &mut i.hidden_egress_per_gb,
        &mut i.hidden_egress_gb,
        &mut i.hidden_sessions,
        &mut i.hidden_idle_timeout_hours,
        &mut i.review_utilization_threshold_percent,
        &mut i.review_queue_limit_hours,
    ]
}

//! § 8 Spot pool: effective price per useful GPU-hour with checkpoints, and the expected
//! run time of a job without checkpoints.
//!
//! With checkpoints every τ hours (saving takes δ), reclaims at rate λ per hour and a
//! restart time R, each useful hour costs, to first order,
//! s·(1 + δ/τ + λ(τ/2 + R)); Young's optimum is τ = √(2δ/λ). Without checkpoints a job of
//! J hours takes (1/λ + R)(e^{λJ} − 1) hours in expectation (restarting from zero).

use super::breakeven::MAX_HOURLY_PRICE;
use super::error::{non_negative, positive, Field, InputError};
use super::money::Money;
use super::prices::spot_price;

/// Largest interruption rate, per hour (10 reclaims an hour).
pub const MAX_INTERRUPTION_RATE: f64 = 10.0;
/// Largest checkpoint save, restart time or checkpoint interval, in hours.
pub const MAX_SPOT_DURATION_HOURS: f64 = 1000.0;
/// Largest job length, in hours.
pub const MAX_JOB_HOURS: f64 = 10_000.0;
/// Largest λ·J for the no-checkpoint formula (e^20 ≈ 4.9e8 restarts' worth).
pub const MAX_LAMBDA_J: f64 = 20.0;
/// The first-order formula is flagged valid while λ(τ + R) and δ/τ both stay at or under this.
pub const FIRST_ORDER_LIMIT: f64 = 0.1;

/// Spot inputs (durations in hours).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpotInputs {
    /// s: spot list price per GPU-hour.
    pub price: f64,
    /// λ: reclaims per hour (0 = never reclaimed).
    pub interruption_rate: f64,
    /// δ: hours to save one checkpoint (> 0).
    pub checkpoint_save_hours: f64,
    /// R: hours to get a new instance and reload after a reclaim.
    pub restart_hours: f64,
    /// τ: hours between checkpoints; `None` = Young's optimum √(2δ/λ).
    pub checkpoint_interval_hours: Option<f64>,
}

/// § 8 with checkpoints.
#[derive(Debug, Clone, PartialEq)]
pub struct SpotEffective {
    /// s, as money per GPU-hour.
    pub list_price: Money,
    /// τ used, hours; `None` when λ = 0 and no interval was given (nothing to protect).
    pub interval_hours: Option<f64>,
    /// Young's optimum √(2δ/λ), hours; `None` when λ = 0.
    pub young_interval_hours: Option<f64>,
    /// Share of time lost to checkpoints, δ/τ.
    pub checkpoint_overhead: f64,
    /// Share of time lost to reclaims, λ(τ/2 + R).
    pub reclaim_overhead: f64,
    /// Overhead factor 1 + δ/τ + λ(τ/2 + R) (≥ 1).
    pub factor: f64,
    /// s·factor as f64 (currency per useful GPU-hour), for further products.
    pub effective_price: f64,
    /// s·factor rounded to the cent.
    pub effective_price_money: Money,
    /// r − s·factor per useful GPU-hour (negative: spot costs more than on demand).
    pub saving_vs_on_demand: Money,
    /// True when λ(τ + R) ≤ 0.1 and δ/τ ≤ 0.1 (first-order expansion accurate).
    pub first_order_valid: bool,
    /// True when the effective spot price exceeds r.
    pub costs_more_than_on_demand: bool,
}

/// § 8 without checkpoints.
#[derive(Debug, Clone, PartialEq)]
pub struct NoCheckpointRun {
    /// J: job length, hours of work.
    pub job_hours: f64,
    /// Expected wall hours (1/λ + R)(e^{λJ} − 1); J when λ = 0.
    pub expected_hours: f64,
    /// s × expected hours, per GPU.
    pub expected_cost: Money,
    /// r × J, per GPU: the same job on demand.
    pub on_demand_cost: Money,
    /// expected_cost / J: price per useful GPU-hour.
    pub effective_price: Money,
    /// Warn: spot without checkpoints costs more than on demand.
    pub costs_more_than_on_demand: bool,
}

fn validate(inp: &SpotInputs) -> Result<(f64, f64, f64, f64, Option<f64>), InputError> {
    let s = spot_price(inp.price)?;
    let l = non_negative(
        Field::InterruptionRate,
        inp.interruption_rate,
        MAX_INTERRUPTION_RATE,
    )?;
    let d = positive(
        Field::CheckpointSave,
        inp.checkpoint_save_hours,
        MAX_SPOT_DURATION_HOURS,
    )?;
    let r = non_negative(
        Field::RestartTime,
        inp.restart_hours,
        MAX_SPOT_DURATION_HOURS,
    )?;
    let t = match inp.checkpoint_interval_hours {
        Some(t) => Some(positive(
            Field::CheckpointInterval,
            t,
            MAX_SPOT_DURATION_HOURS,
        )?),
        None => None,
    };
    Ok((s, l, d, r, t))
}

/// § 8 with checkpoints. `on_demand` is r (already validated by the caller).
pub fn spot_effective(inp: &SpotInputs, on_demand: f64) -> Result<SpotEffective, InputError> {
    let (s, lambda, delta, restart, given) = validate(inp)?;
    let young = (lambda > 0.0).then(|| (2.0 * delta / lambda).sqrt());
    let interval = given.or(young);
    let (checkpoint_overhead, reclaim_overhead) = match interval {
        Some(tau) => (delta / tau, lambda * (tau / 2.0 + restart)),
        None => (0.0, 0.0),
    };
    let factor = 1.0 + checkpoint_overhead + reclaim_overhead;
    let effective_price = (s * factor).min(MAX_HOURLY_PRICE * 1e6);
    let first_order_valid = match interval {
        Some(tau) => {
            lambda * (tau + restart) <= FIRST_ORDER_LIMIT && delta / tau <= FIRST_ORDER_LIMIT
        }
        None => true,
    };
    let effective_price_money = Money::from_f64(effective_price);
    Ok(SpotEffective {
        list_price: Money::from_f64(s),
        interval_hours: interval,
        young_interval_hours: young,
        checkpoint_overhead,
        reclaim_overhead,
        factor,
        effective_price,
        effective_price_money,
        saving_vs_on_demand: Money::from_f64(on_demand) - effective_price_money,
        first_order_valid,
        costs_more_than_on_demand: effective_price > on_demand,
    })
}

/// § 8 without checkpoints, for a job of `job_hours` hours.
pub fn no_checkpoint_run(
    inp: &SpotInputs,
    on_demand: f64,
    job_hours: f64,
) -> Result<NoCheckpointRun, InputError> {
    let s = spot_price(inp.price)?;
    let lambda = non_negative(
        Field::InterruptionRate,
        inp.interruption_rate,
        MAX_INTERRUPTION_RATE,
    )?;
    let restart = non_negative(
        Field::RestartTime,
        inp.restart_hours,
        MAX_SPOT_DURATION_HOURS,
    )?;
    let j = positive(Field::JobLength, job_hours, MAX_JOB_HOURS)?;
    let expected_hours = if lambda > 0.0 {
        if lambda * j > MAX_LAMBDA_J {
            return Err(InputError::new(
                Field::JobLength,
                super::error::Problem::TooLarge {
                    max: MAX_LAMBDA_J / lambda,
                },
            ));
        }
        (1.0 / lambda + restart) * (lambda * j).exp_m1()
    } else {
        j
    };
    let expected_cost = Money::from_f64(s * expected_hours);
    let on_demand_cost = Money::from_f64(on_demand * j);
    Ok(NoCheckpointRun {
        job_hours: j,
        expected_hours,
        expected_cost,
        on_demand_cost,
        effective_price: Money::from_f64(s * expected_hours / j),
        costs_more_than_on_demand: expected_cost > on_demand_cost,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::Problem;

    fn inputs(lambda: f64, delta: f64, restart: f64, tau: Option<f64>) -> SpotInputs {
        SpotInputs {
            price: 8.0,
            interruption_rate: lambda,
            checkpoint_save_hours: delta,
            restart_hours: restart,
            checkpoint_interval_hours: tau,
        }
    }

    #[test]
    fn young_optimum_example() {
        // s = 8, λ = 0.02/h, δ = 0.04 h, R = 0.5 h. τ = √(2·0.04/0.02) = √4 = 2 h.
        // δ/τ = 0.02; λ(τ/2 + R) = 0.02·1.5 = 0.03; factor 1.05; 8·1.05 = 8.40 per useful hour.
        // Valid: λ(τ + R) = 0.05 ≤ 0.1, δ/τ = 0.02 ≤ 0.1. r = 25 → saves 16.60.
        let e = spot_effective(&inputs(0.02, 0.04, 0.5, None), 25.0).unwrap();
        assert_eq!(e.young_interval_hours, Some(2.0));
        assert_eq!(e.interval_hours, Some(2.0));
        assert!((e.factor - 1.05).abs() < 1e-12);
        assert_eq!(e.effective_price_money.to_plain_string(), "8.40");
        assert_eq!(e.saving_vs_on_demand.to_plain_string(), "16.60");
        assert!(e.first_order_valid);
        assert!(!e.costs_more_than_on_demand);
    }

    #[test]
    fn given_interval_and_validity() {
        // τ = 10 h given: δ/τ = 0.004; λ(5 + 0.5) = 0.11; factor 1.114 → 8.912 → 8.91.
        // λ(τ + R) = 0.21 > 0.1 → outside the first-order range.
        let e = spot_effective(&inputs(0.02, 0.04, 0.5, Some(10.0)), 25.0).unwrap();
        assert_eq!(e.effective_price_money.to_plain_string(), "8.91");
        assert!(!e.first_order_valid);
        // λ = 0 and no interval: no overhead at all.
        let e = spot_effective(&inputs(0.0, 0.04, 0.5, None), 25.0).unwrap();
        assert_eq!((e.interval_hours, e.factor), (None, 1.0));
        // Very unreliable spot with slow restarts costs more than on demand at r = 9:
        // λ = 1, δ = 0.5 → τ = 1; factor 1 + 0.5 + 1·(0.5 + 2) = 4 → 32 > 9.
        let e = spot_effective(&inputs(1.0, 0.5, 2.0, None), 9.0).unwrap();
        assert_eq!(e.effective_price_money.to_plain_string(), "32.00");
        assert!(e.costs_more_than_on_demand);
        assert!(e.saving_vs_on_demand.is_negative());
    }

    #[test]
    fn no_checkpoint_expected_time() {
        // λ = 0.02, R = 0.5, J = 10: (50 + 0.5)(e^0.2 − 1) = 50.5·0.2214027582 = 11.18083929 h;
        // cost 8·11.1808… = 89.4467 → 89.45; on demand 25·10 = 250.00 → no warning.
        let n = no_checkpoint_run(&inputs(0.02, 0.04, 0.5, None), 25.0, 10.0).unwrap();
        assert!((n.expected_hours - 11.180_839_29).abs() < 1e-6);
        assert_eq!(n.expected_cost.to_plain_string(), "89.45");
        assert_eq!(n.on_demand_cost.to_plain_string(), "250.00");
        assert!(!n.costs_more_than_on_demand);
        // λ = 0.1, R = 0.5, J = 40: 10.5·(e^4 − 1) = 10.5·53.59815003 = 562.7805753 h;
        // 8·562.78… = 4502.24 > 25·40 = 1000 → warn.
        let n = no_checkpoint_run(&inputs(0.1, 0.04, 0.5, None), 25.0, 40.0).unwrap();
        assert!((n.expected_hours - 562.780_575_3).abs() < 1e-6);
        assert_eq!(n.expected_cost.to_plain_string(), "4502.24");
        assert!(n.costs_more_than_on_demand);
        // λ = 0: exactly J.
        let n = no_checkpoint_run(&inputs(0.0, 0.04, 0.5, None), 25.0, 10.0).unwrap();
        assert_eq!(n.expected_hours, 10.0);
    }

    #[test]
    fn bad_inputs_name_fields() {
        let e = spot_effective(&inputs(-0.1, 0.04, 0.5, None), 25.0).unwrap_err();
        assert_eq!(e.field, Field::InterruptionRate);
        let e = spot_effective(&inputs(0.1, 0.0, 0.5, None), 25.0).unwrap_err();
        assert_eq!(e.field, Field::CheckpointSave);
        let e = spot_effective(&inputs(0.1, 0.1, f64::INFINITY, None), 25.0).unwrap_err();
        assert_eq!(e.field, Field::RestartTime);
        let e = spot_effective(&inputs(0.1, 0.1, 0.5, Some(0.0)), 25.0).unwrap_err();
        assert_eq!(e.field, Field::CheckpointInterval);
        let mut i = inputs(0.1, 0.1, 0.5, None);
        i.price = 0.0;
        assert_eq!(
            spot_effective(&i, 25.0).unwrap_err().field,
            Field::SpotPrice
        );
        let e = no_checkpoint_run(&inputs(1.0, 0.1, 0.5, None), 25.0, 100.0).unwrap_err();
        assert_eq!(
            (e.field, e.problem),
            (Field::JobLength, Problem::TooLarge { max: 20.0 })
        );
    }
}

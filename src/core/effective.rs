//! § 2 Effective idle-adjusted cost of a monthly GPU used h hours a month.
//!
//! A monthly GPU bills every hour of the month; the hours it idles still cost money.
//! Per used hour it costs P / h; the idle H − h hours burn P·(H − h)/H; the same h
//! hours on demand would cost r·h. See `docs/formulas.md` § 2.

use super::error::{positive, Field, InputError};
use super::money::Money;
use super::prices::Prices;
use super::profile::MAX_GPUS;

/// Which way of paying is cheaper for the given use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cheaper {
    Monthly,
    OnDemand,
    /// Exactly equal to the cent.
    Same,
}

/// Idle-adjusted cost of monthly GPUs, per GPU and for the fleet of `gpus`.
#[derive(Debug, Clone, PartialEq)]
pub struct EffectiveCost {
    /// h: hours used per GPU per month.
    pub used_hours: f64,
    /// G: GPUs in the fleet (slider).
    pub gpus: u32,
    /// P / h: what one used GPU-hour really costs on a monthly GPU (currency per GPU-hour).
    /// `None` when h = 0 (every hour is idle; no used hour to spread the price over).
    pub cost_per_used_hour: Option<Money>,
    /// The nominal hourly price of a monthly GPU, P / H (currency per GPU-hour).
    pub nominal_hourly: Money,
    /// P / h ÷ r: how many times the on-demand price a used hour costs (`None` when h = 0).
    pub multiple_of_on_demand: Option<f64>,
    /// H − h: idle hours per GPU per month.
    pub idle_hours: f64,
    /// (H − h) / H: idle fraction of the month, 0..=1.
    pub idle_fraction: f64,
    /// P·(H − h)/H: money burnt idle per GPU per month.
    pub idle_money: Money,
    /// P: monthly price per GPU.
    pub monthly: Money,
    /// r·h: the same h hours on demand, per GPU per month.
    pub on_demand: Money,
    /// P − r·h per GPU per month: positive → on demand saves this much; negative → monthly does.
    pub difference: Money,
    pub cheaper: Cheaper,
    /// G·P: fleet monthly spend.
    pub fleet_monthly: Money,
    /// G·r·h: fleet on-demand spend for the same hours.
    pub fleet_on_demand: Money,
    /// G·P·(H − h)/H: fleet money burnt idle per month.
    pub fleet_idle_money: Money,
    /// G·(P − r·h): fleet difference (same sign rule as `difference`).
    pub fleet_difference: Money,
}

/// Compute § 2. `used_hours` must be within 0..=H; `gpus` within 1..=MAX_GPUS.
pub fn effective_cost(
    prices: &Prices,
    used_hours: f64,
    gpus: u32,
) -> Result<EffectiveCost, InputError> {
    let h_month = prices.hours_per_month;
    let h = super::error::non_negative(Field::UsedHours, used_hours, h_month)?;
    positive(Field::Gpus, gpus as f64, MAX_GPUS)?;
    let p = prices.monthly;
    let r = prices.on_demand;
    let cost_per_used_hour = (h > 0.0).then(|| Money::from_f64(p / h));
    let multiple_of_on_demand = (h > 0.0).then(|| p / h / r);
    let idle_hours = h_month - h;
    let monthly = prices.monthly_money;
    let idle_money = Money::from_f64(p * idle_hours / h_month);
    let on_demand = Money::from_f64(r * h);
    let difference = monthly - on_demand;
    let cheaper = match difference.cents() {
        d if d > 0 => Cheaper::OnDemand,
        d if d < 0 => Cheaper::Monthly,
        _ => Cheaper::Same,
    };
    let g = gpus as u64;
    Ok(EffectiveCost {
        used_hours: h,
        gpus,
        cost_per_used_hour,
        nominal_hourly: Money::from_f64(p / h_month),
        multiple_of_on_demand,
        idle_hours,
        idle_fraction: idle_hours / h_month,
        idle_money,
        monthly,
        on_demand,
        difference,
        cheaper,
        fleet_monthly: monthly * g,
        fleet_on_demand: on_demand * g,
        fleet_idle_money: idle_money * g,
        fleet_difference: difference * g,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::Problem;

    use crate::core::prices::example_prices as prices;

    #[test]
    fn seed_80_hours_example() {
        // P = 9000, r = 25, H = 730, h = 80 (seed 002: "只实际跑了80个小时").
        // P/h = 112.50 per used hour = 4.5 × r; idle 650 h; burnt 9000·650/730 = 8013.6986… → 8013.70;
        // on demand 25·80 = 2000.00; difference 9000 − 2000 = 7000.00 (on demand cheaper).
        // Fleet of 4: 36000.00, 8000.00, 32054.80 (4 × 8013.70), 28000.00.
        let e = effective_cost(&prices(), 80.0, 4).unwrap();
        assert_eq!(e.cost_per_used_hour.unwrap().to_plain_string(), "112.50");
        assert_eq!(e.multiple_of_on_demand, Some(4.5));
        assert_eq!(e.nominal_hourly.to_plain_string(), "12.33"); // 9000/730 = 12.328…
        assert_eq!(e.idle_hours, 650.0);
        assert_eq!(e.idle_money.to_plain_string(), "8013.70");
        assert_eq!(e.on_demand.to_plain_string(), "2000.00");
        assert_eq!(e.difference.to_plain_string(), "7000.00");
        assert_eq!(e.cheaper, Cheaper::OnDemand);
        assert_eq!(e.fleet_monthly.to_plain_string(), "36000.00");
        assert_eq!(e.fleet_on_demand.to_plain_string(), "8000.00");
        assert_eq!(e.fleet_idle_money.to_plain_string(), "32054.80");
        assert_eq!(e.fleet_difference.to_plain_string(), "28000.00");
    }

    #[test]
    fn heavy_use_favours_monthly_and_breakeven_is_same() {
        // h = 500: P/h = 18.00; r·h = 12500; difference −3500 → monthly cheaper.
        let e = effective_cost(&prices(), 500.0, 1).unwrap();
        assert_eq!(e.cost_per_used_hour.unwrap().to_plain_string(), "18.00");
        assert_eq!(e.difference.to_plain_string(), "-3500.00");
        assert_eq!(e.cheaper, Cheaper::Monthly);
        // h = H* = 360: equal.
        let e = effective_cost(&prices(), 360.0, 1).unwrap();
        assert_eq!(e.cheaper, Cheaper::Same);
        assert_eq!(e.cost_per_used_hour.unwrap().to_plain_string(), "25.00");
    }

    #[test]
    fn zero_hours_and_bad_inputs() {
        let e = effective_cost(&prices(), 0.0, 1).unwrap();
        assert_eq!(e.cost_per_used_hour, None);
        assert_eq!(e.idle_money.to_plain_string(), "9000.00");
        assert_eq!(e.idle_fraction, 1.0);
        let err = effective_cost(&prices(), 731.0, 1).unwrap_err();
        assert_eq!(err.field, Field::UsedHours);
        assert!(matches!(err.problem, Problem::TooLarge { .. }));
        assert_eq!(
            effective_cost(&prices(), -1.0, 1).unwrap_err().field,
            Field::UsedHours
        );
        assert_eq!(
            effective_cost(&prices(), f64::NAN, 1).unwrap_err().problem,
            Problem::NotANumber
        );
        assert_eq!(
            effective_cost(&prices(), 10.0, 0).unwrap_err().field,
            Field::Gpus
        );
    }
}

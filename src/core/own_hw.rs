//! § 12 Own hardware as a monthly option:
//! P_own = purchase / depreciation months + power kW × PUE × H × price per kWh + colo & ops,
//! and its break-even against on demand in hours per day.

use super::error::{non_negative, positive, Field, InputError, Problem};
use super::money::Money;
use super::prices::Prices;

pub const MAX_PURCHASE: f64 = 1_000_000_000.0;
pub const MAX_DEPRECIATION_MONTHS: f64 = 240.0;
pub const MAX_POWER_KW: f64 = 100.0;
pub const MAX_PUE: f64 = 5.0;
pub const MAX_ELECTRICITY_PRICE: f64 = 1_000.0;
pub const MAX_COLO_OPS: f64 = 100_000_000.0;

/// § 12 inputs, per GPU.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OwnHardwareInputs {
    /// Purchase price per GPU (share of the server), currency.
    pub purchase: f64,
    /// Months over which it is written off.
    pub depreciation_months: f64,
    /// Power draw per GPU (share of the server), kW.
    pub power_kw: f64,
    /// Power usage effectiveness of the room (≥ 1).
    pub pue: f64,
    /// Electricity price per kWh.
    pub electricity_price: f64,
    /// Colocation, network and operations per GPU per month.
    pub colo_ops_monthly: f64,
}

/// § 12 result, per GPU per month.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnHardware {
    /// purchase / months.
    pub depreciation: Money,
    /// kW × PUE × H × price per kWh (running all month).
    pub electricity: Money,
    /// kWh per month: kW × PUE × H.
    pub energy_kwh: f64,
    pub colo_ops: Money,
    /// P_own = depreciation + electricity + colo_ops (exact sum).
    pub monthly: Money,
    /// P_own / r: break-even hours of use per month against on demand.
    pub breakeven_hours: f64,
    /// (P_own / r) × 24 / H: break-even hours per day.
    pub breakeven_hours_per_day: f64,
    /// P_own / r / H.
    pub breakeven_utilization: f64,
    /// P_own / r > H: owning never beats on demand.
    pub never_pays: bool,
    /// P − P_own: saving of owning over renting monthly (negative: owning costs more).
    pub saving_vs_monthly_rent: Money,
}

/// § 12.
pub fn own_hardware(inp: &OwnHardwareInputs, prices: &Prices) -> Result<OwnHardware, InputError> {
    let purchase = non_negative(Field::Purchase, inp.purchase, MAX_PURCHASE)?;
    let months = positive(
        Field::DepreciationMonths,
        inp.depreciation_months,
        MAX_DEPRECIATION_MONTHS,
    )?;
    let kw = non_negative(Field::PowerKw, inp.power_kw, MAX_POWER_KW)?;
    let pue = positive(Field::Pue, inp.pue, MAX_PUE)?;
    if pue < 1.0 {
        return Err(InputError::new(Field::Pue, Problem::TooSmall { min: 1.0 }));
    }
    let kwh_price = non_negative(
        Field::ElectricityPrice,
        inp.electricity_price,
        MAX_ELECTRICITY_PRICE,
    )?;
    let colo = non_negative(Field::ColoOps, inp.colo_ops_monthly, MAX_COLO_OPS)?;
    let h = prices.hours_per_month;
    let energy_kwh = kw * pue * h;
    let depreciation = Money::from_f64(purchase / months);
    let electricity = Money::from_f64(energy_kwh * kwh_price);
    let colo_ops = Money::from_f64(colo);
    let monthly = depreciation + electricity + colo_ops;
    let breakeven_hours = monthly.to_f64() / prices.on_demand;
    Ok(OwnHardware {
        depreciation,
        electricity,
        energy_kwh,
        colo_ops,
        monthly,
        breakeven_hours,
        breakeven_hours_per_day: breakeven_hours * 24.0 / h,
        breakeven_utilization: breakeven_hours / h,
        never_pays: breakeven_hours > h,
        saving_vs_monthly_rent: prices.monthly_money - monthly,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> OwnHardwareInputs {
        OwnHardwareInputs {
            purchase: 100_000.0,
            depreciation_months: 36.0,
            power_kw: 0.4,
            pue: 1.5,
            electricity_price: 0.8,
            colo_ops_monthly: 500.0,
        }
    }

    #[test]
    fn worked_example() {
        // 100 000 / 36 = 2777.777… → 2777.78; 0.4 kW × 1.5 × 730 h = 438 kWh × 0.8 = 350.40;
        // colo 500.00 → P_own = 3628.18. r = 25 → 145.1272 h/month → ×24/730 = 4.77130… h/day.
        // Against renting at 9000: saves 5371.82 a month.
        let p = Prices::new(9000.0, 25.0, 730.0).unwrap();
        let o = own_hardware(&defaults(), &p).unwrap();
        assert_eq!(o.depreciation.to_plain_string(), "2777.78");
        assert!((o.energy_kwh - 438.0).abs() < 1e-9);
        assert_eq!(o.electricity.to_plain_string(), "350.40");
        assert_eq!(o.colo_ops.to_plain_string(), "500.00");
        assert_eq!(o.monthly.to_plain_string(), "3628.18");
        assert!((o.breakeven_hours - 145.1272).abs() < 1e-9);
        assert_eq!(format!("{:.2}", o.breakeven_hours_per_day), "4.77");
        assert!(!o.never_pays);
        assert_eq!(o.saving_vs_monthly_rent.to_plain_string(), "5371.82");
    }

    #[test]
    fn expensive_hardware_never_pays_and_bad_inputs() {
        // 1 000 000 over 12 months = 83 333.33 a month ≫ 25 × 730 = 18 250 → never pays.
        let p = Prices::new(9000.0, 25.0, 730.0).unwrap();
        let o = own_hardware(
            &OwnHardwareInputs {
                purchase: 1_000_000.0,
                depreciation_months: 12.0,
                ..defaults()
            },
            &p,
        )
        .unwrap();
        assert!(o.never_pays);
        let e = own_hardware(
            &OwnHardwareInputs {
                pue: 0.9,
                ..defaults()
            },
            &p,
        )
        .unwrap_err();
        assert_eq!(
            (e.field, e.problem),
            (Field::Pue, Problem::TooSmall { min: 1.0 })
        );
        let e = own_hardware(
            &OwnHardwareInputs {
                depreciation_months: 0.0,
                ..defaults()
            },
            &p,
        )
        .unwrap_err();
        assert_eq!(e.field, Field::DepreciationMonths);
        let e = own_hardware(
            &OwnHardwareInputs {
                electricity_price: -1.0,
                ..defaults()
            },
            &p,
        )
        .unwrap_err();
        assert_eq!(e.field, Field::ElectricityPrice);
    }
}

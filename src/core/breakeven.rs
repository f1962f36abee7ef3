//! Break-even hours between a monthly (包月) price and an on-demand (按量) hourly price.
//!
//! H* = P / r hours per month. Below H* hours of use per GPU per month on-demand is
//! cheaper; above it the monthly price is. See `docs/formulas.md` § Break-even.

use super::error::{positive, Field, InputError, Problem};

/// Largest monthly price per GPU the planner accepts (any currency).
pub const MAX_MONTHLY_PRICE: f64 = 100_000_000.0;
/// Largest on-demand or spot price per GPU-hour the planner accepts.
pub const MAX_HOURLY_PRICE: f64 = 1_000_000.0;
/// Month lengths the planner offers; any value in `[MIN_HOURS_PER_MONTH, MAX_HOURS_PER_MONTH]` is accepted.
pub const HOURS_PER_MONTH_CHOICES: [f64; 3] = [720.0, 730.0, 744.0];
pub const DEFAULT_HOURS_PER_MONTH: f64 = 730.0;
pub const MIN_HOURS_PER_MONTH: f64 = 24.0;
pub const MAX_HOURS_PER_MONTH: f64 = 744.0;

/// Validated monthly price `P`.
pub fn monthly_price(p: f64) -> Result<f64, InputError> {
    positive(Field::MonthlyPrice, p, MAX_MONTHLY_PRICE)
}

/// Validated on-demand price `r` per GPU-hour.
pub fn on_demand_price(r: f64) -> Result<f64, InputError> {
    positive(Field::OnDemandPrice, r, MAX_HOURLY_PRICE)
}

/// Validated hours in a month `H`.
pub fn hours_per_month(h: f64) -> Result<f64, InputError> {
    let h = positive(Field::HoursPerMonth, h, MAX_HOURS_PER_MONTH)?;
    if h < MIN_HOURS_PER_MONTH {
        return Err(InputError::new(
            Field::HoursPerMonth,
            Problem::TooSmall {
                min: MIN_HOURS_PER_MONTH,
            },
        ));
    }
    Ok(h)
}

/// The break-even point, in every unit the page shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BreakEven {
    /// H* = P / r, hours of use per GPU per month.
    pub hours: f64,
    /// H* / H as a fraction (may exceed 1: then monthly never pays).
    pub utilization: f64,
    /// H* / 24: days of round-the-clock use.
    pub days_at_24h: f64,
    /// H* / 8: working days of 8 hours.
    pub days_at_8h: f64,
    /// The month length H used.
    pub hours_per_month: f64,
    /// True when H* > H: even a GPU busy every hour of the month is cheaper on demand.
    pub monthly_never_pays: bool,
}

/// Compute the break-even point. Errors name the offending field; no NaN or infinity escapes.
pub fn break_even(
    monthly: f64,
    on_demand: f64,
    hours_in_month: f64,
) -> Result<BreakEven, InputError> {
    let p = monthly_price(monthly)?;
    let r = on_demand_price(on_demand)?;
    let h = hours_per_month(hours_in_month)?;
    let hours = p / r;
    Ok(BreakEven {
        hours,
        utilization: hours / h,
        days_at_24h: hours / 24.0,
        days_at_8h: hours / 8.0,
        hours_per_month: h,
        monthly_never_pays: hours > h,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn seed_example_9000_per_month_vs_25_per_hour() {
        // 9 000 / 25 = 360 h; 360 / 730 = 0.493150684...; 360 / 24 = 15 days; 360 / 8 = 45 days.
        let b = break_even(9000.0, 25.0, 730.0).unwrap();
        assert!(close(b.hours, 360.0));
        assert!(close(b.utilization, 360.0 / 730.0));
        assert_eq!(format!("{:.1}", b.utilization * 100.0), "49.3");
        assert!(close(b.days_at_24h, 15.0));
        assert!(close(b.days_at_8h, 45.0));
        assert!(!b.monthly_never_pays);
    }

    #[test]
    fn cents_in_prices() {
        // 5 999.99 / 12.34 = 486.222852512...
        let b = break_even(5999.99, 12.34, 720.0).unwrap();
        assert_eq!(format!("{:.2}", b.hours), "486.22");
        assert_eq!(format!("{:.2}", b.utilization * 100.0), "67.53");
    }

    #[test]
    fn monthly_never_pays_when_breakeven_exceeds_month() {
        // 20 000 / 25 = 800 h > 744 h.
        let b = break_even(20_000.0, 25.0, 744.0).unwrap();
        assert!(close(b.hours, 800.0));
        assert!(b.monthly_never_pays);
        // Exactly the month: still pays (tie), not "never".
        let b = break_even(18_250.0, 25.0, 730.0).unwrap();
        assert!(close(b.utilization, 1.0));
        assert!(!b.monthly_never_pays);
    }

    #[test]
    fn zero_negative_and_absurd_prices_are_errors_naming_the_field() {
        let e = break_even(0.0, 25.0, 730.0).unwrap_err();
        assert_eq!(
            (e.field, e.problem),
            (Field::MonthlyPrice, Problem::MustBePositive)
        );
        let e = break_even(9000.0, 0.0, 730.0).unwrap_err();
        assert_eq!(
            (e.field, e.problem),
            (Field::OnDemandPrice, Problem::MustBePositive)
        );
        let e = break_even(9000.0, -3.0, 730.0).unwrap_err();
        assert_eq!(e.field, Field::OnDemandPrice);
        let e = break_even(1e300, 25.0, 730.0).unwrap_err();
        assert_eq!(e.field, Field::MonthlyPrice);
        assert!(matches!(e.problem, Problem::TooLarge { .. }));
        let e = break_even(9000.0, f64::NAN, 730.0).unwrap_err();
        assert_eq!(
            (e.field, e.problem),
            (Field::OnDemandPrice, Problem::NotANumber)
        );
        let e = break_even(9000.0, 25.0, 10.0).unwrap_err();
        assert_eq!(e.field, Field::HoursPerMonth);
        let e = break_even(9000.0, 25.0, 800.0).unwrap_err();
        assert_eq!(e.field, Field::HoursPerMonth);
    }

    #[test]
    fn tiny_on_demand_price_stays_finite() {
        let b = break_even(MAX_MONTHLY_PRICE, 1e-9, 730.0).unwrap();
        assert!(b.hours.is_finite() && b.utilization.is_finite());
        assert!(b.monthly_never_pays);
    }
}

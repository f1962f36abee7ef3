//! Exact money: integer minor units (cents, fen). Every displayed amount and every
//! displayed total is a [`Money`]; totals are sums of `Money`, never of `f64`, so a
//! total always equals the sum of the parts shown beside it.
//!
//! Conversion from an `f64` product (price × hours) rounds half away from zero to the
//! cent, after snapping away binary noise below 1e-6 cent (so `1.005 × 100`, which is
//! `100.49999999999999` in `f64`, becomes 101 cents as a person would expect).

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// An amount of money in minor units (1/100 of the currency unit). The currency is a
/// label chosen by the user (¥ or $); no conversion ever happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(i64);

/// Largest absolute amount, in currency units, that [`Money::from_f64`] accepts
/// (about 4.5e13 units: far above any validated input product, far below `i64::MAX` cents).
pub const MAX_MONEY_UNITS: f64 = 45_000_000_000_000.0;

impl Money {
    pub const ZERO: Money = Money(0);

    /// From minor units (cents).
    pub const fn from_cents(cents: i64) -> Self {
        Money(cents)
    }

    /// Minor units (cents).
    pub const fn cents(self) -> i64 {
        self.0
    }

    /// Round an amount in currency units to the cent, half away from zero.
    /// Non-finite or out-of-range values saturate to ±[`MAX_MONEY_UNITS`] (validated
    /// inputs never get there; this only guarantees no panic and no NaN).
    pub fn from_f64(units: f64) -> Self {
        if units.is_nan() {
            return Money(0);
        }
        let clamped = units.clamp(-MAX_MONEY_UNITS, MAX_MONEY_UNITS);
        let cents = clamped * 100.0;
        // Snap binary noise (e.g. 100.49999999999999) to the nearest 1e-6 cent first,
        // where that is still exact enough (|cents| < 1e9 keeps 1e-6 resolution).
        let snapped = if cents.abs() < 1e9 {
            (cents * 1e6).round() / 1e6
        } else {
            cents
        };
        // f64::round rounds half away from zero.
        Money(snapped.round() as i64)
    }

    /// The amount in currency units as `f64` (for ratios and charts only, never for sums).
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / 100.0
    }

    /// Plain decimal text: optional '-', digits, '.', two digits. No thousands separator.
    /// `Money::from_cents(123450).to_plain_string() == "1234.50"`.
    pub fn to_plain_string(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        format!("{sign}{}.{:02}", abs / 100, abs % 100)
    }

    /// True when the amount is below zero.
    pub fn is_negative(self) -> bool {
        self.0 < 0
    }

    /// `self / other` as a fraction; 0 when `other` is zero (never NaN or infinity).
    pub fn ratio(self, other: Money) -> f64 {
        if other.0 == 0 {
            0.0
        } else {
            self.0 as f64 / other.0 as f64
        }
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_plain_string())
    }
}

impl Add for Money {
    type Output = Money;
    fn add(self, rhs: Money) -> Money {
        Money(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign for Money {
    fn add_assign(&mut self, rhs: Money) {
        *self = *self + rhs;
    }
}

impl Sub for Money {
    type Output = Money;
    fn sub(self, rhs: Money) -> Money {
        Money(self.0.saturating_sub(rhs.0))
    }
}

impl SubAssign for Money {
    fn sub_assign(&mut self, rhs: Money) {
        *self = *self - rhs;
    }
}

impl Neg for Money {
    type Output = Money;
    fn neg(self) -> Money {
        Money(self.0.saturating_neg())
    }
}

/// Exact multiplication by a whole count (e.g. N GPUs × monthly price).
impl Mul<u64> for Money {
    type Output = Money;
    fn mul(self, rhs: u64) -> Money {
        let rhs = i64::try_from(rhs).unwrap_or(i64::MAX);
        Money(self.0.saturating_mul(rhs))
    }
}

impl Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        iter.fold(Money::ZERO, |a, b| a + b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_string() {
        assert_eq!(Money::from_cents(123_450).to_plain_string(), "1234.50");
        assert_eq!(Money::from_cents(5).to_plain_string(), "0.05");
        assert_eq!(Money::from_cents(-5).to_plain_string(), "-0.05");
        assert_eq!(Money::from_cents(-123_456).to_plain_string(), "-1234.56");
        assert_eq!(Money::ZERO.to_plain_string(), "0.00");
        assert_eq!(Money::from_cents(100_000_000).to_string(), "1000000.00");
    }

    #[test]
    fn rounds_half_away_from_zero() {
        assert_eq!(Money::from_f64(0.125).cents(), 13);
        assert_eq!(Money::from_f64(-0.125).cents(), -13);
        assert_eq!(Money::from_f64(0.124).cents(), 12);
        // 1.005 is 1.00499999999999989... in binary; a person means 1.005 -> 1.01.
        assert_eq!(Money::from_f64(1.005).cents(), 101);
        // 0.1 * 3 = 0.30000000000000004 -> 0.30
        assert_eq!(Money::from_f64(0.1 * 3.0).cents(), 30);
        assert_eq!(Money::from_f64(9000.0 * 6.0).cents(), 5_400_000);
    }

    #[test]
    fn never_nan_or_panic() {
        assert_eq!(Money::from_f64(f64::NAN), Money::ZERO);
        assert_eq!(Money::from_f64(f64::INFINITY).to_f64(), MAX_MONEY_UNITS);
        assert_eq!(
            Money::from_f64(f64::NEG_INFINITY).to_f64(),
            -MAX_MONEY_UNITS
        );
        assert_eq!(Money::from_cents(10).ratio(Money::ZERO), 0.0);
    }

    #[test]
    fn exact_sums() {
        // Ten times 0.10 is exactly 1.00 (in f64 it is 0.9999999999999999).
        let total: Money = (0..10).map(|_| Money::from_f64(0.1)).sum();
        assert_eq!(total.to_plain_string(), "1.00");
        assert_eq!((Money::from_f64(9000.0) * 3).to_plain_string(), "27000.00");
        assert_eq!((Money::from_cents(5) - Money::from_cents(7)).cents(), -2);
        assert_eq!((-Money::from_cents(7)).cents(), -7);
    }
}

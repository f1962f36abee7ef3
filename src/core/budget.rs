//! § 10 Budget split (default 60 / 25 / 15 fixed / elastic / spot-and-emergency) and the
//! reverse: the split a chosen plan implies.

use super::error::{non_negative, positive, Field, InputError, Problem};
use super::money::Money;
use super::prices::Prices;

/// Largest monthly budget accepted.
pub const MAX_BUDGET: f64 = 1_000_000_000_000.0;
/// Default shares, in percent.
pub const DEFAULT_SHARES: [f64; 3] = [60.0, 25.0, 15.0];
/// How far from 100 % the shares may add up to (rounding of typed decimals).
const SHARE_SUM_TOLERANCE: f64 = 1e-6;

/// § 10 forward: what a budget buys.
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetSplit {
    /// B.
    pub budget: Money,
    /// B·fixed%, B·elastic%, and the rest for spot and emergencies (the three sum to B exactly).
    pub fixed: Money,
    pub elastic: Money,
    pub spot: Money,
    /// floor(fixed / P): whole monthly GPUs the fixed amount buys.
    pub fixed_gpus: u64,
    /// fixed − fixed_gpus·P: left over.
    pub fixed_remainder: Money,
    /// elastic / r: on-demand GPU-hours.
    pub on_demand_gpu_hours: f64,
    /// spot / s: spot GPU-hours at the list price.
    pub spot_gpu_hours: f64,
    /// spot / s_eff: useful spot GPU-hours after checkpoint and reclaim overhead (§ 8);
    /// `None` when the spot section has an error.
    pub spot_useful_gpu_hours: Option<f64>,
}

/// § 10 reverse: the shares a plan's monthly spend implies.
#[derive(Debug, Clone, PartialEq)]
pub struct ImpliedSplit {
    /// fixed + elastic + spot (exact).
    pub total: Money,
    pub fixed: Money,
    pub elastic: Money,
    pub spot: Money,
    /// Shares of the total, 0..=1, summing to 1 (all 0 when the total is 0).
    pub fixed_share: f64,
    pub elastic_share: f64,
    pub spot_share: f64,
}

/// Validate the three shares (percent): each 0..=100 and summing to 100.
pub fn validate_shares(shares: [f64; 3]) -> Result<[f64; 3], InputError> {
    for s in shares {
        non_negative(Field::BudgetShare, s, 100.0)?;
    }
    let sum: f64 = shares.iter().sum();
    if (sum - 100.0).abs() > SHARE_SUM_TOLERANCE {
        return Err(InputError::new(
            Field::BudgetShare,
            Problem::SharesDoNotSumTo100 { sum_percent: sum },
        ));
    }
    Ok(shares)
}

/// § 10 forward. `shares` = [fixed, elastic, spot] in percent; `spot_price` s (validated);
/// `spot_effective` s_eff when known.
pub fn budget_split(
    budget: f64,
    shares: [f64; 3],
    prices: &Prices,
    spot_price: f64,
    spot_effective: Option<f64>,
) -> Result<BudgetSplit, InputError> {
    let b = Money::from_f64(positive(Field::Budget, budget, MAX_BUDGET)?);
    let [f, e, _] = validate_shares(shares)?;
    let fixed = Money::from_f64(b.to_f64() * f / 100.0);
    // Round the cumulative share so fixed + elastic never exceeds B, then spot takes the rest.
    let elastic = Money::from_f64(b.to_f64() * (f + e) / 100.0) - fixed;
    let spot = b - fixed - elastic;
    let p = prices.monthly_money.cents();
    let fixed_gpus = if p > 0 { (fixed.cents() / p) as u64 } else { 0 };
    let fixed_remainder = fixed - prices.monthly_money * fixed_gpus;
    Ok(BudgetSplit {
        budget: b,
        fixed,
        elastic,
        spot,
        fixed_gpus,
        fixed_remainder,
        on_demand_gpu_hours: elastic.to_f64() / prices.on_demand,
        spot_gpu_hours: spot.to_f64() / spot_price,
        spot_useful_gpu_hours: spot_effective
            .filter(|&x| x > 0.0)
            .map(|x| spot.to_f64() / x),
    })
}

/// § 10 reverse.
pub fn implied_split(fixed: Money, elastic: Money, spot: Money) -> ImpliedSplit {
    let total = fixed + elastic + spot;
    ImpliedSplit {
        total,
        fixed,
        elastic,
        spot,
        fixed_share: fixed.ratio(total),
        elastic_share: elastic.ratio(total),
        spot_share: spot.ratio(total),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    use crate::core::prices::example_prices as prices;

    #[test]
    fn spec_example() {
        // B = 100 000, P = 9 000, r = 25, s = 8: 60 000 buys 6 GPUs (6 000 left),
        // 25 000 buys 1 000 on-demand GPU-hours, 15 000 buys 1 875 spot GPU-hours.
        let b = budget_split(100_000.0, DEFAULT_SHARES, &prices(), 8.0, Some(8.4)).unwrap();
        assert_eq!(b.fixed.to_plain_string(), "60000.00");
        assert_eq!(b.fixed_gpus, 6);
        assert_eq!(b.fixed_remainder.to_plain_string(), "6000.00");
        assert_eq!(b.elastic.to_plain_string(), "25000.00");
        assert_eq!(b.on_demand_gpu_hours, 1000.0);
        assert_eq!(b.spot.to_plain_string(), "15000.00");
        assert_eq!(b.spot_gpu_hours, 1875.0);
        // 15 000 / 8.40 = 1785.714… useful hours.
        assert!((b.spot_useful_gpu_hours.unwrap() - 15_000.0 / 8.4).abs() < 1e-9);
    }

    #[test]
    fn odd_cents_still_sum() {
        // B = 1000.01 at 33.3/33.3/33.4: fixed 1000.01·0.333 = 333.00333 → 333.00;
        // fixed + elastic = 1000.01·0.666 = 666.00666 → 666.01 → elastic 333.01;
        // spot = 1000.01 − 666.01 = 334.00.
        let b = budget_split(1000.01, [33.3, 33.3, 33.4], &prices(), 8.0, None).unwrap();
        assert_eq!(
            (
                b.fixed.to_plain_string(),
                b.elastic.to_plain_string(),
                b.spot.to_plain_string()
            ),
            ("333.00".into(), "333.01".into(), "334.00".into())
        );
        assert_eq!(b.fixed_gpus, 0);
        assert_eq!(b.fixed_remainder, b.fixed);
    }

    #[test]
    fn shares_must_sum_to_100() {
        let e = budget_split(100_000.0, [60.0, 25.0, 10.0], &prices(), 8.0, None).unwrap_err();
        assert_eq!(
            (e.field, e.problem),
            (
                Field::BudgetShare,
                Problem::SharesDoNotSumTo100 { sum_percent: 95.0 }
            )
        );
        let e = budget_split(100_000.0, [110.0, -5.0, -5.0], &prices(), 8.0, None).unwrap_err();
        assert_eq!(e.field, Field::BudgetShare);
        let e = budget_split(0.0, DEFAULT_SHARES, &prices(), 8.0, None).unwrap_err();
        assert_eq!(e.field, Field::Budget);
    }

    #[test]
    fn implied_example() {
        // Plan: 9000 fixed, 2299.50 spot, 10265.63 on demand → total 21565.13.
        let i = implied_split(
            Money::from_cents(900_000),
            Money::from_cents(1_026_563),
            Money::from_cents(229_950),
        );
        assert_eq!(i.total.to_plain_string(), "21565.13");
        assert!((i.fixed_share - 900_000.0 / 2_156_513.0).abs() < 1e-15);
        let z = implied_split(Money::ZERO, Money::ZERO, Money::ZERO);
        assert_eq!(z.fixed_share + z.elastic_share + z.spot_share, 0.0);
    }

    proptest! {
        #![proptest_config(proptest::test_runner::Config { failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("tests/regressions/budget.txt"))), ..proptest::test_runner::Config::default() })]
        #[test]
        fn split_sums_exactly(b in 0.01f64..1e9, f in 0.0f64..100.0, e_frac in 0.0f64..1.0) {
            let e = (100.0 - f) * e_frac;
            let s = (100.0 - f - e).max(0.0);
            let split = budget_split(b, [f, e, s], &prices(), 8.0, None).unwrap();
            prop_assert_eq!(split.fixed + split.elastic + split.spot, split.budget);
            prop_assert!(!split.spot.is_negative());
            prop_assert_eq!(prices().monthly_money * split.fixed_gpus + split.fixed_remainder, split.fixed);
            prop_assert!(split.fixed_remainder < prices().monthly_money);
        }

        #[test]
        fn implied_shares_sum_to_one(a in 0i64..1_000_000_000, b in 0i64..1_000_000_000, c in 1i64..1_000_000_000) {
            let i = implied_split(Money::from_cents(a), Money::from_cents(b), Money::from_cents(c));
            prop_assert_eq!(i.total.cents(), a + b + c);
            prop_assert!((i.fixed_share + i.elastic_share + i.spot_share - 1.0).abs() < 1e-12);
        }
    }
}

//! § 3 Load-duration curve and § 4 cost of committing N GPUs.
//!
//! O(k) = Σ_t clamp(u_t − (k − 1), 0, 1): busy hours of the k-th GPU; monthly O(k)·H/T.
//! C(N) = N·P·T/H + r·Σ_t max(0, u_t − N) over the T hours of history; the page shows it
//! per month, M(N) = C(N)·H/T = N·P + r·E(N)·H/T. Since C(N) − C(N−1) = P·T/H − r·O(N) and
//! O is non-increasing, C is convex and N* = #{k : O(k)·H/T > H*} minimises it (a level
//! exactly at H* changes nothing: ties go to the smaller N). All O(peak) on a profile.

use super::money::Money;
use super::prices::Prices;
use super::profile::LevelProfile;

/// Relative tolerance under which a level's monthly occupancy counts as equal to H*.
const TIE_TOLERANCE: f64 = 1e-12;

/// One level of the load-duration curve.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelRow {
    /// k: the k-th GPU (1-based).
    pub k: u32,
    /// O(k): hours the k-th GPU is busy over the T hours of history.
    pub busy_hours: f64,
    /// O(k)·H/T: the same, scaled to a month (hours per month).
    pub monthly_hours: f64,
    /// O(k)/T: fraction of the time the k-th GPU is busy, 0..=1.
    pub utilization: f64,
    /// O(k)·H/T > H*: a monthly GPU at this level pays for itself.
    pub pays_monthly: bool,
}

/// § 3: the load-duration curve.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadDuration {
    /// T: hours of history used (lookback window; month length H for sliders).
    pub history_hours: f64,
    /// H/T: factor from the history period to a month.
    pub month_scale: f64,
    /// Peak GPUs busy (fractional possible).
    pub peak: f64,
    /// Mean GPUs busy Σu/T.
    pub mean: f64,
    /// Σu·H/T: GPU-hours used per month.
    pub monthly_gpu_hours: f64,
    /// H* = P/r, for the line on the chart (hours per month).
    pub breakeven_hours: f64,
    /// Levels k = 1..=ceil(peak).
    pub levels: Vec<LevelRow>,
}

/// One N of the commitment curve, per month.
#[derive(Debug, Clone, PartialEq)]
pub struct CommitRow {
    /// N: GPUs committed monthly.
    pub n: u32,
    /// N·P per month.
    pub fixed: Money,
    /// r·E(N)·H/T per month: GPU-hours above N bought on demand.
    pub elastic: Money,
    /// fixed + elastic (exact sum of the two amounts shown).
    pub total: Money,
    /// E(N)·H/T: on-demand GPU-hours per month.
    pub elastic_gpu_hours: f64,
}

/// § 4: monthly cost for every N from 0 to ceil(peak), and the cost-optimal N*.
#[derive(Debug, Clone, PartialEq)]
pub struct Commitment {
    /// Rows for N = 0..=ceil(peak) (index = N).
    pub rows: Vec<CommitRow>,
    /// N*: number of levels whose monthly occupancy exceeds H*.
    pub n_star: u32,
    /// H*: break-even hours per month.
    pub breakeven_hours: f64,
}

impl Commitment {
    /// The row of N* (always present).
    pub fn optimal(&self) -> &CommitRow {
        &self.rows[self.n_star as usize]
    }
}

/// Monthly cost of committing `n` GPUs on this profile (works for any n, also above the peak).
pub fn monthly_cost(levels: &LevelProfile, prices: &Prices, n: u32) -> CommitRow {
    let scale = month_scale(levels, prices);
    let elastic_gpu_hours = levels.excess(n) * scale;
    let fixed = prices.monthly_money * n as u64;
    let elastic = Money::from_f64(prices.on_demand * elastic_gpu_hours);
    CommitRow {
        n,
        fixed,
        elastic,
        total: fixed + elastic,
        elastic_gpu_hours,
    }
}

/// Cost over the history period, C(N) = N·P·T/H + r·E(N), as `f64` (for proofs and tests).
pub fn period_cost(levels: &LevelProfile, prices: &Prices, n: u32) -> f64 {
    n as f64 * prices.monthly * levels.hours() / prices.hours_per_month
        + prices.on_demand * levels.excess(n)
}

/// H/T (1 when the stretch is empty, so nothing is ever divided by zero).
pub fn month_scale(levels: &LevelProfile, prices: &Prices) -> f64 {
    if levels.hours() > 0.0 {
        prices.hours_per_month / levels.hours()
    } else {
        1.0
    }
}

/// N* = #{k : O(k)·H/T > H*}. O(peak).
pub fn n_star(levels: &LevelProfile, prices: &Prices) -> u32 {
    let scale = month_scale(levels, prices);
    let h_star = prices.breakeven_hours();
    levels
        .occupancy()
        .iter()
        .take_while(|&&o| o * scale > h_star * (1.0 + TIE_TOLERANCE))
        .count() as u32
}

/// § 3.
pub fn load_duration(levels: &LevelProfile, prices: &Prices) -> LoadDuration {
    let scale = month_scale(levels, prices);
    let h_star = prices.breakeven_hours();
    let t = levels.hours();
    let n_star = n_star(levels, prices);
    LoadDuration {
        history_hours: t,
        month_scale: scale,
        peak: levels.peak(),
        mean: levels.mean(),
        monthly_gpu_hours: levels.total_gpu_hours() * scale,
        breakeven_hours: h_star,
        levels: levels
            .occupancy()
            .iter()
            .enumerate()
            .map(|(i, &o)| LevelRow {
                k: i as u32 + 1,
                busy_hours: o,
                monthly_hours: o * scale,
                utilization: if t > 0.0 { (o / t).min(1.0) } else { 0.0 },
                pays_monthly: (i as u32) < n_star,
            })
            .collect(),
    }
}

/// § 4.
pub fn commitment(levels: &LevelProfile, prices: &Prices) -> Commitment {
    let rows = (0..=levels.levels())
        .map(|n| monthly_cost(levels, prices, n))
        .collect();
    Commitment {
        rows,
        n_star: n_star(levels, prices),
        breakeven_hours: prices.breakeven_hours(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    use crate::core::prices::example_prices as prices;

    #[test]
    fn four_hour_example() {
        // u = [0, 1.5, 3, 2.25], T = 4, H = 730 → H/T = 182.5; H* = 9000/25 = 360.
        // O = [3, 2.5, 1.25] → monthly 547.5, 456.25, 228.125 → N* = 2.
        // M(0) = 25·6.75·182.5 = 30796.875 → 30796.88
        // M(1) = 9000 + 25·3.75·182.5 = 9000 + 17109.375 → 26109.38
        // M(2) = 18000 + 25·1.25·182.5 = 18000 + 5703.125 → 23703.13
        // M(3) = 27000 + 0 = 27000.00
        let lv = LevelProfile::from_values(&[0.0, 1.5, 3.0, 2.25]);
        let ld = load_duration(&lv, &prices());
        let monthly: Vec<f64> = ld.levels.iter().map(|l| l.monthly_hours).collect();
        assert_eq!(monthly, vec![547.5, 456.25, 228.125]);
        assert_eq!(
            ld.levels.iter().map(|l| l.pays_monthly).collect::<Vec<_>>(),
            vec![true, true, false]
        );
        assert_eq!(ld.monthly_gpu_hours, 1231.875);
        let c = commitment(&lv, &prices());
        let totals: Vec<String> = c.rows.iter().map(|r| r.total.to_plain_string()).collect();
        assert_eq!(totals, vec!["30796.88", "26109.38", "23703.13", "27000.00"]);
        assert_eq!(c.n_star, 2);
        assert_eq!(c.optimal().elastic.to_plain_string(), "5703.13");
        assert_eq!(c.optimal().elastic_gpu_hours, 228.125);
    }

    #[test]
    fn exact_tie_goes_to_smaller_n() {
        // T = H = 730: one GPU busy exactly 360 h = H* → committing it changes nothing → N* = 0.
        let mut u = vec![0.0; 730];
        u[..360].iter_mut().for_each(|x| *x = 1.0);
        let lv = LevelProfile::from_values(&u);
        let c = commitment(&lv, &prices());
        assert_eq!(c.n_star, 0);
        assert_eq!(c.rows[0].total, c.rows[1].total); // 25·360 = 9000 = P
                                                      // One more busy hour → N* = 1.
        u[360] = 1.0;
        assert_eq!(n_star(&LevelProfile::from_values(&u), &prices()), 1);
    }

    #[test]
    fn all_idle_history_commits_nothing() {
        let lv = LevelProfile::from_values(&[0.0; 48]);
        let c = commitment(&lv, &prices());
        assert_eq!(c.n_star, 0);
        assert_eq!(c.rows.len(), 1);
        assert_eq!(c.rows[0].total, Money::ZERO);
    }

    fn series() -> impl Strategy<Value = Vec<f64>> {
        proptest::collection::vec(
            prop_oneof![Just(0.0), 0.0f64..20.0, (0u32..20).prop_map(f64::from)],
            1..300,
        )
    }

    proptest! {
        #![proptest_config(proptest::test_runner::Config { failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("tests/regressions/commitment.txt"))), ..proptest::test_runner::Config::default() })]
        /// N* minimises C(N) = N·P·T/H + r·Σ max(0, u_t − N) (computed by brute force on the
        /// raw series) over every N from 0 to the peak; the displayed monthly totals agree
        /// to the cent (rounding of two amounts can cost at most 1 cent).
        #[test]
        fn n_star_is_cost_optimal(values in series(), p in 1.0f64..50_000.0, r in 0.01f64..200.0,
                                  h in prop_oneof![Just(720.0), Just(730.0), Just(744.0)]) {
            let prices = Prices::new(p, r, h).unwrap();
            let lv = LevelProfile::from_values(&values);
            let t = values.len() as f64;
            let brute = |n: u32| n as f64 * p * t / h
                + r * values.iter().map(|&u| (u - n as f64).max(0.0)).sum::<f64>();
            let ns = n_star(&lv, &prices);
            let best = brute(ns);
            let c = commitment(&lv, &prices);
            for n in 0..=lv.levels() {
                let cn = brute(n);
                prop_assert!(best <= cn + 1e-9 * cn.abs().max(1.0), "C({ns})={best} > C({n})={cn}");
                prop_assert!((period_cost(&lv, &prices, n) - cn).abs() <= 1e-9 * cn.abs().max(1.0));
                prop_assert!(c.optimal().total.cents() <= c.rows[n as usize].total.cents() + 1);
            }
        }

        /// C(N) never decreases when P or r rise, for every N, and neither does min C.
        #[test]
        fn cost_is_monotone_in_prices(values in series(), p in 1.0f64..50_000.0, r in 0.01f64..200.0,
                                      dp in 0.0f64..1000.0, dr in 0.0f64..10.0) {
            let lv = LevelProfile::from_values(&values);
            let a = Prices::new(p, r, 730.0).unwrap();
            let b = Prices::new(p + dp, r + dr, 730.0).unwrap();
            for n in 0..=lv.levels() {
                prop_assert!(monthly_cost(&lv, &a, n).total <= monthly_cost(&lv, &b, n).total);
            }
            let ca = commitment(&lv, &a);
            let cb = commitment(&lv, &b);
            prop_assert!(ca.optimal().total <= cb.optimal().total + Money::from_cents(1));
        }
    }
}

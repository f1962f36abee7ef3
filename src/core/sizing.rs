//! § 6 Sizing rules side by side and § 7 lookback with the recent-drop guard.
//!
//! Four ways to pick the committed N: the average (round(Σu/T), half up), the minimum
//! stable waterline (§ 5), the cost-optimal N* (§ 4) and the peak (ceil(max u)). For each,
//! the monthly bill split into fixed and elastic, how well the fixed GPUs are used, how much
//! of the work they cover, and the saving against all on demand and against buying the peak.

use super::commitment::{monthly_cost, n_star};
use super::money::Money;
use super::prices::Prices;
use super::profile::{HistoryProfile, LevelProfile, GUARD_LONG_DAYS, GUARD_RECENT_DAYS};
use super::waterline::Waterline;

/// A sizing rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SizingRule {
    /// round(mean GPUs busy), half up.
    Average,
    /// floor(minimum stable waterline), § 5.
    Waterline,
    /// N* of § 4.
    CostOptimal,
    /// ceil(peak GPUs busy).
    Peak,
}

pub const SIZING_RULES: [SizingRule; 4] = [
    SizingRule::Average,
    SizingRule::Waterline,
    SizingRule::CostOptimal,
    SizingRule::Peak,
];

impl SizingRule {
    pub fn key(self) -> &'static str {
        match self {
            SizingRule::Average => "average",
            SizingRule::Waterline => "waterline",
            SizingRule::CostOptimal => "cost-optimal",
            SizingRule::Peak => "peak",
        }
    }
}

/// One row of the sizing table (all money per month).
#[derive(Debug, Clone, PartialEq)]
pub struct SizingRow {
    pub rule: SizingRule,
    /// N: GPUs committed monthly.
    pub n: u32,
    /// fixed + elastic per month (exact sum).
    pub total: Money,
    /// N·P per month.
    pub fixed: Money,
    /// r·Σmax(0, u − N)·H/T per month.
    pub elastic: Money,
    /// elastic / total, 0..=1 (0 when total is 0).
    pub elastic_share: f64,
    /// Σ min(u, N) / (N·T), 0..=1; `None` when N = 0.
    pub fixed_utilization: Option<f64>,
    /// Σ min(u, N) / Σ u, 0..=1; `None` when the history has no usage at all.
    pub coverage: Option<f64>,
    /// M(0) − M(N): saving against running everything on demand (negative = costs more).
    pub saving_vs_on_demand: Money,
    /// M(ceil(peak)) − M(N): saving against buying the peak monthly (negative = costs more).
    pub saving_vs_peak: Money,
}

/// § 6 result.
#[derive(Debug, Clone, PartialEq)]
pub struct SizingTable {
    /// Rows in the order of `SIZING_RULES`.
    pub rows: Vec<SizingRow>,
    /// M(0): all on demand, per month.
    pub all_on_demand: Money,
    /// M(ceil(peak)): the peak bought monthly, per month.
    pub all_peak: Money,
}

impl SizingTable {
    pub fn row(&self, rule: SizingRule) -> &SizingRow {
        // rows always hold every rule in SIZING_RULES order
        &self.rows[SIZING_RULES.iter().position(|&r| r == rule).unwrap_or(0)]
    }
}

/// The row for committing `n` GPUs on `levels` (any N; used for custom N too).
pub fn sizing_row(levels: &LevelProfile, prices: &Prices, rule: SizingRule, n: u32) -> SizingRow {
    let c = monthly_cost(levels, prices, n);
    let zero = monthly_cost(levels, prices, 0);
    let peak = monthly_cost(levels, prices, levels.levels());
    let covered = levels.covered(n);
    let t = levels.hours();
    let total_use = levels.total_gpu_hours();
    SizingRow {
        rule,
        n,
        total: c.total,
        fixed: c.fixed,
        elastic: c.elastic,
        elastic_share: c.elastic.ratio(c.total),
        fixed_utilization: (n > 0 && t > 0.0).then(|| (covered / (n as f64 * t)).clamp(0.0, 1.0)),
        coverage: (total_use > 0.0).then(|| (covered / total_use).clamp(0.0, 1.0)),
        saving_vs_on_demand: zero.total - c.total,
        saving_vs_peak: peak.total - c.total,
    }
}

/// N chosen by a rule that reads only the load levels: every rule but the waterline's
/// (`None` for that one, which needs the § 5 waterline).
pub fn level_rule_n(levels: &LevelProfile, prices: &Prices, rule: SizingRule) -> Option<u32> {
    match rule {
        SizingRule::Average => Some((levels.mean() + 0.5 + 1e-9).floor() as u32),
        SizingRule::Waterline => None,
        SizingRule::CostOptimal => Some(n_star(levels, prices)),
        SizingRule::Peak => Some(levels.levels()),
    }
}

/// N chosen by each rule.
pub fn rule_n(
    levels: &LevelProfile,
    prices: &Prices,
    waterline: &Waterline,
    rule: SizingRule,
) -> u32 {
    level_rule_n(levels, prices, rule).unwrap_or(waterline.buy)
}

/// § 6 on the lookback window of a profile.
pub fn sizing_table(
    profile: &HistoryProfile,
    prices: &Prices,
    waterline: &Waterline,
) -> SizingTable {
    let lv = &profile.window;
    let rows = SIZING_RULES
        .iter()
        .map(|&rule| sizing_row(lv, prices, rule, rule_n(lv, prices, waterline, rule)))
        .collect();
    SizingTable {
        rows,
        all_on_demand: monthly_cost(lv, prices, 0).total,
        all_peak: monthly_cost(lv, prices, lv.levels()).total,
    }
}

/// § 7 recent-drop guard: N* of the last 3 days beside N* of the last 30 days.
#[derive(Debug, Clone, PartialEq)]
pub struct RecentDropGuard {
    /// Days in the short window (3).
    pub recent_days: u32,
    /// Days in the long window (30).
    pub long_days: u32,
    /// Hours of history actually in each window (less when the history is shorter).
    pub recent_hours: f64,
    pub long_hours: f64,
    /// N* over the last 3 days.
    pub recent_n_star: u32,
    /// N* over the last 30 days.
    pub long_n_star: u32,
    /// min(recent, long): the guarded recommendation.
    pub recommended: u32,
    /// True when the recent N* is below the 30-day N* (usage dropped lately).
    pub drop_detected: bool,
    /// Monthly total at the recommended N (on the 30-day window).
    pub recommended_total: Money,
}

/// § 7; `None` for slider profiles (no history to look back on).
pub fn recent_drop_guard(profile: &HistoryProfile, prices: &Prices) -> Option<RecentDropGuard> {
    let (recent, long) = profile.guard.as_ref()?;
    let recent_n_star = n_star(recent, prices);
    let long_n_star = n_star(long, prices);
    let recommended = recent_n_star.min(long_n_star);
    Some(RecentDropGuard {
        recent_days: GUARD_RECENT_DAYS,
        long_days: GUARD_LONG_DAYS,
        recent_hours: recent.hours(),
        long_hours: long.hours(),
        recent_n_star,
        long_n_star,
        recommended,
        drop_detected: recent_n_star < long_n_star,
        recommended_total: monthly_cost(long, prices, recommended).total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::profile::{profile, Lookback, ProfileSettings};
    use crate::core::series::UsageSeries;
    use crate::core::waterline::waterline;

    use crate::core::prices::example_prices as prices;

    #[test]
    fn four_rules_on_a_small_history() {
        // u = [0, 1.5, 3, 2.25] without timestamps; T = 4, H/T = 182.5, mean 1.6875.
        // Average: round(1.6875) = 2; waterline q = 5 % → 1st value = 0 → N = 0;
        // N* = 2 (commitment.rs); peak = 3.
        // N = 2: fixed 18000, elastic 25·1.25·182.5 = 5703.125 → 5703.13, total 23703.13,
        //   elastic share 5703.13/23703.13 = 0.240606…, covered Σmin(u,2) = 0+1.5+2+2 = 5.5,
        //   utilization 5.5/(2·4) = 0.6875, coverage 5.5/6.75 = 0.814814…,
        //   saving vs on demand 30796.88 − 23703.13 = 7093.75, vs peak 27000 − 23703.13 = 3296.87.
        // N = 0: total 30796.88, utilization None, coverage 0, saving vs peak −3796.88.
        // N = 3: total 27000.00, utilization 6.75/12 = 0.5625, coverage 1.
        let s = UsageSeries::from_values(vec![0.0, 1.5, 3.0, 2.25]);
        let p = profile(&s, &ProfileSettings::default()).unwrap();
        let w = waterline(&p, 5.0).unwrap();
        let t = sizing_table(&p, &prices(), &w);
        let ns: Vec<u32> = t.rows.iter().map(|r| r.n).collect();
        assert_eq!(ns, vec![2, 0, 2, 3]);
        // The rules that read only the levels, without a waterline (the plan's baseline).
        let lv = &p.window;
        let by_levels: Vec<Option<u32>> = SIZING_RULES
            .iter()
            .map(|&r| level_rule_n(lv, &prices(), r))
            .collect();
        assert_eq!(by_levels, vec![Some(2), None, Some(2), Some(3)]);
        let avg = t.row(SizingRule::Average);
        assert_eq!(avg.total.to_plain_string(), "23703.13");
        assert_eq!(avg.fixed.to_plain_string(), "18000.00");
        assert_eq!(avg.elastic.to_plain_string(), "5703.13");
        assert!((avg.elastic_share - 570_313.0 / 2_370_313.0).abs() < 1e-15);
        assert_eq!(avg.fixed_utilization, Some(0.6875));
        assert!((avg.coverage.unwrap() - 5.5 / 6.75).abs() < 1e-15);
        assert_eq!(avg.saving_vs_on_demand.to_plain_string(), "7093.75");
        assert_eq!(avg.saving_vs_peak.to_plain_string(), "3296.87");
        let wl = t.row(SizingRule::Waterline);
        assert_eq!(wl.total.to_plain_string(), "30796.88");
        assert_eq!(wl.fixed_utilization, None);
        assert_eq!(wl.coverage, Some(0.0));
        assert_eq!(wl.saving_vs_peak.to_plain_string(), "-3796.88");
        let pk = t.row(SizingRule::Peak);
        assert_eq!(pk.total.to_plain_string(), "27000.00");
        assert_eq!(pk.fixed_utilization, Some(0.5625));
        assert_eq!(pk.coverage, Some(1.0));
        assert_eq!(pk.elastic_share, 0.0);
        assert_eq!(t.all_on_demand.to_plain_string(), "30796.88");
        assert_eq!(t.all_peak.to_plain_string(), "27000.00");
        // Every total is the exact sum of its parts.
        for r in &t.rows {
            assert_eq!(r.total, r.fixed + r.elastic);
        }
    }

    #[test]
    fn recent_drop_guard_recommends_the_lower() {
        // 30 days without timestamps: 27 days at 4 GPUs busy, then the last 3 days at 1.
        // Over 30 days: levels 1 busy 720 h, levels 2–4 busy 648 h → monthly ·730/720 = 657 > 360
        // → N*30 = 4. Over the last 3 days: level 1 busy 72 h of 72 → 730 > 360, level 2 idle
        // → N*3 = 1. Recommended 1; drop detected.
        let mut v = vec![4.0; 27 * 24];
        v.extend(vec![1.0; 3 * 24]);
        let p = profile(&UsageSeries::from_values(v), &ProfileSettings::default()).unwrap();
        let g = recent_drop_guard(&p, &prices()).unwrap();
        assert_eq!((g.recent_n_star, g.long_n_star, g.recommended), (1, 4, 1));
        assert!(g.drop_detected);
        assert_eq!((g.recent_hours, g.long_hours), (72.0, 720.0));
        // Monthly total at N = 1 on the 30-day window: 9000 + 25·(3·648)·730/720 = 9000 + 49275 = 58275.
        assert_eq!(g.recommended_total.to_plain_string(), "58275.00");
        // A 7-day lookback only sees the last 7 days: 4 days at 4, 3 days at 1.
        let p7 = profile(
            &UsageSeries::from_values([vec![4.0; 27 * 24], vec![1.0; 72]].concat()),
            &ProfileSettings {
                lookback: Lookback::Days(7),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(p7.window.hours(), 168.0);
        // levels 2–4 busy 96 of 168 h → 96·730/168 = 417.1 > 360 → N* = 4.
        assert_eq!(n_star(&p7.window, &prices()), 4);
    }

    #[test]
    fn slider_profile_has_no_guard_and_rules_follow_breakeven() {
        // 4 GPUs × 400 h > H* = 360 → N* = 4; 4 GPUs × 300 h → N* = 0.
        let p = HistoryProfile::from_sliders(4, 400.0, 730.0).unwrap();
        assert!(recent_drop_guard(&p, &prices()).is_none());
        assert_eq!(n_star(&p.window, &prices()), 4);
        let p = HistoryProfile::from_sliders(4, 300.0, 730.0).unwrap();
        assert_eq!(n_star(&p.window, &prices()), 0);
        let w = waterline(&p, 5.0).unwrap();
        let t = sizing_table(&p, &prices(), &w);
        // All on demand: 25 · 1200 = 30000; the peak: 4 · 9000 = 36000.
        assert_eq!(t.all_on_demand.to_plain_string(), "30000.00");
        assert_eq!(t.all_peak.to_plain_string(), "36000.00");
        assert_eq!(
            t.row(SizingRule::Peak).fixed_utilization,
            Some(300.0 / 730.0)
        );
    }
}

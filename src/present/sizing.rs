//! § 6 The sizing card: the sizing rules side by side, N*, the recent-drop guard (§ 7) and
//! the formula at N*.

use super::{failed, Presented, Shown};
use crate::core::commitment::Commitment;
use crate::core::error::InputError;
use crate::core::sizing::{RecentDropGuard, SizingRow, SizingRule, SizingTable};
use crate::format::Lang;
use crate::format::{money, number_trim, percent};
use crate::i18n::pick;

/// A sizing rule's name (the card's table and the Markdown export).
pub fn rule_name(l: Lang, r: SizingRule) -> &'static str {
    match r {
        SizingRule::Average => pick(l, "Average", "按平均值"),
        SizingRule::Waterline => pick(l, "Minimum stable waterline", "最低稳定水位"),
        SizingRule::CostOptimal => pick(l, "Cost-optimal N*", "成本最优 N*"),
        SizingRule::Peak => pick(l, "Peak", "按峰值"),
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SizingView {
    /// N* (`—` and an empty value when the commitment failed).
    pub optimal_n: Shown,
    /// One row per rule, in the order of `SIZING_RULES`.
    pub rows: Vec<RowView>,
    /// All on demand and all monthly at the peak.
    pub extremes: String,
    /// The recent-drop guard, when there is a history.
    pub guard: Option<GuardView>,
    /// The bill at N* with the prices typed (absent when the commitment failed).
    pub formula: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RowView {
    /// `sizing-{key}`, the row's test id.
    pub testid: String,
    pub rule: &'static str,
    pub n: Shown,
    pub total: Shown,
    pub fixed: String,
    pub elastic: String,
    pub elastic_share: String,
    pub fixed_utilization: String,
    pub coverage: String,
    pub saving_vs_on_demand: String,
    pub saving_vs_peak: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct GuardView {
    /// The paragraph's class: `warning` when usage dropped recently, else `field-hint`.
    pub class: &'static str,
    /// The recommended N (`data-value`).
    pub recommended: String,
    pub text: String,
}

/// `p`, `r`: the monthly and on-demand prices typed.
pub fn present(
    l: Lang,
    cur: &str,
    sizing: &Result<SizingTable, InputError>,
    commitment: &Result<Commitment, InputError>,
    guard: &Result<Option<RecentDropGuard>, InputError>,
    p: f64,
    r: f64,
) -> Presented<SizingView> {
    let table = sizing.as_ref().or_else(|e| failed(l, e))?;
    let n_star = commitment.as_ref().ok().map(|c| c.n_star);
    let formula = commitment.as_ref().ok().and_then(|c| {
        let row = c.rows.iter().find(|row| row.n == c.n_star)?;
        Some(format!(
            "H* = {} h;  N* = {}:  {} × {} + {} × {} GPU-h = {} + {} = {}",
            number_trim(c.breakeven_hours, 2, l),
            c.n_star,
            c.n_star,
            number_trim(p, 2, l),
            number_trim(r, 4, l),
            number_trim(row.elastic_gpu_hours, 2, l),
            money(row.fixed, cur, l),
            money(row.elastic, cur, l),
            money(row.total, cur, l),
        ))
    });
    Ok(SizingView {
        optimal_n: Shown::new(
            n_star.map(|n| n.to_string()).unwrap_or_else(|| "—".into()),
            n_star.map(|n| n.to_string()).unwrap_or_default(),
        ),
        rows: table.rows.iter().map(|row| row_view(l, cur, row)).collect(),
        extremes: format!(
            "{} {} · {} {}",
            pick(l, "All on demand:", "全部按量："),
            money(table.all_on_demand, cur, l),
            pick(l, "all monthly at the peak:", "按峰值全部包月："),
            money(table.all_peak, cur, l)
        ),
        guard: match guard {
            Ok(Some(g)) => Some(guard_view(l, g)),
            _ => None,
        },
        formula,
    })
}

fn row_view(l: Lang, cur: &str, row: &SizingRow) -> RowView {
    let share = |f: Option<f64>| f.map(|u| percent(u, 1, l)).unwrap_or_else(|| "—".into());
    RowView {
        testid: format!("sizing-{}", row.rule.key()),
        rule: rule_name(l, row.rule),
        n: Shown::new(row.n.to_string(), row.n.to_string()),
        total: Shown::new(money(row.total, cur, l), row.total.to_plain_string()),
        fixed: money(row.fixed, cur, l),
        elastic: money(row.elastic, cur, l),
        elastic_share: percent(row.elastic_share, 1, l),
        fixed_utilization: share(row.fixed_utilization),
        coverage: share(row.coverage),
        saving_vs_on_demand: money(row.saving_vs_on_demand, cur, l),
        saving_vs_peak: money(row.saving_vs_peak, cur, l),
    }
}

fn guard_view(l: Lang, g: &RecentDropGuard) -> GuardView {
    let (recent, long) = (g.recent_days, g.long_days);
    let (a, b, n) = (g.recent_n_star, g.long_n_star, g.recommended);
    let dropped = if g.drop_detected {
        pick(l, " (usage dropped recently)", "（近期用量下降）")
    } else {
        ""
    };
    let text = match l {
        Lang::En => format!(
            "Recent-drop guard: N* over the last {recent} days = {a}, over the last {long} days = {b} → the lower, {n}, is safer{dropped}."
        ),
        Lang::Zh => format!(
            "近期下降保护：最近 {recent} 天的 N* = {a}，最近 {long} 天的 N* = {b} → 取较低的 {n}{dropped}。"
        ),
    };
    GuardView {
        class: if g.drop_detected {
            "warning"
        } else {
            "field-hint"
        },
        recommended: g.recommended.to_string(),
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::commitment::commitment;
    use crate::core::error::{Field, Problem};
    use crate::core::money::Money;
    use crate::core::prices::example_prices;
    use crate::core::profile::{profile, ProfileSettings};
    use crate::core::series::UsageSeries;
    use crate::core::sizing::sizing_table;
    use crate::core::waterline::waterline;

    fn example() -> (
        Result<SizingTable, InputError>,
        Result<Commitment, InputError>,
    ) {
        // u = [0, 1.5, 3, 2.25], P = 9 000, r = 25, H = 730 (core::sizing's hand example):
        // T = 4, H/T = 182.5; N* = 2 (H* = 9 000 / 25 = 360 h).
        let prices = example_prices();
        let s = UsageSeries::from_values(vec![0.0, 1.5, 3.0, 2.25]);
        let p = profile(&s, &ProfileSettings::default()).unwrap();
        let w = waterline(&p, 5.0).unwrap();
        (
            Ok(sizing_table(&p, &prices, &w)),
            Ok(commitment(&p.window, &prices)),
        )
    }

    fn guard(drop: bool) -> RecentDropGuard {
        RecentDropGuard {
            recent_days: 3,
            long_days: 30,
            recent_hours: 72.0,
            long_hours: 720.0,
            recent_n_star: 2,
            long_n_star: 5,
            recommended: 2,
            drop_detected: drop,
            recommended_total: Money::from_cents(1_800_000),
        }
    }

    /// The average row commits N = 2: fixed 2 × 9 000 = 18 000; elastic
    /// 25 × Σ max(0, u − 2) × 182.5 = 25 × 1.25 × 182.5 = 5 703.125 → 5 703.13; total
    /// 23 703.13; elastic share 24.1 %; fixed utilization 5.5 / 8 = 68.8 %; coverage
    /// 5.5 / 6.75 = 81.5 %; all on demand 25 × 6.75 × 182.5 = 30 796.88, saving 7 093.75;
    /// the peak 3 × 9 000 = 27 000, saving 3 296.87. The waterline row commits 0 (no
    /// fixed utilization: "—"). The formula at N* = 2 shows E(2)·H/T = 228.125 GPU-h as
    /// 228.12 (`number_trim` rounds the exact binary value half to even).
    #[test]
    fn hand_example_in_both_languages() {
        let (t, c) = example();
        let en = present(Lang::En, "¥", &t, &c, &Ok(Some(guard(true))), 9000.0, 25.0).unwrap();
        assert_eq!(en.optimal_n, Shown::new("2", "2"));
        assert_eq!(en.rows.len(), 4);
        let avg = &en.rows[0];
        assert_eq!(avg.testid, "sizing-average");
        assert_eq!(avg.rule, "Average");
        assert_eq!(avg.n, Shown::new("2", "2"));
        assert_eq!(avg.total, Shown::new("¥23,703.13", "23703.13"));
        assert_eq!(avg.fixed, "¥18,000.00");
        assert_eq!(avg.elastic, "¥5,703.13");
        assert_eq!(avg.elastic_share, "24.1 %");
        assert_eq!(avg.fixed_utilization, "68.8 %");
        assert_eq!(avg.coverage, "81.5 %");
        assert_eq!(avg.saving_vs_on_demand, "¥7,093.75");
        assert_eq!(avg.saving_vs_peak, "¥3,296.87");
        let wl = &en.rows[1];
        assert_eq!(wl.testid, "sizing-waterline");
        assert_eq!(wl.fixed_utilization, "—");
        assert_eq!(wl.saving_vs_peak, "-¥3,796.88");
        assert_eq!(
            en.extremes,
            "All on demand: ¥30,796.88 · all monthly at the peak: ¥27,000.00"
        );
        let g = en.guard.as_ref().unwrap();
        assert_eq!(g.class, "warning");
        assert_eq!(g.recommended, "2");
        assert_eq!(
            g.text,
            "Recent-drop guard: N* over the last 3 days = 2, over the last 30 days = 5 → the lower, 2, is safer (usage dropped recently)."
        );
        assert_eq!(
            en.formula.as_deref(),
            Some("H* = 360 h;  N* = 2:  2 × 9,000 + 25 × 228.12 GPU-h = ¥18,000.00 + ¥5,703.13 = ¥23,703.13")
        );

        let zh = present(Lang::Zh, "¥", &t, &c, &Ok(Some(guard(false))), 9000.0, 25.0).unwrap();
        assert_eq!(zh.rows[0].rule, "按平均值");
        assert_eq!(zh.rows[3].rule, "按峰值");
        assert_eq!(zh.rows[0].elastic_share, "24.1%");
        assert_eq!(
            zh.extremes,
            "全部按量： ¥30,796.88 · 按峰值全部包月： ¥27,000.00"
        );
        let g = zh.guard.unwrap();
        assert_eq!(g.class, "field-hint");
        assert_eq!(
            g.text,
            "近期下降保护：最近 3 天的 N* = 2，最近 30 天的 N* = 5 → 取较低的 2。"
        );
    }

    #[test]
    fn without_a_guard_or_a_commitment_and_errors() {
        let (t, _) = example();
        let err = InputError::new(Field::OnDemandPrice, Problem::MustBePositive);
        let v = present(Lang::En, "$", &t, &Err(err.clone()), &Ok(None), 9000.0, 0.0).unwrap();
        assert_eq!(v.optimal_n, Shown::new("—", ""));
        assert_eq!(v.guard, None);
        assert_eq!(v.formula, None);
        assert!(present(
            Lang::En,
            "$",
            &Err(err.clone()),
            &Err(err),
            &Ok(None),
            9000.0,
            0.0
        )
        .unwrap_err()
        .contains("must be greater than 0"));
    }
}

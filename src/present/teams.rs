//! § 21 "Who uses the GPUs": the team table's texts (usage, baseline, cost per month), the
//! teams' sum against the plan's total, and the standalone and Shapley columns (computed apart,
//! after the changes pause: [`present_shapley`]).

use super::{Presented, Shown};
use crate::core::ingest::{TeamSource, OTHER_TEAMS, UNALLOCATED};
use crate::core::money::Money;
use crate::core::teams::{IdleSplit, Shapley, TeamTable};
use crate::format::Lang;
use crate::format::{money, number_trim, percent};
use crate::i18n::{error_message, pick};

/// Teams listed one per row before "show all": the largest by GPU-hours; the others are summed
/// in one row (a price change rewrites the rows shown, and 200 teams' 2 800 cells cost
/// ~100 ms a change).
pub const SHOWN_TEAMS: usize = 20;

#[derive(Debug, Clone, PartialEq)]
pub struct TeamRowView {
    /// Index of the team in the table (its Shapley values' index).
    pub index: usize,
    /// The team's name as shown (the `data-team` of its row).
    pub name: String,
    pub gpu_hours: Shown,
    pub share: Shown,
    /// "p50 / p95 / peak" GPUs.
    pub levels: Shown,
    pub trough_share: Shown,
    pub peak_share: Shown,
    pub baseline_hours: Shown,
    pub committed: Shown,
    pub idle: Shown,
    pub elastic: Shown,
    pub total: Shown,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TeamsView {
    /// The rows shown, in the order given (largest GPU-hours first).
    pub rows: Vec<TeamRowView>,
    /// The teams not shown, summed: how many, and their row (`None` when all are shown).
    pub rest: Option<(usize, TeamRowView)>,
    /// [`IdleSplit::Row`]: the idle committed cost as a row of its own.
    pub idle_row: Option<Shown>,
    /// Σ of the teams' totals (and the idle row): the plan's monthly total.
    pub total_sum: Shown,
    /// "= the plan's monthly total ¥…" (or what differs).
    pub check: String,
    /// Who the baseline serves and who drives the peaks.
    pub summary: String,
    /// What the usage and the money are computed over.
    pub basis: String,
    pub formula: String,
}

/// A team's name as shown: the unallocated and "other teams" rows in the page's language.
pub fn team_name(l: Lang, name: &str) -> String {
    match name {
        UNALLOCATED => pick(l, "(no team)", "（未归属）").to_string(),
        OTHER_TEAMS => pick(l, "(other teams)", "（其他团队）").to_string(),
        _ => name.to_string(),
    }
}

/// "column Account", "label namespace", "tag resourceTags/user:team".
pub fn source_text(l: Lang, s: &TeamSource) -> String {
    let (en, zh) = match s {
        TeamSource::Column(_) => ("column", "列"),
        TeamSource::Label(_) => ("label", "标签"),
        TeamSource::Tag(_) => ("tag", "标记"),
    };
    match l {
        Lang::En => format!("{en} {}", s.name()),
        Lang::Zh => format!("{zh} {}", s.name()),
    }
}

fn cash(m: Money, cur: &str, l: Lang) -> Shown {
    Shown::new(money(m, cur, l), m.to_plain_string())
}

fn share(f: f64, l: Lang) -> Shown {
    Shown::new(percent(f, 1, l), format!("{:.6}", f))
}

fn hours(h: f64, l: Lang) -> Shown {
    Shown::new(number_trim(h, 1, l), format!("{:.3}", h))
}

pub fn split_name(l: Lang, s: IdleSplit) -> &'static str {
    match s {
        IdleSplit::Proportional => pick(l, "by baseline use", "按基线用量比例"),
        IdleSplit::Even => pick(l, "evenly", "平均分摊"),
        IdleSplit::Fixed => pick(l, "fixed shares", "固定比例"),
        IdleSplit::Row => pick(l, "as a separate row", "单列一行"),
    }
}

/// The team table's texts. `plan_total`: the plan's monthly total (its pools); `order`: the
/// teams by GPU-hours, largest first; `shown`: how many of them get a row (the rest one row).
#[allow(clippy::too_many_arguments)]
pub fn present(
    l: Lang,
    cur: &str,
    table: &Result<TeamTable, crate::core::error::InputError>,
    plan_total: Money,
    n: u32,
    source: &TeamSource,
    order: &[usize],
    shown: usize,
) -> Presented<TeamsView> {
    let t = table.as_ref().map_err(|e| error_message(l, e))?;
    let shown = shown.min(order.len());
    let rows: Vec<TeamRowView> = order[..shown]
        .iter()
        .filter_map(|&i| t.rows.get(i).map(|r| (i, r)))
        .map(|(index, r)| TeamRowView {
            index,
            name: team_name(l, &r.name),
            gpu_hours: hours(r.gpu_hours, l),
            share: share(r.share, l),
            levels: Shown::new(
                format!(
                    "{} / {} / {}",
                    number_trim(r.p50, 2, l),
                    number_trim(r.p95, 2, l),
                    number_trim(r.peak, 2, l)
                ),
                format!("{} {} {}", r.p50, r.p95, r.peak),
            ),
            trough_share: share(r.trough_share, l),
            peak_share: share(r.peak_share, l),
            baseline_hours: hours(r.baseline_hours, l),
            committed: cash(r.committed, cur, l),
            idle: cash(r.idle, cur, l),
            elastic: cash(r.elastic(), cur, l),
            total: cash(r.total, cur, l),
        })
        .collect();
    let rest = (shown < order.len()).then(|| {
        let others: Vec<&crate::core::teams::TeamRow> = order[shown..]
            .iter()
            .filter_map(|&i| t.rows.get(i))
            .collect();
        let sum_f =
            |f: fn(&crate::core::teams::TeamRow) -> f64| others.iter().map(|r| f(r)).sum::<f64>();
        let sum_m = |f: fn(&crate::core::teams::TeamRow) -> Money| {
            others.iter().map(|r| f(r)).sum::<Money>()
        };
        let k = others.len();
        (
            k,
            TeamRowView {
                index: usize::MAX,
                name: match l {
                    Lang::En => format!("{k} more teams"),
                    Lang::Zh => format!("其余 {k} 个团队"),
                },
                gpu_hours: hours(sum_f(|r| r.gpu_hours), l),
                share: share(sum_f(|r| r.share), l),
                levels: Shown::default(),
                trough_share: share(sum_f(|r| r.trough_share), l),
                peak_share: share(sum_f(|r| r.peak_share), l),
                baseline_hours: hours(sum_f(|r| r.baseline_hours), l),
                committed: cash(sum_m(|r| r.committed), cur, l),
                idle: cash(sum_m(|r| r.idle), cur, l),
                elastic: cash(sum_m(|r| r.elastic()), cur, l),
                total: cash(sum_m(|r| r.total), cur, l),
            },
        )
    });
    let lead = |f: fn(&crate::core::teams::TeamRow) -> f64| {
        t.rows
            .iter()
            .max_by(|a, b| f(a).total_cmp(&f(b)))
            .filter(|r| f(r) > 0.0)
            .map(|r| (team_name(l, &r.name), f(r)))
    };
    let summary = match (lead(|r| r.trough_share), lead(|r| r.peak_share)) {
        (Some((bn, bs)), Some((pn, ps))) => match l {
            Lang::En => format!(
                "{} teams, from the {}. The baseline of {n} GPUs mostly serves {bn} ({} of the usage in the {} hours at or below it); {pn} drives the peaks ({} of the usage in the top {} hours).",
                t.rows.len(), source_text(l, source), percent(bs, 0, l), t.trough_hours, percent(ps, 0, l), t.peak_hours
            ),
            Lang::Zh => format!(
                "共 {} 个团队，来自{}。{n} 张固定卡主要服务 {bn}（在用量不超过它的 {} 小时里占 {}）；{pn} 推高峰值（用量最高的 {} 小时里占 {}）。",
                t.rows.len(), source_text(l, source), t.trough_hours, percent(bs, 0, l), t.peak_hours, percent(ps, 0, l)
            ),
        },
        _ => match l {
            Lang::En => format!("{} teams, from the {}. No usage in the hours read.", t.rows.len(), source_text(l, source)),
            Lang::Zh => format!("共 {} 个团队，来自{}。所读时段内没有用量。", t.rows.len(), source_text(l, source)),
        },
    };
    let basis = match l {
        Lang::En => format!(
            "GPU-hours, shares and baseline hours over the {} hours read; costs per month, from the {} hours the plan is sized on. Idle committed cost {}: {}.",
            t.hours, t.window_hours, split_name(l, t.split), money(t.committed_idle, cur, l)
        ),
        Lang::Zh => format!(
            "卡时、占比与基线卡时按所读的 {} 小时计；成本按月，取方案定规模所用的 {} 小时。闲置包月成本（{}）：{}。",
            t.hours, t.window_hours, split_name(l, t.split), money(t.committed_idle, cur, l)
        ),
    };
    let check = if t.total == plan_total {
        match l {
            Lang::En => format!("= the plan's monthly total, {}", money(plan_total, cur, l)),
            Lang::Zh => format!("= 方案每月合计 {}", money(plan_total, cur, l)),
        }
    } else {
        match l {
            Lang::En => format!("the plan's monthly total is {}", money(plan_total, cur, l)),
            Lang::Zh => format!("方案每月合计为 {}", money(plan_total, cur, l)),
        }
    };
    Ok(TeamsView {
        rows,
        rest,
        idle_row: (t.split == IdleSplit::Row).then(|| cash(t.idle_row, cur, l)),
        total_sum: cash(t.total, cur, l),
        check,
        summary,
        basis,
        formula: format!(
            "b(t,i) = u(t,i)·min(U(t), {n})/U(t); committed_i = {} × Σb_i/Σb; idle {} shared {}; elastic_i = (spot + on demand) × Σ(u − b)_i/Σ(u − b)",
            money(t.committed_used, cur, l),
            money(t.committed_idle, cur, l),
            split_name(Lang::En, t.split),
        ),
    })
}

#[derive(Debug, Clone, PartialEq)]
pub struct ShapleyView {
    pub standalone: Vec<Shown>,
    pub shapley: Vec<Shown>,
    pub saving: Vec<Shown>,
    /// Exact over 2ⁿ plans, or sampled with its standard error; and what pooling saves.
    pub note: String,
}

pub fn present_shapley(l: Lang, cur: &str, s: &Shapley) -> ShapleyView {
    let n = s.values.len();
    let standalone_sum: Money = s.standalone.iter().copied().sum();
    let note_how = if s.exact {
        match l {
            Lang::En => format!(
                "exact: the plan computed for all {} groups of teams",
                s.plans
            ),
            Lang::Zh => format!("精确值：对全部 {} 种团队组合各算一次方案", s.plans),
        }
    } else {
        let se = Money::from_f64(s.max_std_error());
        match l {
            Lang::En => format!(
                "sampled: {} orders of the {n} teams ({} plans), standard error at most {}",
                s.orders,
                s.plans,
                money(se, cur, l)
            ),
            Lang::Zh => format!(
                "抽样估计：{n} 个团队的 {} 种排列（{} 次方案计算），标准误差不超过 {}",
                s.orders,
                s.plans,
                money(se, cur, l)
            ),
        }
    };
    let note = match l {
        Lang::En => format!(
            "Shapley value: each team's average added cost over every order in which the teams could join the pool ({note_how}). Bought alone the teams would pay {} a month; pooled, {} — pooling saves {}.",
            money(standalone_sum, cur, l), money(s.grand, cur, l), money(standalone_sum - s.grand, cur, l)
        ),
        Lang::Zh => format!(
            "Shapley 值：团队以各种顺序加入资源池时，该团队平均带来的新增成本（{note_how}）。各团队单独购买合计每月 {}；合在一起 {}，合池节省 {}。",
            money(standalone_sum, cur, l), money(s.grand, cur, l), money(standalone_sum - s.grand, cur, l)
        ),
    };
    ShapleyView {
        standalone: s.standalone.iter().map(|m| cash(*m, cur, l)).collect(),
        shapley: s.values.iter().map(|m| cash(*m, cur, l)).collect(),
        saving: (0..n).map(|i| cash(s.saving(i), cur, l)).collect(),
        note,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::teams::{team_table, PlanPools, TeamTableInputs, TeamUsage};

    #[test]
    fn example_texts() {
        let a = [1.0, 1.0, 2.0, 0.0];
        let b = [0.0, 1.0, 1.0, 1.0];
        let c = [0.0, 0.0, 1.0, 3.0];
        let teams = [("A", &a), ("B", &b), (UNALLOCATED, &c)]
            .map(|(name, values)| TeamUsage { name, values });
        let pools = PlanPools {
            gpus: 2,
            monthly_price: 12_000.0,
            reserved: Money::from_cents(2_400_000),
            on_demand: Money::from_cents(912_500),
            spot: Money::from_cents(292_000),
        };
        let t = team_table(&teams, &pools, &TeamTableInputs::default());
        let source = TeamSource::Column("Account".into());
        let shown = |l, order: &[usize], most| {
            present(l, "¥", &t, pools.total(), 2, &source, order, most).unwrap()
        };
        let v = shown(Lang::En, &[0, 1, 2], SHOWN_TEAMS);
        assert_eq!(v.rest, None);
        assert_eq!(v.rows[0].total.text, "¥13,296.97");
        assert_eq!(v.rows[2].name, "(no team)");
        assert_eq!(v.total_sum.value, "36045.00");
        assert_eq!(v.check, "= the plan's monthly total, ¥36,045.00");
        assert!(v.summary.contains("mostly serves A (67 %"), "{}", v.summary);
        assert!(
            v.summary.contains("A drives the peaks (50 %"),
            "{}",
            v.summary
        );
        let zh = shown(Lang::Zh, &[0, 1, 2], SHOWN_TEAMS);
        assert_eq!(zh.rows[2].name, "（未归属）");
        // Two shown, the third summed in one row.
        let two = shown(Lang::En, &[2, 0, 1], 2);
        assert_eq!(
            (two.rows[0].name.as_str(), two.rows[0].index),
            ("(no team)", 2)
        );
        let (k, rest) = two.rest.unwrap();
        assert_eq!(
            (k, rest.name.as_str(), rest.total.value.as_str()),
            (1, "1 more teams", "9868.39")
        );
        assert!(zh.summary.contains("来自列 Account"), "{}", zh.summary);
    }
}

//! Exports for planning documents: Markdown summary (headline, sizing table, break-even,
//! budget split, link) and CSV of the sizing table and the monthly review.
//! Pure (no browser), natively tested.

use std::fmt::Write as _;

use crate::core::plan::{PlanInputs, PlanOutputs};
use crate::core::review::Review;
use crate::core::sizing::SizingTable;
use crate::core::terms::Terms;
use crate::format::{money, number_trim, percent, plain};
use crate::i18n::{pick, Lang};
use crate::inputs::{Group, INPUTS};
use crate::present::headline::sentence;
use crate::present::sizing::rule_name;
use crate::present::terms::option_name;

/// Markdown cells cannot hold `|` or line breaks.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// The plan as Markdown, ready to paste into a planning document: the answer, the tables,
/// the inputs it was computed from (from `inputs::INPUTS`) and the link.
pub fn markdown(
    lang: Lang,
    inputs: &PlanInputs,
    out: &PlanOutputs,
    currency: &str,
    link: &str,
) -> String {
    let l = lang;
    let m = |x| money(x, currency, l);
    let mut md = String::new();
    let _ = writeln!(
        md,
        "## {}\n",
        pick(
            l,
            "GPU plan (GPU Rent Planner)",
            "GPU 方案（GPU Rent Planner）"
        )
    );
    if let (Ok(base), Ok(pools), Ok(sizing)) = (&out.baseline, &out.pools, &out.sizing) {
        let saving = sizing.all_on_demand - pools.total;
        let _ = writeln!(
            md,
            "**{}** {} {}{} {}{} ({}).\n",
            sentence(l, base, pools.spot_gpu_hours > 0.0),
            m(pools.total),
            pick(l, "per month", "/月"),
            pick(l, ",", "，"),
            if saving.is_negative() {
                pick(l, "costing more than all on-demand by ", "比全部按量多花 ")
            } else {
                pick(l, "saving vs all on-demand: ", "比全部按量节省 ")
            },
            m(if saving.is_negative() {
                -saving
            } else {
                saving
            }),
            percent(saving.ratio(sizing.all_on_demand).abs(), 1, l)
        );
    }
    if let Ok(b) = &out.breakeven {
        let _ = writeln!(
            md,
            "- {} **{} {}** ({} {})",
            pick(l, "Break-even:", "盈亏平衡点："),
            number_trim(b.hours, 2, l),
            pick(l, "hours per month", "小时/月"),
            percent(b.utilization, 1, l),
            match l {
                Lang::En => format!(
                    "utilization of a {}-hour month",
                    number_trim(b.hours_per_month, 0, l)
                ),
                Lang::Zh => format!(
                    "（每月 {} 小时）的利用率",
                    number_trim(b.hours_per_month, 0, l)
                ),
            }
        );
    }
    if let Ok(p) = &out.pools {
        let _ = writeln!(
            md,
            "- {} {} {} · {} {} · {} {}",
            pick(l, "Pools:", "三个资源池："),
            pick(l, "monthly", "包月"),
            m(p.reserved),
            pick(l, "on demand", "按量"),
            m(p.on_demand),
            pick(l, "spot", "竞价"),
            m(p.spot)
        );
    }
    if let Ok(b) = &out.budget {
        let _ = writeln!(
            md,
            "- {} {} → {} {} ({} {}) · {} {} ({} {}) · {} {}",
            pick(l, "Budget split:", "预算分配："),
            m(b.budget),
            pick(l, "fixed", "固定"),
            m(b.fixed),
            b.fixed_gpus,
            pick(l, "monthly GPUs", "张包月 GPU"),
            pick(l, "elastic", "弹性"),
            m(b.elastic),
            number_trim(b.on_demand_gpu_hours, 0, l),
            pick(l, "on-demand GPU-hours", "按量 GPU 小时"),
            pick(l, "spot and emergencies", "竞价与应急"),
            m(b.spot)
        );
    }
    if let Ok(t) = &out.sizing {
        let _ = writeln!(
            md,
            "\n| {} | N | {} | {} | {} | {} |\n|---|---:|---:|---:|---:|---:|",
            pick(l, "Rule", "规则"),
            pick(l, "Monthly total", "月度总额"),
            pick(l, "Fixed", "固定"),
            pick(l, "Elastic", "弹性"),
            pick(l, "Saving vs all on-demand", "比全部按量节省")
        );
        for r in &t.rows {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} |",
                cell(rule_name(l, r.rule)),
                r.n,
                cell(&m(r.total)),
                cell(&m(r.fixed)),
                cell(&m(r.elastic)),
                cell(&m(r.saving_vs_on_demand))
            );
        }
    }
    if let Ok(t) = &out.terms {
        let _ = writeln!(
            md,
            "\n| {} | {} | N | {} | {} | {} | {} |\n|---|---:|---:|---:|---:|---:|---:|",
            pick(l, "Term", "期限"),
            pick(l, "Effective per GPU-month", "每卡每月等效价"),
            pick(l, "Monthly total", "月度总额"),
            pick(l, "Saving vs all on-demand", "比全部按量节省"),
            pick(l, "Pays back (month)", "回本（月）"),
            match l {
                Lang::En => format!("Cost over {} months", t.compared_months),
                Lang::Zh => format!("{} 个月总成本", t.compared_months),
            }
        );
        for (i, r) in t.rows.iter().enumerate() {
            let mark = if i == t.recommended {
                pick(l, " (recommended)", "（推荐）")
            } else {
                ""
            };
            let _ = writeln!(
                md,
                "| {}{} | {} | {} | {} | {} | {} | {} |",
                cell(&option_name(l, r.term, r.payment)),
                mark,
                cell(&m(r.effective_monthly)),
                r.gpus,
                cell(&m(r.monthly_total)),
                cell(&m(r.saving)),
                r.breakeven_month
                    .map_or_else(|| "—".to_string(), |b| b.to_string()),
                cell(&m(r.horizon_cost))
            );
        }
    }
    let _ = writeln!(md, "\n### {}\n", pick(l, "Inputs", "输入"));
    let defaults = PlanInputs::default();
    let mut unchanged = 0;
    for spec in INPUTS {
        // Prices and usage always; any other input when it is not its default.
        let always = matches!(spec.group, Group::Prices | Group::Usage);
        if always || spec.write(inputs, &defaults).is_some() {
            let _ = writeln!(
                md,
                "- {}{}{}",
                cell(spec.label(l)),
                pick(l, ": ", "："),
                spec.text(inputs)
            );
        } else {
            unchanged += 1;
        }
    }
    if unchanged > 0 {
        let _ = writeln!(
            md,
            "- {}",
            match l {
                Lang::En =>
                    format!("{unchanged} other inputs at their defaults (the link holds them all)"),
                Lang::Zh => format!("其余 {unchanged} 项输入为默认值（链接中包含全部输入）"),
            }
        );
    }
    let _ = writeln!(
        md,
        "\n{} <{}>",
        pick(l, "Open the plan:", "打开方案："),
        link
    );
    md
}

/// A CSV field, quoted when it holds a comma, quote or line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn opt(v: Option<f64>, decimals: usize) -> String {
    v.map(|x| plain(x, decimals)).unwrap_or_default()
}

/// The sizing table as CSV (plain numbers, `.` decimal point; shares as fractions).
pub fn sizing_csv(table: &SizingTable) -> String {
    let mut s = String::from(
        "rule,n,monthly_total,fixed,elastic,elastic_share,fixed_utilization,coverage,saving_vs_on_demand,saving_vs_peak\n",
    );
    for r in &table.rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{}",
            r.rule.key(),
            r.n,
            r.total.to_plain_string(),
            r.fixed.to_plain_string(),
            r.elastic.to_plain_string(),
            plain(r.elastic_share, 6),
            opt(r.fixed_utilization, 6),
            opt(r.coverage, 6),
            r.saving_vs_on_demand.to_plain_string(),
            r.saving_vs_peak.to_plain_string()
        );
    }
    s
}

/// The term table as CSV (plain numbers; break-even hours and month empty where none).
pub fn terms_csv(terms: &Terms) -> String {
    let mut s = String::from(
        "term,payment,upfront_per_gpu,monthly_per_gpu,effective_monthly_per_gpu,breakeven_hours,gpus,monthly_total,saving_vs_on_demand,breakeven_month,months_compared,cost_over_horizon,stop_risk,drop_risk,recommended\n",
    );
    for (i, r) in terms.rows.iter().enumerate() {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.key(),
            r.payment.key(),
            r.upfront.to_plain_string(),
            r.recurring.to_plain_string(),
            r.effective_monthly.to_plain_string(),
            opt(r.breakeven_hours, 6),
            r.gpus,
            r.monthly_total.to_plain_string(),
            r.saving.to_plain_string(),
            r.breakeven_month.map(|b| b.to_string()).unwrap_or_default(),
            terms.compared_months,
            r.horizon_cost.to_plain_string(),
            r.stop_risk.to_plain_string(),
            r.drop_risk.map(|d| d.to_plain_string()).unwrap_or_default(),
            i == terms.recommended
        );
    }
    s
}

/// The monthly review as CSV (one row per month; flags as true/false).
pub fn review_csv(review: &Review) -> String {
    let mut s = String::from(
        "month,hours,baseline_gpus,fixed_utilization,fixed_spend,elastic_spend,queue_hours,low_utilization,elastic_above_fixed,queue_over_limit\n",
    );
    for r in &review.rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{}",
            csv_field(&r.label),
            opt(r.hours, 3),
            review.baseline,
            opt(r.fixed_utilization, 6),
            r.fixed_spend.to_plain_string(),
            r.elastic_spend.to_plain_string(),
            opt(r.queue_hours, 3),
            r.low_utilization,
            r.elastic_above_fixed,
            r.queue_over_limit
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::plan;
    use crate::core::review::ReviewMonthInput;

    /// The worked example of § 15 in both exports.
    #[test]
    fn exports_carry_the_term_table() {
        let inputs = PlanInputs {
            gpus: 1,
            used_hours: 500.0,
            term_1y_upfront: 90_000.0,
            ..PlanInputs::default()
        };
        let out = plan(&inputs);
        let md = markdown(Lang::En, &inputs, &out, "¥", "https://x.test/?v=2");
        assert!(
            md.contains("**Commit 1 GPU for 1 year, all upfront, run the rest on demand"),
            "{md}"
        );
        assert!(
            md.contains("| 1 year, all upfront (recommended) | ¥7,500.00 | 1 | ¥7,500.00 | ¥5,000.00 | 8 | ¥90,000.00 |"),
            "{md}"
        );
        assert!(
            md.contains("| Monthly | ¥9,000.00 | 1 | ¥9,000.00 | ¥3,500.00 | 1 | ¥108,000.00 |"),
            "{md}"
        );
        let zh = markdown(Lang::Zh, &inputs, &out, "¥", "https://x.test/?v=2");
        assert!(zh.contains("| 包年（全预付）（推荐） |"), "{zh}");
        let csv = terms_csv(out.terms.as_ref().unwrap());
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[1],
            "on-demand,none,0.00,0.00,18250.00,,0,12500.00,0.00,,12,150000.00,0.00,,false"
        );
        assert_eq!(
            lines[3],
            "1y,upfront,90000.00,0.00,7500.00,300,1,7500.00,5000.00,8,12,90000.00,0.00,,true"
        );
    }

    #[test]
    fn markdown_has_headline_table_breakeven_budget_and_link() {
        let out = plan(&PlanInputs::default());
        let md = markdown(
            Lang::En,
            &PlanInputs::default(),
            &out,
            "¥",
            "https://x.test/?v=1",
        );
        assert!(md.contains("**Commit no GPU monthly"), "{md}");
        assert!(md.contains("¥13,359.11"), "{md}");
        assert!(md.contains("Break-even: **360 hours per month**"), "{md}");
        assert!(md.contains("| Cost-optimal N* | 0 |"), "{md}");
        assert!(md.contains("Budget split:"), "{md}");
        assert!(
            md.ends_with("Open the plan: <https://x.test/?v=1>\n"),
            "{md}"
        );
        // header + 4 rules; header + on demand + monthly
        assert_eq!(md.matches("\n| ").count(), 8, "{md}");
        let zh = markdown(
            Lang::Zh,
            &PlanInputs::default(),
            &out,
            "¥",
            "https://x.test/?v=1",
        );
        assert!(zh.contains("不包月") && zh.contains("盈亏平衡点") && zh.contains("打开方案"));
    }

    #[test]
    fn markdown_lists_the_inputs_from_the_declarations() {
        let inputs = PlanInputs {
            spot_price: 6.5,
            hidden_idle_timeout_hours: 0.25,
            checkpoint_interval_hours: Some(2.0),
            ..PlanInputs::default()
        };
        let out = plan(&inputs);
        let md = markdown(Lang::En, &inputs, &out, "¥", "https://x.test/?v=1");
        // Prices and usage always (5), then what differs: the interval and the idle time (in
        // minutes, as the field shows it); 49 - 5 - 2 others at their defaults.
        assert!(
            md.contains("\n### Inputs\n\n- Monthly price per GPU: 9000\n"),
            "{md}"
        );
        assert!(md.contains("- Spot price per GPU-hour: 6.5\n"), "{md}");
        assert!(md.contains("- Checkpoint interval (hours): 2\n"), "{md}");
        assert!(
            md.contains("- Idle time before auto-stop (minutes): 15\n"),
            "{md}"
        );
        assert!(md.contains("- 42 other inputs at their defaults"), "{md}");
        let zh = markdown(Lang::Zh, &inputs, &out, "¥", "https://x.test/?v=1");
        assert!(zh.contains("- 自动关机前的闲置时间（分钟）：15\n"), "{zh}");
    }

    #[test]
    fn sizing_csv_has_a_row_per_rule() {
        let out = plan(&PlanInputs::default());
        let csv = sizing_csv(out.sizing.as_ref().unwrap());
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 5);
        assert!(lines[0].starts_with("rule,n,monthly_total"));
        // 4 GPUs × 200 h all on demand at 25 = 20 000.
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("cost-optimal,0,20000.00,")),
            "{csv}"
        );
        assert!(lines.iter().all(|l| l.split(',').count() == 10));
    }

    #[test]
    fn review_csv_quotes_labels() {
        let inputs = PlanInputs {
            review_months: vec![
                ReviewMonthInput {
                    label: "Sept, \"late\"".into(),
                    fixed_utilization_percent: 50.0,
                    fixed_spend: 1000.0,
                    elastic_spend: 2000.0,
                    queue_hours: Some(3.0),
                },
                ReviewMonthInput {
                    label: "Oct".into(),
                    fixed_utilization_percent: 55.0,
                    fixed_spend: 1000.0,
                    elastic_spend: 2500.0,
                    queue_hours: None,
                },
            ],
            ..PlanInputs::default()
        };
        let out = plan(&inputs);
        let csv = review_csv(out.review.as_ref().unwrap().as_ref().unwrap());
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3, "{csv}");
        assert!(lines[1].starts_with("\"Sept, \"\"late\"\"\",,0,"), "{csv}");
        assert!(lines[2].starts_with("Oct,,0,"), "{csv}");
        assert!(lines[2].ends_with(",,true,true,false"), "{csv}");
    }
}

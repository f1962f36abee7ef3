//! Exports for planning documents: Markdown summary (headline, the fleet table for a mixed
//! fleet, sizing table, break-even, budget split, link) and CSV of the sizing table, the
//! term table, the monthly review and the fleet table. Pure (no browser), natively tested.
//!
//! Text a link or a file brought (type names, month labels) is somebody else's text: in
//! Markdown it stays inside its cell, in CSV it is quoted and a leading `=`, `+`, `-`, `@`
//! (a spreadsheet formula) is neutralised with a `'`.

use std::fmt::Write as _;

use crate::core::fleet_plan::FleetPlan;
use crate::core::plan::{PlanInputs, PlanOutputs};
use crate::core::review::Review;
use crate::core::sizing::SizingTable;
use crate::core::terms::Terms;
use crate::format::{money, number_trim, percent, plain};
use crate::i18n::{pick, Lang};
use crate::inputs::{Group, INPUTS};
use crate::present::fleet::FleetView;
use crate::present::headline::sentence;
use crate::present::sizing::rule_name;
use crate::present::terms::option_name;

/// Markdown cells cannot hold `|` or line breaks.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// A mixed fleet's plan for the exports: the plan, its table as the page presents it (in the
/// export's language: `present::fleet::present`, the page's memo holds it), and the type the
/// page's cards (and the sections after the fleet table) show.
#[derive(Debug, Clone, Copy)]
pub struct FleetExport<'a> {
    pub plan: &'a FleetPlan,
    pub view: &'a FleetView,
    /// The selected type's name and its row.
    pub selected: &'a str,
    pub selected_index: usize,
}

/// "**sentence** total per month, saving vs all on-demand: saving (share)."
fn answer(
    l: Lang,
    sentence: &str,
    total: crate::core::money::Money,
    all_on_demand: crate::core::money::Money,
    currency: &str,
) -> String {
    let m = |x| money(x, currency, l);
    let saving = all_on_demand - total;
    format!(
        "**{}** {} {}{} {}{} ({}).\n",
        sentence,
        m(total),
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
        percent(saving.ratio(all_on_demand).abs(), 1, l)
    )
}

/// The fleet table (§ 16) as the page shows it, its total and the budget sentence.
fn fleet_table(md: &mut String, l: Lang, f: &FleetPlan, v: &FleetView) {
    let _ = writeln!(
        md,
        "### {}\n\n| {} | {} | N* | {} | {} | {} | {} | {} | {} |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        pick(
            l,
            "The fleet: every GPU type under one budget",
            "机群：所有 GPU 型号共用一份预算"
        ),
        pick(l, "GPU type", "GPU 型号"),
        pick(l, "Waterline", "水位线"),
        pick(l, "Commit", "固定"),
        pick(l, "Fixed", "固定支出"),
        pick(l, "On demand", "按量"),
        pick(l, "Spot", "竞价"),
        pick(l, "Monthly total", "每月合计"),
        pick(l, "Fixed GPUs busy", "固定卡利用率"),
    );
    for r in &v.rows {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&r.name),
            r.waterline.text,
            r.n_star.text,
            cell(&r.commit.text),
            cell(&r.fixed.text),
            cell(&r.on_demand.text),
            cell(&r.spot.text),
            cell(&r.monthly.text),
            cell(&r.utilization.text),
        );
    }
    let committed: u32 = f.rows.iter().map(|r| r.committed).sum();
    let _ = writeln!(
        md,
        "| **{}** |  |  | {} | {} | {} | {} | **{}** |  |\n\n{}\n",
        pick(l, "Fleet", "机群合计"),
        committed,
        cell(&v.fixed.text),
        cell(&v.on_demand.text),
        cell(&v.spot.text),
        cell(&v.total.text),
        v.budget,
    );
}

/// The plan as Markdown, ready to paste into a planning document: the answer, the tables,
/// the inputs it was computed from (from `inputs::INPUTS`) and the link. With a fleet the
/// answer is the fleet's, the fleet table follows it, and the sections after it are the
/// selected type's own (as its cards show them).
pub fn markdown(
    lang: Lang,
    inputs: &PlanInputs,
    out: &PlanOutputs,
    fleet: Option<FleetExport<'_>>,
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
    if let Some(FleetExport {
        plan: f,
        view,
        selected,
        ..
    }) = fleet
    {
        let sentence = crate::present::fleet::sentence(l, f);
        md.push_str(&answer(l, &sentence, f.total, f.all_on_demand, currency));
        md.push('\n');
        fleet_table(&mut md, l, f, view);
        let _ = writeln!(
            md,
            "### {}\n",
            match l {
                Lang::En => format!("{}: the selected type on its own", cell(selected)),
                Lang::Zh => format!("{}：所选型号单独的方案", cell(selected)),
            }
        );
        let _ = writeln!(
            md,
            "{}\n",
            pick(
                l,
                "Sized on its own usage and prices, by its own rule (before the fleet's shared budget); its inputs are listed below.",
                "按它自己的用量、价格和规则定规模（不计机群共用预算）；输入见下方。"
            )
        );
    }
    if let (Ok(base), Ok(pools), Ok(sizing)) = (&out.baseline, &out.pools, &out.sizing) {
        let sentence = sentence(l, base, pools.spot_gpu_hours > 0.0);
        let _ = writeln!(
            md,
            "{}",
            answer(l, &sentence, pools.total, sizing.all_on_demand, currency)
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
    if let Some(Ok(g)) = out
        .growth
        .as_ref()
        .map(|g| crate::present::growth::present(l, currency, g))
    {
        growth_markdown(&mut md, l, &g);
    }
    md.push('\n');
    let scope = fleet.map(|f| crate::present::action::FleetScope {
        plan: f.plan,
        selected: f.selected_index,
    });
    md.push_str(&crate::present::action::markdown(
        l, currency, inputs, out, scope,
    ));
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

/// A CSV field of somebody else's text (a link's type name, a month label): quoted as
/// [`csv_field`], and one that a spreadsheet would read as a formula (`=`, `+`, `-`, `@`,
/// tab or carriage return first) starts with `'` instead.
fn csv_text(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        csv_field(&format!("'{s}"))
    } else {
        csv_field(s)
    }
}

fn opt(v: Option<f64>, decimals: usize) -> String {
    v.map(|x| plain(x, decimals)).unwrap_or_default()
}

/// § 21 the team table as CSV: one row per team (and the idle row when it is one), usage over
/// the hours read, money per month; the standalone and Shapley columns when computed.
pub fn teams_csv(
    t: &crate::core::teams::TeamTable,
    s: Option<&crate::core::teams::Shapley>,
) -> String {
    let mut out = String::from(
        "team,gpu_hours,share,p50_gpus,p95_gpus,peak_gpus,trough_share,peak_share,baseline_gpu_hours,committed_used,idle_share,spot,on_demand,monthly_total,standalone,shapley,pooling_saves\n",
    );
    for (i, r) in t.rows.iter().enumerate() {
        let sh = |f: &dyn Fn(&crate::core::teams::Shapley) -> String| s.map(f).unwrap_or_default();
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            csv_text(&r.name),
            plain(r.gpu_hours, 3),
            plain(r.share, 6),
            plain(r.p50, 3),
            plain(r.p95, 3),
            plain(r.peak, 3),
            plain(r.trough_share, 6),
            plain(r.peak_share, 6),
            plain(r.baseline_hours, 3),
            r.committed.to_plain_string(),
            r.idle.to_plain_string(),
            r.spot.to_plain_string(),
            r.on_demand.to_plain_string(),
            r.total.to_plain_string(),
            sh(&|s| s.standalone[i].to_plain_string()),
            sh(&|s| s.values[i].to_plain_string()),
            sh(&|s| s.saving(i).to_plain_string()),
        );
    }
    if t.split == crate::core::teams::IdleSplit::Row {
        let _ = writeln!(
            out,
            "(idle),,,,,,,,,,{},,,{},,,",
            t.idle_row.to_plain_string(),
            t.idle_row.to_plain_string()
        );
    }
    let _ = writeln!(
        out,
        "(all teams),,,,,,,,,,,,,{},,,",
        t.total.to_plain_string()
    );
    out
}

/// § 21 the team table in the Markdown export (a table per team, money per month).
pub fn teams_markdown(
    l: Lang,
    cur: &str,
    t: &crate::core::teams::TeamTable,
    s: Option<&crate::core::teams::Shapley>,
) -> String {
    let mut md = String::new();
    let (title, head) = match l {
        Lang::En => ("\n### Who uses the GPUs\n\n", "| Team | GPU-hours | Share | Share in troughs | Share in peaks | Committed used | Idle share | Elastic | Monthly total | Shapley |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"),
        Lang::Zh => ("\n### 谁在用这些 GPU\n\n", "| 团队 | 卡时 | 占比 | 低谷占比 | 高峰占比 | 已用包月 | 闲置分摊 | 弹性 | 每月合计 | Shapley 分摊 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"),
    };
    md.push_str(title);
    md.push_str(head);
    let cell = |x: &str| x.replace('|', "\\|").replace(['\n', '\r'], " ");
    for (i, r) in t.rows.iter().enumerate() {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&crate::present::teams::team_name(l, &r.name)),
            plain(r.gpu_hours, 1),
            crate::format::percent(r.share, 1, l),
            crate::format::percent(r.trough_share, 1, l),
            crate::format::percent(r.peak_share, 1, l),
            money(r.committed, cur, l),
            money(r.idle, cur, l),
            money(r.elastic(), cur, l),
            money(r.total, cur, l),
            s.map(|s| money(s.values[i], cur, l)).unwrap_or_default(),
        );
    }
    if t.split == crate::core::teams::IdleSplit::Row {
        let _ = writeln!(
            md,
            "| {} | | | | | | {} | | {} | |",
            crate::i18n::pick(l, "Idle committed GPUs", "闲置的包月卡"),
            money(t.idle_row, cur, l),
            money(t.idle_row, cur, l)
        );
    }
    let _ = writeln!(
        md,
        "| {} | | | | | | | | **{}** | {} |",
        crate::i18n::pick(l, "All teams", "全部团队"),
        money(t.total, cur, l),
        s.map(|s| money(s.grand, cur, l)).unwrap_or_default()
    );
    md
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
/// § 22 in the export: the growth used, the recommendation, each plan with its risks, the
/// ladder's tranches (the growth card's own texts).
fn growth_markdown(md: &mut String, l: Lang, g: &crate::present::growth::GrowthView) {
    let _ = writeln!(
        md,
        "\n### {}\n\n{}{}{}\n\n{}\n\n| {} | {} | {} | {} | {} |\n|---|---:|---:|---:|---:|",
        pick(l, "Growth over the horizon", "增长与承诺阶梯"),
        g.rate.text,
        if g.history_line.is_empty() { "" } else { " " },
        g.history_line,
        g.recommended.text,
        pick(l, "Plan", "方案"),
        pick(l, "GPUs committed", "承诺的卡数"),
        pick(l, "Expected cost", "预期成本"),
        pick(l, "Lost if growth stops", "增长停止时的损失"),
        pick(l, "Lost if it reverses", "增长反转时的损失"),
    );
    for p in &g.plans {
        let mark = if p.recommended {
            pick(l, " (recommended)", "（推荐）")
        } else {
            ""
        };
        let _ = writeln!(
            md,
            "| {}{mark} | {} | {} | {} | {} |",
            cell(&p.name),
            cell(&p.gpus),
            cell(&p.cost.text),
            cell(&p.risk_flat.text),
            cell(&p.risk_decline.text)
        );
    }
    let _ = writeln!(
        md,
        "\n| {} | {} | {} | {} |\n|---|---:|---|---:|",
        pick(l, "When", "何时"),
        pick(l, "GPUs added", "新增卡数"),
        pick(l, "Term", "期限"),
        pick(l, "Commitment cost", "承诺成本"),
    );
    for t in &g.tranches {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} |",
            cell(&t.when),
            t.add.text,
            cell(&t.term.text),
            cell(&t.cost.text)
        );
    }
}

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
            csv_text(&r.label),
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

/// The fleet table as CSV: one row per type (money plain, utilisation a fraction, empty
/// when the budget buys none), then the fleet's total in a row whose `type` is empty (a
/// type's name never is) with the sums.
pub fn fleet_csv(f: &FleetPlan) -> String {
    let mut s = String::from(
        "type,waterline,n_star,rule_gpus,committed,term,payment,price_per_gpu_month,fixed,on_demand,spot,monthly_total,all_on_demand,saving,fixed_utilization\n",
    );
    for r in &f.rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            csv_text(&r.name),
            r.waterline,
            r.n_star,
            r.rule_gpus,
            r.committed,
            r.term.key(),
            r.payment.key(),
            r.price.to_plain_string(),
            r.fixed.to_plain_string(),
            r.on_demand.to_plain_string(),
            r.spot.to_plain_string(),
            r.total.to_plain_string(),
            r.all_on_demand.to_plain_string(),
            r.saving.to_plain_string(),
            opt((r.committed > 0).then_some(r.utilization), 6),
        );
    }
    let sum =
        |n: fn(&crate::core::fleet_plan::FleetRow) -> u32| -> u32 { f.rows.iter().map(n).sum() };
    let _ = writeln!(
        s,
        ",,,{},{},,,,{},{},{},{},{},{},",
        sum(|r| r.rule_gpus),
        sum(|r| r.committed),
        f.fixed.to_plain_string(),
        f.on_demand.to_plain_string(),
        f.spot.to_plain_string(),
        f.total.to_plain_string(),
        f.all_on_demand.to_plain_string(),
        f.saving.to_plain_string(),
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::plan;
    use crate::core::review::ReviewMonthInput;

    /// Each of `parts` is in `text`.
    fn assert_has(text: &str, parts: &[&str]) {
        for part in parts {
            assert!(text.contains(part), "{part:?} not in:\n{text}");
        }
    }

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
        let md = markdown(Lang::En, &inputs, &out, None, "¥", "https://x.test/?v=2");
        assert_has(
            &md,
            &[
                "**Commit 1 GPU for 1 year, all upfront, run the rest on demand",
                "| 1 year, all upfront (recommended) | ¥7,500.00 | 1 | ¥7,500.00 | ¥5,000.00 | 8 | ¥90,000.00 |",
                "| Monthly | ¥9,000.00 | 1 | ¥9,000.00 | ¥3,500.00 | 1 | ¥108,000.00 |",
            ],
        );
        let zh = markdown(Lang::Zh, &inputs, &out, None, "¥", "https://x.test/?v=2");
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
            None,
            "¥",
            "https://x.test/?v=1",
        );
        assert_has(
            &md,
            &[
                "**Commit no GPU monthly",
                "¥13,359.11",
                "Break-even: **360 hours per month**",
                "| Cost-optimal N* | 0 |",
                "Budget split:",
            ],
        );
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
            None,
            "¥",
            "https://x.test/?v=1",
        );
        assert!(zh.contains("不包月") && zh.contains("盈亏平衡点") && zh.contains("打开方案"));
    }

    /// § 22's worked example in the export: the growth used, each plan with its risks, the
    /// ladder's tranches.
    #[test]
    fn markdown_carries_the_growth_plan() {
        let inputs = PlanInputs {
            gpus: 10,
            used_hours: 730.0,
            on_demand_price: 20.0,
            term_1y_upfront: 48_000.0,
            horizon_months: 6,
            growth_percent: Some(10.0),
            ..PlanInputs::default()
        };
        let mut out = plan(&inputs);
        out.growth = Some(crate::core::plan::plan_growth(&inputs, None, &out));
        let md = markdown(Lang::En, &inputs, &out, None, "¥", "https://x.test/?v=4");
        assert_has(
            &md,
            &[
                "\n### Growth over the horizon\n\nGrowth used: +10 % a month, as typed.\n",
                "| The ladder (recommended) | 11 first, 17 by month 6 | ¥708,326.97 | ¥48,000.00 | ¥70,344.90 |\n",
                "| now | +11 | 1 year | ¥528,000.00 |\n| month 1 | +1 | monthly | ¥45,000.00 |\n",
            ],
        );
        let zh = markdown(Lang::Zh, &inputs, &out, None, "¥", "https://x.test/?v=4");
        assert!(
            zh.contains("| 承诺阶梯（推荐） | 起初 11，第 6 个月 17 | ¥708,326.97 |"),
            "{zh}"
        );
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
        let md = markdown(Lang::En, &inputs, &out, None, "¥", "https://x.test/?v=1");
        // Prices and usage always (5), then what differs: the interval and the idle time (in
        // minutes, as the field shows it); 61 - 5 - 2 others at their defaults.
        assert_has(
            &md,
            &[
                "\n### Inputs\n\n- Monthly price per GPU: 9000\n",
                "- Spot price per GPU-hour: 6.5\n",
                "- Checkpoint interval (hours): 2\n",
                "- Idle time before auto-stop (minutes): 15\n",
                "- 56 other inputs at their defaults",
            ],
        );
        let zh = markdown(Lang::Zh, &inputs, &out, None, "¥", "https://x.test/?v=1");
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

    /// The two-type example of formulas § 16 (`fleet_plan::example`): A100 at 9 000 / 25,
    /// H100 at 20 000 / 50, 730 hours, budget 90 000 at 60 % fixed, no spot.
    fn fleet_example() -> (PlanInputs, PlanOutputs, FleetPlan) {
        crate::core::fleet_plan::example::plan(|_| {})
    }

    /// The fleet table as the page presents it.
    fn fleet_view(l: Lang, f: &FleetPlan) -> FleetView {
        let names: Vec<String> = f.rows.iter().map(|r| r.name.clone()).collect();
        crate::present::fleet::present(l, "¥", &Ok(f.clone()), &names).unwrap()
    }

    #[test]
    fn markdown_carries_the_fleet_table_to_the_cent() {
        let (inputs, out, f) = fleet_example();
        let (en_view, zh_view) = (fleet_view(Lang::En, &f), fleet_view(Lang::Zh, &f));
        let fleet = |view| {
            Some(FleetExport {
                plan: &f,
                view,
                selected: "A100",
                selected_index: 0,
            })
        };
        let md = markdown(
            Lang::En,
            &inputs,
            &out,
            fleet(&en_view),
            "¥",
            "https://x.test/?v=2",
        );
        assert_has(
            &md,
            &[
                // The answer is the fleet's: 163 250 a month, 207 500 − 163 250 = 44 250 saved (21.3 %).
                "**Commit 3 × A100 and 1 × H100 monthly; run the rest on demand.** ¥163,250.00 per month, saving vs all on-demand: ¥44,250.00 (21.3 %).\n",
                "\n### The fleet: every GPU type under one budget\n\n| GPU type | Waterline | N* | Commit | Fixed | On demand | Spot | Monthly total | Fixed GPUs busy |\n",
                // A100: 3 × 9 000 fixed + 25 × 1 130 h = 28 250 elastic; H100: 20 000 + 50 × 1 760 h.
                "| A100 | 4 | 4 | 3 (of 4) | ¥27,000.00 | ¥28,250.00 | ¥0.00 | ¥55,250.00 | 100 % |\n",
                "| H100 | 3 | 3 | 1 (of 3) | ¥20,000.00 | ¥88,000.00 | ¥0.00 | ¥108,000.00 | 100 % |\n",
                "| **Fleet** |  |  | 4 | ¥47,000.00 | ¥116,250.00 | ¥0.00 | **¥163,250.00** |  |\n",
                "\nThe fixed budget of ¥54,000.00 buys ¥47,000.00 of monthly GPUs; ¥7,000.00 is left. Without that limit each type would commit its own N*: 4 × A100 and 3 × H100 (¥96,000.00 fixed), saving ¥86,500.00 a month against all on demand instead of ¥44,250.00.\n",
            ],
        );
        // Then the selected type's own plan (its rule: 4 A100), as its cards show it.
        let own = md
            .find("### A100: the selected type on its own")
            .expect("selected section");
        assert!(own > md.find("| **Fleet** |").unwrap());
        assert!(md[own..].contains("**Commit 4 GPUs monthly"), "{md}");
        // Exactly one answer line of the fleet's before the table.
        assert_eq!(md.matches("¥163,250.00 per month").count(), 1);

        let zh = markdown(
            Lang::Zh,
            &inputs,
            &out,
            fleet(&zh_view),
            "¥",
            "https://x.test/?v=2",
        );
        assert_has(
            &zh,
            &[
                "**包月固定 3 × A100、1 × H100；其余按量。** ¥163,250.00 /月， 比全部按量节省 ¥44,250.00 (21.3%).\n",
                "| GPU 型号 | 水位线 | N* | 固定 | 固定支出 | 按量 | 竞价 | 每月合计 | 固定卡利用率 |",
                "| A100 | 4 | 4 | 3（规则 4） | ¥27,000.00 | ¥28,250.00 | ¥0.00 | ¥55,250.00 |",
                "| **机群合计** |  |  | 4 | ¥47,000.00 | ¥116,250.00 | ¥0.00 | **¥163,250.00** |  |",
                "固定预算 ¥54,000.00 购入包月 GPU ¥47,000.00，剩余 ¥7,000.00。",
                "### A100：所选型号单独的方案",
            ],
        );
        // One type: no fleet section at all.
        let one = markdown(Lang::En, &inputs, &out, None, "¥", "https://x.test/?v=2");
        assert!(
            !one.contains("The fleet") && !one.contains("selected type"),
            "{one}"
        );
    }

    #[test]
    fn fleet_csv_to_the_cent_with_the_total() {
        let (_, _, f) = fleet_example();
        let csv = fleet_csv(&f);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 4, "{csv}");
        assert_eq!(
            lines[0],
            "type,waterline,n_star,rule_gpus,committed,term,payment,price_per_gpu_month,fixed,on_demand,spot,monthly_total,all_on_demand,saving,fixed_utilization"
        );
        assert_eq!(
            lines[1],
            "A100,4,4,4,3,monthly,none,9000.00,27000.00,28250.00,0.00,55250.00,83000.00,27750.00,1"
        );
        assert_eq!(
            lines[2],
            "H100,3,3,3,1,monthly,none,20000.00,20000.00,88000.00,0.00,108000.00,124500.00,16500.00,1"
        );
        assert_eq!(
            lines[3],
            ",,,7,4,,,,47000.00,116250.00,0.00,163250.00,207500.00,44250.00,"
        );
        assert!(lines.iter().all(|l| l.split(',').count() == 15));
    }

    #[test]
    fn csv_text_from_a_link_is_quoted_and_never_a_formula() {
        let (_, _, mut f) = fleet_example();
        f.rows[0].name = "A100, \"80G\"".into();
        f.rows[1].name = "=HYPERLINK(\"x\")".into();
        f.rows[1].committed = 0;
        let csv = fleet_csv(&f);
        let lines: Vec<&str> = csv.lines().collect();
        assert!(lines[1].starts_with("\"A100, \"\"80G\"\"\",4,"), "{csv}");
        assert!(
            lines[2].starts_with("\"'=HYPERLINK(\"\"x\"\")\",3,"),
            "{csv}"
        );
        // Bought none: no utilisation.
        assert!(lines[2].ends_with(",16500.00,"), "{csv}");
        for (text, want) in [
            ("+1", "'+1"),
            ("-2", "'-2"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("A-100", "A-100"),
            ("4090", "4090"),
        ] {
            assert_eq!(csv_text(text), want);
        }
        // A name with `|` or a line break stays in its Markdown cell.
        f.rows[0].name = "A|B\nC".into();
        let md = markdown(
            Lang::En,
            &PlanInputs::default(),
            &plan(&PlanInputs::default()),
            Some(FleetExport {
                plan: &f,
                view: &fleet_view(Lang::En, &f),
                selected: "A|B\nC",
                selected_index: 0,
            }),
            "¥",
            "https://x.test/",
        );
        assert_has(
            &md,
            &[
                "\n| A\\|B C | 4 | 4 |",
                "### A\\|B C: the selected type on its own",
            ],
        );
    }
}

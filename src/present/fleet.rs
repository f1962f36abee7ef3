//! The fleet table (§ 16): one row per GPU type and the fleet's total, what the fixed budget
//! buys against each type's own optimum, and the fleet's headline sentence.

use super::terms::term_words;
use super::{Presented, Shown};
use crate::core::fleet_plan::{FleetError, FleetPlan, FleetRow};
use crate::core::money::Money;
use crate::core::terms::Term;
use crate::format::Lang;
use crate::format::{money, percent};
use crate::i18n::{error_message, pick};

#[derive(Debug, Clone, PartialEq)]
pub struct FleetRowView {
    pub name: String,
    pub waterline: Shown,
    pub n_star: Shown,
    /// N_t the budget buys; the text says when the type's rule asked for more.
    pub commit: Shown,
    pub fixed: Shown,
    pub on_demand: Shown,
    pub spot: Shown,
    /// The type's monthly total.
    pub monthly: Shown,
    pub utilization: Shown,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FleetView {
    pub rows: Vec<FleetRowView>,
    pub fixed: Shown,
    pub on_demand: Shown,
    pub spot: Shown,
    pub total: Shown,
    pub saving: Shown,
    /// What the fixed budget buys, what is left, and the unconstrained optimum.
    pub budget: String,
    pub formula: String,
}

fn count(n: u32) -> Shown {
    Shown::new(n.to_string(), n.to_string())
}

fn cash(m: Money, cur: &str, l: Lang) -> Shown {
    Shown::new(money(m, cur, l), m.to_plain_string())
}

/// "3 × A100 and 1 × H100" (types the budget buys none of are left out).
fn commits(l: Lang, rows: &[FleetRow], n: impl Fn(&FleetRow) -> u32) -> String {
    let parts: Vec<String> = rows
        .iter()
        .filter(|r| n(r) > 0)
        .map(|r| format!("{} × {}", n(r), r.name))
        .collect();
    match (l, parts.len()) {
        (_, 0) => String::new(),
        (_, 1) => parts[0].clone(),
        (Lang::En, k) => format!("{} and {}", parts[..k - 1].join(", "), parts[k - 1]),
        (Lang::Zh, _) => parts.join("、"),
    }
}

pub fn present(
    l: Lang,
    cur: &str,
    plan: &Result<FleetPlan, FleetError>,
    names: &[String],
) -> Presented<FleetView> {
    let f = plan.as_ref().map_err(|e| failed(l, e, names))?;
    let rows = f
        .rows
        .iter()
        .map(|r| {
            let commit_text = if r.committed < r.rule_gpus {
                match l {
                    Lang::En => format!("{} (of {})", r.committed, r.rule_gpus),
                    Lang::Zh => format!("{}（规则 {}）", r.committed, r.rule_gpus),
                }
            } else {
                r.committed.to_string()
            };
            let term = match r.term {
                Term::OneYear | Term::ThreeYear if r.committed > 0 => {
                    format!(" {}", term_words(l, r.term, r.payment))
                }
                _ => String::new(),
            };
            FleetRowView {
                name: r.name.clone(),
                waterline: count(r.waterline),
                n_star: count(r.n_star),
                commit: Shown::new(format!("{commit_text}{term}"), r.committed.to_string()),
                fixed: cash(r.fixed, cur, l),
                on_demand: cash(r.on_demand, cur, l),
                spot: cash(r.spot, cur, l),
                monthly: cash(r.total, cur, l),
                utilization: if r.committed > 0 {
                    Shown::new(
                        percent(r.utilization, 1, l),
                        format!("{:.4}", r.utilization),
                    )
                } else {
                    Shown::new("—", "")
                },
            }
        })
        .collect();
    let a = &f.allocation;
    let unconstrained = commits(l, &f.rows, |r| r.n_star);
    let m = |x| money(x, cur, l);
    let (budget, spent, left) = (m(a.fixed_budget), m(a.fixed_spent), m(a.left));
    let (own_fixed, own_saving, saving) = (
        m(a.unconstrained_fixed),
        m(a.unconstrained_saving),
        m(a.saving),
    );
    let own = if unconstrained.is_empty() {
        pick(l, "none", "无").to_string()
    } else {
        unconstrained
    };
    let budget = match (l, a.budget_binds) {
        (Lang::En, true) => format!(
            "The fixed budget of {budget} buys {spent} of monthly GPUs; {left} is left. Without that limit each type would commit its own N*: {own} ({own_fixed} fixed), saving {own_saving} a month against all on demand instead of {saving}."
        ),
        (Lang::Zh, true) => format!(
            "固定预算 {budget} 购入包月 GPU {spent}，剩余 {left}。若不受预算限制，各型号按各自的 N* 固定：{own}（固定支出 {own_fixed}），每月比全部按量节省 {own_saving}，而不是 {saving}。"
        ),
        (Lang::En, false) => format!(
            "The fixed budget of {budget} covers every type's commitment: {spent} spent, {left} left."
        ),
        (Lang::Zh, false) => {
            format!("固定预算 {budget} 足够覆盖各型号的固定部分：已用 {spent}，剩余 {left}。")
        }
    };
    let formula = format!(
        "{}: Σ N_t·P_t = {} ≤ F = {};  {}: {} − {} = {}",
        pick(l, "fixed", "固定"),
        money(f.fixed, cur, l),
        money(a.fixed_budget, cur, l),
        pick(
            l,
            "saving = all on demand − fleet plan",
            "节省 = 全部按量 − 机群方案"
        ),
        money(f.all_on_demand, cur, l),
        money(f.total, cur, l),
        money(f.saving, cur, l),
    );
    Ok(FleetView {
        rows,
        fixed: cash(f.fixed, cur, l),
        on_demand: cash(f.on_demand, cur, l),
        spot: cash(f.spot, cur, l),
        total: cash(f.total, cur, l),
        saving: cash(f.saving, cur, l),
        budget,
        formula,
    })
}

/// The message of a fleet that cannot be planned, naming the type at fault.
pub fn failed(l: Lang, e: &FleetError, names: &[String]) -> String {
    let msg = error_message(l, &e.error);
    match e.index.and_then(|k| names.get(k)) {
        Some(name) => match l {
            Lang::En => format!("GPU type {name}: {msg}"),
            Lang::Zh => format!("GPU 型号 {name}：{msg}"),
        },
        None => msg,
    }
}

/// The fleet's plan in one sentence (the headline, the Markdown export).
pub fn sentence(l: Lang, f: &FleetPlan) -> String {
    let spot = f.spot > Money::ZERO;
    let mut groups: Vec<String> = Vec::new();
    // The types bought monthly, in one group (a type on a term is said on its own below).
    let m = commits(l, &f.rows, |r| {
        if r.term == Term::Monthly {
            r.committed
        } else {
            0
        }
    });
    if !m.is_empty() {
        groups.push(match l {
            Lang::En => format!("{m} monthly"),
            Lang::Zh => format!("包月固定 {m}"),
        });
    }
    for r in f
        .rows
        .iter()
        .filter(|r| r.committed > 0 && r.term != Term::Monthly)
    {
        groups.push(match l {
            Lang::En => format!(
                "{} × {} {}",
                r.committed,
                r.name,
                term_words(l, r.term, r.payment)
            ),
            Lang::Zh => format!(
                "{}固定 {} × {}",
                term_words(l, r.term, r.payment),
                r.committed,
                r.name
            ),
        });
    }
    let rest_en = if spot {
        "run the rest on demand (+ spot for interruptible work)"
    } else {
        "run the rest on demand"
    };
    let rest_zh = if spot {
        "其余按量（可中断任务用竞价实例）"
    } else {
        "其余按量"
    };
    match (l, groups.is_empty()) {
        (Lang::En, true) => format!(
            "Commit no GPU: {}.",
            rest_en.replace("run the rest", "run everything")
        ),
        (Lang::Zh, true) => format!("不固定任何 GPU：{}。", rest_zh.replace("其余", "全部")),
        (Lang::En, false) => {
            let k = groups.len();
            let g = if k == 1 {
                groups[0].clone()
            } else {
                format!("{} and {}", groups[..k - 1].join(", "), groups[k - 1])
            };
            format!("Commit {g}; {rest_en}.")
        }
        (Lang::Zh, false) => format!("{}；{rest_zh}。", groups.join("，")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fleet::{FleetAllocation, TypeAllocation};
    use crate::core::terms::Payment;

    fn row(
        name: &str,
        n: u32,
        rule: u32,
        n_star: u32,
        fixed: f64,
        od: f64,
        total: f64,
    ) -> FleetRow {
        FleetRow {
            name: name.into(),
            waterline: rule,
            n_star,
            rule_gpus: rule,
            term: Term::Monthly,
            payment: Payment::NoUpfront,
            price: Money::from_f64(fixed / f64::from(n.max(1))),
            committed: n,
            fixed: Money::from_f64(fixed),
            on_demand: Money::from_f64(od),
            spot: Money::ZERO,
            total: Money::from_f64(total),
            all_on_demand: Money::ZERO,
            saving: Money::ZERO,
            utilization: 1.0,
            action: Err(crate::core::error::InputError::new(
                crate::core::error::Field::UsageHistory,
                crate::core::error::Problem::Empty,
            )),
        }
    }

    /// The § 16 example: 54 000 buys 3 A100 (of 4) and 1 H100 (of 3).
    fn example() -> FleetPlan {
        let m = Money::from_f64;
        let t = |name: &str, n, ns| TypeAllocation {
            name: name.into(),
            n_star: ns,
            unconstrained_saving: Money::ZERO,
            committed: n,
            fixed: Money::ZERO,
            elastic: Money::ZERO,
            total: Money::ZERO,
            saving: Money::ZERO,
            fixed_utilization: 1.0,
        };
        FleetPlan {
            rows: vec![
                row("A100", 3, 4, 4, 27_000.0, 28_250.0, 55_250.0),
                row("H100", 1, 3, 3, 20_000.0, 88_000.0, 108_000.0),
            ],
            allocation: FleetAllocation {
                types: vec![t("A100", 3, 4), t("H100", 1, 3)],
                fixed_budget: m(54_000.0),
                fixed_spent: m(47_000.0),
                left: m(7_000.0),
                saving: m(44_250.0),
                unconstrained_fixed: m(96_000.0),
                unconstrained_saving: m(86_500.0),
                budget_binds: true,
                all_on_demand: m(207_500.0),
                total: m(163_250.0),
                exact: true,
                saving_bound: m(44_250.0),
            },
            fixed: m(47_000.0),
            on_demand: m(116_250.0),
            spot: Money::ZERO,
            total: m(163_250.0),
            all_on_demand: m(207_500.0),
            saving: m(44_250.0),
        }
    }

    #[test]
    fn the_worked_example_in_both_languages() {
        let f = example();
        let names = vec!["A100".to_string(), "H100".to_string()];
        let en = present(Lang::En, "¥", &Ok(f.clone()), &names).unwrap();
        assert_eq!(en.rows[0].commit, Shown::new("3 (of 4)", "3"));
        assert_eq!(en.rows[1].fixed, Shown::new("¥20,000.00", "20000.00"));
        assert_eq!(en.total, Shown::new("¥163,250.00", "163250.00"));
        assert_eq!(
            en.budget,
            "The fixed budget of ¥54,000.00 buys ¥47,000.00 of monthly GPUs; ¥7,000.00 is left. Without that limit each type would commit its own N*: 4 × A100 and 3 × H100 (¥96,000.00 fixed), saving ¥86,500.00 a month against all on demand instead of ¥44,250.00."
        );
        assert_eq!(
            sentence(Lang::En, &f),
            "Commit 3 × A100 and 1 × H100 monthly; run the rest on demand."
        );
        let zh = present(Lang::Zh, "¥", &Ok(f.clone()), &names).unwrap();
        assert_eq!(zh.rows[0].commit.text, "3（规则 4）");
        assert!(zh
            .budget
            .starts_with("固定预算 ¥54,000.00 购入包月 GPU ¥47,000.00，剩余 ¥7,000.00。"));
        assert_eq!(
            sentence(Lang::Zh, &f),
            "包月固定 3 × A100、1 × H100；其余按量。"
        );
    }

    #[test]
    fn a_failed_type_is_named() {
        let e = FleetError {
            index: Some(1),
            error: crate::core::error::InputError::new(
                crate::core::error::Field::MonthlyPrice,
                crate::core::error::Problem::NotANumber,
            ),
        };
        let names = vec!["A100".to_string(), "H100".to_string()];
        let msg = present(Lang::En, "¥", &Err(e), &names).unwrap_err();
        assert!(msg.starts_with("GPU type H100: "), "{msg}");
    }
}

//! § 15 The terms card: on demand, monthly, 1 year, 3 years side by side; which one the plan
//! buys over the horizon, the runner-up, and why a cheaper-looking term is not recommended.

use super::{failed, Presented, Shown};
use crate::core::error::InputError;
use crate::core::money::Money;
use crate::core::terms::{NotRecommended, Payment, Term, TermRow, Terms};
use crate::format::Lang;
use crate::format::{money, number_trim, percent};
use crate::i18n::pick;

/// How a term is said after "Commit N GPUs": "monthly", "for 1 year, all upfront", …
pub fn term_words(lang: Lang, term: Term, payment: Payment) -> &'static str {
    match (lang, term, payment) {
        (Lang::En, Term::OneYear, Payment::AllUpfront) => "for 1 year, all upfront",
        (Lang::En, Term::OneYear, Payment::Partial) => "for 1 year, partial upfront",
        (Lang::En, Term::OneYear, Payment::NoUpfront) => "for 1 year, no upfront",
        (Lang::En, Term::ThreeYear, Payment::AllUpfront) => "for 3 years, all upfront",
        (Lang::En, Term::ThreeYear, Payment::Partial) => "for 3 years, partial upfront",
        (Lang::En, Term::ThreeYear, Payment::NoUpfront) => "for 3 years, no upfront",
        (Lang::En, Term::OnDemand, _) => "on demand",
        (Lang::En, Term::Monthly, _) => "monthly",
        (Lang::Zh, Term::OneYear, Payment::AllUpfront) => "包年（全预付）",
        (Lang::Zh, Term::OneYear, Payment::Partial) => "包年（部分预付）",
        (Lang::Zh, Term::OneYear, Payment::NoUpfront) => "包年（无预付）",
        (Lang::Zh, Term::ThreeYear, Payment::AllUpfront) => "签三年（全预付）",
        (Lang::Zh, Term::ThreeYear, Payment::Partial) => "签三年（部分预付）",
        (Lang::Zh, Term::ThreeYear, Payment::NoUpfront) => "签三年（无预付）",
        (Lang::Zh, Term::OnDemand, _) => "按量",
        (Lang::Zh, Term::Monthly, _) => "包月",
    }
}

/// One option of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct TermRowView {
    /// `data-term`: `on-demand`, `monthly`, `1y`, `3y`.
    pub key: String,
    /// `data-payment`: `none`, `partial`, `upfront`.
    pub payment: String,
    /// "1 year, all upfront".
    pub name: String,
    /// What is paid per GPU: "¥90,000.00 upfront + ¥0.00 / month".
    pub pays: String,
    /// E per GPU per month.
    pub effective: Shown,
    /// H*_E and its share of the month; `data-value` = hours.
    pub breakeven_hours: Shown,
    /// N.
    pub gpus: String,
    /// N·E + elastic.
    pub monthly_total: String,
    /// All on demand − monthly total.
    pub saving: Shown,
    /// "month 8" / "never within the term"; `data-value` = the month, `never` or `n/a`.
    pub breakeven_month: Shown,
    /// Cost over the months compared.
    pub horizon_cost: Shown,
    /// What it risks: the drop and the stop.
    pub risk: String,
    /// "recommended", "runner-up", or why not recommended.
    pub verdict: String,
    pub recommended: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TermsView {
    pub rows: Vec<TermRowView>,
    /// The recommended option's name; `data-value` = its `data-term`.
    pub recommended: Shown,
    /// The recommendation in a sentence, with the runner-up and the difference.
    pub sentence: String,
    /// What is compared: the horizon, the months left.
    pub compared: String,
    /// Why the options that may not be recommended are not (one sentence each).
    pub not_recommended: Vec<String>,
    pub formula: String,
}

/// The name of an option: "On demand", "Monthly", "1 year, all upfront".
pub fn option_name(l: Lang, term: Term, payment: Payment) -> String {
    match term {
        Term::OnDemand => pick(l, "On demand", "按量").to_string(),
        Term::Monthly => pick(l, "Monthly", "包月").to_string(),
        _ => {
            let w = term_words(l, term, payment);
            match l {
                // "for 1 year, all upfront" → "1 year, all upfront"
                Lang::En => w.trim_start_matches("for ").to_string(),
                Lang::Zh => w.to_string(),
            }
        }
    }
}

/// The name inside an English sentence: "on demand", "monthly", "1 year, all upfront" (no
/// `to_lowercase`: it brings the Unicode case tables into the page).
fn option_phrase(l: Lang, term: Term, payment: Payment) -> String {
    match (l, term) {
        (Lang::En, Term::OnDemand) => "on demand".into(),
        (Lang::En, Term::Monthly) => "monthly".into(),
        _ => option_name(l, term, payment),
    }
}

fn month_text(l: Lang, m: u32) -> String {
    match l {
        Lang::En => format!("month {m}"),
        Lang::Zh => format!("第 {m} 个月"),
    }
}

fn reason(l: Lang, name: &str, why: NotRecommended, compared: u32) -> String {
    match (l, why) {
        (Lang::En, NotRecommended::CommitsNothing) => format!(
            "{name}: no GPU is busy long enough to pay for it, so it commits nothing."
        ),
        (Lang::Zh, NotRecommended::CommitsNothing) => {
            format!("{name}：没有哪张 GPU 忙到足以回本，不承诺任何 GPU。")
        }
        (Lang::En, NotRecommended::NeverPaysBack) => {
            format!("{name}: never pays back within its own term.")
        }
        (Lang::Zh, NotRecommended::NeverPaysBack) => format!("{name}：在自身期限内无法回本。"),
        (Lang::En, NotRecommended::PaysAfterHorizon(m)) => format!(
            "{name}: pays back only in month {m}, after the {compared} months you are sure of, so it is not recommended."
        ),
        (Lang::Zh, NotRecommended::PaysAfterHorizon(m)) => format!(
            "{name}：要到第 {m} 个月才回本，晚于有把握的 {compared} 个月，因此不推荐。"
        ),
    }
}

fn row_view(
    l: Lang,
    cur: &str,
    t: &Terms,
    i: usize,
    row: &TermRow,
    hours_per_month_text: &str,
) -> TermRowView {
    let name = option_name(l, row.term, row.payment);
    let m = |x: Money| money(x, cur, l);
    let pays = match row.term {
        Term::OnDemand => match l {
            Lang::En => format!(
                "by the hour ({} a GPU held all month)",
                m(row.effective_monthly)
            ),
            Lang::Zh => format!("按小时计费（整月占用一张 {}）", m(row.effective_monthly)),
        },
        Term::Monthly => match l {
            Lang::En => format!("{} / month", m(row.recurring)),
            Lang::Zh => format!("每月 {}", m(row.recurring)),
        },
        _ => match l {
            Lang::En => format!("{} upfront + {} / month", m(row.upfront), m(row.recurring)),
            Lang::Zh => format!("预付 {} + 每月 {}", m(row.upfront), m(row.recurring)),
        },
    };
    let breakeven_hours = match (row.breakeven_hours, row.breakeven_utilization) {
        (Some(h), Some(u)) => Shown::new(
            format!(
                "{} h ({} {} {hours_per_month_text} h)",
                number_trim(h, 1, l),
                percent(u, 1, l),
                pick(l, "of", "/")
            ),
            crate::format::plain(h, 6),
        ),
        _ => Shown::new("—", "n/a"),
    };
    let breakeven_month = match (row.term, row.breakeven_month) {
        (Term::OnDemand, _) => Shown::new("—", "n/a"),
        (_, Some(b)) => Shown::new(month_text(l, b), b.to_string()),
        (_, None) => Shown::new(pick(l, "never within the term", "期限内不回本"), "never"),
    };
    let risk = match (row.term, row.drop_risk) {
        (Term::OnDemand, _) => pick(l, "none: nothing committed", "无：不做承诺").to_string(),
        (_, Some(d)) => match l {
            Lang::En => format!("drop: {}; stop: {}", m(d), m(row.stop_risk)),
            Lang::Zh => format!("用量回落：{}；停止：{}", m(d), m(row.stop_risk)),
        },
        (_, None) => match l {
            Lang::En => format!("stop: {}", m(row.stop_risk)),
            Lang::Zh => format!("停止：{}", m(row.stop_risk)),
        },
    };
    let verdict = if i == t.recommended {
        pick(l, "recommended", "推荐").to_string()
    } else if Some(i) == t.runner_up {
        pick(l, "runner-up", "次选").to_string()
    } else {
        match row.not_recommended {
            Some(NotRecommended::CommitsNothing) => pick(l, "commits nothing", "不承诺").into(),
            Some(NotRecommended::NeverPaysBack) => pick(l, "never pays back", "不回本").into(),
            Some(NotRecommended::PaysAfterHorizon(_)) => {
                pick(l, "pays back after the horizon", "回本晚于规划期").into()
            }
            None => String::new(),
        }
    };
    TermRowView {
        key: row.key().to_string(),
        payment: row.payment.key().to_string(),
        name,
        pays,
        effective: Shown::new(
            m(row.effective_monthly),
            row.effective_monthly.to_plain_string(),
        ),
        breakeven_hours,
        gpus: row.gpus.to_string(),
        monthly_total: m(row.monthly_total),
        saving: Shown::new(m(row.saving), row.saving.to_plain_string()),
        breakeven_month,
        horizon_cost: Shown::new(m(row.horizon_cost), row.horizon_cost.to_plain_string()),
        risk,
        verdict,
        recommended: i == t.recommended,
    }
}

/// `hours_per_month`: H.
pub fn present(
    l: Lang,
    cur: &str,
    terms: &Result<Terms, InputError>,
    hours_per_month: f64,
) -> Presented<TermsView> {
    let t = match terms {
        Ok(t) => t,
        Err(e) => return failed(l, e),
    };
    let h_text = number_trim(hours_per_month, 0, l);
    let rows: Vec<TermRowView> = t
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| row_view(l, cur, t, i, r, &h_text))
        .collect();
    let best = t.recommended();
    let best_name = option_name(l, best.term, best.payment);
    let h = t.compared_months;
    let m = |x: Money| money(x, cur, l);
    let sentence = match (l, t.runner_up, h) {
        (Lang::En, _, 0) => format!(
            "Your current commitment covers the whole horizon ({} months): nothing new to buy yet.",
            t.horizon_months
        ),
        (Lang::Zh, _, 0) => format!(
            "现有承诺已覆盖整个规划期（{} 个月）：暂时无需新购。",
            t.horizon_months
        ),
        (Lang::En, Some(r), _) => format!(
            "Over the {h} months compared, {} costs {}: {} less than the runner-up, {} ({}).",
            option_phrase(l, best.term, best.payment),
            m(best.horizon_cost),
            m(t.difference),
            option_phrase(l, t.rows[r].term, t.rows[r].payment),
            m(t.rows[r].horizon_cost),
        ),
        (Lang::Zh, Some(r), _) => format!(
            "在比较的 {h} 个月里，{}共花 {}，比次选的{}（{}）少 {}。",
            best_name,
            m(best.horizon_cost),
            option_name(l, t.rows[r].term, t.rows[r].payment),
            m(t.rows[r].horizon_cost),
            m(t.difference),
        ),
        (Lang::En, None, _) => format!(
            "Over the {h} months compared, {} costs {}; no other option pays back in time.",
            option_phrase(l, best.term, best.payment),
            m(best.horizon_cost)
        ),
        (Lang::Zh, None, _) => format!(
            "在比较的 {h} 个月里，{}共花 {}；其他方案都无法及时回本。",
            best_name,
            m(best.horizon_cost)
        ),
    };
    let compared = match (l, t.months_left) {
        (Lang::En, 0) => format!("Compared over the {} months of the horizon.", t.horizon_months),
        (Lang::Zh, 0) => format!("按规划期的 {} 个月比较。", t.horizon_months),
        (Lang::En, left) => format!(
            "Horizon {} months, {left} of them still on the current commitment: new terms start after it, compared over {h} months.",
            t.horizon_months
        ),
        (Lang::Zh, left) => format!(
            "规划期 {} 个月，其中 {left} 个月仍在现有承诺内：新期限在其后开始，按 {h} 个月比较。",
            t.horizon_months
        ),
    };
    let not_recommended = t
        .rows
        .iter()
        .filter_map(|r| {
            r.not_recommended
                .map(|why| reason(l, &option_name(l, r.term, r.payment), why, h))
        })
        .collect();
    let formula = if best.term != Term::OnDemand {
        format!(
            "E = {} / {} + {} = {};  H*_E = E / r = {} h;  {} × {} × ({} + {} × {}) + {} × {} = {}",
            m(best.upfront),
            best.term.months(),
            m(best.recurring),
            m(best.effective_monthly),
            best.breakeven_hours
                .map_or("—".into(), |x| number_trim(x, 1, l)),
            best.gpus,
            best.terms_bought,
            m(best.upfront),
            best.term.months(),
            m(best.recurring),
            h,
            m(best.elastic),
            m(best.horizon_cost),
        )
    } else {
        format!("{} × {} = {}", h, m(t.all_on_demand), m(best.horizon_cost))
    };
    Ok(TermsView {
        recommended: Shown::new(best_name, best.key()),
        rows,
        sentence,
        compared,
        not_recommended,
        formula,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::terms::worked_example as example;

    #[test]
    fn worked_example_in_both_languages() {
        let en = present(Lang::En, "¥", &example(12), 730.0).unwrap();
        assert_eq!(en.rows.len(), 3);
        assert_eq!(en.recommended, Shown::new("1 year, all upfront", "1y"));
        let y1 = &en.rows[2];
        assert_eq!((y1.key.as_str(), y1.payment.as_str()), ("1y", "upfront"));
        assert_eq!(y1.pays, "¥90,000.00 upfront + ¥0.00 / month");
        assert_eq!(y1.effective, Shown::new("¥7,500.00", "7500.00"));
        assert_eq!(
            y1.breakeven_hours,
            Shown::new("300 h (41.1 % of 730 h)", "300")
        );
        assert_eq!(y1.saving, Shown::new("¥5,000.00", "5000.00"));
        assert_eq!(y1.breakeven_month, Shown::new("month 8", "8"));
        assert_eq!(y1.verdict, "recommended");
        assert_eq!(en.rows[1].saving.value, "3500.00");
        assert_eq!(en.rows[1].verdict, "runner-up");
        assert_eq!(en.rows[0].breakeven_month, Shown::new("—", "n/a"));
        assert_eq!(
            en.sentence,
            "Over the 12 months compared, 1 year, all upfront costs ¥90,000.00: ¥18,000.00 less than the runner-up, monthly (¥108,000.00)."
        );
        assert_eq!(
            en.formula,
            "E = ¥90,000.00 / 12 + ¥0.00 = ¥7,500.00;  H*_E = E / r = 300 h;  1 × 1 × (¥90,000.00 + 12 × ¥0.00) + 12 × ¥0.00 = ¥90,000.00"
        );
        let zh = present(Lang::Zh, "¥", &example(12), 730.0).unwrap();
        assert_eq!(zh.recommended.text, "包年（全预付）");
        assert_eq!(zh.rows[2].breakeven_month.text, "第 8 个月");
        assert!(zh
            .sentence
            .starts_with("在比较的 12 个月里，包年（全预付）共花 ¥90,000.00"));
    }

    #[test]
    fn says_why_a_cheaper_term_is_not_recommended() {
        // A 6-month horizon: the year pays back in month 8, after it.
        let en = present(Lang::En, "¥", &example(6), 730.0).unwrap();
        assert_eq!(en.recommended.value, "monthly");
        assert_eq!(en.rows[0].verdict, "runner-up");
        assert_eq!(en.rows[2].verdict, "pays back after the horizon");
        assert_eq!(
            en.not_recommended,
            vec!["1 year, all upfront: pays back only in month 8, after the 6 months you are sure of, so it is not recommended."]
        );
        let zh = present(Lang::Zh, "¥", &example(6), 730.0).unwrap();
        assert_eq!(zh.rows[2].verdict, "回本晚于规划期");
        assert_eq!(
            zh.not_recommended,
            vec!["包年（全预付）：要到第 8 个月才回本，晚于有把握的 6 个月，因此不推荐。"]
        );
    }

    #[test]
    fn errors_name_the_field() {
        let err = Err(InputError::new(
            crate::core::error::Field::Horizon,
            crate::core::error::Problem::MustBePositive,
        ));
        assert!(present(Lang::En, "¥", &err, 730.0)
            .unwrap_err()
            .contains("Horizon"));
    }
}

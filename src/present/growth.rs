//! § 22 The growth card: the history's trend, the growth used, the plans over the horizon
//! with it (all now on each term, monthly only, the ladder), the ladder's tranches and what
//! each plan loses if the growth stops or reverses.

use super::{failed, Presented, Shown};
use crate::core::error::InputError;
use crate::core::growth::{GrowthPlan, PlanKind, PlanRow, RateSource, Trend};
use crate::core::money::Money;
use crate::core::terms::Term;
use crate::format::{money, number_trim, Lang};
use crate::i18n::pick;

#[derive(Debug, Clone, PartialEq)]
pub struct PlanView {
    /// `data-plan`.
    pub key: String,
    pub name: String,
    /// "11 now, 17 by month 6".
    pub gpus: String,
    pub cost: Shown,
    pub risk_flat: Shown,
    pub risk_decline: Shown,
    pub recommended: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TrancheView {
    /// `data-month`: months from now (0: now).
    pub month: String,
    /// "now" / "month 3".
    pub when: String,
    /// GPUs added.
    pub add: Shown,
    /// The term's name; `data-value` its key (`monthly`, `1y`, `3y`).
    pub term: Shown,
    /// "2 × 1 year".
    pub terms_bought: String,
    pub cost: Shown,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MonthView {
    pub month: String,
    pub factor: String,
    pub waterline: String,
    pub gpu_hours: String,
    /// The ladder's committed GPUs.
    pub committed: String,
    /// Each plan's money this month, in the order of `plans`.
    pub costs: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct GrowthView {
    /// The daily averages' trend; `data-value` % per month (`none` without a fit).
    pub trend: Shown,
    /// Its 95 % interval; `data-value` "low,high".
    pub interval: Shown,
    /// What the trend was fitted on, and the daily waterlines' trend beside it.
    pub trend_note: String,
    /// The growth used and where it comes from; `data-value` % per month.
    pub rate: Shown,
    /// The recommendation in a sentence; `data-value` the plan's key.
    pub recommended: Shown,
    /// The answer in one line, shown while the card is closed.
    pub gist: String,
    pub plans: Vec<PlanView>,
    pub tranches: Vec<TrancheView>,
    /// The ladder's total over the horizon (`ladder-total`).
    pub ladder_total: Shown,
    pub months: Vec<MonthView>,
    /// The two futures the risks are measured on.
    pub risk_note: String,
    pub formula: String,
    /// Beside the history's report: the trend over the lookback (empty without one).
    pub history_line: String,
    /// In the terms card: the growth used and the plan it recommends.
    pub terms_line: String,
}

fn signed(p: f64, l: Lang) -> String {
    let sign = if p > 0.0 {
        "+"
    } else if p < 0.0 {
        "−"
    } else {
        ""
    };
    format!("{sign}{} %", number_trim(p.abs(), 1, l))
}

fn term_name(l: Lang, t: Term) -> &'static str {
    match t {
        Term::OnDemand => pick(l, "on demand", "按量"),
        Term::Monthly => pick(l, "monthly", "包月"),
        Term::OneYear => pick(l, "1 year", "包年"),
        Term::ThreeYear => pick(l, "3 years", "三年"),
    }
}

fn plan_name(l: Lang, k: PlanKind) -> String {
    match k {
        PlanKind::OnDemand => pick(l, "On demand", "全部按量").into(),
        PlanKind::MonthlyOnly => {
            pick(l, "Monthly only, re-sized each month", "只用包月，每月调整").into()
        }
        PlanKind::AllNow(t) => match l {
            Lang::En => format!("All now: {}", term_name(l, t)),
            Lang::Zh => format!("现在一次买齐：{}", term_name(l, t)),
        },
        PlanKind::Ladder => pick(l, "The ladder", "承诺阶梯").into(),
    }
}

fn when(l: Lang, month: u32) -> String {
    match (l, month) {
        (Lang::En, 0) => "now".into(),
        (Lang::Zh, 0) => "现在".into(),
        (Lang::En, m) => format!("month {m}"),
        (Lang::Zh, m) => format!("第 {m} 个月"),
    }
}

fn trend_text(l: Lang, t: &Trend) -> String {
    match l {
        Lang::En => format!("{} a month", signed(t.percent, l)),
        Lang::Zh => format!("每月 {}", signed(t.percent, l)),
    }
}

fn gpus_text(l: Lang, p: &PlanRow, h: u32, left: u32) -> String {
    match (l, p.gpus_now == p.gpus_last) {
        (Lang::En, true) => format!("{}", p.gpus_now),
        (Lang::Zh, true) => format!("{}", p.gpus_now),
        (Lang::En, false) => format!(
            "{} first, {} by month {}",
            p.gpus_now,
            p.gpus_last,
            left + h
        ),
        (Lang::Zh, false) => format!("起初 {}，第 {} 个月 {}", p.gpus_now, left + h, p.gpus_last),
    }
}

/// The ladder's tranches in words: "11 now on 1 year, +1 at month 1 on monthly, …".
fn tranche_words(l: Lang, g: &GrowthPlan) -> String {
    let shown = 4;
    let mut parts: Vec<String> = g
        .ladder
        .iter()
        .take(shown)
        .map(|t| {
            let at = match (l, t.month) {
                (Lang::En, 0) => "now".to_string(),
                (Lang::En, m) => format!("at month {m}"),
                (Lang::Zh, _) => when(l, t.month),
            };
            let (n, term) = (t.gpus, term_name(l, t.term));
            match (l, t.month == g.months_left) {
                (Lang::En, true) => format!("{n} GPUs {at} on {term}"),
                (Lang::Zh, true) => format!("{at}买 {n} 张{term}"),
                (Lang::En, false) => format!("+{n} {at} on {term}"),
                (Lang::Zh, false) => format!("{at}加 {n} 张{term}"),
            }
        })
        .collect();
    if g.ladder.len() > shown {
        let more = g.ladder.len() - shown;
        parts.push(match l {
            Lang::En => format!("and {more} more tranches"),
            Lang::Zh => format!("另有 {more} 档"),
        });
    }
    parts.join(pick(l, ", ", "，"))
}

fn sentence(l: Lang, cur: &str, g: &GrowthPlan) -> String {
    let m = |x: Money| money(x, cur, l);
    let h = g.compared_months;
    if h == 0 {
        return pick(
            l,
            "Your current commitment covers the whole horizon: nothing new to buy yet.",
            "现有承诺已覆盖整个规划期：暂时无需新购。",
        )
        .into();
    }
    let rate = signed(g.percent, l);
    let best = g.recommended();
    let all_now = g
        .plans
        .iter()
        .filter(|p| matches!(p.kind, PlanKind::AllNow(_)))
        .min_by_key(|p| p.cost);
    let monthly_only = g.plan(PlanKind::MonthlyOnly);
    match (l, best.kind) {
        (Lang::En, PlanKind::Ladder) => {
            let mut s = format!(
                "With {rate} growth a month, the ladder costs {} over the {h} months: {}.",
                m(best.cost),
                tranche_words(l, g)
            );
            if let Some(a) = all_now {
                s += &format!(
                    " That is {} less than buying all now ({} of {} GPUs, {})",
                    m(a.cost - best.cost),
                    term_name(l, a_term(a)),
                    a.gpus_now,
                    m(a.cost)
                );
            }
            if let Some(mo) = monthly_only {
                s += &format!(" and {} less than monthly only.", m(mo.cost - best.cost));
            }
            s
        }
        (Lang::Zh, PlanKind::Ladder) => {
            let mut s = format!(
                "按每月 {rate} 的增长，承诺阶梯在 {h} 个月里共花 {}：{}。",
                m(best.cost),
                tranche_words(l, g)
            );
            if let Some(a) = all_now {
                s += &format!(
                    "比现在一次买齐（{} {} 张，{}）少 {}",
                    term_name(l, a_term(a)),
                    a.gpus_now,
                    m(a.cost),
                    m(a.cost - best.cost)
                );
            }
            if let Some(mo) = monthly_only {
                s += &format!("，比只用包月少 {}。", m(mo.cost - best.cost));
            }
            s
        }
        (Lang::En, PlanKind::AllNow(t)) => format!(
            "With {rate} growth a month, {} of {} GPUs now costs {} over the {h} months, the lowest: a ladder adds nothing to it.",
            term_name(l, t),
            best.gpus_now,
            m(best.cost)
        ),
        (Lang::Zh, PlanKind::AllNow(t)) => format!(
            "按每月 {rate} 的增长，现在买 {} 张{}，{h} 个月共花 {}，最低：分档购买没有更省。",
            best.gpus_now,
            term_name(l, t),
            m(best.cost)
        ),
        (Lang::En, PlanKind::MonthlyOnly) => format!(
            "With {rate} growth a month, monthly re-sized each month costs {} over the {h} months, the lowest ({}).",
            m(best.cost),
            gpus_text(l, best, h, g.months_left)
        ),
        (Lang::Zh, PlanKind::MonthlyOnly) => format!(
            "按每月 {rate} 的增长，只用包月并每月调整，{h} 个月共花 {}，最低（{}）。",
            m(best.cost),
            gpus_text(l, best, h, g.months_left)
        ),
        (Lang::En, PlanKind::OnDemand) => format!(
            "With {rate} growth a month, on demand costs {} over the {h} months: no commitment pays for itself.",
            m(best.cost)
        ),
        (Lang::Zh, PlanKind::OnDemand) => format!(
            "按每月 {rate} 的增长，全部按量 {h} 个月共花 {}：任何承诺都不划算。",
            m(best.cost)
        ),
    }
}

/// The card's answer in one line (its summary while closed).
fn gist(l: Lang, cur: &str, g: &GrowthPlan) -> String {
    let h = g.compared_months;
    if h == 0 {
        return pick(
            l,
            "nothing new to buy within the horizon",
            "规划期内无需新购",
        )
        .into();
    }
    let (rate, best) = (signed(g.percent, l), g.recommended());
    let cost = money(best.cost, cur, l);
    let what = match (l, best.kind) {
        (Lang::En, PlanKind::AllNow(t)) => {
            format!("{} of {} GPUs now", term_name(l, t), best.gpus_now)
        }
        (Lang::Zh, PlanKind::AllNow(t)) => {
            format!("现在买 {} 张{}", best.gpus_now, term_name(l, t))
        }
        (Lang::En, PlanKind::Ladder) => "the ladder".into(),
        (Lang::En, PlanKind::MonthlyOnly) => "monthly only, re-sized each month".into(),
        (Lang::En, PlanKind::OnDemand) => "on demand".into(),
        (Lang::Zh, k) => plan_name(l, k),
    };
    match l {
        Lang::En => format!("{rate} a month: {what}, {cost} over {h} months"),
        Lang::Zh => format!("每月 {rate}：{what}，{h} 个月共 {cost}"),
    }
}

fn a_term(p: &PlanRow) -> Term {
    match p.kind {
        PlanKind::AllNow(t) => t,
        _ => Term::OnDemand,
    }
}

fn rate_text(l: Lang, g: &GrowthPlan) -> String {
    let r = signed(g.percent, l);
    match (l, g.source) {
        (Lang::En, RateSource::Fitted) => format!("Growth used: {r} a month, the history's fitted trend."),
        (Lang::Zh, RateSource::Fitted) => format!("采用的增长：每月 {r}，即历史拟合的趋势。"),
        (Lang::En, RateSource::Typed) => format!("Growth used: {r} a month, as typed."),
        (Lang::Zh, RateSource::Typed) => format!("采用的增长：每月 {r}（手动填写）。"),
        (Lang::En, RateSource::EndLevel) => format!(
            "Growth used: {r} a month, to reach the waterline typed for month {}.",
            g.horizon_months
        ),
        (Lang::Zh, RateSource::EndLevel) => format!(
            "采用的增长：每月 {r}，以在第 {} 个月达到所填水位。",
            g.horizon_months
        ),
        (Lang::En, RateSource::NoHistory) => {
            "Growth used: 0 % a month (no history to fit: type a growth to plan with one).".into()
        }
        (Lang::Zh, RateSource::NoHistory) => "采用的增长：每月 0 %（没有可拟合的历史：可手动填写增长）。".into(),
        (Lang::En, RateSource::TooShort(d)) => format!(
            "Growth used: 0 % a month: the lookback spans {d} days, the fitted trend needs 28 (choose a longer lookback or type a growth)."
        ),
        (Lang::Zh, RateSource::TooShort(d)) => format!(
            "采用的增长：每月 0 %：回看窗口只有 {d} 天，拟合趋势需要 28 天（可选更长的回看窗口或手动填写）。"
        ),
        (Lang::En, RateSource::NoFit) => {
            "Growth used: 0 % a month: too few days with usage to fit a trend.".into()
        }
        (Lang::Zh, RateSource::NoFit) => "采用的增长：每月 0 %：有用量的天数太少，无法拟合趋势。".into(),
    }
}

pub fn present(
    l: Lang,
    cur: &str,
    growth: &Result<GrowthPlan, InputError>,
) -> Presented<GrowthView> {
    let g = growth.as_ref().or_else(|e| failed(l, e))?;
    let m = |x: Money| money(x, cur, l);
    let shown = |x: Money| Shown::new(m(x), x.to_plain_string());
    let h = g.compared_months;
    let (trend, interval, trend_note) = match &g.trend {
        Some(t) => {
            let unit = match (l, t.weekly) {
                (Lang::En, false) => "daily averages",
                (Lang::En, true) => "weekly means of the daily averages",
                (Lang::Zh, false) => "个日均值",
                (Lang::Zh, true) => "个周均值（日均值的）",
            };
            let wl = g
                .waterline_trend
                .as_ref()
                .map(|w| trend_text(l, w))
                .unwrap_or_else(|| pick(l, "no fit", "无法拟合").into());
            let note = match l {
                Lang::En => format!(
                    "Fitted on {} {unit} over {} days (Theil–Sen on the logarithm; 95 % interval). The daily waterlines: {wl}.",
                    t.points, t.span_days
                ),
                Lang::Zh => format!(
                    "基于 {} 天内的 {} {unit}拟合（对数 Theil–Sen 估计，95 % 区间）。每日水位的趋势：{wl}。",
                    t.span_days, t.points
                ),
            };
            (
                Shown::new(trend_text(l, t), crate::format::plain(t.percent, 2)),
                Shown::new(
                    match l {
                        Lang::En => format!(
                            "(95 %: {} to {} a month)",
                            signed(t.low, l),
                            signed(t.high, l)
                        ),
                        Lang::Zh => format!(
                            "（95 % 区间：每月 {} 至 {}）",
                            signed(t.low, l),
                            signed(t.high, l)
                        ),
                    },
                    format!(
                        "{},{}",
                        crate::format::plain(t.low, 2),
                        crate::format::plain(t.high, 2)
                    ),
                ),
                note,
            )
        }
        None => (
            Shown::new(
                pick(
                    l,
                    "none (it needs a history with at least 3 days of usage)",
                    "无（需要至少 3 天有用量的历史）",
                ),
                "none",
            ),
            Shown::new("", "none"),
            String::new(),
        ),
    };
    let plans = g
        .plans
        .iter()
        .enumerate()
        .map(|(i, p)| PlanView {
            key: p.kind.key().into(),
            name: plan_name(l, p.kind),
            gpus: gpus_text(l, p, h, g.months_left),
            cost: shown(p.cost),
            risk_flat: shown(p.risk_flat),
            risk_decline: shown(p.risk_decline),
            recommended: i == g.recommended,
        })
        .collect();
    let tranches = g
        .ladder
        .iter()
        .map(|t| TrancheView {
            month: t.month.to_string(),
            when: when(l, t.month),
            add: Shown::new(format!("+{}", t.gpus), t.gpus.to_string()),
            term: Shown::new(term_name(l, t.term), t.term.key()),
            terms_bought: format!("{} × {}", t.terms_bought, term_name(l, t.term)),
            cost: shown(t.cost),
        })
        .collect();
    let ladder = g.plan(PlanKind::Ladder).map_or(Money::ZERO, |p| p.cost);
    let months = g
        .months
        .iter()
        .enumerate()
        .map(|(t, r)| MonthView {
            month: r.month.to_string(),
            factor: format!("× {}", number_trim(r.factor, 3, l)),
            waterline: number_trim(r.waterline, 2, l),
            gpu_hours: number_trim(r.gpu_hours, 0, l),
            committed: r.committed.to_string(),
            costs: g.plans.iter().map(|p| m(p.months[t])).collect(),
        })
        .collect();
    let risk_note = match l {
        Lang::En => format!(
            "Risk: each plan replayed if growth stops now (usage stays at the history's level) and if it reverses ({} a month). What a plan buys now is bought; later tranches, renewals and months are bought only up to what the month then needs (the cap on its waterline). The loss is that cost minus the cheapest plan made for that future.",
            signed(-g.decline_percent, l)
        ),
        Lang::Zh => format!(
            "风险：假设增长从现在停止（用量保持在历史水平）或反转（每月 {}），重放每个方案。现在买下的照买；之后的分档、续约与每月购买只买到当月需要的量（不超过当月水位上限）。损失 = 该成本 − 为该情形量身定制的最便宜方案。",
            signed(-g.decline_percent, l)
        ),
    };
    let formula = match l {
        Lang::En => format!(
            "g = {};  f_j = (1 + g)^j;  W_j = {} × f_j;  cap_j = ⌊{} % × W_j⌋;  ladder = min Σ ΔC_s·cover(s) + Σ X_j(C_j) = {}",
            signed(g.percent, l),
            number_trim(g.waterline, 2, l),
            number_trim(g.cap_percent, 1, l),
            m(ladder)
        ),
        Lang::Zh => format!(
            "g = {}；f_j = (1 + g)^j；W_j = {} × f_j；上限_j = ⌊{} % × W_j⌋；阶梯 = min Σ ΔC_s·cover(s) + Σ X_j(C_j) = {}",
            signed(g.percent, l),
            number_trim(g.waterline, 2, l),
            number_trim(g.cap_percent, 1, l),
            m(ladder)
        ),
    };
    let history_line = match (&g.trend, l) {
        (Some(t), Lang::En) => format!(
            "Trend over the lookback: {} {}, fitted on {} days; the growth card carries it forward.",
            trend.text, interval.text, t.span_days
        ),
        (Some(t), Lang::Zh) => format!(
            "回看窗口内的趋势：{}{}，基于 {} 天拟合；增长卡片据此逐月推算。",
            trend.text, interval.text, t.span_days
        ),
        (None, _) => String::new(),
    };
    let recommended = Shown::new(sentence(l, cur, g), g.recommended().kind.key());
    let rate = Shown::new(rate_text(l, g), crate::format::plain(g.percent, 4));
    let terms_line = match l {
        Lang::En => format!(
            "The table above assumes the usage stays as it was. {} {}",
            rate.text, recommended.text
        ),
        Lang::Zh => format!("上表假设用量保持不变。{}{}", rate.text, recommended.text),
    };
    Ok(GrowthView {
        gist: gist(l, cur, g),
        history_line,
        terms_line,
        trend,
        interval,
        trend_note,
        rate,
        recommended,
        plans,
        tranches,
        ladder_total: shown(ladder),
        months,
        risk_note,
        formula,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::growth::worked_example as example;

    #[test]
    fn worked_example_in_both_languages() {
        let en = present(Lang::En, "¥", &example()).unwrap();
        assert_eq!(en.recommended.value, "ladder");
        assert_eq!(
            en.recommended.text,
            "With +10 % growth a month, the ladder costs ¥708,326.97 over the 6 months: 11 GPUs now on 1 year, +1 at month 1 on monthly, +1 at month 2 on monthly, +1 at month 3 on monthly, and 2 more tranches. That is ¥95,200.00 less than buying all now (1 year of 11 GPUs, ¥803,526.97) and ¥66,000.00 less than monthly only."
        );
        assert_eq!(
            en.gist,
            "+10 % a month: the ladder, ¥708,326.97 over 6 months"
        );
        let zh_gist = present(Lang::Zh, "¥", &example()).unwrap().gist;
        assert_eq!(zh_gist, "每月 +10 %：承诺阶梯，6 个月共 ¥708,326.97");
        assert_eq!(en.tranches.len(), 6);
        assert_eq!(en.tranches[0].month, "0");
        assert_eq!(en.tranches[0].add, Shown::new("+11", "11"));
        assert_eq!(en.tranches[0].term, Shown::new("1 year", "1y"));
        assert_eq!(en.tranches[0].cost.value, "528000.00");
        assert_eq!(en.tranches[4].when, "month 4");
        assert_eq!(en.ladder_total.value, "708326.97");
        assert_eq!(en.trend.value, "none");
        assert_eq!(en.rate.value, "10");
        assert_eq!(en.rate.text, "Growth used: +10 % a month, as typed.");
        let ladder = en.plans.iter().find(|p| p.key == "ladder").unwrap();
        assert_eq!(ladder.risk_flat.value, "48000.00");
        assert_eq!(ladder.risk_decline.value, "70344.90");
        assert_eq!(ladder.gpus, "11 first, 17 by month 6");
        let zh = present(Lang::Zh, "¥", &example()).unwrap();
        assert!(zh.recommended.text.starts_with(
            "按每月 +10 % 的增长，承诺阶梯在 6 个月里共花 ¥708,326.97：现在买 11 张包年，第 1 个月加 1 张包月"
        ));
        assert_eq!(zh.tranches[1].when, "第 1 个月");
    }

    #[test]
    fn errors_name_the_field() {
        let err = Err(InputError::new(
            crate::core::error::Field::LadderCap,
            crate::core::error::Problem::TooLarge { max: 300.0 },
        ));
        assert!(present(Lang::En, "¥", &err)
            .unwrap_err()
            .contains("Commit at most"));
    }
}

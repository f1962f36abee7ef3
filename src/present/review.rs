//! § 14 The monthly review card: where the months come from, the baseline reviewed, the
//! table (utilization, fixed and elastic spend, queue time, flags per month) and the
//! recommended actions as sentences. The typed-months form is the card's own (not here).

use super::{failed, Presented, Shown};
use crate::core::error::InputError;
use crate::core::review::{Review, ReviewAction, ReviewRow, ReviewSource};
use crate::format::Lang;
use crate::format::{money, number_trim, percent, plain};
use crate::i18n::pick;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReviewView {
    /// There are months to review (false: no history and no typed month; the rest is empty).
    pub has_months: bool,
    /// `data-value` of the source line: "history" or "typed".
    pub source_key: String,
    /// Where the months come from, then "Baseline reviewed:" (the baseline follows).
    pub source: String,
    /// N, in words (`data-value`: N).
    pub baseline: Shown,
    pub rows: Vec<RowView>,
    /// The recommended actions; one "keep" action when no rule is triggered.
    pub actions: Vec<ActionView>,
    pub formula: String,
}

/// One month of the table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RowView {
    pub label: String,
    pub utilization: Shown,
    pub fixed_spend: Shown,
    pub elastic_spend: Shown,
    pub queue: Shown,
    /// `data-value` of the flags cell: the flags' keys, comma-separated ("" when none).
    pub flag_keys: String,
    /// The badges of the flags cell, in order ("✓ OK" alone when no flag is raised).
    pub badges: Vec<Badge>,
}

/// One badge of a month's flags cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Badge {
    Ok,
    LowUtilization,
    ElasticAboveFixed,
    QueueOverLimit,
}

impl Badge {
    pub fn class(self) -> &'static str {
        match self {
            Badge::Ok => "badge badge-ok",
            _ => "badge badge-flag",
        }
    }
    /// The badge's text in English and in Chinese.
    pub fn text(self) -> (&'static str, &'static str) {
        match self {
            Badge::Ok => ("✓ OK", "✓ 正常"),
            Badge::LowUtilization => ("⚑ Low utilization", "⚑ 利用率低"),
            Badge::ElasticAboveFixed => ("⚑ Elastic above fixed", "⚑ 弹性高于固定"),
            Badge::QueueOverLimit => ("⚑ Queue over limit", "⚑ 排队超限"),
        }
    }
    /// The flag's key in the flags cell's `data-value` (none for OK).
    fn key(self) -> &'static str {
        match self {
            Badge::Ok => "",
            Badge::LowUtilization => "low-utilization",
            Badge::ElasticAboveFixed => "elastic-above-fixed",
            Badge::QueueOverLimit => "queue-over-limit",
        }
    }
}

/// One recommended action: an item of the actions list.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ActionView {
    /// `review-action-keep`, `-lower-baseline`, `-raise-baseline`, `-tighten-autoscaling`.
    pub testid: &'static str,
    /// The new baseline, or the latest month's queue hours for tightening.
    pub value: String,
    pub text: String,
}

impl ReviewView {
    /// Row `i` of the table, if there is one.
    pub fn row(&self, i: usize) -> Option<&RowView> {
        self.rows.get(i)
    }
    /// Action `i` of the list, if there is one.
    pub fn action(&self, i: usize) -> Option<&ActionView> {
        self.actions.get(i)
    }
}

fn row_view(l: Lang, cur: &str, row: &ReviewRow) -> RowView {
    let badges: Vec<Badge> = [
        (row.low_utilization, Badge::LowUtilization),
        (row.elastic_above_fixed, Badge::ElasticAboveFixed),
        (row.queue_over_limit, Badge::QueueOverLimit),
    ]
    .into_iter()
    .filter_map(|(on, b)| on.then_some(b))
    .collect();
    let flag_keys = badges.iter().map(|b| b.key()).collect::<Vec<_>>().join(",");
    RowView {
        label: row.label.clone(),
        utilization: Shown::new(
            row.fixed_utilization
                .map(|u| percent(u, 1, l))
                .unwrap_or_else(|| pick(l, "— (no fixed GPUs)", "—（无固定 GPU）").to_string()),
            row.fixed_utilization
                .map(|u| plain(u, 4))
                .unwrap_or_default(),
        ),
        fixed_spend: Shown::new(
            money(row.fixed_spend, cur, l),
            row.fixed_spend.to_plain_string(),
        ),
        elastic_spend: Shown::new(
            money(row.elastic_spend, cur, l),
            row.elastic_spend.to_plain_string(),
        ),
        queue: Shown::new(
            row.queue_hours
                .map(|q| format!("{}{}", number_trim(q, 2, l), pick(l, " h", " 小时")))
                .unwrap_or_else(|| pick(l, "unknown", "未知").to_string()),
            row.queue_hours.map(|q| plain(q, 2)).unwrap_or_default(),
        ),
        flag_keys,
        badges: if badges.is_empty() {
            vec![Badge::Ok]
        } else {
            badges
        },
    }
}

/// `threshold_percent`, `queue_limit_hours`: the two thresholds as set (for the sentences).
pub fn present(
    l: Lang,
    cur: &str,
    review: &Result<Option<Review>, InputError>,
    threshold_percent: f64,
    queue_limit_hours: f64,
) -> Presented<ReviewView> {
    let r = match review {
        Err(e) => return failed(l, e),
        Ok(None) => return Ok(ReviewView::default()),
        Ok(Some(r)) => r,
    };
    let n = r.baseline;
    let (source_key, source) = match r.source {
        ReviewSource::History => (
            "history",
            pick(l, "From your usage history.", "数据来自用量历史。"),
        ),
        ReviewSource::Typed => (
            "typed",
            pick(
                l,
                "From the months typed below.",
                "数据来自下方填写的月份。",
            ),
        ),
    };
    let baseline_text = match l {
        Lang::En => format!("{n} fixed GPUs"),
        Lang::Zh => format!("{n} 张固定 GPU"),
    };
    let threshold = number_trim(threshold_percent, 2, l);
    let limit = number_trim(queue_limit_hours, 2, l);
    let latest = r.rows.last();
    let actions = if r.actions.is_empty() {
        vec![ActionView {
            testid: "review-action-keep",
            value: n.to_string(),
            text: match l {
                Lang::En => format!("Keep the baseline at {n} GPUs: no rule is triggered."),
                Lang::Zh => format!("保持基线 {n} 张 GPU：没有触发任何规则。"),
            },
        }]
    } else {
        r.actions
            .iter()
            .map(|a| match *a {
                ReviewAction::LowerBaseline { from, to } => ActionView {
                    testid: "review-action-lower-baseline",
                    value: to.to_string(),
                    text: match l {
                        Lang::En => format!("Fixed utilization was under {threshold} % two months running: lower the baseline from {from} to {to} GPUs."),
                        Lang::Zh => format!("固定配额利用率连续两个月低于 {threshold}%：把基线从 {from} 张降到 {to} 张。"),
                    },
                },
                ReviewAction::RaiseBaseline { from, to } => ActionView {
                    testid: "review-action-raise-baseline",
                    value: to.to_string(),
                    text: match l {
                        Lang::En => format!("Elastic spend was above fixed spend two months running: raise the baseline from {from} to {to} GPUs."),
                        Lang::Zh => format!("弹性支出连续两个月高于固定支出：把基线从 {from} 张升到 {to} 张。"),
                    },
                },
                ReviewAction::TightenAutoscaling => {
                    let (label, q) = latest
                        .map(|m| (m.label.clone(), m.queue_hours.unwrap_or(0.0)))
                        .unwrap_or_default();
                    let qs = number_trim(q, 2, l);
                    ActionView {
                        testid: "review-action-tighten-autoscaling",
                        value: plain(q, 2),
                        text: match l {
                            Lang::En => format!("Jobs queued {qs} h in {label}, over the {limit} h limit: tighten the autoscaling triggers so elastic GPUs start sooner."),
                            Lang::Zh => format!("{label} 任务排队 {qs} 小时，超过 {limit} 小时上限：收紧弹性扩容的触发条件，让弹性 GPU 更早启动。"),
                        },
                    }
                }
            })
            .collect()
    };
    let formula = match l {
        Lang::En => format!(
            "On the latest two months: utilization < {threshold} % in both → N − 1; elastic spend > fixed spend in both → N + 1; queue time > {limit} h in the latest → tighten autoscaling. For history months: utilization = covered(N) / (N·T_m), fixed spend = N·P·T_m/H, elastic spend = r·E_m(N)."
        ),
        Lang::Zh => format!(
            "看最近两个月：利用率都 < {threshold}% → N − 1；弹性支出都 > 固定支出 → N + 1；最近一个月排队 > {limit} 小时 → 收紧弹性扩容。历史月份：利用率 = covered(N) / (N·T_m)，固定支出 = N·P·T_m/H，弹性支出 = r·E_m(N)。"
        ),
    };
    Ok(ReviewView {
        has_months: true,
        source_key: source_key.to_string(),
        source: format!("{source} {} ", pick(l, "Baseline reviewed:", "复盘基线：")),
        baseline: Shown::new(baseline_text, n.to_string()),
        rows: r.rows.iter().map(|row| row_view(l, cur, row)).collect(),
        actions,
        formula,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::{Field, Problem};
    use crate::core::money::Money;
    use crate::core::review::{review_typed, ReviewMonthInput, ReviewThresholds};

    fn month(label: &str, u: f64, f: f64, e: f64, q: Option<f64>) -> ReviewMonthInput {
        ReviewMonthInput {
            label: label.into(),
            fixed_utilization_percent: u,
            fixed_spend: f,
            elastic_spend: e,
            queue_hours: q,
        }
    }

    /// N = 4, threshold 60 %, limit 2 h. Utilization 70, 55, 40 %: the latest two are low →
    /// lower 4 → 3. Elastic 40 000 > fixed 36 000 only in the latest month → no raise. Queue
    /// 3 h > 2 h in the latest month → tighten.
    #[test]
    fn typed_months_in_both_languages() {
        let months = [
            month("2025-01", 70.0, 36000.0, 5000.0, Some(1.0)),
            month("2025-02", 55.0, 36000.0, 30000.0, Some(1.0)),
            month("2025-03", 40.0, 36000.0, 40000.0, Some(3.0)),
        ];
        let r = review_typed(&months, 4, &ReviewThresholds::default()).map(Some);
        let en = present(Lang::En, "¥", &r, 60.0, 2.0).unwrap();
        assert!(en.has_months);
        assert_eq!(en.source_key, "typed");
        assert_eq!(
            en.source,
            "From the months typed below. Baseline reviewed: "
        );
        assert_eq!(en.baseline, Shown::new("4 fixed GPUs", "4"));
        assert_eq!(en.rows.len(), 3);
        let first = en.row(0).unwrap();
        assert_eq!(first.label, "2025-01");
        assert_eq!(first.utilization, Shown::new("70 %", "0.7"));
        assert_eq!(first.fixed_spend, Shown::new("¥36,000.00", "36000.00"));
        assert_eq!(first.elastic_spend, Shown::new("¥5,000.00", "5000.00"));
        assert_eq!(first.queue, Shown::new("1 h", "1"));
        assert_eq!(
            (first.flag_keys.as_str(), &first.badges[..]),
            ("", &[Badge::Ok][..])
        );
        assert_eq!(en.rows[1].flag_keys, "low-utilization");
        let last = en.row(2).unwrap();
        assert_eq!(
            last.flag_keys,
            "low-utilization,elastic-above-fixed,queue-over-limit"
        );
        assert_eq!(
            last.badges,
            [
                Badge::LowUtilization,
                Badge::ElasticAboveFixed,
                Badge::QueueOverLimit
            ]
        );
        assert_eq!(Badge::QueueOverLimit.text().0, "⚑ Queue over limit");
        assert_eq!(Badge::Ok.class(), "badge badge-ok");
        assert_eq!(
            en.actions,
            [
                ActionView {
                    testid: "review-action-lower-baseline",
                    value: "3".into(),
                    text: "Fixed utilization was under 60 % two months running: lower the baseline from 4 to 3 GPUs.".into(),
                },
                ActionView {
                    testid: "review-action-tighten-autoscaling",
                    value: "3".into(),
                    text: "Jobs queued 3 h in 2025-03, over the 2 h limit: tighten the autoscaling triggers so elastic GPUs start sooner.".into(),
                },
            ]
        );
        assert!(en
            .formula
            .starts_with("On the latest two months: utilization < 60 % in both → N − 1;"));
        assert!(en.action(2).is_none() && en.row(3).is_none());

        let zh = present(Lang::Zh, "¥", &r, 60.0, 2.0).unwrap();
        assert_eq!(zh.source, "数据来自下方填写的月份。 复盘基线： ");
        assert_eq!(zh.baseline.text, "4 张固定 GPU");
        assert_eq!(zh.rows[0].utilization.text, "70%");
        assert_eq!(zh.rows[2].queue.text, "3 小时");
        assert_eq!(
            zh.actions[0].text,
            "固定配额利用率连续两个月低于 60%：把基线从 4 张降到 3 张。"
        );
        assert_eq!(
            zh.actions[1].text,
            "2025-03 任务排队 3 小时，超过 2 小时上限：收紧弹性扩容的触发条件，让弹性 GPU 更早启动。"
        );
        assert!(zh
            .formula
            .starts_with("看最近两个月：利用率都 < 60% → N − 1；"));
    }

    /// A history month with N = 0: no utilization, no queue data, nothing to do.
    #[test]
    fn history_without_fixed_gpus_keeps_the_baseline() {
        let r = Ok(Some(Review {
            source: ReviewSource::History,
            baseline: 0,
            rows: vec![ReviewRow {
                label: "2025-06".into(),
                hours: Some(720.0),
                fixed_utilization: None,
                fixed_spend: Money::from_f64(0.0),
                elastic_spend: Money::from_f64(1234.5),
                queue_hours: None,
                low_utilization: false,
                elastic_above_fixed: true,
                queue_over_limit: false,
            }],
            actions: vec![],
        }));
        let en = present(Lang::En, "$", &r, 60.0, 2.0).unwrap();
        assert_eq!(en.source_key, "history");
        assert_eq!(en.source, "From your usage history. Baseline reviewed: ");
        let row = en.row(0).unwrap();
        assert_eq!(row.utilization, Shown::new("— (no fixed GPUs)", ""));
        assert_eq!(row.elastic_spend, Shown::new("$1,234.50", "1234.50"));
        assert_eq!(row.queue, Shown::new("unknown", ""));
        assert_eq!(row.badges, [Badge::ElasticAboveFixed]);
        assert_eq!(
            en.actions,
            [ActionView {
                testid: "review-action-keep",
                value: "0".into(),
                text: "Keep the baseline at 0 GPUs: no rule is triggered.".into(),
            }]
        );
        let zh = present(Lang::Zh, "$", &r, 60.0, 2.0).unwrap();
        assert_eq!(zh.rows[0].utilization.text, "—（无固定 GPU）");
        assert_eq!(zh.rows[0].queue.text, "未知");
        assert_eq!(zh.actions[0].text, "保持基线 0 张 GPU：没有触发任何规则。");
    }

    #[test]
    fn no_months_and_errors() {
        let empty = present(Lang::En, "¥", &Ok(None), 60.0, 2.0).unwrap();
        assert_eq!(empty, ReviewView::default());
        assert!(!empty.has_months);
        let err = Err(InputError::new(
            Field::Threshold,
            Problem::TooLarge { max: 100.0 },
        ));
        assert_eq!(
            present(Lang::Zh, "¥", &err, 150.0, 2.0).unwrap_err(),
            "阈值不能超过 100。"
        );
        assert_eq!(
            present(Lang::En, "¥", &err, 150.0, 2.0).unwrap_err(),
            "Threshold must be at most 100."
        );
    }
}

//! § 14 Monthly review: per calendar month of the history (or months typed in), fixed
//! utilization, elastic vs fixed spend and queue time, and the three rules of seed 000:
//! utilization under the threshold two months running → lower the baseline one step;
//! elastic spend above fixed spend two months running → raise it one step; queue time over
//! the limit in the latest month → tighten the autoscaling triggers.

use super::commitment::month_scale;
use super::error::{non_negative, Field, InputError};
use super::money::Money;
use super::prices::Prices;
use super::profile::MonthProfile;

/// Largest queue time accepted, hours.
pub const MAX_QUEUE_HOURS: f64 = 10_000.0;
/// Largest monthly spend typed into the review.
pub const MAX_REVIEW_SPEND: f64 = 1_000_000_000_000.0;
/// Default utilization threshold, percent.
pub const DEFAULT_UTILIZATION_THRESHOLD_PERCENT: f64 = 60.0;
/// Default queue-time limit, hours.
pub const DEFAULT_QUEUE_LIMIT_HOURS: f64 = 2.0;

/// One month typed in by the user.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewMonthInput {
    pub label: String,
    /// Fixed (monthly) GPU utilization, percent 0..=100.
    pub fixed_utilization_percent: f64,
    /// Fixed spend that month.
    pub fixed_spend: f64,
    /// Elastic spend that month.
    pub elastic_spend: f64,
    /// Typical queue time, hours (`None` if unknown).
    pub queue_hours: Option<f64>,
}

/// Editable thresholds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReviewThresholds {
    /// Utilization below this (percent) counts as low.
    pub utilization_percent: f64,
    /// Queue time above this (hours) counts as too long.
    pub queue_limit_hours: f64,
}

impl Default for ReviewThresholds {
    fn default() -> Self {
        Self {
            utilization_percent: DEFAULT_UTILIZATION_THRESHOLD_PERCENT,
            queue_limit_hours: DEFAULT_QUEUE_LIMIT_HOURS,
        }
    }
}

/// Where the review rows came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewSource {
    History,
    Typed,
}

/// One month of the review.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewRow {
    pub label: String,
    /// Hours of history in the month (`None` for typed months).
    pub hours: Option<f64>,
    /// Fixed utilization 0..=1: Σmin(u, N)/(N·T_m) (`None` when N = 0).
    pub fixed_utilization: Option<f64>,
    /// N·P·T_m/H for history months (prorated to the hours present), or as typed.
    pub fixed_spend: Money,
    /// r·Σmax(0, u − N) for history months, or as typed.
    pub elastic_spend: Money,
    /// Queue time, hours (`None` when unknown: histories carry no queue data).
    pub queue_hours: Option<f64>,
    pub low_utilization: bool,
    pub elastic_above_fixed: bool,
    pub queue_over_limit: bool,
}

/// A recommended adjustment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewAction {
    /// Utilization low two months running.
    LowerBaseline { from: u32, to: u32 },
    /// Elastic spend above fixed spend two months running.
    RaiseBaseline { from: u32, to: u32 },
    /// Queue time over the limit in the latest month.
    TightenAutoscaling,
}

/// § 14 result.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    pub source: ReviewSource,
    /// N: the baseline the review is run for.
    pub baseline: u32,
    /// Chronological rows.
    pub rows: Vec<ReviewRow>,
    /// Actions from the latest two months; empty = keep as is.
    pub actions: Vec<ReviewAction>,
}

fn validate_thresholds(t: &ReviewThresholds) -> Result<(f64, f64), InputError> {
    Ok((
        non_negative(Field::Threshold, t.utilization_percent, 100.0)? / 100.0,
        non_negative(Field::Threshold, t.queue_limit_hours, MAX_QUEUE_HOURS)?,
    ))
}

fn finish(
    source: ReviewSource,
    baseline: u32,
    mut rows: Vec<ReviewRow>,
    util: f64,
    queue: f64,
) -> Review {
    for r in &mut rows {
        r.low_utilization = r.fixed_utilization.is_some_and(|u| u < util);
        r.elastic_above_fixed = r.elastic_spend > r.fixed_spend;
        r.queue_over_limit = r.queue_hours.is_some_and(|q| q > queue);
    }
    let mut actions = Vec::new();
    if let [.., a, b] = rows.as_slice() {
        if a.low_utilization && b.low_utilization && baseline > 0 {
            actions.push(ReviewAction::LowerBaseline {
                from: baseline,
                to: baseline - 1,
            });
        }
        if a.elastic_above_fixed && b.elastic_above_fixed {
            actions.push(ReviewAction::RaiseBaseline {
                from: baseline,
                to: baseline + 1,
            });
        }
    }
    if rows.last().is_some_and(|r| r.queue_over_limit) {
        actions.push(ReviewAction::TightenAutoscaling);
    }
    Review {
        source,
        baseline,
        rows,
        actions,
    }
}

/// § 14 from the calendar months of the history, for a baseline of `baseline` GPUs.
pub fn review_history(
    months: &[MonthProfile],
    prices: &Prices,
    baseline: u32,
    thresholds: &ReviewThresholds,
) -> Result<Review, InputError> {
    let (util, queue) = validate_thresholds(thresholds)?;
    let rows = months
        .iter()
        .map(|m| {
            let lv = &m.levels;
            let t = lv.hours();
            let fixed_fraction = 1.0 / month_scale(lv, prices); // T_m / H
            ReviewRow {
                label: m.label.clone(),
                hours: Some(t),
                fixed_utilization: (baseline > 0 && t > 0.0)
                    .then(|| (lv.covered(baseline) / (baseline as f64 * t)).clamp(0.0, 1.0)),
                fixed_spend: Money::from_f64(baseline as f64 * prices.monthly * fixed_fraction),
                elastic_spend: Money::from_f64(prices.on_demand * lv.excess(baseline)),
                queue_hours: None,
                low_utilization: false,
                elastic_above_fixed: false,
                queue_over_limit: false,
            }
        })
        .collect();
    Ok(finish(ReviewSource::History, baseline, rows, util, queue))
}

/// § 14 from months typed in by the user.
pub fn review_typed(
    months: &[ReviewMonthInput],
    baseline: u32,
    thresholds: &ReviewThresholds,
) -> Result<Review, InputError> {
    let (util, queue) = validate_thresholds(thresholds)?;
    let f = Field::UsageHistory;
    let mut rows = Vec::with_capacity(months.len());
    for m in months {
        rows.push(ReviewRow {
            label: m.label.clone(),
            hours: None,
            fixed_utilization: Some(non_negative(f, m.fixed_utilization_percent, 100.0)? / 100.0),
            fixed_spend: Money::from_f64(non_negative(f, m.fixed_spend, MAX_REVIEW_SPEND)?),
            elastic_spend: Money::from_f64(non_negative(f, m.elastic_spend, MAX_REVIEW_SPEND)?),
            queue_hours: match m.queue_hours {
                Some(q) => Some(non_negative(f, q, MAX_QUEUE_HOURS)?),
                None => None,
            },
            low_utilization: false,
            elastic_above_fixed: false,
            queue_over_limit: false,
        });
    }
    Ok(finish(ReviewSource::Typed, baseline, rows, util, queue))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::profile::LevelProfile;

    fn typed(
        label: &str,
        util: f64,
        fixed: f64,
        elastic: f64,
        queue: Option<f64>,
    ) -> ReviewMonthInput {
        ReviewMonthInput {
            label: label.into(),
            fixed_utilization_percent: util,
            fixed_spend: fixed,
            elastic_spend: elastic,
            queue_hours: queue,
        }
    }

    #[test]
    fn typed_months_and_rules() {
        // Two months under 60 % → lower 4 → 3. Elastic above fixed only in the last month → no raise.
        // Queue 3 h > 2 h in the latest month → tighten.
        let m = vec![
            typed("2025-01", 70.0, 36_000.0, 5_000.0, Some(1.0)),
            typed("2025-02", 55.0, 36_000.0, 30_000.0, Some(1.0)),
            typed("2025-03", 40.0, 36_000.0, 40_000.0, Some(3.0)),
        ];
        let r = review_typed(&m, 4, &ReviewThresholds::default()).unwrap();
        assert_eq!(
            r.rows
                .iter()
                .map(|x| (x.low_utilization, x.elastic_above_fixed))
                .collect::<Vec<_>>(),
            vec![(false, false), (true, false), (true, true)]
        );
        assert_eq!(
            r.actions,
            vec![
                ReviewAction::LowerBaseline { from: 4, to: 3 },
                ReviewAction::TightenAutoscaling
            ]
        );
        // Elastic above fixed in both of the last two months → raise 4 → 5.
        let m = vec![
            typed("a", 90.0, 100.0, 150.0, None),
            typed("b", 95.0, 100.0, 100.01, None),
        ];
        let r = review_typed(&m, 4, &ReviewThresholds::default()).unwrap();
        assert_eq!(
            r.actions,
            vec![ReviewAction::RaiseBaseline { from: 4, to: 5 }]
        );
        // One month is not "two months running".
        let r = review_typed(&m[..1], 4, &ReviewThresholds::default()).unwrap();
        assert!(r.actions.is_empty());
    }

    #[test]
    fn history_months() {
        // Two "months" of 730 h each, baseline N = 2, P = 9000, r = 25, H = 730:
        // M1: u = 1 all month → utilization 730/(2·730) = 50 % (low), elastic 0, fixed 18000.
        // M2: u = 1 for 365 h, 4 for 365 h → covered 365 + 730 = 1095 → 1095/1460 = 75 %;
        //     elastic 25 · 2 · 365 = 18250.00 > fixed 18000.00.
        let mut m2 = vec![1.0; 365];
        m2.extend(vec![4.0; 365]);
        let months = vec![
            MonthProfile {
                label: "M1".into(),
                levels: LevelProfile::from_values(&[1.0; 730]),
            },
            MonthProfile {
                label: "M2".into(),
                levels: LevelProfile::from_values(&m2),
            },
        ];
        let p = Prices::new(9000.0, 25.0, 730.0).unwrap();
        let r = review_history(&months, &p, 2, &ReviewThresholds::default()).unwrap();
        assert_eq!(r.rows[0].fixed_utilization, Some(0.5));
        assert_eq!(r.rows[0].fixed_spend.to_plain_string(), "18000.00");
        assert_eq!(r.rows[1].fixed_utilization, Some(0.75));
        assert_eq!(r.rows[1].elastic_spend.to_plain_string(), "18250.00");
        assert!(r.rows[1].elastic_above_fixed && !r.rows[0].elastic_above_fixed);
        assert!(r.actions.is_empty());
        // Threshold 80 %: both months low → lower 2 → 1.
        let t = ReviewThresholds {
            utilization_percent: 80.0,
            ..Default::default()
        };
        let r = review_history(&months, &p, 2, &t).unwrap();
        assert_eq!(
            r.actions,
            vec![ReviewAction::LowerBaseline { from: 2, to: 1 }]
        );
        // Half a month of data prorates the fixed spend: 365 h → 9000.00 for N = 2.
        let half = vec![MonthProfile {
            label: "x".into(),
            levels: LevelProfile::from_values(&[1.0; 365]),
        }];
        let r = review_history(&half, &p, 2, &t).unwrap();
        assert_eq!(r.rows[0].fixed_spend.to_plain_string(), "9000.00");
    }

    #[test]
    fn bad_thresholds_and_rows() {
        let t = ReviewThresholds {
            utilization_percent: 120.0,
            ..Default::default()
        };
        assert_eq!(
            review_typed(&[], 1, &t).unwrap_err().field,
            Field::Threshold
        );
        let t = ReviewThresholds {
            queue_limit_hours: -1.0,
            ..Default::default()
        };
        assert_eq!(
            review_typed(&[], 1, &t).unwrap_err().field,
            Field::Threshold
        );
        let m = vec![typed("a", 150.0, 1.0, 1.0, None)];
        assert_eq!(
            review_typed(&m, 1, &ReviewThresholds::default())
                .unwrap_err()
                .field,
            Field::UsageHistory
        );
    }
}

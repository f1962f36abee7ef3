//! Resampling to hourly GPUs busy: sub-hourly samples averaged (per series, then
//! summed), coarser samples held until the next one, jobs split across hours.

use super::{
    hour_key, hour_start_s, Gap, GapPolicy, IngestError, ParseReport, MAX_HOURS, MAX_LISTED_GAPS,
};

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Sample {
    /// UTC unix milliseconds.
    pub ms: i64,
    /// Series (0 for a single or summed column).
    pub col: u32,
    pub v: f64,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Hourly {
    pub values: Vec<f64>,
    /// UTC unix seconds of each hour start.
    pub starts: Vec<i64>,
    pub resolution_s: Option<i64>,
    pub span: Option<(i64, i64)>,
    pub missing_hours: usize,
    pub gaps: Vec<Gap>,
    pub duplicates: usize,
}

impl Hourly {
    /// What resampling found, into the report: span, spacing, gaps, duplicates, hours.
    pub(crate) fn fill_report(&self, r: &mut ParseReport) {
        r.span = self.span;
        r.resolution_seconds = self.resolution_s;
        r.missing_hours = self.missing_hours;
        r.gaps = self.gaps.clone();
        r.duplicates = self.duplicates;
        r.hours = self.values.len();
    }
}

const HOUR_MS: i64 = 3_600_000;

fn too_many(hours: u64) -> IngestError {
    IngestError::TooManyHours {
        hours,
        max_hours: MAX_HOURS,
    }
}

/// The lower median: the value at index `(len - 1) / 2` of the sorted values.
///
/// Sample spacings take a handful of distinct values, so they are counted: linear time
/// and no sort. More than `MAX_DISTINCT` distinct values fall back to a sort. (Not
/// `select_nth_unstable`: with the page's size-optimised std it is a median of medians that
/// took 307 s on the 525 599 equal spacings of a year of minutes.)
pub(crate) fn lower_median(v: &mut [i64]) -> Option<i64> {
    const MAX_DISTINCT: usize = 32;
    let mid = v.len().checked_sub(1)? / 2;
    let mut counts: Vec<(i64, usize)> = Vec::new();
    for &x in v.iter() {
        if let Some(c) = counts.iter_mut().find(|c| c.0 == x) {
            c.1 += 1;
        } else if counts.len() < MAX_DISTINCT {
            counts.push((x, 1));
        } else {
            v.sort_unstable();
            return Some(v[mid]);
        }
    }
    counts.sort_unstable();
    let mut seen = 0;
    for (x, n) in counts {
        seen += n;
        if seen > mid {
            return Some(x);
        }
    }
    None
}

/// Resample timestamped samples. `sorted`: already in (ms, col) order.
pub(crate) fn hourly(
    s: &mut Vec<Sample>,
    sorted: bool,
    ncols: usize,
    off: i32,
    policy: GapPolicy,
) -> Result<Hourly, IngestError> {
    let mut out = Hourly::default();
    if s.is_empty() {
        return Ok(out);
    }
    if !sorted {
        s.sort_unstable_by_key(|a| (a.ms, a.col));
    }
    // Collapse duplicates (same time, same series) into their mean.
    let n = s.len();
    let mut w = 0;
    let mut i = 0;
    while i < n {
        let key = (s[i].ms, s[i].col);
        let mut sum = s[i].v;
        let mut j = i + 1;
        while j < n && (s[j].ms, s[j].col) == key {
            sum += s[j].v;
            j += 1;
        }
        out.duplicates += j - i - 1;
        s[w] = Sample {
            ms: key.0,
            col: key.1,
            v: sum / (j - i) as f64,
        };
        w += 1;
        i = j;
    }
    s.truncate(w);
    let first = s[0].ms;
    let last = s[s.len() - 1].ms;
    out.span = Some((first.div_euclid(1000), last.div_euclid(1000)));

    // Resolution: median spacing within the first series.
    let c0 = s[0].col;
    let mut deltas: Vec<i64> = Vec::new();
    let mut prev: Option<i64> = None;
    for x in s.iter().filter(|x| x.col == c0) {
        if let Some(p) = prev {
            deltas.push(x.ms - p);
        }
        prev = Some(x.ms);
    }
    let resolution_ms = lower_median(&mut deltas);
    out.resolution_s = resolution_ms.map(|m| (m + 500) / 1000);

    // Hourly input stamped a little early (13:59:58 for the 14:00 sample) belongs to
    // the next hour: with an hourly resolution, samples up to 5 minutes early are moved.
    let shift = if resolution_ms.is_some_and(|r| (3_240_000..=3_960_000).contains(&r)) {
        300_000
    } else {
        0
    };

    // Mean per (hour, series), summed over series.
    let ncols = ncols.max(s.iter().map(|x| x.col as usize + 1).max().unwrap_or(1));
    let mut acc: Vec<(f64, u32)> = vec![(0.0, 0); ncols];
    let mut touched: Vec<u32> = Vec::new();
    let mut hours: Vec<(i64, f64)> = Vec::new();
    let mut cur = hour_key(s[0].ms + shift, off);
    let flush = |acc: &mut Vec<(f64, u32)>, touched: &mut Vec<u32>| -> f64 {
        let mut total = 0.0;
        for &c in touched.iter() {
            let (sum, cnt) = acc[c as usize];
            total += sum / f64::from(cnt.max(1));
            acc[c as usize] = (0.0, 0);
        }
        touched.clear();
        total
    };
    for x in s.iter() {
        let k = hour_key(x.ms + shift, off);
        if k != cur {
            let v = flush(&mut acc, &mut touched);
            hours.push((cur, v));
            cur = k;
        }
        let a = &mut acc[x.col as usize];
        if a.1 == 0 {
            touched.push(x.col);
        }
        a.0 += x.v;
        a.1 += 1;
    }
    let v = flush(&mut acc, &mut touched);
    hours.push((cur, v));

    // Coarser than hourly: hold each value for one sample period (or until the next).
    if let Some(res) = resolution_ms.filter(|&r| r > HOUR_MS) {
        let hold = ((res + HOUR_MS / 2) / HOUR_MS).clamp(1, 24 * 31);
        let mut total: u64 = 0;
        for (i, &(k, _)) in hours.iter().enumerate() {
            let next = hours.get(i + 1).map_or(k + hold, |h| h.0);
            total += (next.min(k + hold) - k).max(1) as u64;
        }
        if total > MAX_HOURS as u64 {
            return Err(too_many(total));
        }
        let mut filled = Vec::with_capacity(total as usize);
        for (i, &(k, v)) in hours.iter().enumerate() {
            let next = hours.get(i + 1).map_or(k + hold, |h| h.0);
            let end = next.min(k + hold).max(k + 1);
            for kk in k..end {
                filled.push((kk, v));
            }
        }
        hours = filled;
    }

    // Gaps.
    let mut missing: u64 = 0;
    for w in hours.windows(2) {
        let d = (w[1].0 - w[0].0 - 1) as u64;
        if d > 0 {
            missing += d;
            if out.gaps.len() < MAX_LISTED_GAPS {
                out.gaps.push(Gap {
                    start: hour_start_s(w[0].0 + 1, off),
                    hours: d as usize,
                });
            }
        }
    }
    out.missing_hours = usize::try_from(missing).unwrap_or(usize::MAX);
    let produced = match policy {
        GapPolicy::Exclude => hours.len() as u64,
        GapPolicy::Zero => hours.len() as u64 + missing,
    };
    if produced > MAX_HOURS as u64 {
        return Err(too_many(produced));
    }
    out.values.reserve(produced as usize);
    out.starts.reserve(produced as usize);
    let mut prev_k: Option<i64> = None;
    for &(k, v) in &hours {
        if policy == GapPolicy::Zero {
            if let Some(p) = prev_k {
                for kk in p + 1..k {
                    out.values.push(0.0);
                    out.starts.push(hour_start_s(kk, off));
                }
            }
        }
        out.values.push(clean(v));
        out.starts.push(hour_start_s(k, off));
        prev_k = Some(k);
    }
    Ok(out)
}

/// Finite and non-negative (tiny negative rounding residue becomes 0).
fn clean(v: f64) -> f64 {
    if v.is_finite() && v > 0.0 {
        v
    } else {
        0.0
    }
}

/// Jobs `(start ms, end ms, gpus)` → GPU-hours per hour from the first start to the
/// last end (idle hours are 0, not gaps).
pub(crate) fn jobs(jobs: &[(i64, i64, f64)], off: i32) -> Result<Hourly, IngestError> {
    let mut out = Hourly::default();
    let Some(min_s) = jobs.iter().map(|j| j.0).min() else {
        return Ok(out);
    };
    let max_e = jobs.iter().map(|j| j.1).max().unwrap_or(min_s);
    out.span = Some((min_s.div_euclid(1000), max_e.div_euclid(1000)));
    let k0 = hour_key(min_s, off);
    let k1 = hour_key((max_e - 1).max(min_s), off);
    let n = (k1 - k0 + 1) as u64;
    if n > MAX_HOURS as u64 {
        return Err(too_many(n));
    }
    let n = n as usize;
    let off_ms = i64::from(off) * 60_000;
    let start_ms = |k: i64| k * HOUR_MS - off_ms;
    let mut part = vec![0.0f64; n];
    let mut diff = vec![0.0f64; n + 1];
    for &(s, e, g) in jobs {
        if e <= s {
            continue;
        }
        let ks = hour_key(s, off);
        let ke = hour_key(e - 1, off);
        let (is, ie) = ((ks - k0) as usize, (ke - k0) as usize);
        if ks == ke {
            part[is] += g * (e - s) as f64 / HOUR_MS as f64;
        } else {
            part[is] += g * (start_ms(ks + 1) - s) as f64 / HOUR_MS as f64;
            part[ie] += g * (e - start_ms(ke)) as f64 / HOUR_MS as f64;
            if ie > is + 1 {
                diff[is + 1] += g;
                diff[ie] -= g;
            }
        }
    }
    let mut run = 0.0;
    out.values.reserve(n);
    out.starts.reserve(n);
    for i in 0..n {
        run += diff[i];
        out.values.push(clean(run + part[i]));
        out.starts.push(hour_start_s(k0 + i as i64, off));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: i64 = HOUR_MS;
    const T0: i64 = 1_793_538_000_000; // an hour start

    #[test]
    fn averages_sub_hourly_and_sums_series() {
        let mut s = vec![
            Sample {
                ms: T0,
                col: 0,
                v: 2.0,
            },
            Sample {
                ms: T0 + H / 2,
                col: 0,
                v: 4.0,
            },
            Sample {
                ms: T0,
                col: 1,
                v: 1.0,
            },
            Sample {
                ms: T0 + H,
                col: 0,
                v: 5.0,
            },
        ];
        let h = hourly(&mut s, false, 2, 0, GapPolicy::Exclude).unwrap();
        assert_eq!(h.values, vec![4.0, 5.0]);
        assert_eq!(h.starts, vec![T0 / 1000, T0 / 1000 + 3600]);
        assert_eq!(h.resolution_s, Some(1800));
    }

    #[test]
    fn gaps_excluded_or_zero() {
        let mk = || {
            vec![
                Sample {
                    ms: T0,
                    col: 0,
                    v: 1.0,
                },
                Sample {
                    ms: T0 + H,
                    col: 0,
                    v: 1.0,
                },
                Sample {
                    ms: T0 + 4 * H,
                    col: 0,
                    v: 1.0,
                },
            ]
        };
        let h = hourly(&mut mk(), true, 1, 0, GapPolicy::Exclude).unwrap();
        assert_eq!(h.values.len(), 3);
        assert_eq!(h.missing_hours, 2);
        assert_eq!(
            h.gaps,
            vec![Gap {
                start: T0 / 1000 + 7200,
                hours: 2
            }]
        );
        let z = hourly(&mut mk(), true, 1, 0, GapPolicy::Zero).unwrap();
        assert_eq!(z.values, vec![1.0, 1.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn jittered_hourly_samples_snap_to_their_hour() {
        let mut s: Vec<Sample> = [0, H - 2000, 2 * H + 1000, 3 * H - 60_000]
            .iter()
            .enumerate()
            .map(|(i, &d)| Sample {
                ms: T0 + d,
                col: 0,
                v: i as f64,
            })
            .collect();
        let h = hourly(&mut s, true, 1, 0, GapPolicy::Exclude).unwrap();
        assert_eq!(h.values, vec![0.0, 1.0, 2.0, 3.0]);
        assert_eq!(h.missing_hours, 0);
    }

    #[test]
    fn daily_samples_are_held() {
        let mut s = vec![
            Sample {
                ms: T0,
                col: 0,
                v: 3.0,
            },
            Sample {
                ms: T0 + 24 * H,
                col: 0,
                v: 5.0,
            },
        ];
        let h = hourly(&mut s, true, 1, 0, GapPolicy::Exclude).unwrap();
        assert_eq!(h.values.len(), 48);
        assert_eq!(h.values[23], 3.0);
        assert_eq!(h.values[24], 5.0);
        assert_eq!(h.missing_hours, 0);
    }

    #[test]
    fn jobs_split_across_hours() {
        // 2 GPUs from 00:30 to 03:15 (local = UTC), 1 GPU 01:00-01:30.
        let j = [
            (T0 + H / 2, T0 + 3 * H + H / 4, 2.0),
            (T0 + H, T0 + H + H / 2, 1.0),
        ];
        let h = jobs(&j, 0).unwrap();
        assert_eq!(h.values, vec![1.0, 2.5, 2.0, 0.5]);
        let total: f64 = h.values.iter().sum();
        assert!((total - (2.0 * 2.75 + 0.5)).abs() < 1e-9);
    }

    #[test]
    fn too_long_span_is_an_error() {
        let mk = || {
            vec![
                Sample {
                    ms: T0,
                    col: 0,
                    v: 1.0,
                },
                Sample {
                    ms: T0 + H,
                    col: 0,
                    v: 1.0,
                },
                Sample {
                    ms: T0 + 2 * H,
                    col: 0,
                    v: 1.0,
                },
                Sample {
                    ms: T0 + 20 * 8766 * H,
                    col: 0,
                    v: 1.0,
                },
            ]
        };
        assert!(matches!(
            hourly(&mut mk(), true, 1, 0, GapPolicy::Zero),
            Err(IngestError::TooManyHours { .. })
        ));
        let h = hourly(&mut mk(), true, 1, 0, GapPolicy::Exclude).unwrap();
        assert_eq!(h.values.len(), 4);
        assert_eq!(h.missing_hours, 20 * 8766 - 3);
    }

    #[test]
    fn lower_median_hand_examples() {
        assert_eq!(lower_median(&mut []), None);
        assert_eq!(lower_median(&mut [7]), Some(7));
        // Sorted: 1 2 2 9 → index (4 − 1) / 2 = 1 → 2.
        assert_eq!(lower_median(&mut [9, 2, 1, 2]), Some(2));
        // A year of minutes with two gaps: 60 000 ms almost everywhere.
        let mut v = vec![60_000; 525_597];
        v.extend([120_000, 3_600_000]);
        assert_eq!(lower_median(&mut v), Some(60_000));
        // More distinct values than are counted: the sort fallback, same rule.
        let mut many: Vec<i64> = (0..101).rev().map(|x| x * 3).collect();
        assert_eq!(lower_median(&mut many), Some(150));
    }

    #[test]
    fn lower_median_equals_sorting() {
        let mut seed = 12345u64;
        for len in 1..300 {
            let distinct = 1 + len % 50;
            let v: Vec<i64> = (0..len)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 33) % distinct as u64) as i64 - 7
                })
                .collect();
            let mut sorted = v.clone();
            sorted.sort_unstable();
            assert_eq!(
                lower_median(&mut v.clone()),
                Some(sorted[(len - 1) / 2]),
                "{v:?}"
            );
        }
    }
}

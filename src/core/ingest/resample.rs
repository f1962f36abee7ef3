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
    /// Which hour of the samples each produced hour holds (for the teams' split).
    pub timeline: Timeline,
}

/// How samples became the produced hours: the hours the samples fell in (`keys`, before
/// coarser samples were held and gaps filled, with the snap `shift`), and for each produced
/// hour the index in `keys` it holds (`u32::MAX`: a zero-filled gap). A sample at `ms` is in
/// hour `hour_key(ms + shift, off)`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Timeline {
    pub shift: i64,
    pub off: i32,
    pub keys: Vec<i64>,
    pub src: Vec<u32>,
}

impl Timeline {
    /// The index in `keys` of the hour of a sample at `ms` (`None`: not an hour read).
    pub fn index_of(&self, ms: i64) -> Option<usize> {
        self.keys
            .binary_search(&hour_key(ms + self.shift, self.off))
            .ok()
    }
}

/// [`Timeline::src`] of a produced hour without samples (a zero-filled gap).
pub(crate) const NO_SOURCE: u32 = u32::MAX;

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

/// Sort samples by (ms, col) unless `sorted`, and collapse duplicates (same time, same
/// series) into their mean. Returns the number of duplicates.
pub(crate) fn sort_and_collapse(s: &mut Vec<Sample>, sorted: bool) -> usize {
    if !sorted {
        s.sort_unstable_by_key(|a| (a.ms, a.col));
    }
    let mut duplicates = 0;
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
        duplicates += j - i - 1;
        s[w] = Sample {
            ms: key.0,
            col: key.1,
            v: sum / (j - i) as f64,
        };
        w += 1;
        i = j;
    }
    s.truncate(w);
    duplicates
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
    out.duplicates = sort_and_collapse(s, sorted);
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
    out.timeline.shift = shift;
    out.timeline.off = off;
    out.timeline.keys = hours.iter().map(|h| h.0).collect();
    // The index in `timeline.keys` of each hour of `hours`.
    let mut src: Vec<u32> = (0..hours.len() as u32).collect();

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
        src = Vec::with_capacity(total as usize);
        for (i, &(k, v)) in hours.iter().enumerate() {
            let next = hours.get(i + 1).map_or(k + hold, |h| h.0);
            let end = next.min(k + hold).max(k + 1);
            for kk in k..end {
                filled.push((kk, v));
                src.push(i as u32);
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
    out.timeline.src.reserve(produced as usize);
    let mut prev_k: Option<i64> = None;
    for (&(k, v), &from) in hours.iter().zip(&src) {
        if policy == GapPolicy::Zero {
            if let Some(p) = prev_k {
                for kk in p + 1..k {
                    out.values.push(0.0);
                    out.starts.push(hour_start_s(kk, off));
                    out.timeline.src.push(NO_SOURCE);
                }
            }
        }
        out.values.push(clean(v));
        out.starts.push(hour_start_s(k, off));
        out.timeline.src.push(from);
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

/// Jobs split across the hours from the first start to the last end: the GPU-hours of type
/// `t` in hour `i` are `hours[i * ntypes + t]` (idle hours are 0, not gaps).
struct SplitJobs {
    /// (first start, last end), UTC unix seconds.
    span: (i64, i64),
    /// Key of the first hour.
    k0: i64,
    /// Hours.
    n: usize,
    hours: Vec<f64>,
}

/// Split `jobs` across hours, job `j` counted for type `type_of(j)` (one `>= ntypes` is
/// left out); `None` without jobs.
fn split_jobs(
    jobs: &[(i64, i64, f64)],
    type_of: impl Fn(usize) -> usize,
    ntypes: usize,
    off: i32,
) -> Result<Option<SplitJobs>, IngestError> {
    let Some(min_s) = jobs.iter().map(|j| j.0).min() else {
        return Ok(None);
    };
    let max_e = jobs.iter().map(|j| j.1).max().unwrap_or(min_s);
    let k0 = hour_key(min_s, off);
    let k1 = hour_key((max_e - 1).max(min_s), off);
    let n = (k1 - k0 + 1) as u64;
    if n > MAX_HOURS as u64 {
        return Err(too_many(n));
    }
    let n = n as usize;
    Ok(Some(SplitJobs {
        span: (min_s.div_euclid(1000), max_e.div_euclid(1000)),
        k0,
        n,
        hours: jobs_grouped(jobs, (0..jobs.len()).map(type_of), ntypes, off, k0, n),
    }))
}

/// Where job `(s, e, g)` (start ms < end ms, GPUs) lands in the `n` hours from hour key
/// `k0`: the indexes of its first and last hours and its GPU-hours in each (the whole job in
/// the first when they are one hour); each hour between counts `g`. `None` when the job is
/// not wholly within those hours. The one rule of [`jobs_grouped`] and [`jobs_by_group`].
fn job_hours(
    (s, e, g): (i64, i64, f64),
    off: i32,
    k0: i64,
    n: usize,
) -> Option<(usize, usize, f64, f64)> {
    let ks = hour_key(s, off);
    let ke = hour_key(e - 1, off);
    if ks < k0 || ke >= k0 + n as i64 {
        return None;
    }
    let (is, ie) = ((ks - k0) as usize, (ke - k0) as usize);
    if ks == ke {
        return Some((is, ie, g * (e - s) as f64 / HOUR_MS as f64, 0.0));
    }
    let off_ms = i64::from(off) * 60_000;
    let start_ms = |k: i64| k * HOUR_MS - off_ms;
    let first = g * (start_ms(ks + 1) - s) as f64 / HOUR_MS as f64;
    let last = g * (e - start_ms(ke)) as f64 / HOUR_MS as f64;
    Some((is, ie, first, last))
}

/// The GPU-hours of `jobs` in each of the `n` hours from hour key `k0`, per group: each job
/// counts for its group in `groups` (one `>= ngroups` is left out, as is a job outside those
/// hours); the value of group `g` in hour `i` is `[i * ngroups + g]`. The rule of [`jobs`].
pub(crate) fn jobs_grouped(
    jobs: &[(i64, i64, f64)],
    groups: impl Iterator<Item = usize>,
    ngroups: usize,
    off: i32,
    k0: i64,
    n: usize,
) -> Vec<f64> {
    // Row-major per hour: `ngroups` values.
    let mut part = vec![0.0f64; n * ngroups];
    let mut diff = vec![0.0f64; (n + 1) * ngroups];
    for (&(s, e, g), t) in jobs.iter().zip(groups) {
        if e <= s || t >= ngroups {
            continue;
        }
        let Some((is, ie, first, last)) = job_hours((s, e, g), off, k0, n) else {
            continue;
        };
        part[is * ngroups + t] += first;
        if ie > is {
            part[ie * ngroups + t] += last;
            if ie > is + 1 {
                diff[(is + 1) * ngroups + t] += g;
                diff[ie * ngroups + t] -= g;
            }
        }
    }
    let mut run = vec![0.0f64; ngroups];
    for i in 0..n {
        for t in 0..ngroups {
            run[t] += diff[i * ngroups + t];
            part[i * ngroups + t] = clean(run[t] + part[i * ngroups + t]);
        }
    }
    part
}

/// [`jobs_grouped`] with one series per group (`[g][i]`: group `g`, hour `i`; job `j` counts
/// for group `group_of(j)`, one call per job whatever the caller): what the teams
/// keep, so the split is never copied (its peak: the series and one more number per hour
/// and group).
pub(crate) fn jobs_by_group(
    jobs: &[(i64, i64, f64)],
    group_of: &dyn Fn(usize) -> usize,
    ngroups: usize,
    off: i32,
    k0: i64,
    n: usize,
) -> Vec<Vec<f64>> {
    let mut part = vec![vec![0.0f64; n]; ngroups];
    let mut diff = vec![0.0f64; (n + 1) * ngroups];
    for (j, &(s, e, g)) in jobs.iter().enumerate() {
        let t = group_of(j);
        if e <= s || t >= ngroups {
            continue;
        }
        let Some((is, ie, first, last)) = job_hours((s, e, g), off, k0, n) else {
            continue;
        };
        let p = &mut part[t];
        p[is] += first;
        if ie > is {
            p[ie] += last;
            if ie > is + 1 {
                diff[t * (n + 1) + is + 1] += g;
                diff[t * (n + 1) + ie] -= g;
            }
        }
    }
    for (t, p) in part.iter_mut().enumerate() {
        let mut run = 0.0;
        for (x, d) in p.iter_mut().zip(&diff[t * (n + 1)..]) {
            run += d;
            *x = clean(run + *x);
        }
    }
    part
}

/// Jobs `(start ms, end ms, gpus)` → GPU-hours per hour from the first start to the
/// last end (idle hours are 0, not gaps).
pub(crate) fn jobs(jobs: &[(i64, i64, f64)], off: i32) -> Result<Hourly, IngestError> {
    let mut out = Hourly::default();
    let Some(split) = split_jobs(jobs, |_| 0, 1, off)? else {
        return Ok(out);
    };
    out.span = Some(split.span);
    out.starts = (0..split.n)
        .map(|i| hour_start_s(split.k0 + i as i64, off))
        .collect();
    out.values = split.hours;
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Typed resampling: one hourly series per GPU type, all on the same hours.

/// Timestamped samples in (ms, series) order, each (ms, series) once (duplicates already
/// averaged). Visited twice: spacing, then hours.
pub(crate) trait Ordered {
    fn each(&self, f: impl FnMut(i64, u32, f64));
}

impl Ordered for [Sample] {
    fn each(&self, mut f: impl FnMut(i64, u32, f64)) {
        for x in self {
            f(x.ms, x.col, x.v);
        }
    }
}

/// Rows of a wide typed table: `vals[r * width + c]` is column `c` of row `r` (NaN: empty);
/// `order` lists the rows by time (rows with equal times in file order).
pub(crate) struct RowTable<'a> {
    pub ms: &'a [i64],
    pub vals: &'a [f64],
    pub width: usize,
    pub order: Option<&'a [u32]>,
}

impl RowTable<'_> {
    fn row(&self, i: usize) -> usize {
        self.order.map_or(i, |o| o[i] as usize)
    }

    /// Rows with the same time as an earlier row.
    pub fn duplicates(&self) -> usize {
        let mut d = 0;
        for i in 1..self.ms.len() {
            d += usize::from(self.ms[self.row(i)] == self.ms[self.row(i - 1)]);
        }
        d
    }
}

impl Ordered for RowTable<'_> {
    fn each(&self, mut f: impl FnMut(i64, u32, f64)) {
        let n = self.ms.len();
        let w = self.width;
        let mut acc: Vec<(f64, u32)> = Vec::new();
        let mut i = 0;
        while i < n {
            let r0 = self.row(i);
            let t = self.ms[r0];
            let mut j = i + 1;
            while j < n && self.ms[self.row(j)] == t {
                j += 1;
            }
            if j == i + 1 {
                for (c, &v) in self.vals[r0 * w..(r0 + 1) * w].iter().enumerate() {
                    if !v.is_nan() {
                        f(t, c as u32, v);
                    }
                }
            } else {
                // Rows with the same time: each column's mean over the rows that have it.
                acc.clear();
                acc.resize(w, (0.0, 0));
                for k in i..j {
                    let r = self.row(k);
                    for (a, &v) in acc.iter_mut().zip(&self.vals[r * w..(r + 1) * w]) {
                        if !v.is_nan() {
                            a.0 += v;
                            a.1 += 1;
                        }
                    }
                }
                for (c, &(sum, cnt)) in acc.iter().enumerate() {
                    if cnt > 0 {
                        f(t, c as u32, sum / f64::from(cnt));
                    }
                }
            }
            i = j;
        }
    }
}

/// One type's hours on the shared timeline.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct TypeHours {
    pub values: Vec<f64>,
    /// Index ranges of `values` without data of this type (0 there).
    pub no_data: Vec<std::ops::Range<usize>>,
    /// `no_data` hours plus the hours left out of the timeline (no type has them).
    pub gap_hours: usize,
}

impl TypeHours {
    fn push(&mut self, v: f64, has_data: bool) {
        let i = self.values.len();
        self.values.push(v);
        if !has_data {
            match self.no_data.last_mut() {
                Some(r) if r.end == i => r.end = i + 1,
                _ => self.no_data.push(i..i + 1),
            }
        }
    }
}

/// Per-type hours plus the summed series (with what resampling found, for the report).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct TypedHourly {
    pub total: Hourly,
    pub types: Vec<TypeHours>,
}

/// Hour-by-hour means per series, summed per type.
struct TypedAgg<'a> {
    col_type: &'a [u8],
    ntypes: usize,
    off: i32,
    shift: i64,
    acc: Vec<(f64, u32)>,
    touched: Vec<u32>,
    cur: Option<i64>,
    keys: Vec<i64>,
    /// `ntypes` values per hour.
    vals: Vec<f64>,
    /// Bit `t`: type `t` has data in the hour.
    masks: Vec<u16>,
}

impl TypedAgg<'_> {
    fn add(&mut self, ms: i64, col: u32, v: f64) {
        let k = hour_key(ms + self.shift, self.off);
        match self.cur {
            Some(c) if c != k => {
                self.flush(c);
                self.cur = Some(k);
            }
            None => self.cur = Some(k),
            _ => {}
        }
        let Some(a) = self.acc.get_mut(col as usize) else {
            return;
        };
        if a.1 == 0 {
            self.touched.push(col);
        }
        a.0 += v;
        a.1 += 1;
    }

    fn flush(&mut self, key: i64) {
        let base = self.vals.len();
        self.vals.resize(base + self.ntypes, 0.0);
        let mut mask = 0u16;
        for &c in &self.touched {
            let (sum, cnt) = self.acc[c as usize];
            self.acc[c as usize] = (0.0, 0);
            let t = usize::from(self.col_type[c as usize]);
            if t < self.ntypes {
                self.vals[base + t] += sum / f64::from(cnt.max(1));
                mask |= 1 << t;
            }
        }
        self.touched.clear();
        self.keys.push(key);
        self.masks.push(mask);
    }
}

/// Resample typed samples (`col_type[series]` = its type, `< ntypes` ≤ 16): the same rules
/// as [`hourly`] per type, on one timeline for all. Spacing is the median between distinct
/// sample times of all types. An hour with data of some type is in the timeline (every
/// hour, with [`GapPolicy::Zero`]); a type without data there reads 0 and counts a gap.
pub(crate) fn hourly_typed<O: Ordered + ?Sized>(
    o: &O,
    duplicates: usize,
    col_type: &[u8],
    ntypes: usize,
    off: i32,
    policy: GapPolicy,
) -> Result<TypedHourly, IngestError> {
    let mut out = TypedHourly {
        total: Hourly {
            duplicates,
            ..Hourly::default()
        },
        types: vec![TypeHours::default(); ntypes],
    };
    let mut first: Option<i64> = None;
    let mut last = i64::MIN;
    let mut deltas: Vec<i64> = Vec::new();
    o.each(|ms, _, _| {
        match first {
            None => first = Some(ms),
            Some(_) if ms != last => deltas.push(ms - last),
            _ => {}
        }
        last = ms;
    });
    let Some(first) = first else {
        return Ok(out);
    };
    out.total.span = Some((first.div_euclid(1000), last.div_euclid(1000)));
    let resolution_ms = lower_median(&mut deltas);
    drop(deltas);
    out.total.resolution_s = resolution_ms.map(|m| (m + 500) / 1000);
    let shift = if resolution_ms.is_some_and(|r| (3_240_000..=3_960_000).contains(&r)) {
        300_000
    } else {
        0
    };
    let mut agg = TypedAgg {
        col_type,
        ntypes,
        off,
        shift,
        acc: vec![(0.0, 0); col_type.len()],
        touched: Vec::new(),
        cur: None,
        keys: Vec::new(),
        vals: Vec::new(),
        masks: Vec::new(),
    };
    o.each(|ms, col, v| agg.add(ms, col, v));
    if let Some(c) = agg.cur {
        agg.flush(c);
    }
    let TypedAgg {
        mut keys,
        mut vals,
        mut masks,
        ..
    } = agg;
    out.total.timeline.shift = shift;
    out.total.timeline.off = off;
    out.total.timeline.keys = keys.clone();
    let mut src: Vec<u32> = (0..keys.len() as u32).collect();

    // Coarser than hourly: hold each hour (all types) for one sample period.
    if let Some(res) = resolution_ms.filter(|&r| r > HOUR_MS) {
        let hold = ((res + HOUR_MS / 2) / HOUR_MS).clamp(1, 24 * 31);
        let end_of = |i: usize| {
            let k = keys[i];
            let next = keys.get(i + 1).map_or(k + hold, |&n| n);
            next.min(k + hold).max(k + 1)
        };
        let total: u64 = (0..keys.len()).map(|i| (end_of(i) - keys[i]) as u64).sum();
        if total > MAX_HOURS as u64 {
            return Err(too_many(total));
        }
        let mut k2 = Vec::with_capacity(total as usize);
        let mut v2 = Vec::with_capacity(total as usize * ntypes);
        let mut m2 = Vec::with_capacity(total as usize);
        let mut s2 = Vec::with_capacity(total as usize);
        for i in 0..keys.len() {
            for kk in keys[i]..end_of(i) {
                k2.push(kk);
                v2.extend_from_slice(&vals[i * ntypes..(i + 1) * ntypes]);
                m2.push(masks[i]);
                s2.push(i as u32);
            }
        }
        (keys, vals, masks, src) = (k2, v2, m2, s2);
    }

    let (missing, gaps) = list_gaps(&keys, off);
    out.total.missing_hours = usize::try_from(missing).unwrap_or(usize::MAX);
    out.total.gaps = gaps;
    let produced = match policy {
        GapPolicy::Exclude => keys.len() as u64,
        GapPolicy::Zero => keys.len() as u64 + missing,
    };
    if produced > MAX_HOURS as u64 {
        return Err(too_many(produced));
    }
    let produced = produced as usize;
    let h = &mut out.total;
    h.values.reserve(produced);
    h.starts.reserve(produced);
    h.timeline.src.reserve(produced);
    for t in &mut out.types {
        t.values.reserve(produced);
    }
    let mut prev_k: Option<i64> = None;
    for (i, &k) in keys.iter().enumerate() {
        if policy == GapPolicy::Zero {
            if let Some(p) = prev_k {
                for kk in p + 1..k {
                    h.values.push(0.0);
                    h.starts.push(hour_start_s(kk, off));
                    h.timeline.src.push(NO_SOURCE);
                    for t in &mut out.types {
                        t.push(0.0, false);
                    }
                }
            }
        }
        h.timeline.src.push(src[i]);
        let mut total = 0.0;
        for (t, th) in out.types.iter_mut().enumerate() {
            let v = clean(vals[i * ntypes + t]);
            total += v;
            th.push(v, masks[i] & (1 << t) != 0);
        }
        h.values.push(clean(total));
        h.starts.push(hour_start_s(k, off));
        prev_k = Some(k);
    }
    let outside = match policy {
        GapPolicy::Exclude => out.total.missing_hours,
        GapPolicy::Zero => 0,
    };
    for t in &mut out.types {
        t.gap_hours = outside + t.no_data.iter().map(|r| r.len()).sum::<usize>();
    }
    Ok(out)
}

/// Missing hours between consecutive hour keys, and the first [`MAX_LISTED_GAPS`] runs.
fn list_gaps(keys: &[i64], off: i32) -> (u64, Vec<Gap>) {
    let mut missing: u64 = 0;
    let mut gaps = Vec::new();
    for w in keys.windows(2) {
        let d = (w[1] - w[0] - 1) as u64;
        if d > 0 {
            missing += d;
            if gaps.len() < MAX_LISTED_GAPS {
                gaps.push(Gap {
                    start: hour_start_s(w[0] + 1, off),
                    hours: d as usize,
                });
            }
        }
    }
    (missing, gaps)
}

/// Typed jobs (`types[i]` = the type of `jobs[i]`, `< ntypes`): [`jobs`] per type, on the
/// hours from the first start to the last end of all (idle hours are 0, not gaps).
pub(crate) fn jobs_typed(
    jobs: &[(i64, i64, f64)],
    types: &[u8],
    ntypes: usize,
    off: i32,
) -> Result<TypedHourly, IngestError> {
    let mut out = TypedHourly {
        total: Hourly::default(),
        types: vec![TypeHours::default(); ntypes],
    };
    let type_of = |j: usize| types.get(j).map_or(usize::MAX, |&t| usize::from(t));
    let Some(split) = split_jobs(jobs, type_of, ntypes, off)? else {
        return Ok(out);
    };
    out.total.span = Some(split.span);
    out.total.values.reserve(split.n);
    out.total.starts.reserve(split.n);
    for i in 0..split.n {
        let mut total = 0.0;
        for (t, th) in out.types.iter_mut().enumerate() {
            let v = split.hours[i * ntypes + t];
            total += v;
            th.push(v, true);
        }
        out.total.values.push(clean(total));
        out.total
            .starts
            .push(hour_start_s(split.k0 + i as i64, off));
    }
    Ok(out)
}

/// A wide typed table without timestamps: row `r` is hour `r`; `col_type[c]` the type of
/// column `c`. An empty cell is no data of its type in that hour (0 there).
pub(crate) fn rows_typed(
    vals: &[f64],
    width: usize,
    col_type: &[u8],
    ntypes: usize,
) -> Result<TypedHourly, IngestError> {
    let rows = vals.len().checked_div(width).unwrap_or(0);
    if rows > MAX_HOURS {
        return Err(too_many(rows as u64));
    }
    let mut out = TypedHourly {
        total: Hourly::default(),
        types: vec![TypeHours::default(); ntypes],
    };
    let mut sums = vec![0.0f64; ntypes];
    for r in 0..rows {
        sums.iter_mut().for_each(|s| *s = 0.0);
        let mut mask = 0u16;
        for (c, &v) in vals[r * width..(r + 1) * width].iter().enumerate() {
            let t = usize::from(col_type[c]);
            if !v.is_nan() && t < ntypes {
                sums[t] += v;
                mask |= 1 << t;
            }
        }
        let mut total = 0.0;
        for (t, th) in out.types.iter_mut().enumerate() {
            let v = clean(sums[t]);
            total += v;
            th.push(v, mask & (1 << t) != 0);
        }
        out.total.values.push(clean(total));
    }
    for t in &mut out.types {
        t.gap_hours = t.no_data.iter().map(|r| r.len()).sum();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: i64 = HOUR_MS;
    const T0: i64 = 1_793_538_000_000; // an hour start

    fn sample(ms: i64, col: u32, v: f64) -> Sample {
        Sample { ms, col, v }
    }

    /// One GPU busy at each of `hours` after `T0` (one series).
    fn one_gpu_at(hours: &[i64]) -> Vec<Sample> {
        hours.iter().map(|&h| sample(T0 + h * H, 0, 1.0)).collect()
    }

    #[test]
    fn averages_sub_hourly_and_sums_series() {
        let mut s = vec![
            sample(T0, 0, 2.0),
            sample(T0 + H / 2, 0, 4.0),
            sample(T0, 1, 1.0),
            sample(T0 + H, 0, 5.0),
        ];
        let h = hourly(&mut s, false, 2, 0, GapPolicy::Exclude).unwrap();
        assert_eq!(h.values, vec![4.0, 5.0]);
        assert_eq!(h.starts, vec![T0 / 1000, T0 / 1000 + 3600]);
        assert_eq!(h.resolution_s, Some(1800));
    }

    #[test]
    fn gaps_excluded_or_zero() {
        let mk = || one_gpu_at(&[0, 1, 4]);
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
            .map(|(i, &d)| sample(T0 + d, 0, i as f64))
            .collect();
        let h = hourly(&mut s, true, 1, 0, GapPolicy::Exclude).unwrap();
        assert_eq!(h.values, vec![0.0, 1.0, 2.0, 3.0]);
        assert_eq!(h.missing_hours, 0);
    }

    #[test]
    fn daily_samples_are_held() {
        let mut s = vec![sample(T0, 0, 3.0), sample(T0 + 24 * H, 0, 5.0)];
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
        let mk = || one_gpu_at(&[0, 1, 2, 20 * 8766]);
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

//! § 22 The history is not the future: the trend of the history, the plan over the horizon
//! with growth, a commitment ladder and what each plan risks if the growth does not come.
//!
//! **Trend.** The lookback window is cut into days (local calendar days; 24-hour blocks
//! without timestamps; a day needs 12 hours). Each day gives its average GPUs busy and its
//! waterline (the q-quantile of its hours, nearest rank, as § 5). The growth per month is
//! the Theil–Sen slope b of ln(level) over the day number (the median of the slopes of every
//! pair of days with a level above 0), as g = e^{b·D} − 1 with D = H/24 days a month; its
//! 95 % interval is Sen's (the order statistics (N ∓ 1.96·√(n(n−1)(2n+5)/18))/2 of the N
//! pairwise slopes). Over 400 days, weeks (7-day means) stand in for days.
//!
//! **Projection.** Month j from now (j = 1 … horizon) has the history's every hour scaled by
//! f_j = (1 + g)^j: waterline W·f_j, GPU-hours Σu·f_j·H/T, and with C GPUs committed the
//! elastic cost X_j(C) = r·(H/T)·Σ_t max(0, f_j·u_t − C). Months left on a current commitment
//! come first and are not compared: the h = horizon − left months after them are.
//!
//! **Plans.** All now: N GPUs on one term at the first compared month, renewed to the end of
//! the horizon (⌈h/m⌉ terms, as § 15), the rest on demand. Monthly only: each month its own
//! cost-optimal N. The ladder: the committed level C_1 ≤ C_2 ≤ … ≤ C_h (each tranche kept to
//! the horizon), every C_t at most cap·W·f_t (whole GPUs); the GPUs added at month s go on the
//! term with the lowest cover(s) = min_m ⌈(h − s + 1)/m⌉·(U_m + m·R_m); cost Σ_s ΔC_s·cover(s)
//! + Σ_t X_t(C_t), minimised exactly by a dynamic programme over months and committed level.
//!
//! **Risk.** Each plan is replayed on two other futures, growth stopping (f = 1) and reversing
//! (f_j = (1 − x)^j): what it buys now is bought; every later purchase (a tranche, a renewal, a
//! month) only up to what the month's capped waterline then holds. Its loss is that cost minus
//! the cheapest plan made for that future (the ladder or monthly only), at least 0.

use super::error::{Field, InputError, Problem};
use super::money::Money;
use super::prices::Prices;
use super::profile::{DayHours, HistoryProfile};
use super::terms::{self, Term, TermInputs};

/// Lowest growth per month a user may type, percent.
pub const MIN_GROWTH_PERCENT: f64 = -50.0;
/// Highest growth per month a user may type, percent.
pub const MAX_GROWTH_PERCENT: f64 = 100.0;
/// Largest decline per month of the risk scenario, percent.
pub const MAX_DECLINE_PERCENT: f64 = 50.0;
/// Default decline per month of the risk scenario, percent.
pub const DEFAULT_DECLINE_PERCENT: f64 = 5.0;
/// Largest cap on the committed share of the projected waterline, percent.
pub const MAX_CAP_PERCENT: f64 = 300.0;
/// Default cap, percent: commit at most the projected waterline.
pub const DEFAULT_CAP_PERCENT: f64 = 100.0;
/// Largest level typed for the horizon's end, GPUs.
pub const MAX_END_LEVEL: f64 = super::profile::MAX_GPUS;
/// Days the lookback must span for the fitted trend to be used automatically.
pub const MIN_TREND_DAYS: i64 = 28;
/// Hours a day needs to count in the trend.
pub const MIN_DAY_HOURS: usize = 12;
/// Above this many days, weeks stand in for days (keeps the pairs below ~80 000).
pub const MAX_TREND_POINTS: usize = 400;
/// Most committed levels the ladder's programme looks at; above, levels go in steps.
pub const MAX_DP_LEVELS: u32 = 2_000;
/// z of the 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The growth inputs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GrowthInputs {
    /// Growth per month in percent; `None`: automatic (the fitted trend when the lookback
    /// spans 28 days, else 0).
    pub growth_percent: Option<f64>,
    /// The projected waterline at the horizon's end, GPUs (0: not given). When given, it sets
    /// the growth: g = (L / W)^(1/horizon) − 1.
    pub end_level: f64,
    /// x of the reversing future, percent per month.
    pub decline_percent: f64,
    /// Cap on the committed level as a share of the projected waterline, percent.
    pub cap_percent: f64,
}

impl Default for GrowthInputs {
    fn default() -> Self {
        Self {
            growth_percent: None,
            end_level: 0.0,
            decline_percent: DEFAULT_DECLINE_PERCENT,
            cap_percent: DEFAULT_CAP_PERCENT,
        }
    }
}

/// Validate a typed growth per month (percent).
pub fn growth_percent(v: f64) -> Result<f64, InputError> {
    if !v.is_finite() {
        return Err(InputError::new(Field::Growth, Problem::NotANumber));
    }
    if v < MIN_GROWTH_PERCENT {
        return Err(InputError::new(
            Field::Growth,
            Problem::TooSmall {
                min: MIN_GROWTH_PERCENT,
            },
        ));
    }
    if v > MAX_GROWTH_PERCENT {
        return Err(InputError::new(
            Field::Growth,
            Problem::TooLarge {
                max: MAX_GROWTH_PERCENT,
            },
        ));
    }
    Ok(v)
}

/// A fitted trend.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trend {
    /// Growth per month, percent.
    pub percent: f64,
    /// 95 % interval, percent per month.
    pub low: f64,
    pub high: f64,
    /// Points fitted (days, or weeks over 400 days).
    pub points: usize,
    /// Whether the points are weeks.
    pub weekly: bool,
    /// Days from the first point to the last, plus one.
    pub span_days: i64,
}

/// Where the growth used comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RateSource {
    /// The fitted trend of the daily averages.
    Fitted,
    /// Typed, percent per month.
    Typed,
    /// From the level typed for the horizon's end.
    EndLevel,
    /// Automatic without a history: 0.
    NoHistory,
    /// Automatic, the history spans fewer than 28 days (the days it spans): 0.
    TooShort(i64),
    /// Automatic, too few days above 0 to fit: 0.
    NoFit,
}

/// Which plan a row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanKind {
    OnDemand,
    /// Monthly re-sized every month to that month's cost-optimal N.
    MonthlyOnly,
    /// All now on one term (monthly, 1 year, 3 years), renewed to the horizon.
    AllNow(Term),
    Ladder,
}

impl PlanKind {
    /// Stable key (`data-plan`).
    pub fn key(self) -> &'static str {
        match self {
            PlanKind::OnDemand => "on-demand",
            PlanKind::MonthlyOnly => "monthly-only",
            PlanKind::AllNow(Term::Monthly) => "now-monthly",
            PlanKind::AllNow(Term::OneYear) => "now-1y",
            PlanKind::AllNow(Term::ThreeYear) => "now-3y",
            PlanKind::AllNow(Term::OnDemand) => "on-demand",
            PlanKind::Ladder => "ladder",
        }
    }
}

/// One plan compared over the horizon.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanRow {
    pub kind: PlanKind,
    /// GPUs committed at the first compared month.
    pub gpus_now: u32,
    /// GPUs committed at the last compared month.
    pub gpus_last: u32,
    /// Cost over the h months compared, with the growth (whole terms bought count in full).
    pub cost: Money,
    /// Money lost if growth stops from now.
    pub risk_flat: Money,
    /// Money lost if usage falls x % a month.
    pub risk_decline: Money,
    /// Each compared month's money with the growth: its purchases and the elastic rest.
    pub months: Vec<Money>,
}

/// One tranche of the ladder.
#[derive(Debug, Clone, PartialEq)]
pub struct Tranche {
    /// Months from now at which it starts (0: now).
    pub month: u32,
    /// GPUs added.
    pub gpus: u32,
    pub term: Term,
    /// Terms bought to reach the horizon's end, ⌈(h − s + 1)/m⌉.
    pub terms_bought: u32,
    /// gpus × terms_bought × (U + m·R).
    pub cost: Money,
}

/// One month of the projection.
#[derive(Debug, Clone, PartialEq)]
pub struct MonthRow {
    /// Months from now (1 = the coming month).
    pub month: u32,
    /// f_j = (1 + g)^j.
    pub factor: f64,
    /// W·f_j.
    pub waterline: f64,
    /// Σu·f_j·H/T.
    pub gpu_hours: f64,
    /// The ladder's committed GPUs.
    pub committed: u32,
}

/// § 22 result.
#[derive(Debug, Clone, PartialEq)]
pub struct GrowthPlan {
    /// The daily averages' trend (`None` without a history or too few days).
    pub trend: Option<Trend>,
    /// The daily waterlines' trend.
    pub waterline_trend: Option<Trend>,
    /// g used, percent per month.
    pub percent: f64,
    pub source: RateSource,
    /// x of the reversing future, percent per month.
    pub decline_percent: f64,
    pub cap_percent: f64,
    /// W: the waterline the projection scales.
    pub waterline: f64,
    pub horizon_months: u32,
    pub months_left: u32,
    /// h = horizon − left.
    pub compared_months: u32,
    /// Levels the ladder's programme steps by (1 unless the cap allows over 2 000 GPUs).
    pub step: u32,
    /// The compared months.
    pub months: Vec<MonthRow>,
    /// On demand, monthly only, all now on each offered term, the ladder.
    pub plans: Vec<PlanRow>,
    /// Index into `plans`.
    pub recommended: usize,
    pub ladder: Vec<Tranche>,
}

impl GrowthPlan {
    pub fn plan(&self, kind: PlanKind) -> Option<&PlanRow> {
        self.plans.iter().find(|p| p.kind == kind)
    }
    pub fn recommended(&self) -> &PlanRow {
        &self.plans[self.recommended]
    }
}

// ---------------------------------------------------------------------------------------
// Trend

/// Theil–Sen on ln(y) over the points with y > 0: `None` with fewer than 3 such points or no
/// pair with distinct t.
pub fn theil_sen(points: &[(f64, f64)], days_per_month: f64) -> Option<(f64, f64, f64)> {
    let pts: Vec<(f64, f64)> = points
        .iter()
        .filter(|p| p.1 > 0.0 && p.1.is_finite())
        .map(|&(t, y)| (t, y.ln()))
        .collect();
    let n = pts.len();
    if n < 3 {
        return None;
    }
    let mut slopes = Vec::with_capacity(n * (n - 1) / 2);
    for i in 0..n {
        for j in i + 1..n {
            let dt = pts[j].0 - pts[i].0;
            if dt != 0.0 {
                slopes.push((pts[j].1 - pts[i].1) / dt);
            }
        }
    }
    if slopes.is_empty() {
        return None;
    }
    slopes.sort_by(f64::total_cmp);
    let m = slopes.len();
    let median = if m % 2 == 1 {
        slopes[m / 2]
    } else {
        (slopes[m / 2 - 1] + slopes[m / 2]) / 2.0
    };
    let nf = n as f64;
    let c = Z95 * (nf * (nf - 1.0) * (2.0 * nf + 5.0) / 18.0).sqrt();
    let lo = (((m as f64 - c) / 2.0).floor() as i64 - 1).clamp(0, m as i64 - 1) as usize;
    let hi = (((m as f64 + c) / 2.0).ceil() as i64).clamp(0, m as i64 - 1) as usize;
    let pct = |b: f64| ((b * days_per_month).exp() - 1.0) * 100.0;
    Some((pct(median), pct(slopes[lo]), pct(slopes[hi])))
}

/// The two trends (daily averages, daily waterlines at quantile `q`) of the window's days.
pub fn trends(days: &[DayHours], q: f64, days_per_month: f64) -> (Option<Trend>, Option<Trend>) {
    let days: Vec<&DayHours> = days
        .iter()
        .filter(|(_, v)| v.len() >= MIN_DAY_HOURS)
        .collect();
    let (Some(first), Some(last)) = (days.first(), days.last()) else {
        return (None, None);
    };
    let span_days = last.0 - first.0 + 1;
    let level = |v: &[f64], avg: bool| -> f64 {
        if avg {
            v.iter().sum::<f64>() / v.len() as f64
        } else {
            super::profile::Distribution::from_values(v)
                .quantile(q)
                .unwrap_or(0.0)
        }
    };
    let fit = |avg: bool| -> Option<Trend> {
        let daily: Vec<(f64, f64)> = days
            .iter()
            .map(|(d, v)| (*d as f64, level(v, avg)))
            .collect();
        let weekly = daily.len() > MAX_TREND_POINTS;
        let points: Vec<(f64, f64)> = if weekly {
            let start = first.0;
            let mut weeks: Vec<(f64, f64, f64)> = Vec::new(); // (Σt, Σy, n)
            let mut week_of = i64::MIN;
            for (t, y) in daily {
                let w = (t as i64 - start).div_euclid(7);
                if w != week_of {
                    weeks.push((0.0, 0.0, 0.0));
                    week_of = w;
                }
                let last = weeks.last_mut().expect("pushed");
                last.0 += t;
                last.1 += y;
                last.2 += 1.0;
            }
            weeks.iter().map(|w| (w.0 / w.2, w.1 / w.2)).collect()
        } else {
            daily
        };
        let (percent, low, high) = theil_sen(&points, days_per_month)?;
        Some(Trend {
            percent,
            low,
            high,
            points: points.iter().filter(|p| p.1 > 0.0).count(),
            weekly,
            span_days,
        })
    };
    (fit(true), fit(false))
}

// ---------------------------------------------------------------------------------------
// The load scaled by a factor

/// The window's hours sorted, for Σ_t max(0, f·u_t − C) in O(log T).
#[derive(Debug, Clone)]
pub struct Load {
    values: Vec<f64>,
    /// Suffix sums of the weights and of weight × value.
    suffix_w: Vec<f64>,
    suffix_wv: Vec<f64>,
    total: f64,
    /// r·H/T: money per GPU-hour of the window, scaled to a month.
    rate: f64,
    /// H/T.
    scale: f64,
}

impl Load {
    /// From (value, hours) points sorted by value.
    pub fn new(points: &[(f64, f64)], prices: &Prices) -> Self {
        let k = points.len();
        let mut suffix_w = vec![0.0; k + 1];
        let mut suffix_wv = vec![0.0; k + 1];
        for i in (0..k).rev() {
            suffix_w[i] = suffix_w[i + 1] + points[i].1;
            suffix_wv[i] = suffix_wv[i + 1] + points[i].1 * points[i].0;
        }
        let hours = suffix_w[0];
        let scale = if hours > 0.0 {
            prices.hours_per_month / hours
        } else {
            1.0
        };
        Self {
            values: points.iter().map(|p| p.0).collect(),
            total: suffix_wv[0],
            suffix_w,
            suffix_wv,
            rate: prices.on_demand * scale,
            scale,
        }
    }

    /// Σ_t max(0, f·u_t − c) over the window.
    pub fn excess(&self, f: f64, c: f64) -> f64 {
        if f <= 0.0 {
            return 0.0;
        }
        let x = c / f;
        let i = self.values.partition_point(|&v| v <= x);
        (f * (self.suffix_wv[i] - x * self.suffix_w[i])).max(0.0)
    }

    /// X(C): the month's elastic cost with `c` committed at factor `f`.
    pub fn elastic(&self, f: f64, c: u32) -> Money {
        Money::from_f64(self.rate * self.excess(f, f64::from(c)))
    }

    /// Σu·f·H/T: GPU-hours a month at factor f.
    pub fn gpu_hours(&self, f: f64) -> f64 {
        self.total * f * self.scale
    }
}

// ---------------------------------------------------------------------------------------
// Plans

/// A term offered: its key and the price of one term per GPU, U + m·R.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Offer {
    pub term: Term,
    pub months: u32,
    pub per_term: Money,
}

/// Monthly (P), then each offered term.
pub fn offers(prices: &Prices, t: &TermInputs) -> Result<Vec<Offer>, InputError> {
    let mut out = vec![Offer {
        term: Term::Monthly,
        months: 1,
        per_term: prices.monthly_money,
    }];
    for (term, o) in [(Term::OneYear, t.one_year), (Term::ThreeYear, t.three_year)] {
        terms::term_price(o.upfront)?;
        terms::term_price(o.monthly)?;
        if o.is_offered() {
            let m = term.months();
            out.push(Offer {
                term,
                months: m,
                per_term: Money::from_f64(o.upfront) + Money::from_f64(o.monthly) * u64::from(m),
            });
        }
    }
    Ok(out)
}

/// A future: the factor and the cap (whole GPUs) of each compared month.
#[derive(Debug, Clone, PartialEq)]
pub struct Future {
    pub factors: Vec<f64>,
    pub caps: Vec<u32>,
}

impl Future {
    /// Month j = left + t has factor (1 + rate)^j; cap = ⌊cap·W·f⌋.
    pub fn new(rate: f64, left: u32, h: u32, waterline: f64, cap: f64) -> Self {
        let factors: Vec<f64> = (1..=h)
            .map(|t| (1.0 + rate).powi((left + t) as i32))
            .collect();
        let caps = factors
            .iter()
            .map(|f| ((cap * waterline * f) * (1.0 + 1e-12)).floor().max(0.0) as u32)
            .collect();
        Self { factors, caps }
    }

    fn h(&self) -> u32 {
        self.factors.len() as u32
    }
}

/// A purchase: at compared month `month` (1-based), `gpus` on `offer` (index into the offers).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Purchase {
    pub month: u32,
    pub gpus: u32,
    pub offer: usize,
}

/// Terms bought from month s to reach the end of h, ⌈(h − s + 1)/m⌉.
fn terms_to_end(h: u32, s: u32, m: u32) -> u32 {
    (h + 1 - s).div_ceil(m)
}

/// A tranche at s on an offer, renewed to the horizon's end: its purchases.
fn renewed(h: u32, s: u32, gpus: u32, offer: usize, m: u32) -> impl Iterator<Item = Purchase> {
    (0..terms_to_end(h, s, m)).map(move |k| Purchase {
        month: s + k * m,
        gpus,
        offer,
    })
}

/// Replay purchases on a future: the cost over its months and each month's committed level
/// and money. With `adapt`, purchases after the first month are cut to the month's cap less
/// what is still committed.
pub fn replay(
    purchases: &[Purchase],
    offers: &[Offer],
    load: &Load,
    future: &Future,
    adapt: bool,
) -> (Money, Vec<(u32, Money)>) {
    let mut sorted = purchases.to_vec();
    sorted.sort_by_key(|p| p.month);
    let mut active: Vec<(u32, u32)> = Vec::new(); // (first month no longer covered, gpus)
    let mut months = Vec::with_capacity(future.factors.len());
    let mut total = Money::ZERO;
    let mut next = 0;
    for t in 1..=future.h() {
        active.retain(|&(end, _)| end > t);
        let mut level: u32 = active.iter().map(|a| a.1).sum();
        let mut spent = Money::ZERO;
        while next < sorted.len() && sorted[next].month == t {
            let p = sorted[next];
            next += 1;
            let cap = future.caps[(t - 1) as usize];
            let n = if adapt && t > 1 {
                p.gpus.min(cap.saturating_sub(level))
            } else {
                p.gpus
            };
            if n > 0 {
                let o = offers[p.offer];
                spent += o.per_term * u64::from(n);
                active.push((t + o.months, n));
                level += n;
            }
        }
        spent += load.elastic(future.factors[(t - 1) as usize], level);
        total += spent;
        months.push((level, spent));
    }
    (total, months)
}

/// The N in lo..=hi (in steps) with the lowest cost(N), for a cost convex in N: the first N
/// whose next step does not lower it (ties: the smaller N).
fn argmin_convex(hi: u32, step: u32, cost: impl Fn(u32) -> Money) -> u32 {
    let steps = hi / step;
    let (mut a, mut b) = (0_u32, steps);
    while a < b {
        let mid = (a + b) / 2;
        if cost((mid + 1) * step) >= cost(mid * step) {
            b = mid;
        } else {
            a = mid + 1;
        }
    }
    a * step
}

/// The ladder on a future: the tranches of the cheapest non-decreasing committed level
/// (`month`: the compared month, 1-based; `terms_bought` and `cost` filled by [`purchases`]).
pub fn ladder(offers: &[Offer], load: &Load, future: &Future, step: u32) -> Vec<Tranche> {
    let h = future.h();
    if h == 0 {
        return Vec::new();
    }
    // The cheapest offer to hold a GPU from s to the end (ties: the shorter term).
    let cover: Vec<(Money, usize)> = (1..=h)
        .map(|s| {
            offers
                .iter()
                .enumerate()
                .map(|(i, o)| (o.per_term * u64::from(terms_to_end(h, s, o.months)), i))
                .min_by_key(|&(c, i)| (c, i))
                .expect("monthly is always offered")
        })
        .collect();
    // Committed levels never exceed a later month's cap (the level only rises).
    let mut reach = future.caps.clone();
    for t in (0..reach.len().saturating_sub(1)).rev() {
        reach[t] = reach[t].min(reach[t + 1]);
    }
    let levels = |t: usize| (reach[t] / step) as usize; // highest level index
                                                        // best[c]: cheapest cost of months 1..=t ending at level c·step.
    let mut best: Vec<i64> = Vec::new();
    let mut from: Vec<Vec<u32>> = Vec::with_capacity(h as usize);
    for (t, &(cover_t, _)) in cover.iter().enumerate() {
        let k = levels(t);
        let c_t = cover_t.cents();
        let f = future.factors[t];
        let mut next = vec![0_i64; k + 1];
        let mut arg = vec![0_u32; k + 1];
        // min over c' ≤ c of best[c'] − c'·step·cover(t).
        let mut run = (i64::MAX, 0_u32);
        for c in 0..=k {
            if t == 0 {
                run = (0, 0);
            } else if c < best.len() {
                let v = best[c] - (c as i64) * i64::from(step) * c_t;
                if v < run.0 {
                    run = (v, c as u32);
                }
            }
            let level = c as u32 * step;
            next[c] = run.0 + (c as i64) * i64::from(step) * c_t + load.elastic(f, level).cents();
            arg[c] = run.1;
        }
        best = next;
        from.push(arg);
    }
    let (mut c, _) = best
        .iter()
        .enumerate()
        .min_by_key(|&(c, v)| (*v, c))
        .expect("level 0 is always reachable");
    let mut path = vec![0_u32; h as usize];
    for t in (0..h as usize).rev() {
        path[t] = c as u32;
        c = from[t][c] as usize;
    }
    let mut out = Vec::new();
    let mut before = 0;
    for (t, &c) in path.iter().enumerate() {
        if c > before {
            out.push(Tranche {
                month: t as u32 + 1,
                gpus: (c - before) * step,
                term: offers[cover[t].1].term,
                terms_bought: 0,
                cost: Money::ZERO,
            });
        }
        before = c;
    }
    out
}

/// The purchases of tranches (each `month` a compared month, 1-based), each renewed to the
/// horizon's end on its term; a tranche's `terms_bought` and `cost` are filled in.
pub fn purchases(tranches: &mut [Tranche], offers: &[Offer], h: u32) -> Vec<Purchase> {
    let mut out = Vec::new();
    for tr in tranches.iter_mut() {
        let offer = offers
            .iter()
            .position(|o| o.term == tr.term)
            .expect("a tranche's term is offered");
        let m = offers[offer].months;
        tr.terms_bought = terms_to_end(h, tr.month, m);
        tr.cost = offers[offer].per_term * (u64::from(tr.gpus) * u64::from(tr.terms_bought));
        out.extend(renewed(h, tr.month, tr.gpus, offer, m));
    }
    out
}

/// Monthly only: each month its own cost-optimal N (within the cap), on the monthly offer.
pub fn monthly_only(offers: &[Offer], load: &Load, future: &Future, step: u32) -> Vec<Purchase> {
    let p = offers[0].per_term;
    (1..=future.h())
        .filter_map(|t| {
            let i = (t - 1) as usize;
            let f = future.factors[i];
            let n = argmin_convex(future.caps[i], step, |n| {
                p * u64::from(n) + load.elastic(f, n)
            });
            (n > 0).then_some(Purchase {
                month: t,
                gpus: n,
                offer: 0,
            })
        })
        .collect()
}

/// All now on `offer`: the N (≤ every month's cap) with the lowest cost, renewed to the end.
pub fn all_now(
    offers: &[Offer],
    offer: usize,
    load: &Load,
    future: &Future,
    step: u32,
) -> Vec<Purchase> {
    let h = future.h();
    let o = offers[offer];
    let hi = future.caps.iter().copied().min().unwrap_or(0);
    let cost = |n: u32| {
        let plan: Vec<Purchase> = renewed(h, 1, n, offer, o.months).collect();
        replay(&plan, offers, load, future, false).0
    };
    let n = argmin_convex(hi, step, cost);
    if n == 0 || h == 0 {
        return Vec::new();
    }
    renewed(h, 1, n, offer, o.months).collect()
}

/// The growth per month used, and where it comes from.
pub fn rate(
    inputs: &GrowthInputs,
    trend: Option<&Trend>,
    has_history: bool,
    waterline: f64,
    horizon: u32,
) -> Result<(f64, RateSource), InputError> {
    if inputs.end_level != 0.0 {
        if inputs.end_level.is_nan() || inputs.end_level < 0.0 || inputs.end_level > MAX_END_LEVEL {
            return Err(InputError::new(
                Field::GrowthEndLevel,
                Problem::TooLarge { max: MAX_END_LEVEL },
            ));
        }
        if waterline <= 0.0 {
            return Err(InputError::new(
                Field::GrowthEndLevel,
                Problem::Other("the waterline is 0: type a growth per month instead".into()),
            ));
        }
        let g = ((inputs.end_level / waterline).powf(1.0 / f64::from(horizon)) - 1.0) * 100.0;
        return Ok((g, RateSource::EndLevel));
    }
    if let Some(p) = inputs.growth_percent {
        return Ok((growth_percent(p)?, RateSource::Typed));
    }
    match trend {
        _ if !has_history => Ok((0.0, RateSource::NoHistory)),
        Some(t) if t.span_days < MIN_TREND_DAYS => Ok((0.0, RateSource::TooShort(t.span_days))),
        Some(t) => Ok((
            t.percent.clamp(MIN_GROWTH_PERCENT, MAX_GROWTH_PERCENT),
            RateSource::Fitted,
        )),
        None => Ok((0.0, RateSource::NoFit)),
    }
}

/// Validate the decline (0..=50 %) and the cap (0..=300 %).
fn scenario_inputs(inputs: &GrowthInputs) -> Result<(f64, f64), InputError> {
    let d = super::error::non_negative(
        Field::GrowthDecline,
        inputs.decline_percent,
        MAX_DECLINE_PERCENT,
    )?;
    let c = super::error::non_negative(Field::LadderCap, inputs.cap_percent, MAX_CAP_PERCENT)?;
    Ok((d, c))
}

/// § 22 on a profile: `waterline` W (§ 5 overall), `quantile` q as a fraction (the daily
/// waterlines' trend).
pub fn growth_plan(
    profile: &HistoryProfile,
    prices: &Prices,
    offers_in: &TermInputs,
    waterline: f64,
    quantile: f64,
    inputs: &GrowthInputs,
) -> Result<GrowthPlan, InputError> {
    let horizon = terms::horizon(offers_in.horizon_months)?;
    let left = offers_in.months_left.min(horizon);
    let h = horizon - left;
    let (decline, cap_percent) = scenario_inputs(inputs)?;
    let offers = offers(prices, offers_in)?;
    let days_per_month = prices.hours_per_month / 24.0;
    let (trend, waterline_trend) = trends(&profile.days, quantile, days_per_month);
    let has_history = profile.source == super::profile::ProfileSource::History;
    let (percent, source) = rate(inputs, trend.as_ref(), has_history, waterline, horizon)?;
    let g = percent / 100.0;
    let cap = cap_percent / 100.0;
    let load = Load::new(profile.distribution.points(), prices);
    let expected = Future::new(g, left, h, waterline, cap);
    let flat = Future::new(0.0, left, h, waterline, cap);
    let down = Future::new(-decline / 100.0, left, h, waterline, cap);
    let top = [&expected, &flat, &down]
        .iter()
        .flat_map(|f| f.caps.iter().copied())
        .max()
        .unwrap_or(0);
    let step = top.div_ceil(MAX_DP_LEVELS).max(1);

    // Each plan's purchases on the expected future.
    let mut kinds: Vec<(PlanKind, Vec<Purchase>)> = vec![
        (PlanKind::OnDemand, Vec::new()),
        (
            PlanKind::MonthlyOnly,
            monthly_only(&offers, &load, &expected, step),
        ),
    ];
    for (i, o) in offers.iter().enumerate() {
        kinds.push((
            PlanKind::AllNow(o.term),
            all_now(&offers, i, &load, &expected, step),
        ));
    }
    let mut tranches = ladder(&offers, &load, &expected, step);
    let ladder_buys = purchases(&mut tranches, &offers, h);
    kinds.push((PlanKind::Ladder, ladder_buys));

    // The cheapest plan made for each other future.
    let best_for = |future: &Future| -> Money {
        let l = replay(
            &purchases(
                &mut ladder(&offers, &load, future, step),
                &offers,
                future.h(),
            ),
            &offers,
            &load,
            future,
            false,
        )
        .0;
        let m = replay(
            &monthly_only(&offers, &load, future, step),
            &offers,
            &load,
            future,
            false,
        )
        .0;
        l.min(m)
    };
    let (best_flat, best_down) = (best_for(&flat), best_for(&down));
    let loss = |buys: &[Purchase], future: &Future, best: Money| -> Money {
        let cost = replay(buys, &offers, &load, future, true).0;
        (cost - best).max(Money::ZERO)
    };
    // Each plan replayed once on the expected future: its cost and each month's level and money.
    let replays: Vec<(Money, Vec<(u32, Money)>)> = kinds
        .iter()
        .map(|(_, buys)| replay(buys, &offers, &load, &expected, false))
        .collect();
    let plans: Vec<PlanRow> = kinds
        .iter()
        .zip(&replays)
        .map(|((kind, buys), (cost, months))| PlanRow {
            kind: *kind,
            gpus_now: months.first().map_or(0, |m| m.0),
            gpus_last: months.last().map_or(0, |m| m.0),
            cost: *cost,
            risk_flat: loss(buys, &flat, best_flat),
            risk_decline: loss(buys, &down, best_down),
            months: months.iter().map(|m| m.1).collect(),
        })
        .collect();
    // The lowest cost; ties go to the simpler plan (the order of `plans`, the ladder last).
    let recommended = (0..plans.len())
        .min_by_key(|&i| (plans[i].cost, i))
        .expect("on demand is always a plan");

    let ladder_months = &replays[replays.len() - 1].1; // the ladder is the last plan
    let months = (1..=h)
        .map(|t| {
            let i = (t - 1) as usize;
            let f = expected.factors[i];
            MonthRow {
                month: left + t,
                factor: f,
                waterline: waterline * f,
                gpu_hours: load.gpu_hours(f),
                committed: ladder_months[i].0,
            }
        })
        .collect();
    for tr in &mut tranches {
        tr.month = left + tr.month - 1;
    }
    Ok(GrowthPlan {
        trend,
        waterline_trend,
        percent,
        source,
        decline_percent: decline,
        cap_percent,
        waterline,
        horizon_months: horizon,
        months_left: left,
        compared_months: h,
        step,
        months,
        plans,
        recommended,
        ladder: tranches,
    })
}

/// Test support: the worked example of docs/formulas.md § 22: 10 GPUs busy every hour (the
/// sliders G = 10, h = 730), P = 9 000, r = 20, H = 730, 1 year at 48 000 all upfront,
/// horizon 6 months, growth +10 % a month typed, cap 100 %, decline 5 %.
#[cfg(test)]
pub(crate) fn worked_example() -> Result<GrowthPlan, InputError> {
    let prices = Prices::new(9000.0, 20.0, 730.0).expect("valid prices");
    let prof = HistoryProfile::from_sliders(10, 730.0, 730.0).expect("valid sliders");
    let offers = TermInputs {
        one_year: terms::TermOffer {
            upfront: 48_000.0,
            monthly: 0.0,
        },
        horizon_months: 6,
        ..TermInputs::default()
    };
    let inputs = GrowthInputs {
        growth_percent: Some(10.0),
        ..GrowthInputs::default()
    };
    growth_plan(&prof, &prices, &offers, 10.0, 0.05, &inputs)
}

#[cfg(test)]
#[path = "growth_tests.rs"]
mod tests;

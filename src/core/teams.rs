//! § 21 Cost by team (issue 37): who uses the committed baseline, who drives the peaks, and
//! how the plan's monthly cost is shared: pro rata within each hour, the idle committed cost
//! by a chosen method, the burst at the plan's elastic mix; beside it each team's standalone
//! cost and its Shapley value in the cost game v(S) = the plan's monthly cost for the summed
//! history of the teams in S.
//!
//! Notation: u(t,i) team i's GPUs busy in hour t, U(t) = Σᵢ u(t,i), N the plan's committed
//! GPUs; b(t,i) = u(t,i)·min(U(t), N)/U(t) the baseline GPU-hours team i used in hour t
//! (0 when U(t) = 0), e(t,i) = u(t,i) − b(t,i) its burst. Usage figures are over the hours
//! read; money per month, over the plan's lookback window (what the plan's pools are priced
//! on). Every money column is the plan's own amount (`ThreePools`) shared out in whole cents
//! by largest remainder, so the teams' totals add up to the plan's monthly total exactly.

use super::error::{Field, InputError, Problem};
use super::money::Money;
use super::plan::{plan_with_history, PlanInputs};
use super::profile::{profile, Distribution};
use super::series::UsageSeries;

/// At most this many teams get an exact Shapley value (2ⁿ − 1 plans).
pub const MAX_EXACT_SHAPLEY_TEAMS: usize = 10;
/// Above [`MAX_EXACT_SHAPLEY_TEAMS`]: plans evaluated for the sampled Shapley values (orders
/// of the teams, each with its reverse, until this many plans).
pub const SAMPLED_SHAPLEY_PLANS: usize = 2048;
/// The peak hours: the top 5 % of hours by U(t) (at least one).
pub const PEAK_HOURS_FRACTION: f64 = 0.05;

pub use super::idle_split::IdleSplit;

/// The fixed percentages as typed: entries separated by `,`, `;`, `，`, `；` or line breaks,
/// each `team=percent` (or `team:percent`, `team：percent`; the last separator counts, so a
/// name may hold one; a `%` after the number is allowed). Empty text: no entries. Errors
/// name [`Field::TeamShares`] and the entry (1-based).
pub fn parse_fixed(text: &str) -> Result<Vec<(String, f64)>, InputError> {
    let mut out = Vec::new();
    let entries = text.split([',', ';', '，', '；', '\n']);
    for (k, entry) in entries.enumerate() {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        let bad = |why: &str| {
            InputError::new(
                Field::TeamShares,
                Problem::Other(format!("entry {}: {why}", k + 1)),
            )
        };
        let at = entry
            .rfind(['=', ':', '：'])
            .ok_or_else(|| bad("write team=percent"))?;
        let name = entry[..at].trim();
        let sep_len = entry[at..].chars().next().map_or(1, char::len_utf8);
        let number = entry[at + sep_len..]
            .trim()
            .trim_end_matches(['%', '％'])
            .trim();
        if name.is_empty() {
            return Err(bad("no team name"));
        }
        let p: f64 = number
            .parse()
            .map_err(|_| bad("the percent is not a number"))?;
        if !p.is_finite() {
            return Err(bad("the percent is not a number"));
        }
        out.push((name.to_string(), p));
    }
    Ok(out)
}

/// One team's hourly usage on the hours of the history read.
#[derive(Debug, Clone, Copy)]
pub struct TeamUsage<'a> {
    pub name: &'a str,
    pub values: &'a [f64],
}

/// The plan's pools that the teams share (from `PlanOutputs::pools` and `baseline`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanPools {
    /// N: committed GPUs.
    pub gpus: u32,
    /// The committed price per GPU per month of the plan's term (its effective price).
    pub monthly_price: f64,
    /// N·P.
    pub reserved: Money,
    /// The elastic pools, per month.
    pub on_demand: Money,
    pub spot: Money,
}

impl PlanPools {
    pub fn total(&self) -> Money {
        self.reserved + self.on_demand + self.spot
    }
}

/// What the table is computed with besides the usage.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TeamTableInputs {
    pub split: IdleSplit,
    /// [`IdleSplit::Fixed`]: (team name, percent); teams not named get 0 %.
    pub fixed: Vec<(String, f64)>,
    /// The first hour of the plan's lookback window (index into the hours read).
    pub window_start: usize,
}

/// One team's row.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamRow {
    pub name: String,
    /// Σₜ u(t,i) over the hours read.
    pub gpu_hours: f64,
    /// gpu_hours / Σ of all teams (0 when nothing was used).
    pub share: f64,
    /// Nearest-rank p50, p95 and the largest u(t,i) over the hours read.
    pub p50: f64,
    pub p95: f64,
    pub peak: f64,
    /// The team's share of the usage in the trough hours (U(t) ≤ N) and in the peak hours.
    pub trough_share: f64,
    pub peak_share: f64,
    /// Σₜ b(t,i) over the hours read.
    pub baseline_hours: f64,
    /// Per month: the committed cost of the baseline hours it used, its share of the idle
    /// committed cost, its burst on spot and on demand, and their sum.
    pub committed: Money,
    pub idle: Money,
    pub spot: Money,
    pub on_demand: Money,
    pub total: Money,
}

impl TeamRow {
    /// spot + on demand.
    pub fn elastic(&self) -> Money {
        self.spot + self.on_demand
    }
}

/// The team table.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamTable {
    pub rows: Vec<TeamRow>,
    pub split: IdleSplit,
    /// [`IdleSplit::Row`]: the idle committed cost, not shared; else zero.
    pub idle_row: Money,
    /// Σ of the rows' totals and `idle_row`: the plan's monthly total.
    pub total: Money,
    /// The committed cost used and idle, per month (sum: N·P).
    pub committed_used: Money,
    pub committed_idle: Money,
    /// Hours read, trough hours (U ≤ N) and peak hours among them.
    pub hours: usize,
    pub trough_hours: usize,
    pub peak_hours: usize,
    /// Hours of the plan's window (the money's basis).
    pub window_hours: usize,
}

/// `total` shared out in whole cents in proportion to `weights` (largest remainder; ties to
/// the earlier one), so the parts add up to `total` exactly. Negative or non-finite weights
/// count as 0; all-zero weights share evenly.
pub fn share_out(total: Money, weights: &[f64]) -> Vec<Money> {
    let n = weights.len();
    if n == 0 {
        return Vec::new();
    }
    let clean: Vec<f64> = weights
        .iter()
        .map(|&w| if w.is_finite() && w > 0.0 { w } else { 0.0 })
        .collect();
    let sum: f64 = clean.iter().sum();
    let w: Vec<f64> = if sum > 0.0 {
        clean.iter().map(|x| x / sum).collect()
    } else {
        vec![1.0 / n as f64; n]
    };
    let cents = total.cents();
    let sign = if cents < 0 { -1 } else { 1 };
    let abs = cents.unsigned_abs() as f64;
    let mut parts: Vec<i64> = w.iter().map(|x| (abs * x).floor() as i64).collect();
    let given: i64 = parts.iter().sum();
    let mut left = cents.abs() - given;
    let mut order: Vec<usize> = (0..n).collect();
    let frac = |i: usize| abs * w[i] - (abs * w[i]).floor();
    order.sort_by(|&a, &b| frac(b).total_cmp(&frac(a)).then(a.cmp(&b)));
    // `left` is below n (each floor loses less than a cent), save for rounding in the
    // weights' sum; cycle so the parts always add up.
    let mut k = 0;
    while left > 0 {
        parts[order[k % n]] += 1;
        left -= 1;
        k += 1;
    }
    while left < 0 {
        let i = order[n - 1 - (k % n)];
        if parts[i] > 0 {
            parts[i] -= 1;
            left += 1;
        }
        k += 1;
    }
    parts
        .into_iter()
        .map(|c| Money::from_cents(sign * c))
        .collect()
}

/// What the team table needs that no input changes: U(t), the peak hours, and each team's
/// GPU-hours, p50, p95 and peak (the sorts), computed once per history ([`TeamsPrep::new`]),
/// so the table on each change is O(teams × hours) without a sort.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamsPrep {
    /// U(t).
    pub u_total: Vec<f64>,
    /// The peak hours (the top 5 % by U(t), ties to the earlier hour).
    pub is_peak: Vec<bool>,
    pub peak_count: usize,
    /// Per team: (GPU-hours, p50, p95, peak).
    pub levels: Vec<(f64, f64, f64, f64)>,
}

impl TeamsPrep {
    /// Everything, the teams' levels included.
    pub fn new(teams: &[TeamUsage]) -> Self {
        let mut prep = Self::without_levels(teams);
        prep.levels = teams
            .iter()
            .map(|team| {
                let dist = Distribution::from_values(team.values);
                (
                    team.values.iter().sum(),
                    dist.quantile(0.5).unwrap_or(0.0),
                    dist.quantile(0.95).unwrap_or(0.0),
                    team.values.iter().copied().fold(0.0, f64::max),
                )
            })
            .collect();
        prep
    }

    /// U(t) and the peak hours; each team's levels left at 0 (a table whose p50, p95 and peak
    /// are not shown: a fleet's sum over its types).
    pub fn without_levels(teams: &[TeamUsage]) -> Self {
        let hours = teams.first().map_or(0, |t| t.values.len());
        let total_at = |t: usize| {
            teams
                .iter()
                .map(|x| x.values.get(t).copied().unwrap_or(0.0))
                .sum::<f64>()
        };
        let u_total: Vec<f64> = (0..hours).map(total_at).collect();
        let peak_count =
            ((hours as f64 * PEAK_HOURS_FRACTION).ceil() as usize).clamp(1, hours.max(1));
        let mut by_u: Vec<usize> = (0..hours).collect();
        by_u.sort_by(|&a, &b| u_total[b].total_cmp(&u_total[a]).then(a.cmp(&b)));
        let mut is_peak = vec![false; hours];
        for &t in by_u.iter().take(peak_count) {
            is_peak[t] = true;
        }
        Self {
            u_total,
            is_peak,
            peak_count: peak_count.min(hours),
            levels: vec![(0.0, 0.0, 0.0, 0.0); teams.len()],
        }
    }
}

/// The team table (§ 21). Errors: `TeamShares` when the fixed percentages are negative, not
/// numbers, or do not add up to 100 (with [`IdleSplit::Fixed`]); `UsageHistory` when the
/// teams' series are not all as long, or there is none.
pub fn team_table(
    teams: &[TeamUsage],
    pools: &PlanPools,
    inputs: &TeamTableInputs,
) -> Result<TeamTable, InputError> {
    team_table_with(&TeamsPrep::new(teams), teams, pools, inputs)
}

/// [`team_table`] with the history's [`TeamsPrep`] (made from the same `teams`).
pub fn team_table_with(
    prep: &TeamsPrep,
    teams: &[TeamUsage],
    pools: &PlanPools,
    inputs: &TeamTableInputs,
) -> Result<TeamTable, InputError> {
    let hours = teams.first().map_or(0, |t| t.values.len());
    if hours == 0
        || teams.iter().any(|t| t.values.len() != hours)
        || prep.u_total.len() != hours
        || prep.levels.len() != teams.len()
    {
        return Err(InputError::new(Field::UsageHistory, Problem::Empty));
    }
    let n_teams = teams.len();
    let nf = f64::from(pools.gpus);
    let start = inputs.window_start.min(hours - 1);
    let window_hours = hours - start;
    let u_total = &prep.u_total;
    let is_peak = &prep.is_peak;
    let peak_count = prep.peak_count;
    let is_trough = |t: usize| u_total[t] <= nf;
    let trough_hours = (0..hours).filter(|&t| is_trough(t)).count();
    let base_factor = |t: usize| {
        let u = u_total[t];
        if u > 0.0 {
            u.min(nf) / u
        } else {
            0.0
        }
    };
    let (mut trough_sum, mut peak_sum, mut all_sum) = (0.0, 0.0, 0.0);
    for t in 0..hours {
        all_sum += u_total[t];
        if is_trough(t) {
            trough_sum += u_total[t];
        }
        if is_peak[t] {
            peak_sum += u_total[t];
        }
    }
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };

    struct Sums {
        gpu_hours: f64,
        trough: f64,
        peak: f64,
        baseline: f64,
        w_baseline: f64,
        w_burst: f64,
    }
    let sums: Vec<Sums> = teams
        .iter()
        .map(|team| {
            let mut s = Sums {
                gpu_hours: 0.0,
                trough: 0.0,
                peak: 0.0,
                baseline: 0.0,
                w_baseline: 0.0,
                w_burst: 0.0,
            };
            for (t, &u) in team.values.iter().enumerate() {
                let b = u * base_factor(t);
                s.gpu_hours += u;
                s.baseline += b;
                if is_trough(t) {
                    s.trough += u;
                }
                if is_peak[t] {
                    s.peak += u;
                }
                if t >= start {
                    s.w_baseline += b;
                    s.w_burst += (u - b).max(0.0);
                }
            }
            s
        })
        .collect();

    // Money: the committed cost used is P·Σ_window min(U, N)/T (per month), at most N·P.
    let covered: f64 = (start..hours).map(|t| u_total[t].min(nf)).sum();
    let used_total = Money::from_f64(pools.monthly_price * covered / window_hours as f64)
        .min(pools.reserved)
        .max(Money::ZERO);
    let idle_total = pools.reserved - used_total;
    let w_base: Vec<f64> = sums.iter().map(|s| s.w_baseline).collect();
    let w_burst: Vec<f64> = sums.iter().map(|s| s.w_burst).collect();
    let committed = share_out(used_total, &w_base);
    let (idle, idle_row) = match inputs.split {
        IdleSplit::Proportional => (share_out(idle_total, &w_base), Money::ZERO),
        IdleSplit::Even => (share_out(idle_total, &vec![1.0; n_teams]), Money::ZERO),
        IdleSplit::Row => (vec![Money::ZERO; n_teams], idle_total),
        IdleSplit::Fixed => {
            let percents = fixed_percents(teams, &inputs.fixed)?;
            (share_out(idle_total, &percents), Money::ZERO)
        }
    };
    let spot = share_out(pools.spot, &w_burst);
    let on_demand = share_out(pools.on_demand, &w_burst);

    let rows: Vec<TeamRow> = teams
        .iter()
        .zip(&sums)
        .enumerate()
        .map(|(i, (team, s))| {
            let (_, p50, p95, peak) = prep.levels[i];
            TeamRow {
                name: team.name.to_string(),
                gpu_hours: s.gpu_hours,
                share: ratio(s.gpu_hours, all_sum),
                p50,
                p95,
                peak,
                trough_share: ratio(s.trough, trough_sum),
                peak_share: ratio(s.peak, peak_sum),
                baseline_hours: s.baseline,
                committed: committed[i],
                idle: idle[i],
                spot: spot[i],
                on_demand: on_demand[i],
                total: committed[i] + idle[i] + spot[i] + on_demand[i],
            }
        })
        .collect();
    let total = rows.iter().map(|r| r.total).sum::<Money>() + idle_row;
    Ok(TeamTable {
        rows,
        split: inputs.split,
        idle_row,
        total,
        committed_used: used_total,
        committed_idle: idle_total,
        hours,
        trough_hours,
        peak_hours: peak_count,
        window_hours,
    })
}

/// The fixed percentages in the teams' order (names compared as written, trimmed).
fn fixed_percents(teams: &[TeamUsage], fixed: &[(String, f64)]) -> Result<Vec<f64>, InputError> {
    let mut sum = 0.0;
    for (_, p) in fixed {
        if !p.is_finite() {
            return Err(InputError::new(Field::TeamShares, Problem::NotANumber));
        }
        if *p < 0.0 {
            return Err(InputError::new(
                Field::TeamShares,
                Problem::MustBeNonNegative,
            ));
        }
        sum += p;
    }
    if (sum - 100.0).abs() > 1e-6 {
        return Err(InputError::new(
            Field::TeamShares,
            Problem::SharesDoNotSumTo100 { sum_percent: sum },
        ));
    }
    Ok(teams
        .iter()
        .map(|t| {
            fixed
                .iter()
                .filter(|(name, _)| name.trim() == t.name.trim())
                .map(|(_, p)| *p)
                .sum()
        })
        .collect())
}

/// Each team's Shapley value and standalone cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Shapley {
    /// φᵢ in cents, unrounded (exact up to floating point when `exact`).
    pub raw_cents: Vec<f64>,
    /// φᵢ rounded to the cent by largest remainder, adding up to `grand` exactly.
    pub values: Vec<Money>,
    /// v({i}): the plan's monthly cost for team i's history alone.
    pub standalone: Vec<Money>,
    /// v(all teams).
    pub grand: Money,
    /// All 2ⁿ coalitions were planned.
    pub exact: bool,
    /// Sampled: orders of the teams drawn (each with its reverse).
    pub orders: usize,
    /// Sampled: the standard error of each φᵢ (currency units); zeros when exact.
    pub std_error: Vec<f64>,
    /// Plans evaluated.
    pub plans: usize,
}

impl Shapley {
    /// standalone − Shapley: what pooling saves each team (negative: it pays for others).
    pub fn saving(&self, i: usize) -> Money {
        self.standalone[i] - self.values[i]
    }

    /// The largest standard error (0 when exact).
    pub fn max_std_error(&self) -> f64 {
        self.std_error.iter().copied().fold(0.0, f64::max)
    }
}

/// A coalition's hourly usage: the members' values summed and rounded to 0.001 GPU (as
/// the page rounds every history it plans from).
pub fn coalition_values(teams: &[&[f64]], members: impl Iterator<Item = usize>) -> Vec<f64> {
    let hours = teams.first().map_or(0, |t| t.len());
    let mut out = vec![0.0; hours];
    for i in members {
        for (o, v) in out.iter_mut().zip(teams[i]) {
            *o += v;
        }
    }
    for o in &mut out {
        *o = round_milli(*o);
    }
    out
}

fn round_milli(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// Shapley values of the cost game `cost(values of a coalition)` over `teams` (each the
/// hourly usage on the same hours). v(∅) = 0 without a call. Exact for up to
/// [`MAX_EXACT_SHAPLEY_TEAMS`] teams; above, orders of the teams sampled (a fixed seed:
/// the same history gives the same figures), each with its reverse, until
/// [`SAMPLED_SHAPLEY_PLANS`] plans, the standard error from the spread of the pairs.
pub fn shapley<E>(
    teams: &[&[f64]],
    mut cost: impl FnMut(&[f64]) -> Result<Money, E>,
) -> Result<Shapley, E> {
    let mut run = ShapleyRun::new(teams.len());
    loop {
        if let Some(done) = run.step(teams, &mut cost, usize::MAX)? {
            return Ok(done);
        }
    }
}

/// [`shapley`] in steps of at most a given number of plans, so a page can spread the work
/// over several tasks (each plan is a whole plan of the summed history): the same figures
/// however the steps are cut.
pub struct ShapleyRun {
    n: usize,
    plans: usize,
    kind: RunKind,
}

enum RunKind {
    /// v(mask) for every coalition, the next one to plan.
    Exact {
        v: Vec<i64>,
        next: usize,
    },
    Sampled(Box<Sampled>),
}

/// The sampled run's state (see [`shapley`]): the singletons, the grand coalition, then
/// `pairs` orders each followed by its reverse, one plan per prefix.
struct Sampled {
    standalone: Vec<i64>,
    grand: Option<i64>,
    pairs: usize,
    pair_no: usize,
    rng: Rng,
    order: Vec<usize>,
    reversed: bool,
    k: usize,
    acc: Vec<f64>,
    prev: i64,
    marginal: Vec<f64>,
    pair: Vec<f64>,
    sum: Vec<f64>,
    sum_sq: Vec<f64>,
}

impl ShapleyRun {
    /// A run for `n` teams.
    pub fn new(n: usize) -> Self {
        let kind = if n <= MAX_EXACT_SHAPLEY_TEAMS {
            RunKind::Exact {
                v: vec![0; 1 << n],
                next: 1,
            }
        } else {
            RunKind::Sampled(Box::new(Sampled {
                standalone: Vec::with_capacity(n),
                grand: None,
                pairs: 0,
                pair_no: 0,
                rng: Rng(0x9E37_79B9_7F4A_7C15 ^ (n as u64).wrapping_mul(0x1000_0000_01B3)),
                order: (0..n).collect(),
                reversed: false,
                k: 0,
                acc: Vec::new(),
                prev: 0,
                marginal: vec![0.0; n],
                pair: vec![0.0; n],
                sum: vec![0.0; n],
                sum_sq: vec![0.0; n],
            }))
        };
        Self { n, plans: 0, kind }
    }

    /// Plans evaluated so far.
    pub fn plans(&self) -> usize {
        self.plans
    }

    /// Evaluate at most `budget` more plans (at least one when any is left); the values once
    /// every plan is done.
    pub fn step<E>(
        &mut self,
        teams: &[&[f64]],
        cost: &mut impl FnMut(&[f64]) -> Result<Money, E>,
        budget: usize,
    ) -> Result<Option<Shapley>, E> {
        let n = self.n;
        if n == 0 {
            return Ok(Some(Shapley {
                raw_cents: Vec::new(),
                values: Vec::new(),
                standalone: Vec::new(),
                grand: Money::ZERO,
                exact: true,
                orders: 0,
                std_error: Vec::new(),
                plans: 0,
            }));
        }
        let mut left = budget.max(1);
        match &mut self.kind {
            RunKind::Exact { v, next } => {
                let full = (1usize << n) - 1;
                while *next <= full && left > 0 {
                    let mask = *next;
                    let members = (0..n).filter(|i| mask & (1 << i) != 0);
                    v[mask] = cost(&coalition_values(teams, members))?.cents();
                    *next += 1;
                    left -= 1;
                    self.plans += 1;
                }
                if *next <= full {
                    return Ok(None);
                }
                Ok(Some(exact_values(n, v, self.plans)))
            }
            RunKind::Sampled(st) => {
                let hours = teams[0].len();
                while left > 0 {
                    if st.standalone.len() < n {
                        let i = st.standalone.len();
                        st.standalone
                            .push(cost(&coalition_values(teams, std::iter::once(i)))?.cents());
                        self.plans += 1;
                        left -= 1;
                        continue;
                    }
                    let Some(grand) = st.grand else {
                        st.grand = Some(cost(&coalition_values(teams, 0..n))?.cents());
                        self.plans += 1;
                        left -= 1;
                        // Each order costs n − 1 plans (the empty and the full coalition are
                        // known), and its reverse as many: pairs until the budget, at least 2.
                        st.pairs = (SAMPLED_SHAPLEY_PLANS.saturating_sub(self.plans)
                            / (2 * (n - 1).max(1)))
                        .max(2);
                        continue;
                    };
                    if st.pair_no == st.pairs {
                        return Ok(Some(sampled_values(st, self.plans)));
                    }
                    if st.k == 0 {
                        if !st.reversed {
                            // Fisher–Yates
                            for i in (1..n).rev() {
                                st.order.swap(i, st.rng.below(i + 1));
                            }
                            st.pair.iter_mut().for_each(|p| *p = 0.0);
                        }
                        st.acc = vec![0.0; hours];
                        st.prev = 0;
                    }
                    let k = st.k;
                    let i = if st.reversed {
                        st.order[n - 1 - k]
                    } else {
                        st.order[k]
                    };
                    for (a, v) in st.acc.iter_mut().zip(teams[i]) {
                        *a += v;
                    }
                    let now = if k + 1 == n {
                        grand
                    } else {
                        self.plans += 1;
                        left -= 1;
                        let rounded: Vec<f64> = st.acc.iter().map(|&x| round_milli(x)).collect();
                        cost(&rounded)?.cents()
                    };
                    st.marginal[i] = (now - st.prev) as f64;
                    st.prev = now;
                    st.k += 1;
                    if st.k == n {
                        st.k = 0;
                        for j in 0..n {
                            st.pair[j] += st.marginal[j] / 2.0;
                        }
                        if st.reversed {
                            for j in 0..n {
                                st.sum[j] += st.pair[j];
                                st.sum_sq[j] += st.pair[j] * st.pair[j];
                            }
                            st.pair_no += 1;
                        }
                        st.reversed = !st.reversed;
                    }
                }
                if st.pair_no == st.pairs && st.grand.is_some() {
                    return Ok(Some(sampled_values(st, self.plans)));
                }
                Ok(None)
            }
        }
    }
}

/// φᵢ = Σ_{S ∌ i} s!(n−s−1)!/n! · (v(S ∪ i) − v(S)), in exact integers over n!.
fn exact_values(n: usize, v: &[i64], plans: usize) -> Shapley {
    let full = (1usize << n) - 1;
    let fact = |k: usize| (1..=k as i128).product::<i128>();
    let w: Vec<i128> = (0..n).map(|s| fact(s) * fact(n - s - 1)).collect();
    let denominator = fact(n);
    let mut numerators = vec![0i128; n];
    for (i, num) in numerators.iter_mut().enumerate() {
        let bit = 1 << i;
        for mask in 0..=full {
            if mask & bit != 0 {
                continue;
            }
            let s = mask.count_ones() as usize;
            *num += w[s] * i128::from(v[mask | bit] - v[mask]);
        }
    }
    let grand = Money::from_cents(v[full]);
    // Whole cents by largest remainder (exact remainders; ties to the earlier team).
    let mut parts: Vec<i64> = numerators
        .iter()
        .map(|x| x.div_euclid(denominator) as i64)
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    let rem = |i: usize| numerators[i].rem_euclid(denominator);
    order.sort_by(|&a, &b| rem(b).cmp(&rem(a)).then(a.cmp(&b)));
    let left = grand.cents() - parts.iter().sum::<i64>();
    for k in 0..left.max(0) as usize {
        parts[order[k % n]] += 1;
    }
    Shapley {
        values: parts.into_iter().map(Money::from_cents).collect(),
        raw_cents: numerators
            .iter()
            .map(|x| *x as f64 / denominator as f64)
            .collect(),
        standalone: (0..n).map(|i| Money::from_cents(v[1 << i])).collect(),
        grand,
        exact: true,
        orders: 0,
        std_error: vec![0.0; n],
        plans,
    }
}

/// A small deterministic generator (xorshift64*), so the sampled values are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn sampled_values(st: &Sampled, plans: usize) -> Shapley {
    let n = st.sum.len();
    let m = st.pairs as f64;
    let raw: Vec<f64> = st.sum.iter().map(|s| s / m).collect();
    let std_error = (0..n)
        .map(|i| {
            let var = (st.sum_sq[i] - st.sum[i] * st.sum[i] / m).max(0.0) / (m - 1.0);
            (var / m).sqrt() / 100.0
        })
        .collect();
    let grand = Money::from_cents(st.grand.unwrap_or(0));
    Shapley {
        values: round_to_total(&raw, grand),
        raw_cents: raw,
        standalone: st
            .standalone
            .iter()
            .map(|&c| Money::from_cents(c))
            .collect(),
        grand,
        exact: false,
        orders: 2 * st.pairs,
        std_error,
        plans,
    }
}

/// Values in cents rounded to whole cents adding up to `total` (largest remainder).
fn round_to_total(raw_cents: &[f64], total: Money) -> Vec<Money> {
    let n = raw_cents.len();
    let mut parts: Vec<i64> = raw_cents.iter().map(|x| x.floor() as i64).collect();
    let mut left = total.cents() - parts.iter().sum::<i64>();
    let mut order: Vec<usize> = (0..n).collect();
    let frac = |i: usize| raw_cents[i] - raw_cents[i].floor();
    order.sort_by(|&a, &b| frac(b).total_cmp(&frac(a)).then(a.cmp(&b)));
    let mut k = 0;
    while left > 0 && n > 0 {
        parts[order[k % n]] += 1;
        left -= 1;
        k += 1;
    }
    while left < 0 && n > 0 {
        parts[order[n - 1 - (k % n)]] -= 1;
        left += 1;
        k += 1;
    }
    parts.into_iter().map(Money::from_cents).collect()
}

/// The plan's monthly cost (its three pools) for `values` on the hours of `template` (its
/// timestamps and zone), with the page's inputs: v(S) of the cost game.
pub fn plan_cost(
    inputs: &PlanInputs,
    template: &UsageSeries,
    values: &[f64],
) -> Result<Money, InputError> {
    let series = UsageSeries {
        values: values.to_vec(),
        timestamps: template.timestamps.clone(),
        utc_offset_minutes: template.utc_offset_minutes,
        offset_changes: template.offset_changes.clone(),
    };
    let prof = profile(&series, &inputs.profile_settings())?;
    Ok(plan_with_history(inputs, Some(&prof)).pools?.total)
}

#[cfg(test)]
#[path = "teams_tests.rs"]
mod tests;

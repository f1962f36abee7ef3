//! § 16 Fleet: the fixed budget across GPU types.
//!
//! A team runs several GPU types (A100, H100, 4090 …). Types are not interchangeable: a job
//! on an H100 cannot move to a 4090, so each type t has its own usage profile, its own
//! prices (P_t, r_t, H) and its own commitment curve M_t(N) = N·P_t + r_t·E_t(N)·H/T (§ 4).
//! The saving against all on demand is S_t(N) = M_t(0) − M_t(N) (exact `Money`).
//!
//! One fixed budget F buys the monthly GPUs of every type: choose N_t ∈ 0..=⌈peak_t⌉
//! maximising Σ S_t(N_t) subject to Σ N_t·P_t ≤ F. Ties go to the smaller total fixed spend,
//! then to the lexicographically smaller vector (N_1, N_2, …) in the order the types are
//! given. Everything is computed in cents, so the comparisons are exact.
//!
//! The search is a depth-first branch and bound over the types (`search` below). Its bound
//! is the fractional fill of the remaining types' concave hulls: the upper concave hull of
//! each type's points (N·P_t, S_t(N)) lies on or above every S_t(N), so filling the budget
//! left with the steepest hull pieces first, the last one in part, saves at least as much as
//! any choice of whole GPUs. S_t is concave up to the rounding of M_t(N) to the cent; the
//! hull makes the bound valid either way. When the search stops at its step limit unproven,
//! an exact dynamic programme over the spend (`exact_dp` below) settles the optimum.

use std::cmp::{Ordering, Reverse};
use std::collections::BTreeMap;

use super::budget::MAX_BUDGET;
use super::commitment::{monthly_cost, n_star, CommitRow};
use super::error::{non_negative, Field, InputError, Problem};
use super::money::Money;
use super::prices::Prices;
use super::profile::LevelProfile;

/// Most GPU types one allocation accepts.
pub const MAX_FLEET_TYPES: usize = 8;

/// One GPU type of the fleet: its own usage profile and its own prices.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FleetType<'a> {
    /// Label shown with the type ("A100", "H100" …).
    pub name: &'a str,
    /// Usage of this type only.
    pub levels: &'a LevelProfile,
    /// P_t, r_t and H of this type.
    pub prices: Prices,
    /// The most GPUs of this type the plan commits to (the type's sizing rule, § 6; `None`:
    /// up to ⌈peak⌉). The budget never buys more than this.
    pub most: Option<u32>,
}

/// What the fixed budget buys of one type (all money per month).
#[derive(Debug, Clone, PartialEq)]
pub struct TypeAllocation {
    pub name: String,
    /// N*_t of § 4: the type's own optimum without a budget.
    pub n_star: u32,
    /// S_t(N*_t).
    pub unconstrained_saving: Money,
    /// N_t: monthly GPUs of this type the budget buys.
    pub committed: u32,
    /// N_t·P_t (exact).
    pub fixed: Money,
    /// r_t·E_t(N_t)·H/T.
    pub elastic: Money,
    /// fixed + elastic = M_t(N_t).
    pub total: Money,
    /// S_t(N_t) = M_t(0) − M_t(N_t).
    pub saving: Money,
    /// covered(N)/(N·T), 0..=1; 0 when N = 0.
    pub fixed_utilization: f64,
}

/// The fleet's allocation of the fixed budget.
#[derive(Debug, Clone, PartialEq)]
pub struct FleetAllocation {
    /// One entry per type, in the order given.
    pub types: Vec<TypeAllocation>,
    /// F.
    pub fixed_budget: Money,
    /// Σ N_t·P_t (≤ F).
    pub fixed_spent: Money,
    /// F − fixed_spent.
    pub left: Money,
    /// Σ S_t(N_t).
    pub saving: Money,
    /// Σ N*_t·P_t: what the types' own optima would cost.
    pub unconstrained_fixed: Money,
    /// Σ S_t(N*_t).
    pub unconstrained_saving: Money,
    /// F < Σ N*_t·P_t: the budget keeps at least one type below its N*.
    pub budget_binds: bool,
    /// Σ M_t(0): everything on demand.
    pub all_on_demand: Money,
    /// Σ M_t(N_t) (= all_on_demand − saving, exactly).
    pub total: Money,
    /// This allocation is proven optimal (under the tie rule): by the search or, when it
    /// stopped at its step limit (120 000 candidate N in all, a few milliseconds; met only
    /// when a great many choices save within cents of each other, e.g. every type with the
    /// same break-even H*), by the dynamic programme over the spend. False only when that
    /// programme would exceed its own limits (800 000 steps, 400 000 table entries): the
    /// allocation is then the best the search found.
    pub exact: bool,
    /// No allocation within the budget saves more than this (= `saving` when `exact`).
    pub saving_bound: Money,
}

/// One piece of the upper concave hull of a type's (N·P, S(N)) points: `cost` more fixed
/// spend buys at most `saving` more (both in cents; `saving` > 0).
#[derive(Debug, Clone, Copy)]
struct Segment {
    cost: i64,
    saving: i64,
    ty: usize,
    from: u32,
    to: u32,
}

impl Segment {
    /// Steeper first; a zero-cost segment (P rounded to 0 cents) is the steepest.
    fn steeper(&self, other: &Segment) -> Ordering {
        // self.saving/self.cost vs other.saving/other.cost, cross-multiplied (costs ≥ 0).
        let a = self.saving as i128 * other.cost as i128;
        let b = other.saving as i128 * self.cost as i128;
        b.cmp(&a)
            .then(self.ty.cmp(&other.ty))
            .then(self.from.cmp(&other.from))
    }
}

/// A type's table: every row N = 0..=⌈peak⌉ of § 4 and what the search needs of it.
struct Table {
    /// The type's index in the order given.
    ty: usize,
    rows: Vec<CommitRow>,
    /// P in cents.
    price: i64,
    /// S(N) in cents.
    saving: Vec<i64>,
    /// The smallest m ≤ N with the largest S(m).
    best_arg_upto: Vec<u32>,
    /// The positive-slope pieces of the upper concave hull, in order of N.
    hull: Vec<Segment>,
    /// The N of the hull's corners: 0, then each piece's end.
    corners: Vec<u32>,
}

impl Table {
    fn new(ty: usize, t: &FleetType) -> Self {
        let top = t
            .most
            .map_or(t.levels.levels(), |m| m.min(t.levels.levels()));
        let rows: Vec<CommitRow> = (0..=top)
            .map(|n| monthly_cost(t.levels, &t.prices, n))
            .collect();
        let price = t.prices.monthly_money.cents();
        let saving: Vec<i64> = rows
            .iter()
            .map(|r| (rows[0].total - r.total).cents())
            .collect();
        let mut best_arg_upto = vec![0u32; saving.len()];
        for n in 1..saving.len() {
            let b = best_arg_upto[n - 1];
            best_arg_upto[n] = if saving[n] > saving[b as usize] {
                n as u32
            } else {
                b
            };
        }
        let hull = hull(ty, price, &saving);
        let corners = std::iter::once(0)
            .chain(hull.iter().map(|s| s.to))
            .collect();
        Self {
            ty,
            rows,
            price,
            saving,
            best_arg_upto,
            hull,
            corners,
        }
    }

    /// The hull at N, flat after its last corner, as a fraction (numerator, denominator > 0):
    /// concave in N and never below S(N).
    fn hull_at(&self, n: u32) -> (i128, i128) {
        let p = self.corners.partition_point(|&c| c <= n);
        let a = self.corners[p - 1];
        match self.corners.get(p) {
            Some(&b) => {
                let (sa, sb) = (
                    self.saving[a as usize] as i128,
                    self.saving[b as usize] as i128,
                );
                let d = (b - a) as i128;
                (sa * d + (n - a) as i128 * (sb - sa), d)
            }
            None => (self.saving[a as usize] as i128, 1),
        }
    }

    /// Largest N ≤ ⌈peak⌉ whose fixed spend fits in `left` cents.
    fn max_n(&self, left: i64) -> u32 {
        let cap = self.rows.len() as i64 - 1;
        if self.price == 0 {
            cap as u32
        } else {
            (left / self.price).min(cap) as u32
        }
    }
}

/// Positive-slope pieces of the upper concave hull of the points (N·P, S(N)), N = 0..=K.
/// Every S(N) lies on or below the hull, and the hull is 0 at N = 0.
fn hull(ty: usize, price: i64, saving: &[i64]) -> Vec<Segment> {
    if price == 0 {
        // Every N costs nothing: one vertical piece up to the best saving.
        let (best_n, &best) = saving
            .iter()
            .enumerate()
            .rev()
            .max_by_key(|&(_, s)| *s)
            .unwrap_or((0, &0));
        return if best > 0 {
            vec![Segment {
                cost: 0,
                saving: best,
                ty,
                from: 0,
                to: best_n as u32,
            }]
        } else {
            Vec::new()
        };
    }
    let point = |n: usize| (n as i128 * price as i128, saving[n] as i128);
    let mut stack: Vec<usize> = Vec::with_capacity(saving.len());
    for n in 0..saving.len() {
        let (bx, by) = point(n);
        while stack.len() >= 2 {
            let (ox, oy) = point(stack[stack.len() - 2]);
            let (ax, ay) = point(stack[stack.len() - 1]);
            // Drop a when it lies on or below the line o → b.
            if (ax - ox) * (by - oy) - (ay - oy) * (bx - ox) >= 0 {
                stack.pop();
            } else {
                break;
            }
        }
        stack.push(n);
    }
    stack
        .windows(2)
        .map(|w| Segment {
            cost: (w[1] - w[0]) as i64 * price,
            saving: saving[w[1]] - saving[w[0]],
            ty,
            from: w[0] as u32,
            to: w[1] as u32,
        })
        .take_while(|s| s.saving > 0)
        .collect()
}

/// Upper bound on the saving a set of types can add with a given fixed spend: the
/// fractional (LP) fill of their hull pieces, steepest first.
struct Bound {
    segments: Vec<Segment>,
    /// cum_cost[j], cum_saving[j]: the first j pieces taken whole.
    cum_cost: Vec<i64>,
    cum_saving: Vec<i64>,
    /// gcd of the types' prices in cents: every spend of theirs is a multiple of it.
    step: i64,
    /// first_cum[j]: what the first j pieces spend on the first of these types.
    first_cum: Vec<i64>,
}

impl Bound {
    /// The bound of `tables`, from `all`: every type's pieces, steepest first.
    fn new(all: &[Segment], tables: &[&Table]) -> Self {
        let mut member = [false; MAX_FLEET_TYPES];
        for t in tables {
            member[t.ty] = true;
        }
        let segments: Vec<Segment> = all.iter().filter(|s| member[s.ty]).copied().collect();
        let mut cum_cost = vec![0];
        let mut cum_saving = vec![0];
        for s in &segments {
            cum_cost.push(cum_cost.last().copied().unwrap_or(0) + s.cost);
            cum_saving.push(cum_saving.last().copied().unwrap_or(0) + s.saving);
        }
        let step = tables.iter().fold(0, |g, t| gcd(g, t.price));
        let first = tables.first().map(|t| t.ty);
        let mut first_cum = vec![0];
        for s in &segments {
            let own = if Some(s.ty) == first { s.cost } else { 0 };
            first_cum.push(first_cum.last().copied().unwrap_or(0) + own);
        }
        Self {
            segments,
            cum_cost,
            cum_saving,
            step,
            first_cum,
        }
    }

    /// The pieces taken whole within `budget` (no rounding to `step`): j.
    fn whole(&self, budget: i64) -> usize {
        // cum_cost[0] = 0 ≤ budget, so j ≥ 0.
        self.cum_cost.partition_point(|&c| c <= budget) - 1
    }

    /// The fractional fill within `budget` (no rounding to `step`) as a fraction
    /// (numerator, denominator > 0): a concave function of the budget.
    fn fill(&self, budget: i64) -> (i128, i128) {
        let j = self.whole(budget);
        let whole = self.cum_saving[j] as i128;
        match self.segments.get(j) {
            // cum_cost[j + 1] > budget ≥ cum_cost[j], so s.cost > 0.
            Some(s) => (
                whole * s.cost as i128 + s.saving as i128 * (budget - self.cum_cost[j]) as i128,
                s.cost as i128,
            ),
            None => (whole, 1),
        }
    }

    /// What the fractional fill within `budget` spends on the first of these types.
    fn first_spend(&self, budget: i64) -> i64 {
        let j = self.whole(budget);
        let mut x = self.first_cum[j];
        // The piece filled in part (cost > 0) is the first type's when it adds to first_cum.
        if j + 1 < self.first_cum.len() && self.first_cum[j + 1] > self.first_cum[j] {
            x += budget - self.cum_cost[j];
        }
        x
    }

    /// No choice of these types spending at most `budget` cents saves more (cents).
    fn upper(&self, budget: i64) -> i64 {
        let b = if self.step > 0 {
            budget - budget % self.step
        } else {
            budget
        };
        let j = self.whole(b);
        let mut u = self.cum_saving[j];
        if let Some(s) = self.segments.get(j) {
            // cum_cost[j + 1] > b ≥ cum_cost[j], so s.cost > 0.
            u += (s.saving as i128 * (b - self.cum_cost[j]) as i128 / s.cost as i128) as i64;
        }
        u
    }

    /// No choice of these types saving at least `need` cents spends less (cents);
    /// `i64::MAX` when none saves that much.
    fn min_cost(&self, need: i64) -> i64 {
        if need <= 0 {
            return 0;
        }
        // The first j pieces save less than `need`, the first j + 1 at least `need`.
        let j = self.cum_saving.partition_point(|&s| s < need) - 1;
        match self.segments.get(j) {
            None => i64::MAX,
            Some(s) => {
                let more = (need - self.cum_saving[j]) as i128 * s.cost as i128;
                let saving = s.saving as i128;
                self.cum_cost[j] + ((more + saving - 1) / saving) as i64
            }
        }
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// N for every type (those not yet chosen at 0), with the spend and the saving in cents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Choice {
    cost: i64,
    saving: i64,
    n: [u32; MAX_FLEET_TYPES],
}

impl Choice {
    /// The tie rule: more saving, then less fixed spend, then the smaller vector.
    fn better_than(&self, other: &Choice) -> bool {
        (self.saving, Reverse(self.cost), Reverse(self.n))
            > (other.saving, Reverse(other.cost), Reverse(other.n))
    }
}

/// A starting incumbent: take hull pieces steepest first while they fit (a type whose next
/// piece does not fit takes no further piece), then single GPUs of each type while they add
/// saving and fit.
fn greedy(tables: &[Table], all: &[Segment], budget: i64) -> Choice {
    let mut c = Choice {
        cost: 0,
        saving: 0,
        n: [0; MAX_FLEET_TYPES],
    };
    let mut blocked = [false; MAX_FLEET_TYPES];
    for s in all {
        if blocked[s.ty] || c.n[s.ty] != s.from {
            continue;
        }
        if c.cost + s.cost <= budget {
            c.cost += s.cost;
            c.saving += s.saving;
            c.n[s.ty] = s.to;
        } else {
            blocked[s.ty] = true;
        }
    }
    for (i, t) in tables.iter().enumerate() {
        while (c.n[i] as usize) + 1 < t.saving.len() && c.cost + t.price <= budget {
            let n = c.n[i] as usize;
            if t.saving[n + 1] <= t.saving[n] {
                break;
            }
            c.cost += t.price;
            c.saving += t.saving[n + 1] - t.saving[n];
            c.n[i] += 1;
        }
    }
    c
}

/// Depth-first branch and bound over the types in one order.
struct Search<'a> {
    /// The types in branching order; `Table::ty` is the type's index in the order given.
    tables: Vec<&'a Table>,
    /// lead[d]: the types 0..lead[d] (in the order given) are all among the first d + 1
    /// branched on, so at depth d the vector's first lead[d] entries are fixed.
    lead: Vec<usize>,
    /// bounds[d]: the types branched on at depths d.. (bounds[k] is empty).
    bounds: Vec<Bound>,
    budget: i64,
    /// The incumbent: the best complete choice found.
    best: Choice,
    /// Scratch list of (bound, N) per depth.
    kids: Vec<Vec<(i64, u32)>>,
    /// Per depth, the explored prefixes as a staircase: cost → (saving, vector), the
    /// savings strictly rising with the cost.
    seen: Vec<BTreeMap<i64, (i64, [u32; MAX_FLEET_TYPES])>>,
    steps: u64,
    limit: u64,
    /// The largest bound of a subtree left unexplored at the step limit.
    open: Option<i64>,
}

impl<'a> Search<'a> {
    fn new(all: &[Segment], order: Vec<&'a Table>, budget: i64, best: Choice, limit: u64) -> Self {
        let k = order.len();
        let lead = (0..k)
            .map(|d| {
                let mut q = 0;
                while q < k && order[..=d].iter().any(|t| t.ty == q) {
                    q += 1;
                }
                q
            })
            .collect();
        let bounds = (0..=k).map(|d| Bound::new(all, &order[d..])).collect();
        Self {
            tables: order,
            lead,
            bounds,
            budget,
            best,
            kids: vec![Vec::new(); k],
            seen: vec![BTreeMap::new(); k],
            steps: 0,
            limit,
            open: None,
        }
    }

    /// Search from the root; true when every choice was settled (the incumbent is then the
    /// optimum), false when the step limit left subtrees unexplored (bound in `open`).
    fn run(&mut self) -> bool {
        let mut n = [0; MAX_FLEET_TYPES];
        self.go(0, 0, 0, &mut n);
        self.open.is_none()
    }

    /// No completion of the prefix at depth `i` (spend `cost`, saving `saving`, bound `ub`,
    /// vector `n`) can beat the incumbent.
    fn hopeless(&self, i: usize, ub: i64, cost: i64, saving: i64, n: &[u32]) -> bool {
        let b = &self.best;
        if ub != b.saving {
            return ub < b.saving;
        }
        // At best a tie on saving: it must not spend more, nor end as a larger vector.
        let least = cost.saturating_add(self.bounds[i + 1].min_cost(b.saving - saving));
        let q = self.lead[i];
        least > b.cost || least == b.cost && n[..q] > b.n[..q]
    }

    /// An explored prefix at the same depth with no more spend and no less saving (and, at
    /// equal spend and saving, a smaller vector) already settled every completion of this one.
    fn dominated(&self, i: usize, cost: i64, saving: i64, n: &[u32; MAX_FLEET_TYPES]) -> bool {
        match self.seen[i].range(..=cost).next_back() {
            Some((&c, &(s, ref v))) => s > saving || s == saving && (c < cost || *v < *n),
            None => false,
        }
    }

    fn record(&mut self, i: usize, cost: i64, saving: i64, n: &[u32; MAX_FLEET_TYPES]) {
        let seen = &mut self.seen[i];
        let worse: Vec<i64> = seen
            .range(cost..)
            .take_while(|(_, &(s, _))| s <= saving)
            .map(|(&c, _)| c)
            .collect();
        for c in worse {
            seen.remove(&c);
        }
        seen.insert(cost, (saving, *n));
    }

    fn offer(&mut self, c: Choice) {
        if c.better_than(&self.best) {
            self.best = c;
        }
    }

    /// Child N = m of the node at depth `i`: kept in `kids` unless hopeless; false when even
    /// V(m) (see [`Search::go`]) is below the incumbent.
    fn consider(
        &mut self,
        i: usize,
        m: u32,
        cost: i64,
        saving: i64,
        n: &mut [u32; MAX_FLEET_TYPES],
        kids: &mut Vec<(i64, u32)>,
    ) -> bool {
        self.steps += 1;
        let t = self.tables[i];
        let rest = &self.bounds[i + 1];
        let c = cost + t.price * m as i64;
        let left = self.budget - c;
        // saving + V(m) < best ⟺ hn/hd + fn/fd < best − saving (exact; on overflow, go on).
        let (hn, hd) = t.hull_at(m);
        let (f_n, fd) = rest.fill(left);
        let need = (self.best.saving - saving) as i128;
        let below = hn
            .checked_mul(fd)
            .zip(f_n.checked_mul(hd))
            .and_then(|(a, b)| a.checked_add(b))
            .zip(need.checked_mul(hd).and_then(|x| x.checked_mul(fd)))
            .is_some_and(|(v, w)| v < w);
        if below {
            return false;
        }
        let s = saving + t.saving[m as usize];
        let ub = s + rest.upper(left);
        n[t.ty] = m;
        if !self.hopeless(i, ub, c, s, n) {
            kids.push((ub, m));
        }
        n[t.ty] = 0;
        true
    }

    /// Settle every completion of the prefix `n` (the types of depths < i chosen, spending
    /// `cost` and saving `saving`).
    fn go(&mut self, i: usize, cost: i64, saving: i64, n: &mut [u32; MAX_FLEET_TYPES]) {
        let k = self.tables.len();
        let t = self.tables[i];
        let left = self.budget - cost;
        if i + 1 == k {
            // The last type: its best N within what is left, the smallest on a tie.
            let m = t.best_arg_upto[t.max_n(left) as usize];
            n[t.ty] = m;
            let leaf = Choice {
                cost: cost + t.price * m as i64,
                saving: saving + t.saving[m as usize],
                n: *n,
            };
            n[t.ty] = 0;
            self.steps += 1;
            self.offer(leaf);
            return;
        }
        if i + 2 == k {
            // Two types left: every N of this one with the best N of the last.
            let last = self.tables[i + 1];
            let top = t.max_n(left);
            for m in 0..=top {
                let c = cost + t.price * m as i64;
                let l = last.best_arg_upto[last.max_n(self.budget - c) as usize];
                n[t.ty] = m;
                n[last.ty] = l;
                let leaf = Choice {
                    cost: c + last.price * l as i64,
                    saving: saving + t.saving[m as usize] + last.saving[l as usize],
                    n: *n,
                };
                self.offer(leaf);
            }
            n[t.ty] = 0;
            n[last.ty] = 0;
            self.steps += top as u64 + 1;
            return;
        }
        let mut kids = std::mem::take(&mut self.kids[i]);
        kids.clear();
        let top = t.max_n(left);
        if t.price > 0 {
            // V(N) = hull(N) + fill of the later types on what N leaves is concave in N,
            // largest where the fractional fill of this node puts this type, and never
            // below a child's bound: walk down and up from there while V can reach the
            // incumbent.
            let start = (self.bounds[i].first_spend(left) / t.price).min(top as i64) as u32;
            for m in (0..=start).rev() {
                if !self.consider(i, m, cost, saving, n, &mut kids) {
                    break;
                }
            }
            for m in start + 1..=top {
                if !self.consider(i, m, cost, saving, n, &mut kids) {
                    break;
                }
            }
        } else {
            for m in 0..=top {
                self.consider(i, m, cost, saving, n, &mut kids);
            }
        }
        kids.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for &(ub, m) in &kids {
            let c = cost + t.price * m as i64;
            let s = saving + t.saving[m as usize];
            n[t.ty] = m;
            if self.hopeless(i, ub, c, s, n) || self.dominated(i, c, s, n) {
                continue;
            }
            if self.steps > self.limit {
                self.open = Some(self.open.map_or(ub, |o| o.max(ub)));
                continue;
            }
            self.go(i + 1, c, s, n);
            self.record(i, c, s, n);
        }
        n[t.ty] = 0;
        self.kids[i] = kids;
    }
}

/// The search's answer in cents.
struct Outcome {
    best: Choice,
    /// No choice saves more than this (= best.saving when `exact`).
    bound: i64,
    exact: bool,
}

/// The searches of [`search`], in turn: (dearer types first, step limit), a step being one
/// candidate N of one type with its bound; 120 000 steps in all, a few milliseconds.
const SEARCHES: [(bool, u64); 3] = [(false, 20_000), (true, 60_000), (false, 40_000)];

/// Every type's hull pieces, steepest first.
fn all_segments(tables: &[Table]) -> Vec<Segment> {
    let mut all: Vec<Segment> = tables.iter().flat_map(|t| t.hull.iter().copied()).collect();
    all.sort_by(|a, b| a.steeper(b));
    all
}

/// The optimum in cents under the tie rule of [`Choice::better_than`], by branch and bound
/// over the types in two orders, each search starting from the incumbent of the last:
/// * the order given, which settles ties on the vector early;
/// * dearer types first, so the cheap ones, the best at filling what is left, come last,
///   where the search completes them exactly (the better order when many choices save
///   almost the same).
///
/// A search run to its end proves its incumbent optimal. When every search of `searches`
/// ([`SEARCHES`] for the page) stops at its step limit, the best choice found is returned,
/// not proven, with the smallest of their bounds.
fn search(tables: &[Table], budget: i64, searches: &[(bool, u64)]) -> Outcome {
    let all = all_segments(tables);
    let given: Vec<&Table> = tables.iter().collect();
    let mut dearer_first = given.clone();
    dearer_first.sort_by(|a, b| b.price.cmp(&a.price).then(a.ty.cmp(&b.ty)));
    let zero = Choice {
        cost: 0,
        saving: 0,
        n: [0; MAX_FLEET_TYPES],
    };
    let g = greedy(tables, &all, budget);
    let mut best = if g.better_than(&zero) { g } else { zero };
    let mut bound = i64::MAX;
    for &(dearer, limit) in searches {
        let order = if dearer { &dearer_first } else { &given };
        let mut s = Search::new(&all, order.clone(), budget, best, limit);
        let done = s.run();
        best = s.best;
        if done {
            return Outcome {
                best,
                bound: best.saving,
                exact: true,
            };
        }
        bound = bound.min(s.open.unwrap_or(best.saving));
    }
    Outcome {
        best,
        bound: bound.max(best.saving),
        exact: false,
    }
}

/// Most elementary steps of the exact dynamic programme [`exact_dp`]: one candidate N of one
/// type at one spend, or one spend entering or answering a sliding window. 800 000; the
/// 8-type case with one break-even (`eight_types_with_one_break_even`) takes 0.34 million
/// steps and 0.15 million table entries, about 3 ms natively in release.
const DP_STEPS: u64 = 800_000;

/// Most entries of the dynamic programme's tables (one per type and spend it keeps).
const DP_TABLE: u64 = 400_000;

/// The candidate N of a type in the dynamic programme: 0 and every N that saves more than all
/// smaller N. Any other N loses to a smaller one with at least its saving: strictly less
/// spend or, for a free type, the same spend and a smaller vector.
fn records(t: &Table) -> Vec<u32> {
    let mut r = vec![0u32];
    for n in 1..t.saving.len() {
        if t.saving[n] > t.saving[*r.last().unwrap_or(&0) as usize] {
            r.push(n as u32);
        }
    }
    r
}

/// For each layer t = 0..=k of [`exact_dp`] (the types t.. still to choose), the spends s
/// (in units of g, 0..=top) left to them through which an allocation saving at least `floor`
/// can pass: those with fill(types ..t, (top − s)·g) + fill(types t.., s·g) ≥ floor, the
/// fractional fills of [`Bound`]. That sum is concave in s and largest at the split of the
/// fill of all types, so the spends form an interval, found by bisection on either side. It
/// is evaluated in f64 and compared with floor − 1 cent (the rounding errors are below a
/// millionth of a cent), so no spend that can reach `floor` is left out.
fn dp_windows(tables: &[Table], all: &[Segment], g: i64, top: i64, floor: i64) -> Vec<(i64, i64)> {
    let refs: Vec<&Table> = tables.iter().collect();
    let k = tables.len();
    let value = |(n, d): (i128, i128)| n as f64 / d as f64;
    let mut windows = vec![(top, top)];
    for t in 1..=k {
        let prefix = Bound::new(all, &refs[..t]);
        let suffix = Bound::new(all, &refs[t..]);
        let h = |s: i64| value(prefix.fill((top - s) * g)) + value(suffix.fill(s * g));
        let ok = |s: i64| h(s) >= floor as f64 - 1.0;
        // What the fill of all types within top·g spends on the types t..
        let mut member = [false; MAX_FLEET_TYPES];
        for table in &refs[t..] {
            member[table.ty] = true;
        }
        let (mut rem, mut spent) = (top * g, 0);
        for seg in all {
            let take = seg.cost.min(rem);
            if member[seg.ty] {
                spent += take;
            }
            rem -= take;
            if take < seg.cost {
                break;
            }
        }
        let s0 = (spent / g).min(top);
        let mid = if s0 < top && h(s0 + 1) > h(s0) {
            s0 + 1
        } else {
            s0
        };
        if !ok(mid) {
            windows.push((0, top));
            continue;
        }
        // ok is monotone on 0..=mid (rising) and on mid..=top (falling).
        let (mut a, mut b) = (0, mid);
        while a < b {
            let c = (a + b) / 2;
            if ok(c) {
                b = c;
            } else {
                a = c + 1;
            }
        }
        let lo = a;
        let (mut a, mut b) = (mid, top);
        while a < b {
            let c = (a + b + 1) / 2;
            if ok(c) {
                a = c;
            } else {
                b = c - 1;
            }
        }
        windows.push((lo, a));
    }
    windows
}

/// The optimum in cents under the tie rule of [`Choice::better_than`] by a dynamic programme
/// over the fixed spend, given `floor`, a saving some allocation within the budget reaches;
/// `None` when it would take more than `max_steps` steps or [`DP_TABLE`] table entries.
///
/// Every spend is a multiple of g, the gcd of the types' prices in cents, so the budget is
/// floored to a multiple of g (and capped at what every GPU of every type costs): top units.
/// Over the types from the last to the first, best_t(s) is the best choice of the types t..
/// spending at most s units: its N_t maximises S_t(N_t) + best_{t+1}(s − N_t·P_t/g) by
/// saving, then less spend, then the smaller N_t. With N_t fixed, the saving and spend of the
/// types t.. differ from those of the types t+1.. by constants, so the tie rule on the whole
/// vector is the tie rule on N_t, then on the rest: the same as [`Choice::better_than`].
/// Only the spends of [`dp_windows`] are kept and only the N of [`records`] tried that can
/// reach `floor` with the fill of the other types: the optimum saves at least `floor`, so
/// every spend and every N it passes through is kept, and every value on its way is computed
/// from the values on its way, hence exactly. Runs of consecutive N with one marginal saving
/// (the fully busy levels) are tried at once per spend with a sliding-window maximum.
fn exact_dp(tables: &[Table], budget: i64, floor: i64, max_steps: u64) -> Option<Choice> {
    let k = tables.len();
    let g = tables.iter().fold(0, |g, t| gcd(g, t.price)).max(1);
    let everything: i64 = tables
        .iter()
        .map(|t| t.price * (t.saving.len() as i64 - 1))
        .sum();
    let top = budget.min(everything).max(0) / g;
    let all = all_segments(tables);
    let windows = dp_windows(tables, &all, g, top, floor);
    // The candidate N of each type, less those that cannot reach `floor` even with the
    // fill of all the other types on what they leave.
    let refs: Vec<&Table> = tables.iter().collect();
    let records: Vec<Vec<u32>> = tables
        .iter()
        .map(|t| {
            let others: Vec<&Table> = refs.iter().filter(|o| o.ty != t.ty).copied().collect();
            let rest = Bound::new(&all, &others);
            records(t)
                .into_iter()
                .filter(|&m| {
                    let left = top * g - m as i64 * t.price;
                    let (n, d) = rest.fill(left.max(0));
                    left >= 0
                        && t.saving[m as usize] as f64 + n as f64 / d as f64 >= floor as f64 - 1.0
                })
                .collect()
        })
        .collect();
    // The spends s of layer t that N = m reaches from layer t + 1: s − m·u kept there.
    let span = |t: usize, m: u32| {
        let ((lo, hi), (next_lo, next_hi)) = (windows[t], windows[t + 1]);
        let off = m as i64 * (tables[t].price / g);
        (lo.max(next_lo + off), hi.min(next_hi + off))
    };
    // The candidate N of each type in runs of consecutive N with one marginal saving (for a
    // type with a price): (first index, last index) into its records.
    let runs: Vec<Vec<(usize, usize)>> = tables
        .iter()
        .zip(&records)
        .map(|(t, r)| {
            let mut out: Vec<(usize, usize)> = Vec::new();
            for i in 0..r.len() {
                let extends = out.last().is_some_and(|&(a, b)| {
                    b + 1 == i
                        && r[i] == r[b] + 1
                        && t.price > 0
                        && (a == b
                            || t.saving[r[i] as usize] - t.saving[r[b] as usize]
                                == t.saving[r[a] as usize + 1] - t.saving[r[a] as usize])
                });
                match out.last_mut() {
                    Some(last) if extends => last.1 = i,
                    _ => out.push((i, i)),
                }
            }
            out
        })
        .collect();
    let (mut entries, mut steps) = (0u64, 0u64);
    for t in 0..k {
        let (lo, hi) = windows[t];
        let (next_lo, next_hi) = windows[t + 1];
        entries = entries.saturating_add((hi - lo + 1).max(0) as u64);
        for &(a, b) in &runs[t] {
            let (s_a, _) = span(t, records[t][a]);
            let (_, s_b) = span(t, records[t][b]);
            let mut n = (s_b - s_a + 1).max(0) as u64;
            if a < b {
                // Each spend of the next layer enters the sliding window once.
                n += (next_hi - next_lo + 1).max(0) as u64;
            }
            steps = steps.saturating_add(n);
        }
    }
    if entries > DP_TABLE || steps > max_steps {
        return None;
    }
    // Layer k: nothing left to choose.
    let (k_lo, k_hi) = windows[k];
    let width = (k_hi - k_lo + 1).max(0) as usize;
    let mut saving = vec![0i64; width];
    let mut cost = vec![0i64; width];
    let mut choice: Vec<Vec<u32>> = vec![Vec::new(); k];
    let mut window: std::collections::VecDeque<(i64, i64, i64)> = Default::default();
    for t in (0..k).rev() {
        let table = &tables[t];
        let u = table.price / g;
        let ((lo, hi), (next_lo, next_hi)) = (windows[t], windows[t + 1]);
        let width = (hi - lo + 1).max(0) as usize;
        let mut layer_saving = vec![i64::MIN; width];
        let mut layer_cost = vec![0i64; width];
        let mut pick = vec![0u32; width];
        // N in rising order, replaced only by a strictly better one: the smaller N on a tie.
        for &(ia, ib) in &runs[t] {
            let (a, b) = (records[t][ia], records[t][ib]);
            if ia == ib {
                let (s_a, s_b) = span(t, a);
                let (sm, pm) = (table.saving[a as usize], table.price * a as i64);
                let off = a as i64 * u;
                for s in s_a..=s_b {
                    let j = (s - off - next_lo) as usize;
                    let at = (s - lo) as usize;
                    if saving[j] == i64::MIN {
                        continue;
                    }
                    let (cs, cc) = (sm + saving[j], pm + cost[j]);
                    if cs > layer_saving[at] || cs == layer_saving[at] && cc < layer_cost[at] {
                        layer_saving[at] = cs;
                        layer_cost[at] = cc;
                        pick[at] = a;
                    }
                }
                continue;
            }
            // N = a..=b with S(N) = S(a) + d·(N − a) (u > 0): for the spends s ≡ ρ (mod u),
            // the rest j = s − N·u runs over the same class, and S(N) + best(j) =
            // S(a) + d·(s/u − a) + [best(j) − d·(j/u)], spend P·(s/u) + [cost(j) − P·(j/u)]
            // (integer division, exact within the class): the best N is the j with the
            // largest bracket, then the smallest spend bracket, then the largest j (smaller
            // N), over the sliding range s − b·u ≤ j ≤ s − a·u: a monotone queue.
            let d = table.saving[a as usize + 1] - table.saving[a as usize];
            let p = table.price;
            let key = |j: i64| {
                let at = (j - next_lo) as usize;
                (saving[at] - d * (j / u), p * (j / u) - cost[at])
            };
            let (s_a, _) = span(t, a);
            let (_, s_b) = span(t, b);
            for s0 in s_a..(s_a + u).min(s_b + 1) {
                window.clear();
                // The next rest j to enter: the class's first at or above next_lo.
                let mut jp = s0 - b as i64 * u;
                if jp < next_lo {
                    jp += (next_lo - jp + u - 1) / u * u;
                }
                let mut s = s0;
                while s <= s_b {
                    let top_j = next_hi.min(s - a as i64 * u);
                    while jp <= top_j {
                        if saving[(jp - next_lo) as usize] != i64::MIN {
                            let (k1, k2) = key(jp);
                            while window
                                .back()
                                .is_some_and(|&(b1, b2, _)| (b1, b2) <= (k1, k2))
                            {
                                window.pop_back();
                            }
                            window.push_back((k1, k2, jp));
                        }
                        jp += u;
                    }
                    let low_j = s - b as i64 * u;
                    while window.front().is_some_and(|&(_, _, j)| j < low_j) {
                        window.pop_front();
                    }
                    if let Some(&(_, _, j)) = window.front() {
                        let m = (s - j) / u;
                        let at = (s - lo) as usize;
                        let rest = (j - next_lo) as usize;
                        let cs = table.saving[m as usize] + saving[rest];
                        let cc = p * m + cost[rest];
                        if cs > layer_saving[at] || cs == layer_saving[at] && cc < layer_cost[at] {
                            layer_saving[at] = cs;
                            layer_cost[at] = cc;
                            pick[at] = m as u32;
                        }
                    }
                    s += u;
                }
            }
        }
        saving = layer_saving;
        cost = layer_cost;
        choice[t] = pick;
    }
    // Layer 0 keeps the one spend top.
    if saving.first().is_none_or(|&s| s == i64::MIN) {
        return None;
    }
    let mut n = [0u32; MAX_FLEET_TYPES];
    let mut s = top;
    for (t, table) in tables.iter().enumerate() {
        let m = choice[t][(s - windows[t].0) as usize];
        n[t] = m;
        s -= m as i64 * (table.price / g);
    }
    Some(Choice {
        cost: cost[0],
        saving: saving[0],
        n,
    })
}

/// [`search`], then, when it stops unproven, [`exact_dp`] within `dp_steps` from the best
/// allocation it found.
fn solve(tables: &[Table], budget: i64, searches: &[(bool, u64)], dp_steps: u64) -> Outcome {
    let o = search(tables, budget, searches);
    if o.exact {
        return o;
    }
    match exact_dp(tables, budget, o.best.saving, dp_steps) {
        Some(best) => {
            debug_assert!(!o.best.better_than(&best));
            Outcome {
                best,
                bound: best.saving,
                exact: true,
            }
        }
        None => o,
    }
}

/// § 16: spend the fixed budget F on monthly GPUs of every type, maximising the total
/// saving against all on demand, for 1 to [`MAX_FLEET_TYPES`] types. The optimum is proven
/// (`exact`) unless the search meets its step limit and the dynamic programme that then
/// takes over ([`exact_dp`]) would exceed its limits; `saving_bound` then says how much more
/// any allocation could save at most.
///
/// Errors: no type (`usage-data`, empty), more than [`MAX_FLEET_TYPES`] (`usage-data`, too
/// large: one usage history per type), a negative budget or one above the budget cap
/// (`budget`).
pub fn allocate(types: &[FleetType], fixed_budget: Money) -> Result<FleetAllocation, InputError> {
    if types.is_empty() {
        return Err(InputError::new(Field::UsageHistory, Problem::Empty));
    }
    if types.len() > MAX_FLEET_TYPES {
        return Err(InputError::new(
            Field::UsageHistory,
            Problem::TooLarge {
                max: MAX_FLEET_TYPES as f64,
            },
        ));
    }
    non_negative(Field::Budget, fixed_budget.to_f64(), MAX_BUDGET)?;
    let tables: Vec<Table> = types
        .iter()
        .enumerate()
        .map(|(i, t)| Table::new(i, t))
        .collect();
    let outcome = solve(&tables, fixed_budget.cents(), &SEARCHES, DP_STEPS);
    let best = outcome.best;

    let allocations: Vec<TypeAllocation> = types
        .iter()
        .zip(&tables)
        .zip(best.n)
        .map(|((t, table), n)| {
            let row = &table.rows[n as usize];
            let ns = n_star(t.levels, &t.prices);
            let hours = t.levels.hours();
            TypeAllocation {
                name: t.name.to_string(),
                n_star: ns,
                unconstrained_saving: table.rows[0].total
                    - monthly_cost(t.levels, &t.prices, ns).total,
                committed: n,
                fixed: row.fixed,
                elastic: row.elastic,
                total: row.total,
                saving: table.rows[0].total - row.total,
                fixed_utilization: if n > 0 && hours > 0.0 {
                    (t.levels.covered(n) / (n as f64 * hours)).clamp(0.0, 1.0)
                } else {
                    0.0
                },
            }
        })
        .collect();
    let fixed_spent: Money = allocations.iter().map(|a| a.fixed).sum();
    let unconstrained_fixed: Money = types
        .iter()
        .zip(&allocations)
        .map(|(t, a)| t.prices.monthly_money * a.n_star as u64)
        .sum();
    Ok(FleetAllocation {
        fixed_budget,
        fixed_spent,
        left: fixed_budget - fixed_spent,
        saving: allocations.iter().map(|a| a.saving).sum(),
        unconstrained_fixed,
        unconstrained_saving: allocations.iter().map(|a| a.unconstrained_saving).sum(),
        budget_binds: fixed_budget < unconstrained_fixed,
        all_on_demand: tables.iter().map(|t| t.rows[0].total).sum(),
        exact: outcome.exact,
        saving_bound: Money::from_cents(outcome.bound),
        total: allocations.iter().map(|a| a.total).sum(),
        types: allocations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Hourly values: `hours` hours at `gpus` GPUs busy, for each (hours, gpus) in turn.
    fn history(parts: &[(usize, f64)]) -> LevelProfile {
        let values: Vec<f64> = parts
            .iter()
            .flat_map(|&(hours, gpus)| std::iter::repeat_n(gpus, hours))
            .collect();
        LevelProfile::from_values(&values)
    }

    fn money(units: i64) -> Money {
        Money::from_cents(units * 100)
    }

    fn plain(m: Money) -> String {
        m.to_plain_string()
    }

    /// A type the budget may buy up to its peak of (`most: None`).
    fn open_type<'a>(name: &'a str, levels: &'a LevelProfile, prices: Prices) -> FleetType<'a> {
        FleetType {
            name,
            levels,
            prices,
            most: None,
        }
    }

    /// A100: P = 9 000, r = 25; 200 h at 6 GPUs, 530 h at 4 (T = H = 730):
    /// O = [730, 730, 730, 730, 200, 200].
    fn a100() -> (LevelProfile, Prices) {
        (
            history(&[(200, 6.0), (530, 4.0)]),
            Prices::new(9000.0, 25.0, 730.0).unwrap(),
        )
    }

    /// H100: P = 20 000, r = 50; 300 h at 4 GPUs, 430 h at 3: O = [730, 730, 730, 300].
    fn h100() -> (LevelProfile, Prices) {
        (
            history(&[(300, 4.0), (430, 3.0)]),
            Prices::new(20000.0, 50.0, 730.0).unwrap(),
        )
    }

    /// Every vector N in 0..=⌈peak⌉ per type, in lexicographic order; the first with the most
    /// saving and then the least spend wins (so ties go to the smaller vector).
    fn brute_force(types: &[FleetType], budget: Money) -> (Money, Money, Vec<u32>) {
        let caps: Vec<u32> = types
            .iter()
            .map(|t| {
                t.most
                    .map_or(t.levels.levels(), |m| m.min(t.levels.levels()))
            })
            .collect();
        let saving = |i: usize, n: u32| {
            monthly_cost(types[i].levels, &types[i].prices, 0).total
                - monthly_cost(types[i].levels, &types[i].prices, n).total
        };
        let mut n = vec![0u32; types.len()];
        let mut best: Option<(Money, Money, Vec<u32>)> = None;
        loop {
            let cost: Money = (0..n.len())
                .map(|i| types[i].prices.monthly_money * n[i] as u64)
                .sum();
            if cost <= budget {
                let s: Money = (0..n.len()).map(|i| saving(i, n[i])).sum();
                let better = match &best {
                    None => true,
                    Some((bs, bc, _)) => s > *bs || s == *bs && cost < *bc,
                };
                if better {
                    best = Some((s, cost, n.clone()));
                }
            }
            // Next vector in lexicographic order (the last type counts fastest).
            let mut i = n.len();
            loop {
                if i == 0 {
                    return best.expect("the zero vector always fits");
                }
                i -= 1;
                if n[i] < caps[i] {
                    n[i] += 1;
                    break;
                }
                n[i] = 0;
            }
        }
    }

    fn committed(a: &FleetAllocation) -> Vec<u32> {
        a.types.iter().map(|t| t.committed).collect()
    }

    /// Identities every allocation satisfies.
    fn check_sums(a: &FleetAllocation) {
        assert!(a.fixed_spent <= a.fixed_budget);
        assert_eq!(a.fixed_spent + a.left, a.fixed_budget);
        assert_eq!(a.total + a.saving, a.all_on_demand);
        for t in &a.types {
            assert_eq!(t.fixed + t.elastic, t.total);
        }
        assert_eq!(a.types.iter().map(|t| t.total).sum::<Money>(), a.total);
        assert_eq!(a.budget_binds, a.fixed_budget < a.unconstrained_fixed);
        assert!(a.saving <= a.saving_bound);
        if a.exact {
            assert_eq!(a.saving, a.saving_bound);
        }
    }

    #[test]
    fn two_types_budget_binds_and_greedy_is_not_optimal() {
        // A100: H/T = 1, H* = 360 h. Each of levels 1–4 saves 25·730 − 9 000 = 9 250,
        // levels 5–6 cost 9 000 − 25·200 = 4 000 more than on demand → N* = 4.
        //   M(0) = 25·3 320 = 83 000; S = 0, 9 250, 18 500, 27 750, 37 000, 33 000, 29 000.
        // H100: H* = 400 h. Levels 1–3 save 50·730 − 20 000 = 16 500, level 4 costs
        //   20 000 − 50·300 = 5 000 more → N* = 3.
        //   M(0) = 50·2 490 = 124 500; S = 0, 16 500, 33 000, 49 500, 44 500.
        // Unconstrained: 4·9 000 + 3·20 000 = 96 000 fixed, saving 37 000 + 49 500 = 86 500.
        // F = 60 % of 90 000 = 54 000 < 96 000: the budget binds.
        //   H100 = 0: A100 ≤ 6 fit, best 4 → 37 000 (36 000 spent)
        //   H100 = 1: A100 ≤ 3 fit (47 000)  → 16 500 + 27 750 = 44 250  ← optimum
        //   H100 = 2: A100 ≤ 1 fit (49 000)  → 33 000 + 9 250 = 42 250
        //   H100 = 3: 60 000 > 54 000.
        // Greedy by saving per money takes the A100 levels first (9 250/9 000 = 1.028 against
        // 16 500/20 000 = 0.825): 4 A100 spend 36 000, the 18 000 left buy no H100 →
        // 37 000, 7 250 less than the optimum, which gives up one A100 (−9 250) to afford one
        // H100 (+16 500).
        let (la, pa) = a100();
        let (lh, ph) = h100();
        let types = [open_type("A100", &la, pa), open_type("H100", &lh, ph)];
        let a = allocate(&types, money(54_000)).unwrap();
        check_sums(&a);
        assert!(a.exact);
        assert_eq!(committed(&a), vec![3, 1]);
        let [ta, th] = [&a.types[0], &a.types[1]];
        assert_eq!((ta.name.as_str(), th.name.as_str()), ("A100", "H100"));
        assert_eq!((ta.n_star, th.n_star), (4, 3));
        // Each type's fixed, elastic, total, saving and unconstrained saving.
        let sums = |t: &TypeAllocation| {
            [
                t.fixed,
                t.elastic,
                t.total,
                t.saving,
                t.unconstrained_saving,
            ]
            .map(plain)
        };
        // A100 at 3: 27 000 + 25·(730 + 200 + 200) = 27 000 + 28 250 = 55 250.
        assert_eq!(
            sums(ta),
            ["27000.00", "28250.00", "55250.00", "27750.00", "37000.00"]
        );
        assert_eq!(ta.fixed_utilization, 1.0);
        // H100 at 1: 20 000 + 50·(730 + 730 + 300) = 20 000 + 88 000 = 108 000.
        assert_eq!(
            sums(th),
            ["20000.00", "88000.00", "108000.00", "16500.00", "49500.00"]
        );
        assert_eq!(plain(a.fixed_spent), "47000.00");
        assert_eq!(plain(a.left), "7000.00");
        assert_eq!(plain(a.saving), "44250.00");
        assert_eq!(plain(a.total), "163250.00");
        assert_eq!(plain(a.all_on_demand), "207500.00");
        assert_eq!(plain(a.unconstrained_fixed), "96000.00");
        assert_eq!(plain(a.unconstrained_saving), "86500.00");
        assert!(a.budget_binds);
        // The greedy fill of the search's start is the 37 000 above; the search beats it.
        let tables: Vec<Table> = types
            .iter()
            .enumerate()
            .map(|(i, t)| Table::new(i, t))
            .collect();
        let g = greedy(&tables, &all_segments(&tables), 5_400_000);
        assert_eq!(
            (g.n[..2].to_vec(), g.saving, g.cost),
            (vec![4, 0], 3_700_000, 3_600_000)
        );
        assert_eq!(brute_force(&types, money(54_000)).2, vec![3, 1]);
        // Enough for both optima: N*; more changes nothing.
        for f in [96_000, 1_000_000] {
            let a = allocate(&types, money(f)).unwrap();
            check_sums(&a);
            assert_eq!(committed(&a), vec![4, 3]);
            assert_eq!(plain(a.saving), "86500.00");
            assert!(!a.budget_binds);
        }
        // 1 cent short of 96 000: 4 A100 + 2 H100 (76 000) save 37 000 + 33 000 = 70 000,
        // 3 A100 + 3 H100 (87 000) save 27 750 + 49 500 = 77 250 → the latter.
        let a = allocate(&types, Money::from_cents(9_599_999)).unwrap();
        assert_eq!(committed(&a), vec![3, 3]);
        assert_eq!(plain(a.saving), "77250.00");
    }

    #[test]
    fn zero_budget_commits_nothing() {
        let (la, pa) = a100();
        let (lh, ph) = h100();
        let types = [open_type("A100", &la, pa), open_type("H100", &lh, ph)];
        let a = allocate(&types, Money::ZERO).unwrap();
        check_sums(&a);
        assert_eq!(committed(&a), vec![0, 0]);
        assert_eq!(a.saving, Money::ZERO);
        assert_eq!(a.left, Money::ZERO);
        assert_eq!(plain(a.total), "207500.00");
        assert_eq!(a.types[0].fixed_utilization, 0.0);
        // 8 999.99 buys no A100 either.
        let a = allocate(&types, Money::from_cents(899_999)).unwrap();
        assert_eq!(committed(&a), vec![0, 0]);
    }

    #[test]
    fn one_type_takes_its_best_n_within_the_budget() {
        let (la, pa) = a100();
        let types = [open_type("A100", &la, pa)];
        // S = 0, 9 250, 18 500, 27 750, 37 000, 33 000, 29 000 (N = 0..=6).
        for (f, n, s) in [
            (8_999, 0, "0.00"),
            (9_000, 1, "9250.00"),
            (30_000, 3, "27750.00"),
            (36_000, 4, "37000.00"),
            (54_000, 4, "37000.00"),
            (1_000_000, 4, "37000.00"),
        ] {
            let a = allocate(&types, money(f)).unwrap();
            check_sums(&a);
            assert_eq!(committed(&a), vec![n], "F = {f}");
            assert_eq!(plain(a.saving), s);
            assert_eq!(a.budget_binds, f < 36_000);
        }
    }

    #[test]
    fn ties_go_to_less_spend_then_the_smaller_vector() {
        // Two identical types, money for one GPU: (0, 1) and (1, 0) save the same and spend
        // the same; (0, 1) is the smaller vector.
        let (la, pa) = a100();
        let same = [open_type("first", &la, pa), open_type("second", &la, pa)];
        let a = allocate(&same, money(9_000)).unwrap();
        assert_eq!(committed(&a), vec![0, 1]);
        assert_eq!(
            allocate(&same, money(27_000)).unwrap().types[0].committed,
            0
        );
        assert_eq!(
            committed(&allocate(&same, money(27_000)).unwrap()),
            vec![0, 3]
        );
        assert_eq!(
            committed(&allocate(&same, money(45_000)).unwrap()),
            vec![1, 4]
        );
        // A level busy exactly H* = 360 h saves nothing: committing it only spends more.
        let tie = history(&[(360, 1.0), (370, 0.0)]);
        let types = [open_type("tie", &tie, pa)];
        let a = allocate(&types, money(9_000)).unwrap();
        assert_eq!(committed(&a), vec![0]);
        assert_eq!(a.left, money(9_000));
    }

    #[test]
    fn errors_name_the_field() {
        let (la, pa) = a100();
        let t = open_type("A100", &la, pa);
        let e = allocate(&[], money(1)).unwrap_err();
        assert_eq!((e.field, e.problem), (Field::UsageHistory, Problem::Empty));
        assert!(allocate(&[t; MAX_FLEET_TYPES], money(1)).is_ok());
        let e = allocate(&[t; MAX_FLEET_TYPES + 1], money(1)).unwrap_err();
        assert_eq!(
            (e.field, e.problem),
            (Field::UsageHistory, Problem::TooLarge { max: 8.0 })
        );
        let e = allocate(&[t], Money::from_cents(-1)).unwrap_err();
        assert_eq!(
            (e.field, e.problem),
            (Field::Budget, Problem::MustBeNonNegative)
        );
        let over = Money::from_f64(MAX_BUDGET) + Money::from_cents(1);
        assert_eq!(allocate(&[t], over).unwrap_err().field, Field::Budget);
    }

    #[test]
    fn free_gpus_are_bounded_by_the_peak() {
        // P rounds to 0.00: every N costs nothing, the best N is the saving's maximum.
        let lv = history(&[(10, 3.0), (10, 1.0)]);
        let prices = Prices::new(0.001, 1.0, 730.0).unwrap();
        let types = [open_type("free", &lv, prices)];
        let a = allocate(&types, Money::ZERO).unwrap();
        check_sums(&a);
        assert_eq!(committed(&a), vec![3]);
        assert_eq!(a.fixed_spent, Money::ZERO);
    }

    /// 8 types with peaks of about 200 GPUs: a month of hourly data each (a daily wave, a
    /// weekend dip and noise).
    fn eight_profiles() -> Vec<LevelProfile> {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut noise = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..MAX_FLEET_TYPES)
            .map(|i| {
                let base = 80.0 + 10.0 * i as f64;
                let values: Vec<f64> = (0..720)
                    .map(|h| {
                        let day = (std::f64::consts::TAU * (h % 24) as f64 / 24.0).sin();
                        let weekend = if (h / 24) % 7 >= 5 { -30.0 } else { 0.0 };
                        (base + 60.0 * day.max(0.0) + weekend + 40.0 * noise()).clamp(0.0, 200.0)
                    })
                    .collect();
                LevelProfile::from_values(&values)
            })
            .collect()
    }

    const EIGHT: [&str; MAX_FLEET_TYPES] = [
        "A100", "H100", "H200", "L40S", "4090", "A10", "V100", "MI300",
    ];

    /// The eight types on their profiles, type `i` at the prices `prices(i)`.
    fn eight_types(
        profiles: &[LevelProfile],
        prices: impl Fn(f64) -> Prices,
    ) -> Vec<FleetType<'_>> {
        profiles
            .iter()
            .enumerate()
            .map(|(i, lv)| open_type(EIGHT[i], lv, prices(i as f64)))
            .collect()
    }

    /// The fleet under 60 % of what the types' own optima would spend.
    fn at_sixty_percent(types: &[FleetType]) -> FleetAllocation {
        let unconstrained = allocate(types, Money::from_f64(MAX_BUDGET)).unwrap();
        check_sums(&unconstrained);
        assert!(unconstrained.exact);
        let f = Money::from_f64(unconstrained.unconstrained_fixed.to_f64() * 0.6);
        let a = allocate(types, f).unwrap();
        check_sums(&a);
        assert!(a.budget_binds);
        assert!(a.saving < unconstrained.saving);
        a
    }

    /// Prices with cents and a break-even of its own per type.
    #[test]
    fn eight_types_of_two_hundred_gpus() {
        let profiles = eight_profiles();
        let types = eight_types(&profiles, |i| {
            let p = 2_345.67 + 1_789.13 * i;
            let r = p / (380.0 + 37.0 * i);
            Prices::new(p, r, 730.0).unwrap()
        });
        let a = at_sixty_percent(&types);
        assert!(a.exact);
        assert!(a.types.iter().all(|t| t.committed <= t.n_star));
    }

    /// Every monthly price 438 × the hourly one (60 % of 730 h): the busy levels of every
    /// type save the same per money, up to the cent, and a great many choices tie to
    /// within cents. The search may stop at its limit; the bound still holds.
    #[test]
    fn eight_types_with_one_break_even() {
        let profiles = eight_profiles();
        let types = eight_types(&profiles, |i| {
            let r = 1.29 + 0.73 * i;
            Prices::new((438.0 * r * 100.0).round() / 100.0, r, 730.0).unwrap()
        });
        let start = std::time::Instant::now();
        let a = at_sixty_percent(&types);
        eprintln!(
            "eight_types_with_one_break_even: two allocations in {:?}",
            start.elapsed()
        );
        let start = std::time::Instant::now();
        assert_eq!(allocate(&types, a.fixed_budget).unwrap(), a);
        eprintln!(
            "eight_types_with_one_break_even: the allocation at 60 % in {:?}",
            start.elapsed()
        );
        assert!(a.saving > Money::ZERO);
        // The search stops unproven; the dynamic programme over the spend settles it.
        assert!(a.exact);
        assert_eq!(a.saving, a.saving_bound);
        let tables: Vec<Table> = types
            .iter()
            .enumerate()
            .map(|(i, t)| Table::new(i, t))
            .collect();
        let f = a.fixed_budget.cents();
        let o = search(&tables, f, &SEARCHES);
        assert!(!o.exact);
        let start = std::time::Instant::now();
        let dp = exact_dp(&tables, f, o.best.saving, DP_STEPS).expect("within the DP's limits");
        eprintln!(
            "eight_types_with_one_break_even: exact_dp alone in {:?}",
            start.elapsed()
        );
        assert_eq!(dp.n[..MAX_FLEET_TYPES].to_vec(), committed(&a));
        assert_eq!(dp.saving, a.saving.cents());
    }

    /// Types with one break-even (P = 438·r, the same H), peaks of 6 or less: the dynamic
    /// programme alone (the search stopped after one step) finds the brute-force optimum,
    /// ties included.
    fn one_break_even(spec: &[(Vec<f64>, i64)], h: f64) -> (Vec<LevelProfile>, Vec<Prices>) {
        let profiles = spec
            .iter()
            .map(|(v, _)| LevelProfile::from_values(v))
            .collect();
        let prices = spec
            .iter()
            .map(|&(_, r)| Prices::new(438.0 * r as f64 / 100.0, r as f64 / 100.0, h).unwrap())
            .collect();
        (profiles, prices)
    }

    fn check_dp_against_brute_force(types: &[FleetType], budget: Money) {
        let tables: Vec<Table> = types
            .iter()
            .enumerate()
            .map(|(i, t)| Table::new(i, t))
            .collect();
        let o = solve(&tables, budget.cents(), &[(false, 1)], u64::MAX);
        assert!(o.exact);
        assert_eq!(o.bound, o.best.saving);
        let (saving, spent, n) = brute_force(types, budget);
        assert_eq!(o.best.saving, saving.cents());
        assert_eq!(o.best.cost, spent.cents());
        assert_eq!(o.best.n[..n.len()].to_vec(), n);
        assert!(o.best.n[n.len()..].iter().all(|&m| m == 0));
    }

    #[test]
    fn dp_matches_brute_force_with_one_break_even() {
        // Four types, each level busy all the time or never (every busy level saves 2/3
        // of its price), and two identical types: ties everywhere.
        let spec = [
            (vec![4.0; 10], 129),
            (vec![6.0; 10], 202),
            (vec![3.0; 10], 129),
            (
                [6.0, 5.0, 5.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0].to_vec(),
                275,
            ),
        ];
        let (profiles, prices) = one_break_even(&spec, 730.0);
        let types: Vec<FleetType> = profiles
            .iter()
            .zip(&prices)
            .map(|(lv, &p)| open_type("t", lv, p))
            .collect();
        for f in [0, 565, 1_000, 2_500, 4_321, 5_000, 7_777, 10_000, 20_000] {
            check_dp_against_brute_force(&types, money(f));
            check_dp_against_brute_force(&types[..3], money(f));
        }
    }

    fn fleet() -> impl Strategy<Value = Vec<(Vec<f64>, f64, f64, f64)>> {
        let values = proptest::collection::vec(
            prop_oneof![Just(0.0), 0.0f64..6.0, (0u32..=6).prop_map(f64::from)],
            1..60,
        );
        let h = prop_oneof![Just(720.0), Just(730.0), Just(744.0)];
        proptest::collection::vec((values, 1.0f64..50_000.0, 0.01f64..200.0, h), 1..=4)
    }

    fn one_break_even_fleet() -> impl Strategy<Value = (Vec<(Vec<f64>, i64)>, f64)> {
        let values = proptest::collection::vec(
            prop_oneof![Just(0.0), 0.0f64..6.0, (0u32..=6).prop_map(f64::from)],
            1..40,
        );
        let h = prop_oneof![Just(720.0), Just(730.0), Just(744.0)];
        (proptest::collection::vec((values, 1i64..=2_000), 1..=4), h)
    }

    proptest! {
        #![proptest_config(proptest::test_runner::Config { failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("tests/regressions/fleet.txt"))), ..proptest::test_runner::Config::default() })]
        /// One break-even for every type (P = 438·r in cents, the same H): the dynamic
        /// programme, run after a search stopped at once, matches every vector N.
        #[test]
        fn dp_matches_brute_force_with_one_break_even_random(
            (spec, h) in one_break_even_fleet(),
            share in 0.0f64..1.2,
        ) {
            let (profiles, prices) = one_break_even(&spec, h);
            let types: Vec<FleetType> = profiles
                .iter()
                .zip(&prices)
                .map(|(lv, &p)| open_type("t", lv, p))
                .collect();
            let everything: Money = types
                .iter()
                .map(|t| t.prices.monthly_money * t.levels.levels() as u64)
                .sum();
            check_dp_against_brute_force(&types, Money::from_f64(everything.to_f64() * share));
        }
    }

    proptest! {
        #![proptest_config(proptest::test_runner::Config { failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("tests/regressions/fleet.txt"))), ..proptest::test_runner::Config::default() })]
        /// Against every vector N: the same saving, the same vector (tie rule), the budget
        /// respected; with money for everything, each type's own optimum.
        #[test]
        fn matches_brute_force(spec in fleet(), share in 0.0f64..1.2) {
            const NAMES: [&str; 4] = ["A", "B", "C", "D"];
            let profiles: Vec<LevelProfile> =
                spec.iter().map(|(v, ..)| LevelProfile::from_values(v)).collect();
            let types: Vec<FleetType> = spec
                .iter()
                .zip(&profiles)
                .enumerate()
                .map(|(i, ((_, p, r, h), lv))| open_type(NAMES[i], lv, Prices::new(*p, *r, *h).unwrap()))
                .collect();
            let everything: Money = types
                .iter()
                .map(|t| t.prices.monthly_money * t.levels.levels() as u64)
                .sum();
            let budget = Money::from_f64(everything.to_f64() * share);
            let a = allocate(&types, budget).unwrap();
            check_sums(&a);
            let (saving, spent, n) = brute_force(&types, budget);
            prop_assert_eq!(a.saving, saving);
            prop_assert_eq!(a.fixed_spent, spent);
            prop_assert_eq!(committed(&a), n.clone());

            // Searches stopped after a handful of steps: the best found never beats the
            // optimum, the bound never falls below it, and a finished search is exact.
            let tables: Vec<Table> = types.iter().enumerate().map(|(i, t)| Table::new(i, t)).collect();
            let o = search(&tables, budget.cents(), &[(false, 3), (true, 4), (false, 2)]);
            prop_assert!(o.best.cost <= budget.cents());
            prop_assert!(o.best.saving <= saving.cents() && saving.cents() <= o.bound);
            if o.exact {
                prop_assert_eq!(o.best.n[..n.len()].to_vec(), n.clone());
                prop_assert_eq!(o.bound, saving.cents());
            }

            // The dynamic programme alone, when within its limits: the same optimum.
            if let Some(dp) = exact_dp(&tables, budget.cents(), 0, DP_STEPS) {
                prop_assert_eq!(dp.saving, saving.cents());
                prop_assert_eq!(dp.cost, spent.cents());
                prop_assert_eq!(dp.n[..n.len()].to_vec(), n.clone());
            }

            // Money for every GPU of every type: each type alone at its best.
            let a = allocate(&types, everything).unwrap();
            check_sums(&a);
            prop_assert!(!a.budget_binds);
            for (t, ta) in types.iter().zip(&a.types) {
                let s = |n: u32| monthly_cost(t.levels, &t.prices, 0).total
                    - monthly_cost(t.levels, &t.prices, n).total;
                // The smallest N with the largest saving.
                let own = (0..=t.levels.levels()).rev().max_by_key(|&n| s(n)).unwrap();
                prop_assert_eq!(ta.committed, own);
                // That is N* unless a level's monthly value r·O(k)·H/T is within 2 cents
                // of P (three roundings to the cent can then tip the comparison): even so
                // the saving differs from S(N*) by at most 1 cent.
                let scale = t.prices.hours_per_month / t.levels.hours();
                let near_tie = t.levels.occupancy().iter().any(|&o| {
                    (t.prices.on_demand * o * scale - t.prices.monthly).abs() <= 0.02
                });
                if !near_tie {
                    prop_assert_eq!(ta.committed, ta.n_star);
                }
                prop_assert!((ta.saving - ta.unconstrained_saving).cents().abs() <= 1);
            }
        }
    }
}

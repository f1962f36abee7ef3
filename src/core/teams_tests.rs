//! § 21 tests: the formulas doc's three-team example to the cent, and the Shapley
//! properties (efficiency, symmetry, null team, brute force over orders).

use super::*;
use crate::core::plan::{BaselineRule, PlanInputs};
use crate::core::profile::Lookback;

/// The formulas doc's example: 4 hours, teams A, B, C.
const A: [f64; 4] = [1.0, 1.0, 2.0, 0.0];
const B: [f64; 4] = [0.0, 1.0, 1.0, 1.0];
const C: [f64; 4] = [0.0, 0.0, 1.0, 3.0];

/// P = 12 000, r = 25, H = 730, s = 8 with no reclaims (s_eff = 8), f = 50 %, the whole
/// history (T = 4), the default rule (N* here).
fn example_inputs() -> PlanInputs {
    PlanInputs {
        monthly_price: 12_000.0,
        on_demand_price: 25.0,
        hours_per_month: 730.0,
        spot_price: 8.0,
        interruption_rate: 0.0,
        interruptible_percent: 50.0,
        lookback: Lookback::All,
        ..PlanInputs::default()
    }
}

fn teams() -> Vec<TeamUsage<'static>> {
    abc(&A, &B, &C)
}

/// Teams A, B and C with these hours.
fn abc<'a>(a: &'a [f64], b: &'a [f64], c: &'a [f64]) -> Vec<TeamUsage<'a>> {
    [("A", a), ("B", b), ("C", c)]
        .map(|(name, values)| TeamUsage { name, values })
        .to_vec()
}

fn example_pools() -> PlanPools {
    let series = UsageSeries::from_values(vec![1.0, 2.0, 4.0, 4.0]);
    let inputs = example_inputs();
    let prof = profile(&series, &inputs.profile_settings()).unwrap();
    let out = plan_with_history(&inputs, Some(&prof));
    let pools = out.pools.unwrap();
    let baseline = out.baseline.unwrap();
    assert_eq!(baseline.gpus, 2, "N* of U = [1, 2, 4, 4]");
    PlanPools {
        gpus: baseline.gpus,
        monthly_price: 12_000.0,
        reserved: pools.reserved,
        on_demand: pools.on_demand,
        spot: pools.spot,
    }
}

fn cents(m: &[Money]) -> Vec<String> {
    m.iter().map(|x| x.to_plain_string()).collect()
}

fn table(split: IdleSplit) -> TeamTable {
    let inputs = TeamTableInputs {
        split,
        fixed: vec![("A".into(), 50.0), ("B".into(), 30.0), ("C".into(), 20.0)],
        window_start: 0,
    };
    team_table(&teams(), &example_pools(), &inputs).unwrap()
}

#[test]
fn example_pools_are_the_plans() {
    let p = example_pools();
    assert_eq!(p.reserved.to_plain_string(), "24000.00");
    assert_eq!(p.spot.to_plain_string(), "2920.00");
    assert_eq!(p.on_demand.to_plain_string(), "9125.00");
    assert_eq!(p.total().to_plain_string(), "36045.00");
}

#[test]
fn example_usage_figures() {
    let t = table(IdleSplit::Proportional);
    assert_eq!((t.hours, t.trough_hours, t.peak_hours), (4, 2, 1));
    let r = &t.rows;
    let gh: Vec<f64> = r.iter().map(|x| x.gpu_hours).collect();
    assert_eq!(gh, vec![4.0, 3.0, 4.0]);
    assert!((r[0].share - 4.0 / 11.0).abs() < 1e-12);
    assert!((r[1].share - 3.0 / 11.0).abs() < 1e-12);
    let q: Vec<(f64, f64, f64)> = r.iter().map(|x| (x.p50, x.p95, x.peak)).collect();
    assert_eq!(q, vec![(1.0, 2.0, 2.0), (1.0, 1.0, 1.0), (0.0, 3.0, 3.0)]);
    // Trough hours t0, t1 (U ≤ 2): A 2, B 1, C 0 of 3.
    assert!((r[0].trough_share - 2.0 / 3.0).abs() < 1e-12);
    assert!((r[1].trough_share - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(r[2].trough_share, 0.0);
    // Peak hour t2 (U = 4, the earlier of the two): A 2, B 1, C 1 of 4.
    let p: Vec<f64> = r.iter().map(|x| x.peak_share).collect();
    assert_eq!(p, vec![0.5, 0.25, 0.25]);
    let b: Vec<f64> = r.iter().map(|x| x.baseline_hours).collect();
    assert_eq!(b, vec![3.0, 2.0, 2.0]);
}

#[test]
fn example_money_proportional() {
    let t = table(IdleSplit::Proportional);
    assert_eq!(t.committed_used.to_plain_string(), "21000.00");
    assert_eq!(t.committed_idle.to_plain_string(), "3000.00");
    let col = |f: fn(&TeamRow) -> Money| cents(&t.rows.iter().map(f).collect::<Vec<_>>());
    assert_eq!(col(|r| r.committed), ["9000.00", "6000.00", "6000.00"]);
    assert_eq!(col(|r| r.idle), ["1285.72", "857.14", "857.14"]);
    assert_eq!(col(|r| r.spot), ["730.00", "730.00", "1460.00"]);
    assert_eq!(col(|r| r.on_demand), ["2281.25", "2281.25", "4562.50"]);
    assert_eq!(col(|r| r.elastic()), ["3011.25", "3011.25", "6022.50"]);
    assert_eq!(col(|r| r.total), ["13296.97", "9868.39", "12879.64"]);
    assert_eq!(t.total.to_plain_string(), "36045.00");
    assert_eq!(t.idle_row, Money::ZERO);
}

#[test]
fn example_money_other_idle_splits() {
    let idle = |s| cents(&table(s).rows.iter().map(|r| r.idle).collect::<Vec<_>>());
    let total = |s| cents(&table(s).rows.iter().map(|r| r.total).collect::<Vec<_>>());
    assert_eq!(idle(IdleSplit::Even), ["1000.00", "1000.00", "1000.00"]);
    assert_eq!(total(IdleSplit::Even), ["13011.25", "10011.25", "13022.50"]);
    assert_eq!(idle(IdleSplit::Fixed), ["1500.00", "900.00", "600.00"]);
    assert_eq!(total(IdleSplit::Fixed), ["13511.25", "9911.25", "12622.50"]);
    let row = table(IdleSplit::Row);
    assert_eq!(idle(IdleSplit::Row), ["0.00", "0.00", "0.00"]);
    assert_eq!(row.idle_row.to_plain_string(), "3000.00");
    assert_eq!(total(IdleSplit::Row), ["12011.25", "9011.25", "12022.50"]);
    for s in IdleSplit::ALL {
        assert_eq!(table(s).total.to_plain_string(), "36045.00", "{s:?}");
    }
}

#[test]
fn fixed_shares_must_add_up() {
    let bad = TeamTableInputs {
        split: IdleSplit::Fixed,
        fixed: vec![("A".into(), 50.0), ("B".into(), 30.0)],
        window_start: 0,
    };
    let e = team_table(&teams(), &example_pools(), &bad).unwrap_err();
    assert_eq!(e.field, Field::TeamShares);
    assert_eq!(
        e.problem,
        Problem::SharesDoNotSumTo100 { sum_percent: 80.0 }
    );
    let neg = TeamTableInputs {
        fixed: vec![("A".into(), 150.0), ("B".into(), -50.0)],
        ..bad.clone()
    };
    assert_eq!(
        team_table(&teams(), &example_pools(), &neg)
            .unwrap_err()
            .problem,
        Problem::MustBeNonNegative
    );
    // A name that is no team's still counts toward 100; its share goes nowhere but the
    // parts still add up to the idle cost (shared by the named teams' weights).
    let other = TeamTableInputs {
        fixed: vec![("A".into(), 50.0), ("Z".into(), 50.0)],
        ..bad
    };
    let t = team_table(&teams(), &example_pools(), &other).unwrap();
    assert_eq!(t.rows[0].idle.to_plain_string(), "3000.00");
    assert_eq!(t.total.to_plain_string(), "36045.00");
}

#[test]
fn example_standalone_and_shapley() {
    let inputs = example_inputs();
    let template = UsageSeries::from_values(vec![0.0; 4]);
    let values: Vec<&[f64]> = vec![&A, &B, &C];
    let s = shapley(&values, |v| plan_cost(&inputs, &template, v)).unwrap();
    assert!(s.exact);
    assert_eq!(s.plans, 7);
    assert_eq!(cents(&s.standalone), ["15011.25", "12000.00", "12045.00"]);
    assert_eq!(s.grand.to_plain_string(), "36045.00");
    assert_eq!(cents(&s.values), ["12509.38", "11003.75", "12531.87"]);
    assert_eq!(s.raw_cents, vec![1_250_937.5, 1_100_375.0, 1_253_187.5]);
    let saving: Vec<Money> = (0..3).map(|i| s.saving(i)).collect();
    assert_eq!(cents(&saving), ["2501.87", "996.25", "-486.87"]);
    // v(all) is the plan's own total.
    assert_eq!(s.grand, example_pools().total());
}

/// A cost game from a table of v(mask) (cents), for the properties.
fn game(n: usize, seed: u64) -> Vec<i64> {
    let mut rng = Rng(seed | 1);
    let mut v = vec![0i64; 1 << n];
    for (mask, x) in v.iter_mut().enumerate().skip(1) {
        *x = (rng.next() % 1_000_000) as i64 + 1000 * mask.count_ones() as i64;
    }
    v
}

/// Team i's hours: one hour, the i-th (the unit vector e_i), for a game given as a table.
fn unit_rows(n: usize) -> Vec<Vec<f64>> {
    (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect()
}

/// The coalition whose summed unit rows are `vals`, as a bit mask (team i is bit i).
fn coalition(vals: &[f64]) -> usize {
    vals.iter()
        .enumerate()
        .filter(|(_, &x)| x > 0.5)
        .fold(0usize, |m, (i, _)| m | (1 << i))
}

/// Run `shapley` on a game given as a table: team i's "values" are the unit vector e_i
/// (one hour each), so the coalition's values say who is in it.
fn shapley_of_table(v: &[i64], n: usize) -> Shapley {
    let rows = unit_rows(n);
    let refs: Vec<&[f64]> = rows.iter().map(|r| r.as_slice()).collect();
    shapley(&refs, |vals: &[f64]| {
        Ok::<_, ()>(Money::from_cents(v[coalition(vals)]))
    })
    .unwrap()
}

fn brute_force(v: &[i64], n: usize) -> Vec<f64> {
    fn perms(items: &mut Vec<usize>, k: usize, out: &mut Vec<Vec<usize>>) {
        if k == items.len() {
            out.push(items.clone());
            return;
        }
        for i in k..items.len() {
            items.swap(k, i);
            perms(items, k + 1, out);
            items.swap(k, i);
        }
    }
    let mut all = Vec::new();
    perms(&mut (0..n).collect(), 0, &mut all);
    let mut phi = vec![0.0; n];
    for order in &all {
        let mut mask = 0;
        for &i in order {
            phi[i] += (v[mask | 1 << i] - v[mask]) as f64;
            mask |= 1 << i;
        }
    }
    phi.iter().map(|x| x / all.len() as f64).collect()
}

#[test]
fn shapley_equals_brute_force_over_orders() {
    for n in 1..=6 {
        for seed in 1..6u64 {
            let v = game(n, seed * 7919 + n as u64);
            let s = shapley_of_table(&v, n);
            let b = brute_force(&v, n);
            for (i, bi) in b.iter().enumerate() {
                assert!(
                    (s.raw_cents[i] - bi).abs() < 1e-6,
                    "n {n} seed {seed} team {i}"
                );
                assert!((s.values[i].cents() as f64 - bi).abs() <= 1.0);
            }
        }
    }
}

#[test]
fn shapley_efficiency_symmetry_null() {
    for n in 2..=8 {
        let mut v = game(n, 31 + n as u64);
        // Efficiency, to the cent.
        let s = shapley_of_table(&v, n);
        assert_eq!(
            s.values.iter().copied().sum::<Money>().cents(),
            v[(1 << n) - 1]
        );
        // Team 0 null: v(S ∪ 0) = v(S).
        for mask in 0..(1usize << n) {
            if mask & 1 == 1 {
                v[mask] = v[mask & !1];
            }
        }
        let s = shapley_of_table(&v, n);
        assert_eq!(s.raw_cents[0], 0.0);
        assert_eq!(s.values[0], Money::ZERO);
        // Teams 0 and 1 symmetric: v(S ∪ 0) = v(S ∪ 1) for S without both.
        let mut v = game(n, 77 + n as u64);
        for mask in 0..(1usize << n) {
            if mask & 3 == 2 {
                v[mask] = v[(mask & !2) | 1];
            }
        }
        let s = shapley_of_table(&v, n);
        assert!((s.raw_cents[0] - s.raw_cents[1]).abs() < 1e-6);
        assert!((s.values[0].cents() - s.values[1].cents()).abs() <= 1);
    }
}

#[test]
fn ten_teams_exact_eleven_sampled() {
    // A game additive in the teams (v(S) = Σ c_i): every φᵢ = c_i, exact or sampled.
    for n in [10usize, 11, 40] {
        let rows = unit_rows(n);
        let refs: Vec<&[f64]> = rows.iter().map(|r| r.as_slice()).collect();
        let s = shapley(&refs, |vals: &[f64]| {
            Ok::<_, ()>(Money::from_cents(
                vals.iter()
                    .enumerate()
                    .map(|(i, x)| if *x > 0.5 { 100 * (i as i64 + 1) } else { 0 })
                    .sum(),
            ))
        })
        .unwrap();
        assert_eq!(s.exact, n <= MAX_EXACT_SHAPLEY_TEAMS);
        for i in 0..n {
            assert_eq!(s.values[i].cents(), 100 * (i as i64 + 1), "n {n} team {i}");
            assert!(s.std_error[i] < 1e-9);
        }
        if !s.exact {
            assert!(s.plans <= SAMPLED_SHAPLEY_PLANS + 2 * n);
            assert!(s.orders >= 4);
        }
    }
}

#[test]
fn sampled_is_close_and_sums_exactly() {
    // A non-additive game on 12 teams: sampled φ within 4 standard errors of the exact one
    // (computed by the exact method on the same table), and Σ φ = v(all) to the cent.
    let n = 12;
    let v = game(n, 4242);
    let exact = {
        let rows = unit_rows(n);
        let refs: Vec<&[f64]> = rows.iter().map(|r| r.as_slice()).collect();
        let mut cost = |vals: &[f64]| Ok::<_, ()>(Money::from_cents(v[coalition(vals)]));
        // The exact method on 12 teams (a run forced exact), and the sampled one.
        let mut exact_run = ShapleyRun {
            n,
            plans: 0,
            kind: RunKind::Exact {
                v: vec![0; 1 << n],
                next: 1,
            },
        };
        let exact = loop {
            if let Some(s) = exact_run.step(&refs, &mut cost, usize::MAX).unwrap() {
                break s;
            }
        };
        (exact, shapley(&refs, &mut cost).unwrap())
    };
    let (e, s) = exact;
    assert_eq!(s.values.iter().copied().sum::<Money>(), e.grand);
    for i in 0..n {
        let err = (s.raw_cents[i] - e.raw_cents[i]).abs() / 100.0;
        assert!(
            err <= 4.0 * s.std_error[i] + 0.01,
            "team {i}: error {err}, std error {}",
            s.std_error[i]
        );
    }
}

#[test]
fn share_out_adds_up() {
    let parts = share_out(Money::from_cents(100), &[1.0, 1.0, 1.0]);
    assert_eq!(
        parts.iter().map(|m| m.cents()).collect::<Vec<_>>(),
        [34, 33, 33]
    );
    let parts = share_out(Money::from_cents(-100), &[1.0, 1.0, 1.0]);
    assert_eq!(parts.iter().map(|m| m.cents()).sum::<i64>(), -100);
    let parts = share_out(Money::from_cents(7), &[0.0, 0.0]);
    assert_eq!(parts.iter().map(|m| m.cents()).collect::<Vec<_>>(), [4, 3]);
    let parts = share_out(Money::from_cents(5), &[f64::NAN, 2.0, -1.0]);
    assert_eq!(
        parts.iter().map(|m| m.cents()).collect::<Vec<_>>(),
        [0, 5, 0]
    );
    assert!(share_out(Money::from_cents(5), &[]).is_empty());
}

#[test]
fn window_prices_money_only_on_the_lookback() {
    // Hours before the window count for usage figures, not money: prepend 2 hours of A.
    let a: Vec<f64> = [5.0, 5.0].iter().chain(A.iter()).copied().collect();
    let b: Vec<f64> = [0.0, 0.0].iter().chain(B.iter()).copied().collect();
    let c: Vec<f64> = [0.0, 0.0].iter().chain(C.iter()).copied().collect();
    let t = abc(&a, &b, &c);
    let inputs = TeamTableInputs {
        window_start: 2,
        ..TeamTableInputs::default()
    };
    let w = team_table(&t, &example_pools(), &inputs).unwrap();
    let plain = table(IdleSplit::Proportional);
    assert_eq!(w.rows[0].gpu_hours, 14.0);
    assert_eq!(w.window_hours, 4);
    for (x, y) in w.rows.iter().zip(&plain.rows) {
        assert_eq!(x.total, y.total);
    }
    let _ = BaselineRule::Guarded;
}

#[test]
fn fixed_shares_as_typed() {
    assert_eq!(
        parse_fixed("A=50, B: 30%；C：20").unwrap(),
        vec![("A".into(), 50.0), ("B".into(), 30.0), ("C".into(), 20.0)]
    );
    assert_eq!(parse_fixed("  ").unwrap(), vec![]);
    assert_eq!(parse_fixed("a=b=10").unwrap(), vec![("a=b".into(), 10.0)]);
    for bad in ["A", "=5", "A=x", "A=NaN", "A=inf"] {
        let e = parse_fixed(bad).unwrap_err();
        assert_eq!(e.field, Field::TeamShares, "{bad}");
    }
    match parse_fixed("A=1, B").unwrap_err().problem {
        Problem::Other(s) => assert!(s.starts_with("entry 2"), "{s}"),
        p => panic!("{p:?}"),
    }
}

/// Timing (not a test of speed: run with `--ignored --nocapture` in release): Shapley of 10
/// teams over 30 days of hours, and 200 teams sampled.
#[test]
#[ignore]
fn shapley_timing() {
    let hours = 720;
    let mut rng = Rng(12345);
    for n in [10usize, 200] {
        let teams: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..hours)
                    .map(|t| {
                        let base = (i % 4) as f64;
                        let wave = if (t / 24 + i) % 3 == 0 { 2.0 } else { 0.0 };
                        round_milli(base + wave + (rng.next() % 1000) as f64 / 1000.0)
                    })
                    .collect()
            })
            .collect();
        let refs: Vec<&[f64]> = teams.iter().map(|t| t.as_slice()).collect();
        let ts: Vec<i64> = (0..hours as i64)
            .map(|h| 1_780_000_000 + h * 3600)
            .collect();
        let template = UsageSeries {
            values: vec![0.0; hours],
            timestamps: Some(ts),
            utc_offset_minutes: 0,
            offset_changes: Vec::new(),
        };
        let inputs = PlanInputs::default();
        let t0 = std::time::Instant::now();
        let s = shapley(&refs, |v| plan_cost(&inputs, &template, v)).unwrap();
        println!(
            "{n} teams: {} plans in {:?} ({:?} per plan), exact {}, max std error {:.2}",
            s.plans,
            t0.elapsed(),
            t0.elapsed() / s.plans as u32,
            s.exact,
            s.max_std_error()
        );
    }
}

#[test]
fn a_run_in_steps_gives_the_same_figures() {
    // Exact (3 teams) and sampled (14 teams), one plan per step and all at once.
    for n in [3usize, 14] {
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|i| (0..6).map(|t| ((i * 7 + t * 3) % 5) as f64).collect())
            .collect();
        let refs: Vec<&[f64]> = rows.iter().map(|r| r.as_slice()).collect();
        let mut cost = |v: &[f64]| {
            // A non-additive cost: the peak squared plus the sum.
            let peak = v.iter().copied().fold(0.0, f64::max);
            Ok::<_, ()>(Money::from_f64(peak * peak * 10.0 + v.iter().sum::<f64>()))
        };
        let whole = shapley(&refs, &mut cost).unwrap();
        let mut run = ShapleyRun::new(n);
        let mut steps = 0;
        let stepped = loop {
            steps += 1;
            if let Some(s) = run.step(&refs, &mut cost, 1).unwrap() {
                break s;
            }
        };
        assert_eq!(stepped, whole, "{n} teams");
        assert!(
            steps >= whole.plans,
            "{steps} steps for {} plans",
            whole.plans
        );
    }
}

/// Timing (run with `--ignored --nocapture` in release): the team table and its texts for 200
/// teams over 30 days, as on every change.
#[test]
#[ignore]
fn table_timing() {
    let hours = 720;
    let mut rng = Rng(99);
    let teams: Vec<Vec<f64>> = (0..200)
        .map(|i| {
            (0..hours)
                .map(|_| round_milli(((rng.next() % 1000) as f64 / 1000.0) * (1 + i % 5) as f64))
                .collect()
        })
        .collect();
    let names: Vec<String> = (0..200).map(|i| format!("acct-{i}")).collect();
    let usage: Vec<TeamUsage> = names
        .iter()
        .zip(&teams)
        .map(|(n, v)| TeamUsage { name: n, values: v })
        .collect();
    let prep = TeamsPrep::new(&usage);
    let pools = example_pools();
    let t0 = std::time::Instant::now();
    let mut total = Money::ZERO;
    for _ in 0..20 {
        let t = team_table_with(&prep, &usage, &pools, &TeamTableInputs::default()).unwrap();
        let v = crate::present::teams::present(
            crate::format::Lang::En,
            "¥",
            &Ok(t.clone()),
            t.total,
            2,
            &crate::core::ingest::TeamSource::Column("Account".into()),
            &(0..200).collect::<Vec<_>>(),
            crate::present::teams::SHOWN_TEAMS,
        )
        .unwrap();
        total += t.total;
        assert_eq!(v.rows.len(), crate::present::teams::SHOWN_TEAMS);
    }
    println!("table + texts: {:?} per change", t0.elapsed() / 20);
    let t0 = std::time::Instant::now();
    for _ in 0..20 {
        let t = team_table_with(&prep, &usage, &pools, &TeamTableInputs::default()).unwrap();
        total += t.total;
    }
    println!("table alone: {:?} per change ({total})", t0.elapsed() / 20);
}

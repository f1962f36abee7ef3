//! § 21 the teams' memos in the page: the teams' usage for the type the cards show, the team
//! table (on every change: O(teams × hours)), and the standalone and Shapley columns, which
//! plan the history once per group of teams (2ⁿ − 1 plans) and so run apart, once the
//! changes pause ([`SHAPLEY_DELAY_MS`]), never on a slider's path.

use std::sync::Arc;

use leptos::prelude::*;

use crate::core::ingest::{Parsed, TeamSource};
use crate::core::money::Money;
use crate::core::plan::{PlanInputs, PlanOutputs};
use crate::core::profile::lookback_start;
use crate::core::series::UsageSeries;
use crate::core::teams::{
    parse_fixed, plan_cost, shapley, team_table_with, PlanPools, Shapley, ShapleyRun, TeamTable,
    TeamTableInputs, TeamUsage, TeamsPrep,
};
use crate::page::context::Ctx;
use crate::state::{AppState, ParseStatus, UsageMode};

/// How long after the last change the Shapley column is computed.
pub const SHAPLEY_DELAY_MS: u32 = 250;

/// The teams' hourly usage for the type the cards show.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamsData {
    pub names: Vec<String>,
    /// On the hours of `series`, rounded to 0.001 GPU.
    pub values: Vec<Vec<f64>>,
    /// The history the plan reads (the selected type's in a fleet).
    pub series: UsageSeries,
    pub source: TeamSource,
    /// Every column, label or tag that could name the teams.
    pub choices: Vec<TeamSource>,
    /// Teams summed into "other teams".
    pub merged: usize,
    /// A fleet: the type shown.
    pub type_name: Option<String>,
    /// What the team table needs that no input changes (its sorts), made once.
    pub prep: TeamsPrep,
    /// The teams by GPU-hours, largest first (ties: the earlier), the order of the rows shown.
    pub order: Vec<usize>,
}

/// The teams of a parsed history for the type the cards show: all of them for one type; in a
/// typed fleet, each team's hours of the selected row's history types (`keys`).
pub fn teams_data(s: &AppState, parsed: &Parsed) -> Option<TeamsData> {
    teams_data_for(&shown_of(s), parsed)
}

/// What [`teams_data`] reads of the state: a history is the usage, and in a fleet the row
/// shown (its name and history keys). A memo of it changes only when they do.
pub fn shown_of(s: &AppState) -> Option<Option<crate::state::TypeRow>> {
    (s.mode == UsageMode::Data).then(|| {
        crate::state::fleet::active(&s.fleet)
            .then(|| s.fleet.types.get(s.fleet.selected).cloned())
            .flatten()
            .map(|mut r| {
                r.inputs = PlanInputs::default();
                r
            })
    })
}

/// [`teams_data`] from [`shown_of`].
pub fn teams_data_for(
    shown: &Option<Option<crate::state::TypeRow>>,
    parsed: &Parsed,
) -> Option<TeamsData> {
    let row = shown.as_ref()?;
    let teams = parsed.teams.as_ref()?;
    let fleet = row.is_some() && parsed.types.len() >= 2;
    let (series, values, type_name): (UsageSeries, Vec<Vec<f64>>, Option<String>) = if fleet {
        let row = row.as_ref()?;
        let series =
            crate::link::quantize(&crate::state::fleet::row_series(&row.keys, &parsed.types)?);
        let values = row_team_values(teams, parsed, &row.keys, series.values.len());
        (series, values, Some(row.name.clone()))
    } else {
        let values = teams
            .teams
            .iter()
            .map(|t| round_all(t.values.clone()))
            .collect();
        (parsed.series.clone(), values, None)
    };
    let names: Vec<String> = teams.teams.iter().map(|t| t.name.clone()).collect();
    let prep = TeamsPrep::new(
        &names
            .iter()
            .zip(&values)
            .map(|(name, values): (&String, &Vec<f64>)| TeamUsage {
                name,
                values: values.as_slice(),
            })
            .collect::<Vec<_>>(),
    );
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| {
        prep.levels[b]
            .0
            .total_cmp(&prep.levels[a].0)
            .then(a.cmp(&b))
    });
    Some(TeamsData {
        order,
        prep,
        names,
        values,
        series,
        source: teams.source.clone(),
        choices: teams.choices.clone(),
        merged: teams.merged,
        type_name,
    })
}

/// Each team's GPUs busy per hour of the history types `keys` (a fleet row's; several after a
/// merge), summed and rounded to 0.001 GPU as a link carries them.
fn row_team_values(
    teams: &crate::core::ingest::Teams,
    parsed: &Parsed,
    keys: &[String],
    hours: usize,
) -> Vec<Vec<f64>> {
    let idx: Vec<usize> = (0..parsed.types.len())
        .filter(|&k| keys.contains(&parsed.types[k].key))
        .collect();
    teams
        .teams
        .iter()
        .map(|team| {
            let mut v = vec![0.0; hours];
            for &k in &idx {
                if let Some(part) = team.by_type.get(k) {
                    for (a, b) in v.iter_mut().zip(part) {
                        *a += b;
                    }
                }
            }
            round_all(v)
        })
        .collect()
}

fn round_all(mut v: Vec<f64>) -> Vec<f64> {
    for x in &mut v {
        *x = (*x * 1000.0).round() / 1000.0;
    }
    v
}

/// The plan's pools as the teams share them (`None` when the plan has none).
pub fn plan_pools(o: &PlanOutputs) -> Option<PlanPools> {
    let pools = o.pools.as_ref().ok()?;
    let b = o.baseline.as_ref().ok()?;
    let monthly_price = if b.gpus > 0 {
        pools.reserved.to_f64() / f64::from(b.gpus)
    } else {
        0.0
    };
    Some(PlanPools {
        gpus: b.gpus,
        monthly_price,
        reserved: pools.reserved,
        on_demand: pools.on_demand,
        spot: pools.spot,
    })
}

/// The team table for the teams' data, the plan and the inputs.
pub fn table(
    d: &TeamsData,
    o: &PlanOutputs,
    inputs: &PlanInputs,
) -> Option<Result<TeamTable, crate::core::error::InputError>> {
    let pools = plan_pools(o)?;
    let fixed = match parse_fixed(&inputs.team_shares) {
        Ok(f) => f,
        Err(e) if inputs.idle_split == crate::core::teams::IdleSplit::Fixed => return Some(Err(e)),
        Err(_) => Vec::new(),
    };
    let window_start = lookback_start(&d.series, inputs.lookback);
    let usage: Vec<TeamUsage> = d
        .names
        .iter()
        .zip(&d.values)
        .map(|(name, values)| TeamUsage { name, values })
        .collect();
    Some(team_table_with(
        &d.prep,
        &usage,
        &pools,
        &TeamTableInputs {
            split: inputs.idle_split,
            fixed,
            window_start,
        },
    ))
}

/// A fleet on a typed history: every team's month over all the GPU types, each type's cost
/// shared out as [`table`] does at what the fleet's budget buys of it (the fleet table's
/// rows: N_t, its price, its pools), then summed per team; the sum is the fleet's monthly
/// total. The usage columns are GPU-hours and baseline GPU-hours summed; the shares are of
/// the summed GPU-hours; levels and trough and peak shares are per type only (0 here).
pub fn fleet_table(
    s: &AppState,
    parsed: &Parsed,
    plan: &crate::core::fleet_plan::FleetPlan,
) -> Option<Result<TeamTable, crate::core::error::InputError>> {
    let teams = parsed.teams.as_ref()?;
    if s.mode != UsageMode::Data || !crate::state::fleet::active(&s.fleet) || parsed.types.len() < 2
    {
        return None;
    }
    let fixed = match parse_fixed(&s.inputs.team_shares) {
        Ok(f) => f,
        Err(e) if s.inputs.idle_split == crate::core::teams::IdleSplit::Fixed => {
            return Some(Err(e))
        }
        Err(_) => Vec::new(),
    };
    let mut sum: Option<TeamTable> = None;
    for (row, t) in plan.rows.iter().zip(&s.fleet.types) {
        let series = crate::state::fleet::row_series(&t.keys, &parsed.types)?;
        let values = row_team_values(teams, parsed, &t.keys, series.values.len());
        let usage: Vec<TeamUsage> = teams
            .teams
            .iter()
            .zip(&values)
            .map(|(team, values)| TeamUsage {
                name: &team.name,
                values,
            })
            .collect();
        let pools = PlanPools {
            gpus: row.committed,
            monthly_price: row.price.to_f64(),
            reserved: row.fixed,
            on_demand: row.on_demand,
            spot: row.spot,
        };
        let one = match team_table_with(
            &TeamsPrep::without_levels(&usage),
            &usage,
            &pools,
            &TeamTableInputs {
                split: s.inputs.idle_split,
                fixed: fixed.clone(),
                window_start: lookback_start(&series, s.inputs.lookback),
            },
        ) {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        sum = Some(match sum {
            None => one,
            Some(mut acc) => {
                for (a, b) in acc.rows.iter_mut().zip(&one.rows) {
                    a.gpu_hours += b.gpu_hours;
                    a.baseline_hours += b.baseline_hours;
                    a.committed += b.committed;
                    a.idle += b.idle;
                    a.spot += b.spot;
                    a.on_demand += b.on_demand;
                    a.total += b.total;
                }
                acc.idle_row += one.idle_row;
                acc.total += one.total;
                acc.committed_used += one.committed_used;
                acc.committed_idle += one.committed_idle;
                acc
            }
        });
    }
    let mut t = sum?;
    let all: f64 = t.rows.iter().map(|r| r.gpu_hours).sum();
    for r in &mut t.rows {
        r.share = if all > 0.0 { r.gpu_hours / all } else { 0.0 };
        (r.p50, r.p95, r.peak, r.trough_share, r.peak_share) = (0.0, 0.0, 0.0, 0.0, 0.0);
    }
    Some(Ok(t))
}

/// Standalone and Shapley values for the teams under the plan's inputs.
pub fn shapley_of(
    d: &TeamsData,
    inputs: &PlanInputs,
) -> Result<Shapley, crate::core::error::InputError> {
    let refs: Vec<&[f64]> = d.values.iter().map(|v| v.as_slice()).collect();
    shapley(&refs, |v| plan_cost(inputs, &d.series, v))
}

/// The standalone and Shapley columns as last computed, and how long that took (ms; the
/// table's `data-shapley-ms`).
pub type ShapleyDone = (Arc<Result<Shapley, crate::core::error::InputError>>, f64);

/// How long one task of the Shapley run may take (ms) before it yields to the page.
pub const SHAPLEY_CHUNK_MS: f64 = 30.0;

/// One task of a Shapley run: plans until [`SHAPLEY_CHUNK_MS`] have passed, then the next
/// task (a new timer), so the 2ⁿ − 1 (or the sampled) plans never block the page for long.
/// `report(None, _)` asks whether to go on (false: a newer change made the run stale);
/// `report(Some(values), compute_ms)` hands over the result.
fn shapley_chunk(
    mut run: ShapleyRun,
    d: Arc<TeamsData>,
    inputs: PlanInputs,
    spent_ms: f64,
    report: impl Fn(Option<Result<Shapley, crate::core::error::InputError>>, f64) -> bool + 'static,
) {
    if !report(None, spent_ms) {
        return;
    }
    let t0 = crate::web::browser::now_ms();
    let refs: Vec<&[f64]> = d.values.iter().map(|v| v.as_slice()).collect();
    let mut cost = |v: &[f64]| plan_cost(&inputs, &d.series, v);
    loop {
        match run.step(&refs, &mut cost, 1) {
            Ok(Some(done)) => {
                report(
                    Some(Ok(done)),
                    spent_ms + crate::web::browser::now_ms() - t0,
                );
                return;
            }
            Err(e) => {
                report(Some(Err(e)), spent_ms + crate::web::browser::now_ms() - t0);
                return;
            }
            Ok(None) => {}
        }
        if crate::web::browser::now_ms() - t0 >= SHAPLEY_CHUNK_MS {
            break;
        }
    }
    let spent = spent_ms + crate::web::browser::now_ms() - t0;
    drop(refs);
    gloo_timers::callback::Timeout::new(0, move || {
        shapley_chunk(run, d, inputs, spent, report);
    })
    .forget();
}

/// Bands of the teams' chart: at most this many (the largest teams, the rest as one band).
pub const CHART_BANDS: usize = 8;

/// The teams' usage chart (chart 1's stacked form, `charts::usage`): one band per team, the
/// largest first, the teams past [`CHART_BANDS`] − 1 summed as `others`, and the plan's
/// committed N as one line over the stack.
pub fn chart_data(
    d: &TeamsData,
    names: &[String],
    others: &str,
    lookback: crate::core::profile::Lookback,
    committed: Option<u32>,
) -> Option<crate::charts::usage::UsageData> {
    let mut order: Vec<usize> = (0..d.values.len()).collect();
    let hours = |i: usize| d.values[i].iter().sum::<f64>();
    order.sort_by(|&a, &b| hours(b).total_cmp(&hours(a)).then(a.cmp(&b)));
    let keep = if order.len() > CHART_BANDS {
        CHART_BANDS - 1
    } else {
        order.len()
    };
    let band = |values: Vec<f64>| UsageSeries {
        values,
        ..d.series.clone()
    };
    let mut series: Vec<(String, UsageSeries)> = order[..keep]
        .iter()
        .map(|&i| (names[i].clone(), band(d.values[i].clone())))
        .collect();
    if order.len() > keep {
        let mut rest = vec![0.0; d.series.values.len()];
        for &i in &order[keep..] {
            for (a, b) in rest.iter_mut().zip(&d.values[i]) {
                *a += b;
            }
        }
        series.push((others.to_string(), band(rest)));
    }
    let bands: Vec<(&str, &UsageSeries)> = series.iter().map(|(n, s)| (n.as_str(), s)).collect();
    let mut data = crate::charts::usage::UsageData::from_types(&bands, lookback);
    // One team: the one-type chart of its usage (the total), with the committed line.
    data.recommended = committed;
    (!data.values.is_empty()).then_some(data)
}

/// The page's team memos.
#[derive(Clone, Copy)]
pub struct TeamMemos {
    pub data: Memo<Option<Arc<TeamsData>>>,
    pub table: Memo<Option<Result<TeamTable, crate::core::error::InputError>>>,
    /// The last computed values (kept while new ones wait: a change never blanks them).
    pub shapley: RwSignal<Option<ShapleyDone>>,
    /// New values are waiting for the changes to pause.
    pub shapley_pending: RwSignal<bool>,
    pub plan_total: Memo<Money>,
    /// The teams' usage chart.
    pub chart: Memo<Option<crate::charts::usage::UsageData>>,
    /// A fleet: every team's month over all the GPU types ([`fleet_table`]).
    pub fleet: Memo<Option<Result<TeamTable, crate::core::error::InputError>>>,
}

pub fn team_memos(ctx: Ctx) -> TeamMemos {
    let (state, parse_status, outputs) = (ctx.state, ctx.parse_status, ctx.outputs);
    // Only the mode and the row shown: a price change does not copy the teams again.
    let shown = Memo::new(move |_| state.with(shown_of));
    let data = Memo::new(move |_| {
        let shown = shown.get();
        parse_status.with(|p| match p {
            ParseStatus::Done(Ok(parsed)) if parsed.teams.is_some() => {
                teams_data_for(&shown, parsed).map(Arc::new)
            }
            _ => None,
        })
    });
    let inputs = Memo::new(move |_| state.with(|s| s.inputs.clone()));
    let table = Memo::new(move |_| {
        let d = data.get()?;
        outputs.with(|o| inputs.with(|i| table(&d, o, i)))
    });
    let plan_total =
        Memo::new(move |_| outputs.with(|o| plan_pools(o).map_or(Money::ZERO, |p| p.total())));
    let shapley_state = RwSignal::new(None::<ShapleyDone>);
    let pending = RwSignal::new(false);
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let d = data.get();
        let i = inputs.get();
        generation.update_value(|g| *g += 1);
        let Some(d) = d else {
            shapley_state.set(None);
            pending.set(false);
            return;
        };
        let mine = generation.get_value();
        // Notifies only when it was not already waiting: a burst of changes touches no cell.
        if !pending.get_untracked() {
            pending.set(true);
        }
        gloo_timers::callback::Timeout::new(SHAPLEY_DELAY_MS, move || {
            if generation.try_get_value() != Some(mine) {
                return;
            }
            let run = ShapleyRun::new(d.values.len());
            shapley_chunk(run, d, i, 0.0, move |result, ms| {
                if generation.try_get_value() != Some(mine) {
                    return false;
                }
                if let Some(result) = result {
                    shapley_state.set(Some((Arc::new(result), ms)));
                    pending.set(false);
                }
                true
            });
        })
        .forget();
    });
    let lookback = Memo::new(move |_| state.with(|s| s.inputs.lookback));
    let committed = Memo::new(move |_| outputs.with(|o| o.baseline.as_ref().ok().map(|b| b.gpus)));
    let chart = Memo::new(move |_| {
        let d = data.get()?;
        let l = ctx.lang.get();
        let names: Vec<String> = d
            .names
            .iter()
            .map(|n| crate::present::teams::team_name(l, n))
            .collect();
        let others = crate::i18n::pick(l, "other teams", "其他团队");
        chart_data(&d, &names, others, lookback.get(), committed.get())
    });
    let fleet = Memo::new(move |_| {
        ctx.fleet.with(|f| match f {
            Some(Ok(plan)) => parse_status.with(|p| match p {
                ParseStatus::Done(Ok(parsed)) => state.with(|s| fleet_table(s, parsed, plan)),
                _ => None,
            }),
            _ => None,
        })
    });
    TeamMemos {
        data,
        table,
        shapley: shapley_state,
        shapley_pending: pending,
        plan_total,
        chart,
        fleet,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::plan_with_history;
    use crate::core::profile::{profile, Lookback};
    use crate::core::teams::TeamUsage;

    /// The formulas doc's example through the page's functions: the teams add up to the plan.
    #[test]
    fn example_through_the_page_functions() {
        let inputs = PlanInputs {
            monthly_price: 12_000.0,
            spot_price: 8.0,
            interruption_rate: 0.0,
            lookback: Lookback::All,
            ..PlanInputs::default()
        };
        let series = UsageSeries::from_values(vec![1.0, 2.0, 4.0, 4.0]);
        let d = TeamsData {
            names: vec!["A".into(), "B".into(), "C".into()],
            values: vec![
                vec![1.0, 1.0, 2.0, 0.0],
                vec![0.0, 1.0, 1.0, 1.0],
                vec![0.0, 0.0, 1.0, 3.0],
            ],
            series: series.clone(),
            source: TeamSource::Column("Account".into()),
            choices: vec![],
            merged: 0,
            type_name: None,
            order: vec![0, 1, 2],
            prep: TeamsPrep::new(&[
                TeamUsage {
                    name: "A",
                    values: &[1.0, 1.0, 2.0, 0.0],
                },
                TeamUsage {
                    name: "B",
                    values: &[0.0, 1.0, 1.0, 1.0],
                },
                TeamUsage {
                    name: "C",
                    values: &[0.0, 0.0, 1.0, 3.0],
                },
            ]),
        };
        let prof = profile(&series, &inputs.profile_settings()).unwrap();
        let o = plan_with_history(&inputs, Some(&prof));
        let t = table(&d, &o, &inputs).unwrap().unwrap();
        assert_eq!(t.total.to_plain_string(), "36045.00");
        assert_eq!(t.rows[0].total.to_plain_string(), "13296.97");
        let s = shapley_of(&d, &inputs).unwrap();
        assert_eq!(s.grand, t.total);
        assert_eq!(s.values[2].to_plain_string(), "12531.87");
    }
}

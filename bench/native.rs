//! Native benchmarks (criterion): parse (+ hourly resampling), analysis (profile + plan) and
//! the link codec (encode and decode, with and without a 30-day history), on the same
//! generated inputs as the browser bench (bench/README.md):
//! a year of per-minute samples (525 600 rows, ~11.6 MB) and a 30-day hourly series; and the
//! mixed fleet: a year of per-minute samples of 8 GPU types as a wide table (~23 MB) and as a
//! long table (~106 MB), parsed into 8 typed series, then planned per type and as a fleet
//! (§ 16) the way the page does (`fleet_memos`).
//! `cargo bench --bench engine` (scripts/bench runs it and puts the numbers in its report);
//! `cargo bench --bench engine -- fleet` for the fleet alone.
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gpu_rent_planner::core::examples::{
    generate_fleet_long_csv, generate_fleet_wide_csv, generate_hourly_csv, generate_minutely_csv,
};
use gpu_rent_planner::core::fleet_plan::{plan_fleet, FleetPlan};
use gpu_rent_planner::core::ingest::{parse, ParseOptions, Stepper, TypedSeries};
use gpu_rent_planner::core::plan::{plan, plan_with_history, PlanInputs, PlanOutputs};
use gpu_rent_planner::core::profile::{profile, HistoryProfile};
use gpu_rent_planner::state::fleet::{row_series, sync_with_history, type_inputs};
use gpu_rent_planner::state::{AppState, Lang};
use std::hint::black_box;

#[path = "fleet_pipeline.rs"]
mod fleet_pipeline;
use fleet_pipeline::{fleet_options, type_outputs, type_plans};

/// The inputs both benches use (bench/wasm_entry.rs builds the same two).
pub fn inputs() -> [(&'static str, String); 2] {
    [
        ("year-minutely", generate_minutely_csv(525_600)),
        ("30d-hourly", generate_hourly_csv(30 * 24)),
    ]
}

/// The fleet inputs (bench/wasm_entry.rs builds the same two): a year of minutes, 8 types.
pub fn fleet_inputs() -> [(&'static str, String); 2] {
    [
        ("fleet-wide", generate_fleet_wide_csv(525_600)),
        ("fleet-long", generate_fleet_long_csv(525_600)),
    ]
}

/// What the page holds once a typed history is read (`fleet::sync_with_history`): one row
/// per type with its example prices (A100, H100, 4090) or the defaults; each type's inputs
/// and its quantised history's profile (`fleet_memos::type_profiles`).
fn fleet_state(types: &[TypedSeries]) -> (Vec<PlanInputs>, Vec<HistoryProfile>) {
    let mut s = AppState::new(PlanInputs::default(), Lang::En);
    sync_with_history(&mut s, types);
    let inputs: Vec<PlanInputs> = (0..s.fleet.types.len())
        .map(|k| type_inputs(&s, k))
        .collect();
    let profiles = fleet_profiles(&s, types, &inputs);
    (inputs, profiles)
}

fn fleet_profiles(
    s: &AppState,
    types: &[TypedSeries],
    inputs: &[PlanInputs],
) -> Vec<HistoryProfile> {
    s.fleet
        .types
        .iter()
        .zip(inputs)
        .map(|(row, i)| {
            let series = row_series(&row.keys, types).expect("every row has its type");
            profile(
                &gpu_rent_planner::link::quantize(&series),
                &i.profile_settings(),
            )
            .expect("valid series")
        })
        .collect()
}

/// Each type planned (`plan_with_history`), then the fleet (`plan_fleet`).
fn fleet_plan(
    inputs: &[PlanInputs],
    profiles: &[HistoryProfile],
    outputs: &[PlanOutputs],
) -> FleetPlan {
    plan_fleet(&type_plans(inputs, profiles, outputs)).expect("the fleet plans")
}

fn fleet(c: &mut Criterion) {
    let mut g = c.benchmark_group("parse");
    g.sample_size(10);
    let opts = fleet_options();
    let mut parsed = Vec::new();
    for (name, text) in fleet_inputs() {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), &text, |b, t| {
            b.iter(|| parse(black_box(t), &opts).map(|p| p.types.len()))
        });
        if name == "fleet-wide" {
            g.bench_with_input(BenchmarkId::new("stepper-64k", name), &text, |b, t| {
                b.iter(|| {
                    let mut s = Stepper::new(black_box(t), &opts);
                    while !s.step(64 * 1024) {}
                    s.finish().map(|p| p.types.len())
                })
            });
        }
        let p = parse(&text, &opts).expect("fleet input parses");
        assert_eq!(p.types.len(), 8, "{name}: 8 typed series");
        parsed.push(p);
    }
    g.finish();
    // Both forms hold the same hourly series.
    for (a, b) in parsed[0].types.iter().zip(&parsed[1].types) {
        assert_eq!(a.series.values.len(), b.series.values.len());
        assert!(a
            .series
            .values
            .iter()
            .zip(&b.series.values)
            .all(|(x, y)| (x - y).abs() < 1e-9));
    }

    let types = &parsed[0].types;
    let mut g = c.benchmark_group("analysis");
    g.sample_size(20);
    let mut s = AppState::new(PlanInputs::default(), Lang::En);
    sync_with_history(&mut s, types);
    let inputs: Vec<PlanInputs> = (0..s.fleet.types.len())
        .map(|k| type_inputs(&s, k))
        .collect();
    // Everything after the parse: 8 profiles (row series, quantised), 8 plans, the fleet.
    g.bench_function("fleet-profile+plan", |b| {
        b.iter(|| {
            let profiles = fleet_profiles(&s, black_box(types), &inputs);
            let outputs = type_outputs(&inputs, &profiles);
            fleet_plan(&inputs, &profiles, &outputs).total
        })
    });
    // A price typed for one type: that type re-planned, the fleet re-allocated (the other
    // types' plans are memos that hold).
    let (inputs, profiles) = fleet_state(types);
    let mut outputs = type_outputs(&inputs, &profiles);
    let mut changed = inputs.clone();
    g.bench_function("fleet-price-change", |b| {
        let mut i = 0u32;
        b.iter(|| {
            i = i.wrapping_add(1);
            changed[0].monthly_price = 7000.0 + f64::from(i % 40) * 50.0;
            outputs[0] = plan_with_history(black_box(&changed[0]), Some(&profiles[0]));
            fleet_plan(&changed, &profiles, &outputs).total
        })
    });
    g.finish();
}

fn ingest(c: &mut Criterion) {
    let mut g = c.benchmark_group("parse");
    g.sample_size(10);
    for (name, text) in inputs() {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), &text, |b, t| {
            b.iter(|| parse(black_box(t), &ParseOptions::default()).map(|p| p.series.values.len()))
        });
        // As the page reads it: 64 KiB slices.
        g.bench_with_input(BenchmarkId::new("stepper-64k", name), &text, |b, t| {
            b.iter(|| {
                let mut s = Stepper::new(black_box(t), &ParseOptions::default());
                while !s.step(64 * 1024) {}
                s.finish().map(|p| p.series.values.len())
            })
        });
    }
    g.finish();
}

fn analysis(c: &mut Criterion) {
    let mut g = c.benchmark_group("analysis");
    g.sample_size(20);
    let inputs_ = PlanInputs::default();
    for (name, text) in inputs() {
        let series = parse(&text, &ParseOptions::default())
            .expect("generated input parses")
            .series;
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::new("profile+plan", name), &series, |b, s| {
            b.iter(|| {
                let p = profile(black_box(s), &inputs_.profile_settings()).expect("valid series");
                plan_with_history(&inputs_, Some(&p))
            })
        });
        let p = profile(&series, &inputs_.profile_settings()).expect("valid series");
        g.bench_with_input(
            BenchmarkId::new("plan-only (price change)", name),
            &p,
            |b, p| b.iter(|| plan_with_history(black_box(&inputs_), Some(p))),
        );
    }
    g.bench_function("plan (sliders)", |b| b.iter(|| plan(black_box(&inputs_))));
    g.finish();
}

fn links(c: &mut Criterion) {
    use gpu_rent_planner::link::{self, LinkHistory, LinkState};
    let mut g = c.benchmark_group("url");
    let query = "?v=1&lang=en&monthly=9000&ondemand=25&hours=730";
    g.throughput(Throughput::Bytes(query.len() as u64));
    g.bench_function("decode", |b| b.iter(|| link::decode(black_box(query))));

    // A link with every input changed and a 30-day hourly history.
    let parsed =
        parse(&generate_hourly_csv(30 * 24), &ParseOptions::default()).expect("bench input parses");
    let series = link::quantize(&parsed.series);
    let mut state = LinkState::default();
    state.inputs.monthly_price = 7300.0;
    state.inputs.on_demand_price = 20.0;
    state.tz = Some(gpu_rent_planner::core::zone::ZoneChoice::Offset(480));
    state.history = Some(LinkHistory::one(series.clone(), false));
    let data = link::encode_series(&series, false);
    let full = link::encode(&state, Some(&data));
    g.throughput(Throughput::Elements(series.values.len() as u64));
    // The `data` value: varint series, deflate, base64url.
    g.bench_function("encode_series_30d", |b| {
        b.iter(|| link::encode_series(black_box(&series), false))
    });
    // The query string around an already encoded history.
    g.bench_function("encode_query_30d", |b| {
        b.iter(|| link::encode(black_box(&state), Some(black_box(&data))))
    });
    g.bench_function("decode_30d", |b| b.iter(|| link::decode(black_box(&full))));
    g.finish();
}

/// A Slurm accounting export of 1 000 000 jobs (`slurm_sample::generate_sacct`, ~134 MB, 4
/// GPU types with the untyped ones): parsed whole and as the page reads a file (1 MiB byte
/// slices through `ByteStepper`), then parse + plan: the total's profile and plan, and the
/// fleet of its types (profiles, plans, `plan_fleet`), as the page does.
fn slurm(c: &mut Criterion) {
    use gpu_rent_planner::core::ingest::ByteStepper;
    let text = gpu_rent_planner::core::slurm_sample::generate_sacct(1_000_000);
    let opts = ParseOptions {
        max_input_bytes: gpu_rent_planner::core::ingest::MAX_FILE_BYTES,
        ..ParseOptions::default()
    };
    let mut g = c.benchmark_group("slurm");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("parse-1M-jobs", |b| {
        b.iter(|| parse(black_box(&text), &opts).map(|p| p.series.values.len()))
    });
    g.bench_function("file-slices-1MiB-1M-jobs", |b| {
        b.iter(|| {
            let bytes = black_box(text.as_bytes());
            let mut s = ByteStepper::new(bytes.len() as u64, &opts);
            while let Some(at) = s.wants() {
                let at = at as usize;
                s.feed(&bytes[at..(at + (1 << 20)).min(bytes.len())]);
            }
            s.finish().map(|p| p.series.values.len())
        })
    });
    let inputs_ = PlanInputs::default();
    g.bench_function("parse+plan-1M-jobs", |b| {
        b.iter(|| {
            let p = parse(black_box(&text), &opts).expect("the export parses");
            let h = profile(
                &gpu_rent_planner::link::quantize(&p.series),
                &inputs_.profile_settings(),
            )
            .expect("valid series");
            let total = plan_with_history(&inputs_, Some(&h));
            let (inputs, profiles) = fleet_state(&p.types);
            let outputs = type_outputs(&inputs, &profiles);
            (
                total.commitment.is_ok(),
                fleet_plan(&inputs, &profiles, &outputs).total,
            )
        })
    });
    g.finish();
}

/// § 22 (issue 40): the growth plan alone (trend, all now on each term, monthly only, the
/// ladder's programme and the two risk futures' programmes) for a 36-month horizon with
/// monthly, 1 year and 3 years offered, on the year loaded (lookback 30 days; waterline ~30
/// GPUs) and on a large pool (the waterline × 60: the cap reaches ~2 000 levels, the
/// programme's most before it steps).
fn growth(c: &mut Criterion) {
    use gpu_rent_planner::core::growth::{growth_plan, GrowthInputs};
    use gpu_rent_planner::core::prices::Prices;
    use gpu_rent_planner::core::terms::{TermInputs, TermOffer};
    use gpu_rent_planner::core::waterline::waterline;
    let text = generate_minutely_csv(525_600);
    let parsed = parse(&text, &ParseOptions::default()).expect("the year parses");
    let i = PlanInputs::default();
    let prof = profile(&parsed.series, &i.profile_settings()).expect("valid");
    let prices = Prices::new(i.monthly_price, i.on_demand_price, i.hours_per_month).unwrap();
    let offers = TermInputs {
        one_year: TermOffer {
            upfront: 90_000.0,
            monthly: 0.0,
        },
        three_year: TermOffer {
            upfront: 108_000.0,
            monthly: 3_000.0,
        },
        horizon_months: 36,
        months_left: 0,
    };
    let growth = GrowthInputs {
        growth_percent: Some(5.0),
        ..GrowthInputs::default()
    };
    let w = waterline(&prof, 5.0).expect("waterline").overall;
    let mut g = c.benchmark_group("growth");
    g.bench_function("36-months-3-terms-year", |b| {
        b.iter(|| growth_plan(black_box(&prof), &prices, &offers, w, 0.05, &growth))
    });
    let big: Vec<f64> = parsed.series.values.iter().map(|v| v * 60.0).collect();
    let mut series = parsed.series.clone();
    series.values = big;
    let big_prof = profile(&series, &i.profile_settings()).expect("valid");
    let big_w = waterline(&big_prof, 5.0).expect("waterline").overall;
    g.bench_function("36-months-3-terms-2000-levels", |b| {
        b.iter(|| growth_plan(black_box(&big_prof), &prices, &offers, big_w, 0.05, &growth))
    });
    g.finish();
}

criterion_group!(benches, ingest, analysis, links, fleet, slurm, growth);
criterion_main!(benches);

//! Native benchmarks (criterion): parse (+ hourly resampling), analysis (profile + plan) and
//! the link codec (encode and decode, with and without a 30-day history), on the same
//! generated inputs as the browser bench (bench/README.md):
//! a year of per-minute samples (525 600 rows, ~11.6 MB) and a 30-day hourly series.
//! `cargo bench --bench engine` (scripts/bench runs it and puts the numbers in its report).
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gpu_rent_planner::core::examples::{generate_hourly_csv, generate_minutely_csv};
use gpu_rent_planner::core::ingest::{parse, ParseOptions, Stepper};
use gpu_rent_planner::core::plan::{plan, plan_with_history, PlanInputs};
use gpu_rent_planner::core::profile::profile;
use std::hint::black_box;

/// The inputs both benches use (bench/wasm_entry.rs builds the same two).
pub fn inputs() -> [(&'static str, String); 2] {
    [
        ("year-minutely", generate_minutely_csv(525_600)),
        ("30d-hourly", generate_hourly_csv(30 * 24)),
    ]
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
    use gpu_rent_planner::url::{self, LinkHistory, LinkState};
    let mut g = c.benchmark_group("url");
    let query = "?v=1&lang=en&monthly=9000&ondemand=25&hours=730";
    g.throughput(Throughput::Bytes(query.len() as u64));
    g.bench_function("decode", |b| b.iter(|| url::decode(black_box(query))));

    // A link with every input changed and a 30-day hourly history.
    let parsed =
        parse(&generate_hourly_csv(30 * 24), &ParseOptions::default()).expect("bench input parses");
    let series = url::quantize(&parsed.series);
    let mut state = LinkState::default();
    state.inputs.monthly_price = 7300.0;
    state.inputs.on_demand_price = 20.0;
    state.tz = Some(gpu_rent_planner::core::zone::ZoneChoice::Offset(480));
    state.history = Some(LinkHistory {
        series: series.clone(),
        histogram: false,
    });
    let data = url::encode_series(&series, false);
    let full = url::encode(&state, Some(&data));
    g.throughput(Throughput::Elements(series.values.len() as u64));
    // The `data` value: varint series, deflate, base64url.
    g.bench_function("encode_series_30d", |b| {
        b.iter(|| url::encode_series(black_box(&series), false))
    });
    // The query string around an already encoded history.
    g.bench_function("encode_query_30d", |b| {
        b.iter(|| url::encode(black_box(&state), Some(black_box(&data))))
    });
    g.bench_function("decode_30d", |b| b.iter(|| url::decode(black_box(&full))));
    g.finish();
}

criterion_group!(benches, ingest, analysis, links);
criterion_main!(benches);

//! The large source files of issue 17, written to a directory for the file-picker benchmark
//! (`bench/sources.mjs`), each with its native time from the text to the plan: `parse`
//! (through `ByteStepper` in 1 MiB pieces, as the page reads a file) + `profile` +
//! `plan_with_history`, release profile as shipped, the median of 3 runs.
//! `cargo run --release --example bench_sources -- OUT_DIR` prints one JSON line per file:
//! `{"name", "file", "bytes", "native_ms", "hours", "waterline", "optimal_n"}`.
//! A typed history (the sacct export: a100, h100, l40s) is compared on its first type, the
//! one the page's cards show. `SOURCES=name,name` writes only those (`dcgm-64gpu-30d-60s`, `sacct-1M-jobs`).
use gpu_rent_planner::core::ingest::{ByteStepper, ParseOptions};
use gpu_rent_planner::core::plan::{plan_with_history, PlanInputs};
use gpu_rent_planner::core::prom_samples::generate_dcgm;
use gpu_rent_planner::core::slurm_sample::generate_sacct;
use gpu_rent_planner::fleet::sync_with_history;
use gpu_rent_planner::pipeline;
use gpu_rent_planner::state::{AppState, Lang, UsageMode};
use std::time::Instant;

/// A source: name, file name, and how to write its text.
type Source = (&'static str, &'static str, fn() -> String);

/// The sources: (name, file name, text).
fn sources() -> Vec<(&'static str, &'static str, String)> {
    let only = std::env::var("SOURCES").unwrap_or_default();
    let all: [Source; 2] = [
        ("dcgm-64gpu-30d-60s", "dcgm-64gpu-30d-60s.json", || {
            generate_dcgm(64, 30, 60)
        }),
        // Issue 17: a `sacct -P` export of 1 000 000 jobs (~134 MB).
        ("sacct-1M-jobs", "sacct-1M-jobs.txt", || {
            generate_sacct(1_000_000)
        }),
    ];
    all.into_iter()
        .filter(|(name, _, _)| only.is_empty() || only.split(',').any(|o| o == *name))
        .map(|(name, file, make)| (name, file, make()))
        .collect()
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: bench_sources OUT_DIR");
    std::fs::create_dir_all(&dir).expect("create OUT_DIR");
    let opts = ParseOptions {
        max_input_bytes: 512 * 1024 * 1024,
        ..ParseOptions::default()
    };
    let inputs = PlanInputs::default();
    for (name, file, text) in sources() {
        let path = format!("{dir}/{file}");
        std::fs::write(&path, &text).expect("write source");
        let bytes = text.as_bytes();
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..3 {
            let t = Instant::now();
            let mut s = ByteStepper::new(bytes.len() as u64, &opts);
            while let Some(at) = s.wants() {
                let at = at as usize;
                s.feed(&bytes[at..(at + (1 << 20)).min(bytes.len())]);
            }
            // Rounded as a link carries it, then planned as the page's memos plan it: a typed
            // history makes a fleet whose new types get their example prices, and the cards
            // show the selected type (the page's figures compared below).
            let parsed = pipeline::quantized(s.finish()).expect("generated source parses");
            let mut state = AppState::new(inputs.clone(), Lang::En);
            state.mode = UsageMode::Data;
            if parsed.types.len() >= 2 {
                sync_with_history(&mut state, &parsed.types);
            }
            let settings = state.inputs.profile_settings();
            let profiles =
                pipeline::type_profiles(pipeline::typed_keys(&state), Some(&parsed), &settings);
            let p = pipeline::selected_profile(
                state.mode,
                &profiles,
                state.fleet.selected,
                Some(&parsed),
                &settings,
            )
            .expect("data mode")
            .expect("valid series");
            let out = plan_with_history(&state.inputs, Some(&p));
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            last = Some((parsed.series.values.len(), p, out));
        }
        times.sort_by(f64::total_cmp);
        let (hours, _, out) = last.expect("three runs");
        println!(
            "{{\"name\":\"{name}\",\"file\":\"{path}\",\"bytes\":{},\"native_ms\":{:.1},\"hours\":{hours},\"waterline\":{},\"optimal_n\":{}}}",
            bytes.len(),
            times[1],
            out.waterline.as_ref().map_or(-1.0, |w| w.overall),
            out.commitment.as_ref().map_or(-1, |c| i64::from(c.n_star))
        );
    }
}

//! The large source files of issue 17, written to a directory for the file-picker benchmark
//! (`bench/sources.mjs`), each with its native time from the text to the plan: `parse`
//! (through `ByteStepper` in 1 MiB pieces, as the page reads a file) + `profile` +
//! `plan_with_history`, release profile as shipped, the median of 3 runs.
//! `cargo run --release --example bench_sources -- OUT_DIR` prints one JSON line per file:
//! `{"name", "file", "bytes", "native_ms", "hours", "waterline", "optimal_n"}`.
//! A typed history (the sacct export: a100, h100, l40s) is compared on its first type, the
//! one the page's cards show. `SOURCES=name,name` writes only those (`dcgm-64gpu-30d-60s`, `sacct-1M-jobs`).
use gpu_rent_planner::core::prom_samples::generate_dcgm;
use gpu_rent_planner::core::slurm_sample::generate_sacct;
use std::time::Instant;

#[path = "source_plan.rs"]
mod source_plan;
use source_plan::plan_source;

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
    for (name, file, text) in sources() {
        let path = format!("{dir}/{file}");
        std::fs::write(&path, &text).expect("write source");
        let bytes = text.as_bytes();
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..3 {
            let t = Instant::now();
            let planned = plan_source(bytes);
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            last = Some(planned);
        }
        times.sort_by(f64::total_cmp);
        let (hours, waterline, optimal_n) = last.expect("three runs");
        println!(
            "{{\"name\":\"{name}\",\"file\":\"{path}\",\"bytes\":{},\"native_ms\":{:.1},\"hours\":{hours},\"waterline\":{},\"optimal_n\":{}}}",
            bytes.len(),
            times[1],
            waterline,
            optimal_n
        );
    }
}

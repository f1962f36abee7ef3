//! A Slurm accounting export on disk, read as the page reads a picked file: in 1 MiB slices
//! through `ByteStepper` (the text is never held whole), then planned (the total's profile and
//! plan; the fleet of its GPU types). Native; for time and peak memory (`/usr/bin/time -v`):
//!
//! ```sh
//! cargo run --release --example slurm_file -- write /tmp/sacct-1M.txt 1000000   # ~134 MB
//! /usr/bin/time -v cargo run --release --example slurm_file -- read /tmp/sacct-1M.txt
//! ```
use std::io::{Read, Write};
use std::time::Instant;

use gpu_rent_planner::core::ingest::{ByteStepper, ParseOptions, MAX_FILE_BYTES};
use gpu_rent_planner::core::plan::{plan_with_history, PlanInputs};
use gpu_rent_planner::core::profile::profile;
use gpu_rent_planner::core::slurm_sample::generate_sacct;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("write") if args.len() == 4 => {
            let jobs: usize = args[3].parse().expect("a job count");
            let text = generate_sacct(jobs);
            let mut f = std::fs::File::create(&args[2]).expect("a writable path");
            f.write_all(text.as_bytes()).expect("written");
            println!("{} jobs, {} bytes → {}", jobs, text.len(), args[2]);
        }
        Some("read") if args.len() == 3 => read(&args[2]),
        _ => eprintln!("usage: slurm_file write PATH JOBS | read PATH"),
    }
}

fn read(path: &str) {
    let t0 = Instant::now();
    let mut f = std::fs::File::open(path).expect("a readable file");
    let size = f.metadata().expect("its size").len();
    let opts = ParseOptions {
        max_input_bytes: MAX_FILE_BYTES,
        ..ParseOptions::default()
    };
    let mut s = ByteStepper::new(size, &opts);
    let mut buf = vec![0u8; 1 << 20];
    let mut pos = 0u64;
    while let Some(at) = s.wants() {
        if at != pos {
            use std::io::Seek;
            f.seek(std::io::SeekFrom::Start(at)).expect("seek");
            pos = at;
        }
        let n = f.read(&mut buf).expect("read");
        pos += n as u64;
        s.feed(&buf[..n]);
    }
    let parsed = s.finish().expect("the export parses");
    let t_parse = t0.elapsed();
    let inputs = PlanInputs::default();
    let h = profile(
        &gpu_rent_planner::link::quantize(&parsed.series),
        &inputs.profile_settings(),
    )
    .expect("a valid series");
    let out = plan_with_history(&inputs, Some(&h));
    let t_plan = t0.elapsed();
    let r = parsed.report.slurm.as_ref().expect("a Slurm report");
    println!(
        "{size} bytes: {} jobs ({} with GPUs, {} never started, {} running), {} hours, {} types; \
         read {:.2} s ({:.0} MB/s), + profile and plan {:.3} s; commitment ok: {}",
        r.jobs,
        r.gpu_jobs,
        r.never_started,
        r.running,
        parsed.series.values.len(),
        parsed.types.len(),
        t_parse.as_secs_f64(),
        size as f64 / 1e6 / t_parse.as_secs_f64(),
        (t_plan - t_parse).as_secs_f64(),
        out.commitment.is_ok(),
    );
}

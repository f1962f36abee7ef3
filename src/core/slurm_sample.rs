//! Slurm accounting exports (`sacct -P -X`, see `ingest::SACCT_COMMAND`) built from an hourly
//! series, for "Try an example", the tests and the benchmarks. Pure and deterministic.
//!
//! [`sacct_from_series`] writes jobs whose GPU-hours give the series back hour by hour: the
//! whole GPUs of each hour are runs of 4-GPU and 1-GPU jobs (at most 12 hours each) that start
//! and end on hour boundaries; the tenths are one 1-GPU job of that many six-minute periods in
//! the middle of the hour. Besides these, CPU-only jobs (no GPU in `AllocTRES`), two pending
//! jobs, one job cancelled before it started and, when asked, the jobs open at the end left
//! running (`End` `Unknown`; a CPU job ends at the last hour's end, the latest time written).
//! Times are local wall-clock time in the series' offset, without a zone, as `sacct` writes them.

use std::fmt::Write as _;

use crate::core::calendar::write_iso_seconds;
use crate::core::examples::{self, Example, Rng};
use crate::core::series::UsageSeries;

/// The header `sacct -P -X --format=…` writes.
pub const HEADER: &str = "JobIDRaw|Start|End|ElapsedRaw|AllocTRES|State|Account|User|Partition";

/// The example under "Try an example" (`sample-slurm`): the bursty research lab's 30 days, as
/// its cluster's accounting, with the jobs of the last hours still running.
pub fn sacct(start_unix: i64, utc_offset_minutes: i32) -> String {
    let s = examples::series(Example::BurstyLab, start_unix, utc_offset_minutes);
    sacct_from_series(&s, true)
}

fn push_time(out: &mut String, t: i64, off: i32) {
    write_iso_seconds(out, t + i64::from(off) * 60);
}

#[derive(Debug, Clone, Copy)]
enum End {
    At(i64),
    Running,
    /// Pending: no start, no end.
    Pending,
    /// Cancelled before it started, at this time.
    Cancelled(i64),
}

#[derive(Debug, Clone)]
struct Job {
    start: i64,
    end: End,
    gpus: u32,
    /// `None`: a CPU job of this many cores.
    cpus: u32,
}

const ACCOUNTS: [&str; 3] = ["vision", "nlp", "speech"];
const USERS: [&str; 5] = ["ana", "bo", "chen", "dmitri", "eve"];
/// Longest job written (hours); longer runs are consecutive jobs.
const MAX_RUN_HOURS: i64 = 12;
const BLOCK: u32 = 4;

fn write_job(out: &mut String, id: u64, j: &Job, now: i64, off: i32, rng: &mut Rng) {
    let _ = write!(out, "{id}|");
    match j.end {
        End::Pending => out.push_str("Unknown|Unknown|0|"),
        End::Cancelled(t) => {
            out.push_str("None|");
            push_time(out, t, off);
            out.push_str("|0|");
        }
        End::At(e) => {
            push_time(out, j.start, off);
            out.push('|');
            push_time(out, e, off);
            let _ = write!(out, "|{}|", e - j.start);
        }
        End::Running => {
            push_time(out, j.start, off);
            let _ = write!(out, "|Unknown|{}|", now - j.start);
        }
    }
    let pending = matches!(j.end, End::Pending | End::Cancelled(_));
    if !pending {
        if j.gpus > 0 {
            let g = j.gpus;
            let _ = write!(
                out,
                "billing={},cpu={},gres/gpu={g},mem={}G,node=1",
                8 * g,
                8 * g,
                64 * g
            );
        } else {
            let c = j.cpus;
            let _ = write!(out, "billing={c},cpu={c},mem={}G,node=1", 4 * c);
        }
    }
    let r = rng.next_u64();
    let state = match j.end {
        End::Pending => "PENDING".to_string(),
        End::Cancelled(_) => "CANCELLED by 1001".to_string(),
        End::Running => "RUNNING".to_string(),
        End::At(_) if r % 11 == 0 => "FAILED".to_string(),
        End::At(_) => "COMPLETED".to_string(),
    };
    let partition = if j.gpus > 0 || pending { "gpu" } else { "cpu" };
    let _ = writeln!(
        out,
        "|{state}|{}|{}|{partition}",
        ACCOUNTS[(r >> 8) as usize % ACCOUNTS.len()],
        USERS[(r >> 16) as usize % USERS.len()]
    );
}

/// Jobs whose GPU-hours are `s` hour by hour (see the module doc), as a `sacct -P -X` export.
/// `running`: the jobs open at the last hour's end are written as still running.
pub fn sacct_from_series(s: &UsageSeries, running: bool) -> String {
    let off = s.utc_offset_minutes;
    let times: Vec<i64> = match &s.timestamps {
        Some(t) => t.clone(),
        None => (0..s.values.len() as i64).map(|i| i * 3600).collect(),
    };
    let mut jobs: Vec<Job> = Vec::new();
    // Open runs: (0 = 4-GPU block b, 1 = single layer k) → start.
    // (A plain vector: a handful of runs are open at once.)
    let mut open: Vec<((u8, u32), i64)> = Vec::new();
    let mut prev_end: Option<i64> = None;
    for (&t, &v) in times.iter().zip(&s.values) {
        let v = if v.is_finite() { v.max(0.0) } else { 0.0 };
        let tenths = (v * 10.0).round() as u64;
        let (whole, frac) = ((tenths / 10) as u32, (tenths % 10) as i64);
        let contiguous = prev_end == Some(t);
        let mut active: Vec<(u8, u32)> = Vec::new();
        let full = whole / BLOCK;
        for b in 0..full {
            active.push((0, b));
        }
        for k in full * BLOCK + 1..=whole {
            active.push((1, k));
        }
        // Close what ends here (or everything, after a gap), and runs at their longest.
        let mut k = 0;
        while k < open.len() {
            let (key, start) = open[k];
            let keep = contiguous && active.contains(&key) && t - start < MAX_RUN_HOURS * 3600;
            if keep {
                k += 1;
                continue;
            }
            open.remove(k);
            jobs.push(Job {
                start,
                end: End::At(prev_end.unwrap_or(t)),
                gpus: if key.0 == 0 { BLOCK } else { 1 },
                cpus: 0,
            });
        }
        for key in active {
            if !open.iter().any(|(x, _)| *x == key) {
                open.push((key, t));
            }
        }
        if frac > 0 {
            let len = frac * 360;
            let start = t + (3600 - len) / 2;
            jobs.push(Job {
                start,
                end: End::At(start + len),
                gpus: 1,
                cpus: 0,
            });
        }
        // A CPU job every sixth hour.
        if (t / 3600).rem_euclid(6) == 0 {
            jobs.push(Job {
                start: t,
                end: End::At(t + 3600),
                gpus: 0,
                cpus: 32,
            });
        }
        prev_end = Some(t + 3600);
    }
    let now = prev_end.unwrap_or(0);
    for (key, start) in open {
        jobs.push(Job {
            start,
            end: if running { End::Running } else { End::At(now) },
            gpus: if key.0 == 0 { BLOCK } else { 1 },
            cpus: 0,
        });
    }
    if let Some(&first) = times.first() {
        // The latest time written is the last hour's end: a CPU job ends there.
        jobs.push(Job {
            start: now - 1800,
            end: End::At(now),
            gpus: 0,
            cpus: 4,
        });
        let cancel = (now - 1800).max(first);
        jobs.push(Job {
            start: cancel,
            end: End::Cancelled(cancel),
            gpus: 4,
            cpus: 0,
        });
        for _ in 0..2 {
            jobs.push(Job {
                start: now,
                end: End::Pending,
                gpus: 8,
                cpus: 0,
            });
        }
    }
    // Submission order: by start (pending ones last), then longer jobs first, then as made.
    let mut order: Vec<(bool, i64, i64, usize)> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| {
            let end = match j.end {
                End::At(e) => e,
                End::Running | End::Pending => i64::MAX,
                End::Cancelled(t) => t,
            };
            (matches!(j.end, End::Pending), j.start, -end, i)
        })
        .collect();
    order.sort_unstable();
    let mut out = String::with_capacity(jobs.len() * 110 + 80);
    out.push_str(HEADER);
    out.push('\n');
    let mut rng = Rng(0x51A2_0001);
    for (n, &(_, _, _, i)) in order.iter().enumerate() {
        write_job(&mut out, 4100 + n as u64, &jobs[i], now, off, &mut rng);
    }
    out
}

/// Benchmark input: a `sacct -P -X` export of `jobs` jobs started over a year from 2026-01-01
/// (one every ⌊365 days / jobs⌋ seconds: 1 000 000 jobs over 359 days, 8 642 hours; naive local
/// times, ~134 bytes a line: 1 000 000 jobs ≈ 134 MB). 1–8 GPUs (a fifth CPU-only),
/// half of the GPU jobs typed `gres/gpu:a100` / `h100` / `l40s` (with the untyped total, as
/// Slurm writes it), 5 minutes to 2 days long; one in a hundred pending, one in two hundred
/// cancelled before it started, the last ones still running.
pub fn generate_sacct(jobs: usize) -> String {
    const YEAR_S: i64 = 365 * 86_400;
    const T0: i64 = 1_767_225_600; // 2026-01-01 00:00
    const TYPES: [&str; 3] = ["a100", "h100", "l40s"];
    let mut rng = Rng(0x5AC7_0001);
    let mut out = String::with_capacity(jobs.saturating_mul(128).saturating_add(80));
    out.push_str(HEADER);
    out.push('\n');
    let per = (YEAR_S / jobs.max(1) as i64).max(1);
    let end_of_log = T0 + YEAR_S;
    for i in 0..jobs {
        let r = rng.next_u64();
        let start = T0 + i as i64 * per + (r % per as u64) as i64;
        let len = 300 + (rng.next_u64() % (2 * 86_400 - 300)) as i64;
        let end = (start + len).min(end_of_log);
        let kind = r >> 32;
        let _ = write!(out, "{}|", 1_000_000 + i);
        let gpus = [1u32, 1, 2, 4, 8][(kind % 5) as usize];
        let cpu_only = kind % 5 == 0 && (kind >> 3) % 4 == 0;
        let running = jobs - i <= jobs / 500;
        if kind % 100 == 7 {
            out.push_str("Unknown|Unknown|0||PENDING");
        } else if kind % 200 == 13 {
            out.push_str("None|");
            push_time(&mut out, start, 0);
            out.push_str("|0||CANCELLED by 1001");
        } else {
            push_time(&mut out, start, 0);
            out.push('|');
            if running {
                out.push_str("Unknown");
            } else {
                push_time(&mut out, end, 0);
            }
            let _ = write!(out, "|{}|", end - start);
            if cpu_only {
                out.push_str("billing=16,cpu=16,mem=64G,node=1");
            } else {
                let _ = write!(out, "billing={},cpu={},", 8 * gpus, 8 * gpus);
                if (kind >> 5) % 2 == 0 {
                    let ty = TYPES[((kind >> 6) % 3) as usize];
                    let _ = write!(out, "gres/gpu:{ty}={gpus},");
                }
                let _ = write!(out, "gres/gpu={gpus},mem={}G,node=1", 64 * gpus);
            }
            out.push_str(if running { "|RUNNING" } else { "|COMPLETED" });
        }
        let _ = writeln!(
            out,
            "|{}|{}|gpu-{}",
            ACCOUNTS[(kind >> 10) as usize % ACCOUNTS.len()],
            USERS[(kind >> 12) as usize % USERS.len()],
            ["a100", "h100", "mixed"][((kind >> 14) % 3) as usize]
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ingest::{parse, Format, ParseOptions};

    fn read(text: &str, off: i32) -> crate::core::ingest::Parsed {
        let o = ParseOptions {
            utc_offset_minutes: off,
            ..ParseOptions::default()
        };
        parse(text, &o).expect("the sample reads")
    }

    #[test]
    fn the_sample_reads_back_as_its_series() {
        for off in [0, 480, -300] {
            let start = 1_793_538_000; // 2026-11-01 13:00 UTC
            let want = examples::series(Example::BurstyLab, start, off);
            let text = sacct(start, off);
            let p = read(&text, off);
            assert_eq!(p.report.format, Format::Slurm);
            assert_eq!(p.series.timestamps, want.timestamps, "offset {off}");
            assert_eq!(p.series.values.len(), want.values.len());
            for (i, (a, b)) in p.series.values.iter().zip(&want.values).enumerate() {
                assert!((a - b).abs() < 1e-9, "hour {i}: {a} vs {b} (offset {off})");
            }
            let r = p.report.slurm.as_ref().unwrap();
            assert_eq!(r.never_started, 3);
            assert!(r.running > 0);
            assert_eq!(
                r.run_to,
                want.timestamps.as_ref().map(|t| t[t.len() - 1] + 3600)
            );
            assert!(r.no_gpu_jobs > 100);
            assert_eq!(r.jobs, text.lines().count() - 1);
            assert_eq!(p.report.rows_rejected, 0);
            let total: f64 = want.values.iter().sum();
            assert!((r.gpu_hours - total).abs() < 1e-6);
        }
    }

    #[test]
    fn a_series_with_gaps_and_zeros_reads_back() {
        let s = UsageSeries {
            values: vec![0.0, 5.3, 9.0, 0.4, 8.0, 2.0],
            timestamps: Some(vec![0, 3600, 7200, 4 * 3600, 5 * 3600, 6 * 3600]),
            utc_offset_minutes: 0,
            offset_changes: Vec::new(),
        };
        let text = sacct_from_series(&s, false);
        // Read in 1990+ only: shift the times.
        let shift = 1_793_538_000;
        let shifted = UsageSeries {
            timestamps: s
                .timestamps
                .as_ref()
                .map(|t| t.iter().map(|x| x + shift).collect()),
            ..s.clone()
        };
        let text2 = sacct_from_series(&shifted, false);
        assert_ne!(text, text2);
        let p = read(&text2, 0);
        // Job logs fill the idle hour in the gap with 0; the idle first hour has no job (no
        // CPU job either: 13:00 is not a sixth hour), so the history starts an hour later.
        let want = [5.3, 9.0, 0.0, 0.4, 8.0, 2.0];
        assert_eq!(
            p.series.timestamps.as_ref().map(|t| t[0]),
            Some(shift + 3600)
        );
        assert_eq!(p.series.values.len(), want.len());
        for (a, b) in p.series.values.iter().zip(want) {
            assert!((a - b).abs() < 1e-9, "{a} vs {b}");
        }
        assert_eq!(p.report.slurm.as_ref().unwrap().running, 0);
    }

    #[test]
    fn the_benchmark_file_reads() {
        let text = generate_sacct(20_000);
        let o = ParseOptions {
            max_input_bytes: usize::MAX,
            ..ParseOptions::default()
        };
        let p = parse(&text, &o).expect("reads");
        let r = p.report.slurm.as_ref().unwrap();
        assert_eq!(r.jobs, 20_000);
        assert_eq!(p.report.rows_rejected, 0);
        assert!(r.never_started > 100 && r.running > 10 && r.no_gpu_jobs > 500);
        assert_eq!(p.types.len(), 4, "a100, h100, l40s and untyped");
        let per_line = text.len() / 20_000;
        assert!((110..=140).contains(&per_line), "{per_line} bytes a line");
    }
}

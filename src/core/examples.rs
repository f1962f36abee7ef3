//! Built-in example histories for "Try an example": generated in code (deterministic,
//! a small built-in PRNG), 30 days hourly with timestamps. [`csv`] renders the same
//! history as text that `core::ingest::parse` reads back identically.
//!
//! Local time bands used by the generators: weekday day = Monday–Friday 09:00–21:00,
//! weekday night = the other weekday hours, weekend = Saturday and Sunday.

use std::fmt::Write as _;

use crate::core::calendar::civil_from_days;
use crate::core::series::UsageSeries;

/// Days in every example history.
pub const DAYS: usize = 30;

/// The built-in example histories (`Example`: an example history; a data point of a series is `ingest::resample::Sample`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Example {
    /// A pre-training cluster: 64 GPUs busy around the clock, rare one-node dips.
    SteadyPretraining,
    /// A research lab: weekday daytime ~8 (min 6), weekday nights ~4 (min 2),
    /// weekends ~3 (min 1).
    BurstyLab,
    /// A team at ~10 GPUs for 23 days, then ~4 in the last 7 days.
    RecentDrop,
}

impl Example {
    pub const ALL: [Example; 3] = [
        Example::SteadyPretraining,
        Example::BurstyLab,
        Example::RecentDrop,
    ];

    /// Stable machine name.
    pub fn key(self) -> &'static str {
        match self {
            Example::SteadyPretraining => "steady-pretraining",
            Example::BurstyLab => "bursty-lab",
            Example::RecentDrop => "recent-drop",
        }
    }
}

/// SplitMix64: tiny, deterministic, good enough for example data (and the samples of
/// `prom_samples`, `slurm_sample`).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Start of the local hour containing `start_unix`.
fn align(start_unix: i64, off: i32) -> i64 {
    let o = i64::from(off) * 60;
    (start_unix + o).div_euclid(3600) * 3600 - o
}

/// The example history: [`DAYS`] × 24 hourly values from the local hour containing
/// `start_unix`, with timestamps.
pub fn series(example: Example, start_unix: i64, utc_offset_minutes: i32) -> UsageSeries {
    let start = align(start_unix, utc_offset_minutes);
    let o = i64::from(utc_offset_minutes) * 60;
    let hours = DAYS * 24;
    let mut rng = Rng(match example {
        Example::SteadyPretraining => 0x5EED_0001,
        Example::BurstyLab => 0x5EED_0002,
        Example::RecentDrop => 0x5EED_0003,
    });
    let mut values = Vec::with_capacity(hours);
    let mut timestamps = Vec::with_capacity(hours);
    for i in 0..hours {
        let t = start + i as i64 * 3600;
        let local = t + o;
        let day = local.div_euclid(86_400);
        let weekday = (day + 3).rem_euclid(7); // 0 = Monday (1970-01-01 was a Thursday)
        let hour = local.rem_euclid(86_400) / 3600;
        let u = rng.unit();
        let v = match example {
            Example::SteadyPretraining => {
                if u < 0.03 {
                    56.0
                } else {
                    64.0
                }
            }
            Example::BurstyLab => {
                let weekend = weekday >= 5;
                if weekend {
                    1.0 + 4.0 * u
                } else if (9..21).contains(&hour) {
                    6.0 + 4.0 * u
                } else {
                    2.0 + 4.0 * u
                }
            }
            Example::RecentDrop => {
                if i < (DAYS - 7) * 24 {
                    9.0 + 2.0 * u
                } else {
                    3.0 + 2.0 * u
                }
            }
        };
        values.push(tenth(v));
        timestamps.push(t);
    }
    UsageSeries {
        values,
        timestamps: Some(timestamps),
        utc_offset_minutes,
        offset_changes: Vec::new(),
    }
}

fn push_local_iso(out: &mut String, t: i64, off: i32) {
    let local = t + i64::from(off) * 60;
    let (y, m, d) = civil_from_days(local.div_euclid(86_400));
    let sec = local.rem_euclid(86_400);
    let sign = if off < 0 { '-' } else { '+' };
    let a = off.unsigned_abs();
    let _ = write!(
        out,
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}{sign}{:02}:{:02}",
        sec / 3600,
        sec % 3600 / 60,
        sec % 60,
        a / 60,
        a % 60
    );
}

/// The same history as [`series`], as CSV text (`timestamp,gpus_busy`, ISO 8601 with
/// the offset) that the ingest parser reads back identically.
pub fn csv(example: Example, start_unix: i64, utc_offset_minutes: i32) -> String {
    let s = series(example, start_unix, utc_offset_minutes);
    let mut out = String::with_capacity(s.values.len() * 32 + 32);
    out.push_str("timestamp,gpus_busy\n");
    let ts = s.timestamps.unwrap_or_default();
    for (t, v) in ts.iter().zip(&s.values) {
        push_local_iso(&mut out, *t, utc_offset_minutes);
        let _ = writeln!(out, ",{v}");
    }
    out
}

/// Benchmark input: `hours` hourly rows, every 60th row of [`generate_minutely_csv`] (the
/// native and the browser bench use the same 30-day series).
pub fn generate_hourly_csv(hours: usize) -> String {
    let minutely = generate_minutely_csv(hours.saturating_mul(60));
    let mut out = String::from("time,gpus\n");
    for line in minutely.lines().skip(1).step_by(60) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Benchmark input: a header and `rows` per-minute rows `2026-01-01 00:00,37.5`
/// (naive local time, ~22 bytes a row: 525 600 rows ≈ 11.6 MB).
pub fn generate_minutely_csv(rows: usize) -> String {
    let mut out = String::with_capacity(rows.saturating_mul(23).saturating_add(16));
    out.push_str("time,gpus\n");
    let mut rng = Rng(0xBE7C_4000);
    each_minute(rows, |_, stamp| {
        let v = rng.next_u64() % 640;
        let _ = writeln!(out, "{stamp},{}.{}", v / 10, v % 10);
    });
    out
}

/// The GPU types of the mixed-fleet benchmark input, in column (and first-appearance) order.
/// Each is a header that `ingest::looks_like_gpu_type` recognises.
pub const FLEET_TYPES: [&str; 8] = [
    "A100", "H100", "4090", "L40S", "A10", "V100", "H800", "3090",
];

/// One minute of the mixed-fleet benchmark: GPUs busy per type of [`FLEET_TYPES`], in tenths.
/// Each type has its own level and shape, so their waterlines differ:
/// A100 steady training ~60 (tenths); H100 96–100 with a 128-GPU run every third week;
/// 4090 inference, ~14 in the day (09–21) and ~4 at night (tenths); L40S ~24 on weekday
/// days, ~10 at night, ~8 at weekends (tenths); A10 2–6; V100 a legacy pool shrinking from
/// ~20 to ~4 over the year (tenths); H800 jobs of 32–35 GPUs in about a third of the hours;
/// 3090 experiments, 0–8 on weekday days and 0–1 otherwise.
struct FleetMinutes {
    rng: Rng,
    hour_rng: Rng,
    h800_on: bool,
}

impl FleetMinutes {
    fn new() -> Self {
        Self {
            rng: Rng(0xF1EE_7000),
            hour_rng: Rng(0xF1EE_7001),
            h800_on: false,
        }
    }

    /// Minute `i` from the start (2026-01-01 00:00, a Thursday). Call in order.
    fn at(&mut self, i: usize) -> [u64; 8] {
        let day = i / 1440;
        let hour = i % 1440 / 60;
        if i % 60 == 0 {
            self.h800_on = self.hour_rng.next_u64() % 3 == 0;
        }
        let weekend = matches!((day + 3) % 7, 5 | 6); // 0 = Monday
        let daytime = (9..21).contains(&hour);
        let r = &mut self.rng;
        let mut n = |m: u64| r.next_u64() % m;
        let h100_run = (day / 7) % 3 == 0;
        let v100_level = 200 - (160 * day as u64) / 365;
        [
            560 + n(81),
            if h100_run { 1280 } else { 960 + n(5) * 10 },
            if daytime { 120 + n(41) } else { 30 + n(21) },
            if weekend {
                70 + n(21)
            } else if daytime {
                220 + n(41)
            } else {
                90 + n(21)
            },
            (2 + n(5)) * 10,
            v100_level + n(21),
            if self.h800_on { (32 + n(4)) * 10 } else { 0 },
            if !weekend && daytime {
                n(9) * 10
            } else {
                n(2) * 10
            },
        ]
    }
}

/// `tenths` / 10 as the shortest decimal: `37.5`, `12`.
fn push_tenths(out: &mut String, tenths: u64) {
    if tenths % 10 == 0 {
        let _ = write!(out, "{}", tenths / 10);
    } else {
        let _ = write!(out, "{}.{}", tenths / 10, tenths % 10);
    }
}

/// Calls `row(date_time, values)` for each of `rows` minutes from 2026-01-01 00:00.
fn fleet_rows(rows: usize, mut row: impl FnMut(&str, &[u64; 8])) {
    let mut gen = FleetMinutes::new();
    each_minute(rows, |i, stamp| row(stamp, &gen.at(i)));
}

/// Calls `f(i, "YYYY-MM-DD HH:MM")` for each minute `i` of `rows` minutes from 2026-01-01
/// 00:00 (the date written once a day).
fn each_minute(rows: usize, mut f: impl FnMut(usize, &str)) {
    let start_day = 20_454; // 2026-01-01
    let mut day = -1;
    let mut stamp = String::new();
    for i in 0..rows {
        let d = start_day + (i / 1440) as i64;
        if d != day {
            day = d;
            let (y, m, dd) = civil_from_days(d);
            stamp.clear();
            let _ = write!(stamp, "{y:04}-{m:02}-{dd:02} 00:00");
        }
        let minute = i % 1440;
        stamp.truncate(11);
        let _ = write!(stamp, "{:02}:{:02}", minute / 60, minute % 60);
        f(i, &stamp);
    }
}

/// Mixed-fleet benchmark input as a wide table: `timestamp,A100,H100,…` ([`FLEET_TYPES`]) and
/// `rows` per-minute rows `2026-01-01 00:00,57.3,96,…` (naive local time; 525 600 rows, a
/// year, ≈ 23 MB).
pub fn generate_fleet_wide_csv(rows: usize) -> String {
    let mut out = String::with_capacity(rows.saturating_mul(48).saturating_add(64));
    out.push_str("timestamp");
    for t in FLEET_TYPES {
        out.push(',');
        out.push_str(t);
    }
    out.push('\n');
    fleet_rows(rows, |stamp, values| {
        out.push_str(stamp);
        for &v in values {
            out.push(',');
            push_tenths(&mut out, v);
        }
        out.push('\n');
    });
    out
}

/// The same samples as [`generate_fleet_wide_csv`] as a long table `timestamp,gpu_type,gpus`:
/// eight rows a minute, one per type in [`FLEET_TYPES`] order (a year ≈ 106 MB, more than
/// the page's 50 MiB input limit: parse it with a larger `max_input_bytes`).
pub fn generate_fleet_long_csv(rows: usize) -> String {
    let mut out = String::with_capacity(rows.saturating_mul(8 * 23).saturating_add(32));
    out.push_str("timestamp,gpu_type,gpus\n");
    fleet_rows(rows, |stamp, values| {
        for (t, &v) in FLEET_TYPES.iter().zip(values) {
            out.push_str(stamp);
            out.push(',');
            out.push_str(t);
            out.push(',');
            push_tenths(&mut out, v);
            out.push('\n');
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ingest::{parse, Format, GapPolicy, ParseOptions};

    const START: i64 = 1_793_538_000; // 2026-11-01T13:00:00Z, a Sunday

    /// Panics unless line `n` (from 0) of `text` starts with `prefix`.
    fn assert_line_starts(text: &str, n: usize, prefix: &str) {
        let line = text.lines().nth(n).unwrap_or_else(|| panic!("no line {n}"));
        assert!(line.starts_with(prefix), "line {n}: {line}");
    }

    fn band_means(s: &UsageSeries) -> ([f64; 3], [f64; 3]) {
        let mut sum = [0.0; 3];
        let mut n = [0.0; 3];
        let mut min = [f64::MAX; 3];
        let o = i64::from(s.utc_offset_minutes) * 60;
        for (t, v) in s.timestamps.as_ref().unwrap().iter().zip(&s.values) {
            let local = t + o;
            let wd = (local.div_euclid(86_400) + 3).rem_euclid(7);
            let h = local.rem_euclid(86_400) / 3600;
            let b = if wd >= 5 {
                2
            } else if (9..21).contains(&h) {
                0
            } else {
                1
            };
            sum[b] += v;
            n[b] += 1.0;
            min[b] = f64::min(min[b], *v);
        }
        ([sum[0] / n[0], sum[1] / n[1], sum[2] / n[2]], min)
    }

    #[test]
    fn deterministic_and_month_long() {
        for s in Example::ALL {
            let a = series(s, START, 480);
            assert_eq!(a, series(s, START, 480));
            assert_eq!(a.len(), DAYS * 24);
            assert!(a.values.iter().all(|v| v.is_finite() && *v >= 0.0));
            let ts = a.timestamps.as_ref().unwrap();
            assert!(ts.windows(2).all(|w| w[1] - w[0] == 3600));
        }
    }

    #[test]
    fn bursty_lab_matches_the_seed_table() {
        let (mean, min) = band_means(&series(Example::BurstyLab, START, 480));
        assert!((mean[0] - 8.0).abs() < 0.4, "{mean:?}");
        assert!((mean[1] - 4.0).abs() < 0.4, "{mean:?}");
        assert!((mean[2] - 3.0).abs() < 0.4, "{mean:?}");
        assert!(
            (min[0] - 6.0).abs() < 0.3 && (min[1] - 2.0).abs() < 0.3 && (min[2] - 1.0).abs() < 0.3,
            "{min:?}"
        );
    }

    #[test]
    fn recent_drop_drops_in_the_last_week() {
        let s = series(Example::RecentDrop, START, 0);
        let split = (DAYS - 7) * 24;
        let before = s.values[..split].iter().sum::<f64>() / split as f64;
        let after = s.values[split..].iter().sum::<f64>() / (s.len() - split) as f64;
        assert!(
            (before - 10.0).abs() < 0.3 && (after - 4.0).abs() < 0.3,
            "{before} {after}"
        );
    }

    #[test]
    fn steady_is_steady() {
        let s = series(Example::SteadyPretraining, START, 0);
        let mean = s.values.iter().sum::<f64>() / s.len() as f64;
        assert!(mean > 62.0 && mean <= 64.0);
        assert!(s.values.iter().all(|&v| v == 64.0 || v == 56.0));
    }

    #[test]
    fn csv_round_trips_through_the_parser() {
        for off in [480, 0, -300, 330] {
            for s in Example::ALL {
                let text = csv(s, START + 1234, off);
                let opts = ParseOptions {
                    utc_offset_minutes: off,
                    gaps: GapPolicy::Zero,
                    ..Default::default()
                };
                let parsed = parse(&text, &opts).unwrap();
                assert_eq!(parsed.series, series(s, START + 1234, off), "{s:?} {off}");
                assert_eq!(parsed.report.format, Format::Table);
                assert_eq!(parsed.report.rows_rejected, 0);
                assert_eq!(parsed.report.missing_hours, 0);
            }
        }
    }

    #[test]
    fn hourly_csv_is_every_60th_minutely_row() {
        let hourly = generate_hourly_csv(30 * 24);
        let minutely = generate_minutely_csv(30 * 24 * 60);
        assert_eq!(hourly.lines().count(), 721);
        assert_eq!(hourly.lines().next(), Some("time,gpus"));
        assert_eq!(hourly.lines().nth(2), minutely.lines().nth(61));
        assert_line_starts(&hourly, 25, "2026-01-02 00:00,");
    }

    #[test]
    fn fleet_csv_wide_and_long_read_as_the_same_eight_types() {
        use crate::core::ingest::{looks_like_gpu_type, TypeSource};
        assert!(FLEET_TYPES.iter().all(|t| looks_like_gpu_type(t)));
        let days = 3;
        let wide = generate_fleet_wide_csv(days * 1440);
        let long = generate_fleet_long_csv(days * 1440);
        assert_eq!(wide.lines().count(), days * 1440 + 1);
        assert_eq!(long.lines().count(), days * 1440 * 8 + 1);
        assert_eq!(
            wide.lines().next(),
            Some("timestamp,A100,H100,4090,L40S,A10,V100,H800,3090")
        );
        assert_line_starts(&long, 1, "2026-01-01 00:00,A100,");
        assert_line_starts(&long, 8, "2026-01-01 00:00,3090,");
        // A year of the wide form is about 25 MB.
        let per_row = wide.len() as f64 / (days * 1440) as f64;
        assert!((44.0..=50.0).contains(&per_row), "{per_row}");
        let w = parse(&wide, &ParseOptions::default()).unwrap();
        let l = parse(&long, &ParseOptions::default()).unwrap();
        assert_eq!(w.report.type_source, Some(TypeSource::Headers));
        assert!(matches!(l.report.type_source, Some(TypeSource::Column(_))));
        for p in [&w, &l] {
            assert_eq!(p.types.len(), 8);
            assert_eq!(p.report.rows_rejected, 0);
            assert_eq!(p.series.len(), days * 24);
            let labels: Vec<&str> = p.types.iter().map(|t| t.label.as_str()).collect();
            assert_eq!(labels, FLEET_TYPES);
        }
        let mut means = Vec::new();
        for (a, b) in w.types.iter().zip(&l.types) {
            assert_eq!(a.key, b.key);
            assert_eq!(a.series.timestamps, b.series.timestamps);
            assert_eq!(a.series.values.len(), days * 24);
            for (x, y) in a.series.values.iter().zip(&b.series.values) {
                assert!((x - y).abs() < 1e-9, "{}: {x} {y}", a.label);
            }
            means.push(a.series.values.iter().sum::<f64>() / a.series.len() as f64);
        }
        // Different levels per type.
        assert!(
            means.windows(2).all(|m| (m[0] - m[1]).abs() > 0.5),
            "{means:?}"
        );
        assert_eq!(w.series, l.series);
    }

    #[test]
    fn minutely_csv_shape_and_parse() {
        let text = generate_minutely_csv(3000);
        assert_eq!(text.lines().count(), 3001);
        assert_line_starts(&text, 1, "2026-01-01 00:00,");
        assert_line_starts(&text, 1441, "2026-01-02 00:00,");
        let per_row = text.len() as f64 / 3000.0;
        assert!((20.0..=24.0).contains(&per_row), "{per_row}");
        let p = parse(&text, &ParseOptions::default()).unwrap();
        assert_eq!(p.report.rows_read, 3000);
        assert_eq!(p.series.len(), 50);
        assert_eq!(p.report.resolution_seconds, Some(60));
    }
}

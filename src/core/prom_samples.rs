//! Prometheus `query_range` answers built from an hourly series, for "Try an example" and
//! the benchmarks: what the NVIDIA DCGM exporter (`DCGM_FI_DEV_GPU_UTIL`, one series per GPU)
//! and kube-state-metrics (`kube_pod_container_resource_requests{resource="nvidia_com_gpu"}`,
//! one series per pod) would have recorded at one-minute steps. Pure and deterministic;
//! read back by `core::ingest`, each gives the series it was built from exactly (the hour is
//! the mean of its 60 steps, and an example's values are tenths, so 60 × value is a whole
//! number of GPU-minutes).

use std::fmt::Write as _;

use crate::core::examples::{self, Example, Rng};
use crate::core::series::UsageSeries;

/// The Prometheus examples under "Try an example".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PromSample {
    /// DCGM exporter utilisation of 12 GPUs, from the bursty lab's history.
    Dcgm,
    /// Kubernetes GPU requests of up to 11 pods, from the history whose usage dropped.
    Kubernetes,
}

impl PromSample {
    pub const ALL: [PromSample; 2] = [PromSample::Dcgm, PromSample::Kubernetes];

    /// Stable machine name (`sample-dcgm`, `sample-kubernetes` in the page).
    pub fn key(self) -> &'static str {
        match self {
            PromSample::Dcgm => "dcgm",
            PromSample::Kubernetes => "kubernetes",
        }
    }

    /// The plain example whose hourly series this one is built from.
    pub fn source(self) -> Example {
        match self {
            PromSample::Dcgm => Example::BurstyLab,
            PromSample::Kubernetes => Example::RecentDrop,
        }
    }

    /// The answer's text, for the 30 days from the local hour containing `start_unix`.
    pub fn json(self, start_unix: i64, utc_offset_minutes: i32) -> String {
        let s = examples::series(self.source(), start_unix, utc_offset_minutes);
        match self {
            PromSample::Dcgm => dcgm_from_series(&s, DCGM_GPUS, DCGM_MODEL),
            PromSample::Kubernetes => requests_from_series(&s),
        }
    }
}

/// GPUs of the DCGM example (the bursty lab peaks at 10 busy: 2 stay idle but reporting).
pub const DCGM_GPUS: usize = 12;
/// The `modelName` the DCGM example's GPUs carry.
pub const DCGM_MODEL: &str = "NVIDIA A100-SXM4-80GB";

const STEP_S: i64 = 60;
const STEPS_PER_HOUR: i64 = 3600 / STEP_S;

/// Busy units at each one-minute step of an hour of mean `v`: `round(60 v)` spread as
/// evenly as whole numbers allow (the first steps get one more).
fn per_step(v: f64, step: i64) -> u64 {
    let total = (v.max(0.0) * STEPS_PER_HOUR as f64).round() as u64;
    let base = total / STEPS_PER_HOUR as u64;
    let extra = total % STEPS_PER_HOUR as u64;
    base + u64::from((step as u64) < extra)
}

const HEAD: &str = r#"{"status":"success","data":{"resultType":"matrix","result":["#;
const TAIL: &str = "]}}\n";

/// The hours of `s` as (start unix seconds, value); a series without times starts at 0.
fn hours(s: &UsageSeries) -> Vec<(i64, f64)> {
    match &s.timestamps {
        Some(t) => t.iter().copied().zip(s.values.iter().copied()).collect(),
        None => s
            .values
            .iter()
            .enumerate()
            .map(|(i, &v)| (i as i64 * 3600, v))
            .collect(),
    }
}

/// A DCGM exporter range of `gpus` GPUs at one-minute steps whose busy count (utilisation
/// at or above 10 %) averages to `s` hour by hour: at each step the first `count` GPUs in a
/// rotating order are busy (40–99 %), the others idle (0–9 %) but reporting. Hours above
/// `gpus` are capped at `gpus`.
pub fn dcgm_from_series(s: &UsageSeries, gpus: usize, model: &str) -> String {
    let hours = hours(s);
    let gpus = gpus.max(1);
    let mut out = String::with_capacity(gpus * hours.len() * 60 * 18 + 1024);
    out.push_str(HEAD);
    let mut rng = Rng(0xDC6A_0001);
    for g in 0..gpus {
        if g > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            r#"{{"metric":{{"__name__":"DCGM_FI_DEV_GPU_UTIL","DCGM_FI_DRIVER_VERSION":"550.54.15","Hostname":"gpu-node-{}","UUID":"GPU-{:08x}-5a1e-4c2b-9d3f-{:012x}","container":"","device":"nvidia{}","gpu":"{}","instance":"10.0.0.{}:9400","job":"dcgm-exporter","modelName":"{model}","namespace":"","pci_bus_id":"00000000:{:02X}:00.0","pod":""}},"values":["#,
            g / 8,
            0x3f2a_0000u32 + g as u32,
            g,
            g % 8,
            g % 8,
            10 + g / 8,
            0x10 + g % 8 * 0x10,
        );
        let mut first = true;
        for (h, &(t0, v)) in hours.iter().enumerate() {
            for step in 0..STEPS_PER_HOUR {
                let busy = per_step(v, step) as usize;
                let rank = (g + h) % gpus;
                let r = rng.next_u64();
                let util = if rank < busy { 40 + r % 60 } else { r % 10 };
                if !first {
                    out.push(',');
                }
                first = false;
                let _ = write!(out, r#"[{},"{util}"]"#, t0 + step * STEP_S);
            }
        }
        out.push_str("]}");
    }
    out.push_str(TAIL);
    out
}

/// kube-state-metrics GPU requests at one-minute steps summing to `s` hour by hour: pods
/// `trainer-0`, `trainer-1`, … of one GPU each, pod `k` running (with a sample) at the steps
/// where more than `k` GPUs are requested, absent otherwise.
pub fn requests_from_series(s: &UsageSeries) -> String {
    let hours = hours(s);
    let peak = hours
        .iter()
        .flat_map(|&(_, v)| (0..STEPS_PER_HOUR).map(move |st| per_step(v, st)))
        .max()
        .unwrap_or(0) as usize;
    let mut out = String::with_capacity(peak * hours.len() * 60 * 18 / 2 + 1024);
    out.push_str(HEAD);
    let mut any = false;
    for k in 0..peak {
        let mut samples = String::new();
        for &(t0, v) in &hours {
            for step in 0..STEPS_PER_HOUR {
                if per_step(v, step) as usize > k {
                    if !samples.is_empty() {
                        samples.push(',');
                    }
                    let _ = write!(samples, r#"[{},"1"]"#, t0 + step * STEP_S);
                }
            }
        }
        if samples.is_empty() {
            continue;
        }
        if any {
            out.push(',');
        }
        any = true;
        let _ = write!(
            out,
            r#"{{"metric":{{"__name__":"kube_pod_container_resource_requests","container":"trainer","instance":"10.0.1.5:8080","job":"kube-state-metrics","namespace":"ml","node":"gpu-node-{}","pod":"trainer-{k}","resource":"nvidia_com_gpu","uid":"7c9e{k:04x}-2b1d-4f0e-9a61-3e5d0c8b{k:04x}","unit":"integer"}},"values":[{samples}]}}"#,
            k / 8
        );
    }
    out.push_str(TAIL);
    out
}

/// Benchmark input: a DCGM exporter `query_range` answer of `gpus` GPUs over `days` days at
/// `step_s`-second steps from 2026-01-01 00:00 UTC (`DCGM_FI_DEV_GPU_UTIL`, H100s), with a
/// daily cycle: most GPUs busy by day, fewer at night. 64 GPUs × 30 days × 60 s ≈ 47 MB.
pub fn generate_dcgm(gpus: usize, days: usize, step_s: u32) -> String {
    let step = i64::from(step_s.max(1));
    let t0 = 1_767_225_600i64; // 2026-01-01 00:00 UTC
    let steps = (days as i64 * 86_400 / step).max(1);
    let mut out = String::with_capacity(gpus * steps as usize * 18 + 1024);
    out.push_str(HEAD);
    let mut rng = Rng(0xBE7C_DC6A);
    for g in 0..gpus {
        if g > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            r#"{{"metric":{{"__name__":"DCGM_FI_DEV_GPU_UTIL","Hostname":"node-{}","UUID":"GPU-{:08x}-0000-4000-8000-{:012x}","gpu":"{}","modelName":"NVIDIA H100 80GB HBM3"}},"values":["#,
            g / 8,
            g,
            g,
            g % 8
        );
        for i in 0..steps {
            let t = t0 + i * step;
            let hour = (t % 86_400) / 3600;
            // By day 90 % of the GPUs are busy, at night 40 %.
            let busy_share = if (8..20).contains(&hour) { 90 } else { 40 };
            let r = rng.next_u64();
            let util = if (r % 100) < busy_share {
                30 + (r >> 8) % 70
            } else {
                (r >> 8) % 8
            };
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, r#"[{t},"{util}"]"#);
        }
        out.push_str("]}");
    }
    out.push_str(TAIL);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ingest::{parse, ParseOptions, PromReading};

    const START: i64 = 1_793_538_000; // an hour start

    fn read(text: &str) -> crate::core::ingest::Parsed {
        parse(text, &ParseOptions::default()).expect("reads")
    }

    #[test]
    fn per_step_spreads_whole_gpu_minutes() {
        // 6.3 GPUs over an hour = 378 GPU-minutes: 18 steps of 7, 42 of 6.
        let v: Vec<u64> = (0..60).map(|s| per_step(6.3, s)).collect();
        assert_eq!(v.iter().sum::<u64>(), 378);
        assert_eq!(v.iter().filter(|&&x| x == 7).count(), 18);
        assert_eq!(per_step(0.0, 0), 0);
    }

    #[test]
    fn dcgm_example_reads_back_as_its_series() {
        let src = examples::series(Example::BurstyLab, START, 0);
        let p = read(&PromSample::Dcgm.json(START, 0));
        assert_eq!(p.series.values, src.values);
        assert_eq!(p.series.timestamps, src.timestamps);
        let prom = p.report.prometheus.expect("prometheus report");
        assert_eq!(prom.reading, PromReading::BusyPercent);
        assert_eq!(prom.metric, "DCGM_FI_DEV_GPU_UTIL");
        assert_eq!(prom.series, DCGM_GPUS);
        assert_eq!(prom.steps, 30 * 24 * 60);
        assert_eq!(prom.absent, 0);
        assert_eq!(p.report.busy_threshold_percent, Some(10.0));
        assert_eq!(p.report.resolution_seconds, Some(60));
        assert_eq!(p.types.len(), 1);
        assert_eq!(p.types[0].key, "a100");
        assert_eq!(prom.series_per_type, vec![DCGM_GPUS]);
    }

    #[test]
    fn kubernetes_example_reads_back_as_its_series() {
        let src = examples::series(Example::RecentDrop, START, 480);
        let p = read(&PromSample::Kubernetes.json(START, 480));
        assert_eq!(p.series.values, src.values);
        assert_eq!(p.series.timestamps, src.timestamps);
        let prom = p.report.prometheus.expect("prometheus report");
        assert_eq!(prom.reading, PromReading::Requests);
        assert!(prom.series >= 11, "{}", prom.series);
        assert!(p.types.is_empty());
        assert_eq!(p.report.missing_hours, 0);
    }

    #[test]
    fn generated_benchmark_is_valid_and_sized() {
        let text = generate_dcgm(4, 1, 60);
        let p = read(&text);
        assert_eq!(p.series.values.len(), 24);
        assert_eq!(p.report.prometheus.as_ref().map(|r| r.series), Some(4));
        assert!(p.series.values.iter().all(|&v| (0.0..=4.0).contains(&v)));
        // 4 GPUs × 1 440 steps × ~18 bytes.
        assert!((80_000..130_000).contains(&text.len()), "{}", text.len());
    }
}

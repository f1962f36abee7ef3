//! Issue 35's properties, over generated tables (`PROPTEST_CASES=1000000 cargo test --release
//! --test fuzz_meaning` is the long run; the default keeps `cargo test` quick):
//!
//! 1. a per-GPU utilisation table — headers in any of the forms real exports write (DCGM label
//!    sets with random labels, hosts and models, dashboard legends `GPU n`, `#n model`,
//!    `host[n]`, utilisation words, percent cells, 0–1 ratios) and random utilisation values —
//!    is never planned as GPU counts without a question or a warning; read as utilisation, no
//!    hour has more GPUs busy than the table has GPU columns;
//! 2. the guard never fires on a valid count table generated from a known series (one column,
//!    team columns, GPU-type columns, a long table), and the table reads back to that series.
#![cfg(not(target_arch = "wasm32"))]

#[allow(dead_code)]
#[path = "common/fuzz.rs"]
mod common;

use gpu_rent_planner::core::ingest::{parse, ColumnMeaning, Format, ParseOptions};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    common::config(400, "tests/regressions/fuzz_meaning.txt")
}

const MODELS: &[&str] = &[
    "NVIDIA A100-SXM4-80GB",
    "NVIDIA H100 80GB HBM3",
    "NVIDIA GeForce RTX 4090",
    "NVIDIA L40S",
    "Tesla V100-SXM2-32GB",
];
const UTIL_METRICS: &[(&str, bool)] = &[
    ("DCGM_FI_DEV_GPU_UTIL", false),
    ("DCGM_FI_PROF_GR_ENGINE_ACTIVE", true),
    ("DCGM_FI_PROF_SM_ACTIVE", true),
    ("nvidia_smi_utilization_gpu_ratio", true),
    ("nvidia_gpu_duty_cycle", false),
];

/// One header per GPU column, in one of the forms exports write.
#[derive(Debug, Clone)]
enum Form {
    /// `METRIC{k="v", …}` (labels shuffled, host label in either case, model or not).
    LabelSet {
        metric: usize,
        host: bool,
        model: bool,
    },
    /// `{gpu="0", UUID="…"}` without a metric name.
    BareLabels,
    /// `GPU 0`, `gpu0`, `GPU-0`, `node-1 GPU 0`.
    GpuName(usize),
    /// `#0 NVIDIA GeForce RTX 4090`.
    IndexModel,
    /// `node-1[0]`.
    HostIndex,
    /// `gpu0_util`, `GPU 0 利用率`.
    UtilWord(usize),
}

fn header(form: &Form, gpu: usize, model: &str, seed: u64) -> String {
    let host = format!("node-{}", seed % 7);
    match form {
        Form::LabelSet {
            metric,
            host: upper,
            model: with_model,
        } => {
            let mut labels = vec![
                format!("gpu=\"{gpu}\""),
                format!(
                    "UUID=\"GPU-{:08x}-1111-2222-3333-444455556666\"",
                    seed ^ gpu as u64
                ),
                format!(
                    "{}=\"{host}\"",
                    if *upper { "Hostname" } else { "hostname" }
                ),
                format!("device=\"nvidia{gpu}\""),
            ];
            if *with_model {
                labels.push(format!("modelName=\"{model}\""));
            }
            let k = labels.len();
            labels.rotate_left((seed as usize) % k);
            format!("{}{{{}}}", UTIL_METRICS[*metric].0, labels.join(", "))
        }
        Form::BareLabels => {
            format!("{{gpu=\"{gpu}\", UUID=\"GPU-{gpu:04}\", instance=\"{host}:9400\"}}")
        }
        Form::GpuName(k) => match k % 4 {
            0 => format!("GPU {gpu}"),
            1 => format!("gpu{gpu}"),
            2 => format!("GPU-{gpu}"),
            _ => format!("{host} GPU {gpu}"),
        },
        Form::IndexModel => format!("#{gpu} {model}"),
        Form::HostIndex => format!("{host}[{gpu}]"),
        Form::UtilWord(k) => match k % 3 {
            0 => format!("gpu{gpu}_util"),
            1 => format!("GPU {gpu} 利用率"),
            _ => format!("{host} gpu{gpu} utilization"),
        },
    }
}

fn form() -> impl Strategy<Value = Form> {
    prop_oneof![
        (0..UTIL_METRICS.len(), any::<bool>(), any::<bool>()).prop_map(|(metric, host, model)| {
            Form::LabelSet {
                metric,
                host,
                model,
            }
        }),
        Just(Form::BareLabels),
        (0usize..4).prop_map(Form::GpuName),
        Just(Form::IndexModel),
        Just(Form::HostIndex),
        (0usize..3).prop_map(Form::UtilWord),
    ]
}

/// CSV-quote a header as Grafana does.
fn quoted(h: &str) -> String {
    format!("\"{}\"", h.replace('"', "\"\""))
}

#[derive(Debug, Clone)]
struct UtilTable {
    text: String,
    gpus: usize,
}

fn util_table() -> impl Strategy<Value = UtilTable> {
    (
        form(),
        1usize..12,
        1usize..30,
        any::<u64>(),
        any::<bool>(),
        0u8..3,
        prop::collection::vec(0u32..=1000, 1..400),
    )
        .prop_map(|(form, gpus, rows, seed, percent, model_pick, values)| {
            let ratio = match &form {
                Form::LabelSet { metric, .. } => UTIL_METRICS[*metric].1,
                _ => false,
            };
            let model = MODELS[(seed as usize + usize::from(model_pick)) % MODELS.len()];
            let mut text = String::from("\"Time\"");
            for g in 0..gpus {
                text.push(',');
                text.push_str(&quoted(&header(&form, g, model, seed)));
            }
            text.push_str("\r\n");
            let mut i = 0;
            for r in 0..rows {
                text.push_str(&format!(
                    "2026-11-{:02} {:02}:{:02}:00",
                    2 + r / 96,
                    (r / 4) % 24,
                    (r % 4) * 15
                ));
                for _ in 0..gpus {
                    let v = values[i % values.len()];
                    i += 1;
                    // Utilisation 0–100 (tenths), or a ratio 0–1.
                    let cell = if ratio {
                        format!("{}", f64::from(v) / 1000.0)
                    } else if percent {
                        format!("{}%", f64::from(v) / 10.0)
                    } else {
                        format!("{}", f64::from(v) / 10.0)
                    };
                    text.push(',');
                    text.push_str(&cell);
                }
                text.push_str("\r\n");
            }
            UtilTable { text, gpus }
        })
}

/// A known hourly series of GPU counts (at most 3 parts of 0–32: neighbouring hours less than
/// 100× apart, as counts of one pool are) and its split into parts.
#[derive(Debug, Clone)]
struct CountTable {
    text: String,
    series: Vec<f64>,
}

const TEAMS: &[&str] = &[
    "team_a",
    "ml-research",
    "inference",
    "data-eng",
    "notebooks",
    "vision",
    "nlp",
    "训练",
    "推理",
];
const TYPES: &[&str] = &["A100", "H100", "RTX 4090", "L40S", "H20", "910B"];

fn count_table() -> impl Strategy<Value = CountTable> {
    (
        prop::collection::vec(prop::collection::vec(0u32..=32, 1..4), 1..200),
        0u8..4,
        any::<u64>(),
    )
        .prop_map(|(hours, shape, seed)| {
            let parts = hours.iter().map(Vec::len).max().unwrap_or(1);
            let series: Vec<f64> = hours
                .iter()
                .map(|h| h.iter().map(|&v| f64::from(v)).sum::<f64>())
                .collect();
            let time = |i: usize| format!("2026-10-{:02} {:02}:00", 1 + i / 24, i % 24);
            let cell = |h: &Vec<u32>, p: usize| h.get(p).copied().unwrap_or(0).to_string();
            let mut text = String::new();
            // A long table needs two hours at least to tell its series from its rows (a name
            // repeated), as the detection requires.
            let shape = if shape == 3 && hours.len() < 2 {
                0
            } else {
                shape
            };
            match shape {
                0 => {
                    text.push_str("timestamp,gpus_busy\n");
                    for (i, v) in series.iter().enumerate() {
                        text.push_str(&format!("{},{v}\n", time(i)));
                    }
                }
                1 | 2 => {
                    let names: &[&str] = if shape == 1 { TEAMS } else { TYPES };
                    text.push_str("time");
                    for p in 0..parts {
                        text.push(',');
                        text.push_str(names[(seed as usize + p) % names.len()]);
                    }
                    text.push('\n');
                    for (i, h) in hours.iter().enumerate() {
                        text.push_str(&time(i));
                        for p in 0..parts {
                            text.push(',');
                            text.push_str(&cell(h, p));
                        }
                        text.push('\n');
                    }
                }
                _ => {
                    text.push_str("\"Series\";\"Time\";\"Value\"\n");
                    for p in 0..parts {
                        let team = TEAMS[(seed as usize + p) % TEAMS.len()];
                        for (i, h) in hours.iter().enumerate() {
                            text.push_str(&format!("\"{team}\";\"{}\";{}\n", time(i), cell(h, p)));
                        }
                    }
                }
            }
            CountTable { text, series }
        })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn utilisation_is_never_planned_as_counts_unasked(t in util_table()) {
        let p = match parse(&t.text, &ParseOptions::default()) {
            Ok(p) => p,
            Err(e) => return Err(TestCaseError::fail(format!("refused: {e:?}\n{}", t.text))),
        };
        let r = &p.report;
        // One column named like nvidia-smi's `utilization.gpu`: the nvidia-smi reader, one
        // GPU's utilisation.
        let utilisation = r.format == Format::NvidiaSmi || match r.meaning.as_ref() {
            Some(m) => {
                let u = m.read == ColumnMeaning::Utilisation;
                prop_assert!(
                    u || r.needs_check(),
                    "read as {:?} ({:?}) without a question or a warning\n{}", m.read, m.why, t.text
                );
                u
            }
            None => return Err(TestCaseError::fail(format!("no meaning: {:?}\n{}", r.format, t.text))),
        };
        if utilisation {
            let peak = p.series.values.iter().copied().fold(0.0, f64::max);
            prop_assert!(peak <= t.gpus as f64 + 1e-9, "{peak} busy of {} GPUs", t.gpus);
        }
    }

    #[test]
    fn the_guard_never_fires_on_a_valid_count_table(t in count_table()) {
        let p = parse(&t.text, &ParseOptions::default())
            .map_err(|e| TestCaseError::fail(format!("{e:?}\n{}", t.text)))?;
        prop_assert!(p.report.warnings.is_empty(), "{:?}\n{}", p.report.warnings, t.text);
        prop_assert_eq!(&p.series.values, &t.series, "{}", t.text);
    }
}

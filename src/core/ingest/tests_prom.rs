//! Prometheus responses read by metric (DCGM utilisation, Kubernetes requests) and the
//! streaming reader: hand-computed hours, and the same result whole, in slices and through
//! the whole-tree reader.

use super::test_feed::{one_column, opts, same_every_way};
use super::*;

const T0: i64 = 1_793_538_000; // an hour start (2026-11-01 13:00 UTC)
const H: i64 = 3600;

/// Whole, in Parser chunks and Stepper slices of many sizes, and through the tree reader:
/// all equal. Returns the whole reading.
fn same_everywhere(text: &str, o: &ParseOptions) -> ParseResult {
    let chunks: Vec<usize> = (1..=24).collect();
    let one = same_every_way(text, o, &chunks, &[1, 7, 100, 64 * 1024], &[]);
    if read_as_json(text, o) {
        assert_eq!(
            parse_prometheus_tree(text, o),
            one,
            "tree reader differs\n{text}"
        );
    }
    one
}

/// The parser reads `text` as JSON (and so the tree reader applies).
fn read_as_json(text: &str, o: &ParseOptions) -> bool {
    let body = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
    !body.is_empty()
        && match o.format {
            Some(f) => f == Format::PrometheusJson,
            None => body.starts_with('{') || body.starts_with('['),
        }
}

fn ok(text: &str, o: &ParseOptions) -> Parsed {
    match same_everywhere(text, o) {
        Ok(p) => p,
        Err(e) => panic!("parse failed: {e:?}\n{text}"),
    }
}

fn prom(p: &Parsed) -> &PromReport {
    p.report.prometheus.as_ref().expect("a Prometheus report")
}

/// A matrix answer: each series is (labels, [(seconds after T0, "value")]).
fn matrix(series: &[(&str, &[(i64, &str)])]) -> String {
    let mut out =
        String::from("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[\n");
    for (i, (labels, values)) in series.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str(&format!("{{\"metric\":{{{labels}}},\"values\":["));
        for (j, (t, v)) in values.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            out.push_str(&format!("[{},\"{v}\"]", T0 + t));
        }
        out.push_str("]}");
    }
    out.push_str("\n]}}");
    out
}

const GPU0: &str = r#""__name__":"DCGM_FI_DEV_GPU_UTIL","gpu":"0","UUID":"GPU-a","Hostname":"n1","modelName":"NVIDIA A100-SXM4-80GB""#;
const GPU1: &str = r#""__name__":"DCGM_FI_DEV_GPU_UTIL","gpu":"1","UUID":"GPU-b","Hostname":"n1","modelName":"NVIDIA A100-SXM4-80GB""#;
const GPU2: &str = r#""__name__":"DCGM_FI_DEV_GPU_UTIL","gpu":"0","UUID":"GPU-c","Hostname":"n2","modelName":"NVIDIA H100 80GB HBM3""#;

#[test]
fn dcgm_utilisation_counts_gpus_at_or_above_the_threshold() {
    // Steps every 30 min. Hour 1: GPU0 10 % (at the threshold: busy), 9.9 % (not);
    // GPU1 95 %, 95 % → (1 + 1) busy at 13:00, (0 + 1) at 13:30 → mean 1.5.
    // Hour 2: GPU0 0, GPU1 100 → 1.
    let text = matrix(&[
        (GPU0, &[(0, "10"), (1800, "9.9"), (H, "0")]),
        (GPU1, &[(0, "95"), (1800, "95"), (H, "100")]),
    ]);
    let p = ok(&text, &opts());
    assert_eq!(p.series.values, vec![1.5, 1.0]);
    assert_eq!(p.series.timestamps, Some(vec![T0, T0 + H]));
    let r = prom(&p);
    assert_eq!(r.reading, PromReading::BusyPercent);
    assert!(r.by_name);
    assert_eq!(r.metric, "DCGM_FI_DEV_GPU_UTIL");
    assert_eq!((r.series, r.steps, r.absent), (2, 3, 0));
    assert_eq!(p.report.busy_threshold_percent, Some(10.0));
    assert_eq!(p.report.rows_read, 6);
    assert_eq!(p.report.resolution_seconds, Some(1800));
    // The threshold is the user's: at 96 % nothing is busy but GPU1's 100 %.
    let high = ParseOptions {
        busy_threshold_percent: 96.0,
        ..opts()
    };
    assert_eq!(ok(&text, &high).series.values, vec![0.0, 1.0]);
}

#[test]
fn ratio_metrics_compare_against_the_threshold_over_100() {
    let g = |gpu: &str| {
        format!(r#""__name__":"DCGM_FI_PROF_GR_ENGINE_ACTIVE","gpu":"{gpu}","UUID":"GPU-{gpu}""#)
    };
    let (a, b) = (g("0"), g("1"));
    // 0.1 = 10 % → busy; 0.0999 → not.
    let text = matrix(&[(&a, &[(0, "0.1")]), (&b, &[(0, "0.0999")])]);
    let p = ok(&text, &opts());
    assert_eq!(p.series.values, vec![1.0]);
    assert_eq!(prom(&p).reading, PromReading::BusyRatio);
    let sm = text.replace("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_PROF_SM_ACTIVE");
    assert_eq!(prom(&ok(&sm, &opts())).reading, PromReading::BusyRatio);
}

#[test]
fn a_gpu_without_a_sample_at_a_step_is_not_busy_and_counted_absent() {
    // 13:00: both busy (2); 13:30: only GPU1 reports, busy (1); GPU0 is absent there.
    // 14:00: no GPU reports (not a step); 14:30: GPU0 busy (1), GPU1 absent.
    let text = matrix(&[
        (GPU0, &[(0, "50"), (H + 1800, "50")]),
        (GPU1, &[(0, "50"), (1800, "50")]),
    ]);
    let p = ok(&text, &opts());
    assert_eq!(p.series.values, vec![1.5, 1.0]);
    let r = prom(&p);
    assert_eq!(r.steps, 3);
    // 3 steps × 2 GPUs − 4 samples.
    assert_eq!(r.absent, 2);
    assert!(!r.unaligned);
}

#[test]
fn dcgm_types_from_model_name_count_gpus_per_type() {
    let text = matrix(&[
        (GPU0, &[(0, "80"), (1800, "0")]),
        (GPU1, &[(0, "80"), (1800, "80")]),
        (GPU2, &[(0, "5"), (1800, "99")]),
    ]);
    let p = ok(&text, &opts());
    let keys: Vec<&str> = p.types.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(keys, ["a100", "h100"]);
    // A100: (2 + 1) / 2; H100: (0 + 1) / 2.
    assert_eq!(p.types[0].series.values, vec![1.5]);
    assert_eq!(p.types[1].series.values, vec![0.5]);
    assert_eq!(p.series.values, vec![2.0]);
    assert_eq!(prom(&p).series_per_type, vec![2, 1]);
    assert_eq!(
        p.report.type_source,
        Some(TypeSource::Label("modelName".into()))
    );
}

#[test]
fn another_metric_in_a_utilisation_answer_is_left_out_and_listed() {
    let mem = r#""__name__":"DCGM_FI_DEV_FB_USED","gpu":"0","UUID":"GPU-a""#;
    let text = matrix(&[
        (GPU0, &[(0, "50")]),
        (mem, &[(0, "30000")]),
        (GPU1, &[(0, "0")]),
    ]);
    let p = ok(&text, &opts());
    assert_eq!(p.series.values, vec![1.0]);
    let r = prom(&p);
    assert_eq!(r.series, 2);
    assert_eq!(r.left_out_count, 1);
    assert_eq!(r.left_out[0].series, 2);
    assert_eq!(r.left_out[0].reason, LeftOutReason::OtherMetric);
    assert!(r.left_out[0].name.starts_with("DCGM_FI_DEV_FB_USED{"));
    assert_eq!(p.report.columns.len(), 3);
}

#[test]
fn without_a_metric_name_values_are_gpus_unless_chosen() {
    // `avg by (gpu, UUID, modelName) (DCGM_FI_DEV_GPU_UTIL)` drops __name__.
    let a = r#""gpu":"0","UUID":"GPU-a","modelName":"NVIDIA A100-SXM4-80GB""#;
    let b = r#""gpu":"1","UUID":"GPU-b","modelName":"NVIDIA A100-SXM4-80GB""#;
    let text = matrix(&[(a, &[(0, "40")]), (b, &[(0, "5")])]);
    let p = ok(&text, &opts());
    assert_eq!(p.series.values, vec![45.0]);
    let r = prom(&p);
    assert_eq!(r.reading, PromReading::Values);
    assert!(r.looks_like_dcgm);
    let chosen = ParseOptions {
        prometheus: Some(PromReading::BusyPercent),
        ..opts()
    };
    let p = ok(&text, &chosen);
    assert_eq!(p.series.values, vec![1.0]);
    assert!(!prom(&p).by_name);
}

#[test]
fn kubernetes_requests_are_summed_per_step_and_absent_pods_add_zero() {
    let pod = |p: &str, res: &str| {
        format!(
            r#""__name__":"kube_pod_container_resource_requests","namespace":"ml","pod":"{p}","container":"c","node":"n1","resource":"{res}","unit":"integer""#
        )
    };
    let (a, b, cpu) = (
        pod("a", "nvidia_com_gpu"),
        pod("b", "nvidia_com_gpu"),
        pod("a", "cpu"),
    );
    // 13:00 a 4 + b 2 = 6; 13:15 a 4 = 4 (b gone: 0, not a gap); 13:30 a 4; 13:45 b 8.
    // Hour 13: (6 + 4 + 4 + 8) / 4 = 5.5. Hour 14: a 1 → 1.
    let text = matrix(&[
        (&a, &[(0, "4"), (900, "4"), (1800, "4"), (H, "1")]),
        (&cpu, &[(0, "16"), (900, "16")]),
        (&b, &[(0, "2"), (2700, "8")]),
    ]);
    let p = ok(&text, &opts());
    assert_eq!(p.series.values, vec![5.5, 1.0]);
    let r = prom(&p);
    assert_eq!(r.reading, PromReading::Requests);
    assert_eq!((r.series, r.steps, r.absent), (2, 5, 0));
    assert_eq!(r.left_out_count, 1);
    assert_eq!(r.left_out[0].reason, LeftOutReason::OtherResource);
    assert_eq!(p.report.busy_threshold_percent, None);
    // The older metric name, and a join that dropped the name but kept `resource`.
    let old = text.replace(
        "\"kube_pod_container_resource_requests\"",
        "\"kube_pod_container_resource_requests_nvidia_com_gpu\"",
    );
    let o = ok(&old, &opts());
    assert_eq!(prom(&o).reading, PromReading::Requests);
    let joined = text.replace("\"__name__\":\"kube_pod_container_resource_requests\",", "");
    let j = ok(&joined, &opts());
    assert_eq!(prom(&j).reading, PromReading::Requests);
    assert_eq!(j.series.values, vec![5.5, 1.0]);
}

#[test]
fn kubernetes_types_from_a_joined_node_label() {
    let pod = |p: &str, product: &str| {
        format!(
            r#""pod":"{p}","resource":"nvidia_com_gpu","label_nvidia_com_gpu_product":"{product}""#
        )
    };
    let (a, b) = (
        pod("a", "NVIDIA-H100-80GB-HBM3"),
        pod("b", "NVIDIA-A100-SXM4-80GB"),
    );
    let text = matrix(&[(&a, &[(0, "8"), (1800, "8")]), (&b, &[(0, "2")])]);
    let p = ok(&text, &opts());
    let keys: Vec<&str> = p.types.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(keys, ["h100", "a100"]);
    assert_eq!(p.types[0].series.values, vec![8.0]);
    // b: 2 at 13:00, absent (0) at 13:30 → 1.
    assert_eq!(p.types[1].series.values, vec![1.0]);
}

#[test]
fn a_summed_query_is_read_as_values() {
    // `sum(kube_pod_container_resource_requests{resource="nvidia_com_gpu"})`: no labels.
    let text = matrix(&[("", &[(0, "6"), (1800, "4"), (H, "1")])]);
    let p = ok(&text, &opts());
    assert_eq!(p.series.values, vec![5.0, 1.0]);
    assert_eq!(prom(&p).reading, PromReading::Values);
}

#[test]
fn duplicates_are_averaged_and_disorder_is_reported() {
    let text = matrix(&[
        (GPU0, &[(1800, "50"), (0, "50"), (0, "0")]),
        (GPU1, &[(0, "50"), (1800, "50")]),
    ]);
    let p = ok(&text, &opts());
    // GPU0 at 13:00: mean 25 → busy. Steps: 2 + 2 busy → 2.
    assert_eq!(p.series.values, vec![2.0]);
    assert_eq!(p.report.duplicates, 1);
    assert!(p.report.unsorted);
}

#[test]
fn one_gpu_picked_and_an_instant_vector() {
    let text = matrix(&[(GPU0, &[(0, "50")]), (GPU1, &[(0, "50"), (1800, "0")])]);
    let one = one_column(1);
    let p = ok(&text, &one);
    assert_eq!(p.series.values, vec![0.5]);
    assert_eq!(prom(&p).series, 1);
    let vector = format!(
        "{{\"status\":\"success\",\"data\":{{\"resultType\":\"vector\",\"result\":[\
         {{\"metric\":{{{GPU0}}},\"value\":[{T0},\"70\"]}},{{\"metric\":{{{GPU1}}},\"value\":[{T0},\"1\"]}}]}}}}"
    );
    let p = ok(&vector, &opts());
    assert_eq!(p.series.values, vec![1.0]);
}

#[test]
fn raw_samples_at_their_own_times_are_flagged_unaligned() {
    // Each GPU scraped at its own seconds: no step has more than one GPU.
    let text = matrix(&[
        (GPU0, &[(1, "50"), (31, "50")]),
        (GPU1, &[(2, "50"), (32, "50")]),
    ]);
    let p = ok(&text, &opts());
    assert!(prom(&p).unaligned);
}

#[test]
fn errors_name_the_line_and_the_series_sample() {
    let pretty = format!(
        "{{\n  \"status\": \"success\",\n  \"data\": {{\n    \"result\": [\n      {{\n        \"metric\": {{{GPU0}}},\n        \"values\": [\n          [{T0}, \"50\"],\n          [{}, \"abc\"],\n          [{}, \"60\", 3]\n        ]\n      }}\n    ]\n  }}\n}}\n",
        T0 + 60,
        T0 + 120
    );
    let p = ok(&pretty, &opts());
    assert_eq!(p.report.rejected.len(), 2);
    assert_eq!(p.report.rejected[0].line, 9);
    assert_eq!(p.report.rejected[0].reason, RejectReason::NotANumber);
    assert_eq!(
        p.report.rejected[0].excerpt,
        format!("[{}, \"abc\"]", T0 + 60)
    );
    assert_eq!(p.report.rejected[1].line, 10);
    assert_eq!(p.report.rejected[1].reason, RejectReason::BadSample);
    assert_eq!(p.report.lines, 15);
    // Malformed JSON: the line of the fault.
    let broken = pretty.replacen("\"60\", 3]", "\"60\" 3]", 1);
    assert_eq!(
        same_everywhere(&broken, &opts()),
        Err(IngestError::InvalidJson { line: 10 })
    );
    // An escape `\` + line break: the fault is after the break.
    let esc = "{\"status\":\"\\\n\"}";
    assert_eq!(
        same_everywhere(esc, &opts()),
        Err(IngestError::InvalidJson { line: 2 })
    );
    // Too deep after a colon: the line of the colon.
    let deep = format!("{}{{\"a\":\n1{}", "[".repeat(64), "]".repeat(64));
    assert_eq!(
        same_everywhere(&deep, &opts()),
        Err(IngestError::InvalidJson { line: 1 })
    );
}

#[test]
fn strings_numbers_and_odd_documents_read_as_the_tree_does() {
    for text in [
        "\u{feff} {\"data\":{\"result\":[{\"metric\":{\"a\\u00e9\\ud83d\\ude00\":\"\\ud800x\\ud800\\u0041\\/\"},\"values\":[[1793538000,\"\\u0033\"]]}]}}",
        "{\"result\":[{\"values\":[[1793538000,\"2\"]]}],\"status\":\"ok\"}",
        "{\"result\":[{\"values\":[[1793538000,\"2\"]]}],\"data\":{\"result\":[{\"values\":[[1793538000,\"5\"]]}]}}",
        "{\"data\":{\"result\":[{\"values\":[[1793538000,\"2\"]]}]},\"result\":[]}",
        "{\"data\":5,\"result\":[{\"values\":[[1793538000,\"2\"]]}]}",
        "{\"data\":{\"result\":[{\"value\":[1793538000,\"2\"],\"values\":[[1793538000,\"7\"]]},{\"values\":5,\"value\":[1793538000,\"3\"]},{\"value\":[1793538000,null]},7,[1],{\"metric\":{\"x\":{\"y\":1},\"__name__\":4}}]}}",
        "{\"data\":{\"result\":[{\"values\":[5, [1793538000,\"1\"], {\"a\":[1]}, \"x\", [], [1793538000,\"1e999\"], [\"1793538000.5\",\"2\"], [1e300,\"1\"], [1793538000, 3.5]]}]}}",
        "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":7}",
        "{\"status\":\"error\",\"error\":\"boom\",\"status\":\"success\"}",
        "{\"data\":{\"result\":[{\"values\":[[1793538000,\"\\u+04a\"]]}]}}",
        "{\"data\":{\"result\":[{\"values\":[[1793538000,\"\\u12\"]]}]}}",
        "[1,2]",
        "5",
        "{\"data\":{\"result\":[]}} x",
        "{\"a\":tru}",
        "{\"a\":-}",
        "{\"a\":[1,]}",
        "{\"a\":1,}",
        "{\"a\" 1}",
        "\u{feff}\u{feff}{}",
        "{\"a\":\"\t\"}",
    ] {
        let _ = same_everywhere(text, &opts());
    }
}

#[test]
fn a_metrics_scrape_is_named_not_read() {
    let scrape =
        "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n\
        DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-604ac76c\",modelName=\"NVIDIA A100\"} 37\n\
        DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-604ac76d\",modelName=\"NVIDIA A100\"} 0\n";
    assert_eq!(
        parse(scrape, &opts()),
        Err(IngestError::MetricsScrape {
            metric: "DCGM_FI_DEV_GPU_UTIL".into()
        })
    );
    // Without the comments too.
    let bare: String = scrape.lines().skip(2).map(|l| format!("{l}\n")).collect();
    assert!(matches!(
        parse(&bare, &opts()),
        Err(IngestError::MetricsScrape { .. })
    ));
    // A table is not a scrape.
    assert!(parse("time,gpus\n2026-11-01 13:00,3\n", &opts()).is_ok());
}

mod props {
    use super::*;
    use proptest::prelude::*;

    /// Pieces of Prometheus answers, valid and broken.
    const PIECES: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        " ",
        "\n",
        "\t",
        "\"status\"",
        "\"success\"",
        "\"error\"",
        "\"data\"",
        "\"result\"",
        "\"metric\"",
        "\"values\"",
        "\"value\"",
        "\"__name__\"",
        "\"DCGM_FI_DEV_GPU_UTIL\"",
        "\"kube_pod_container_resource_requests\"",
        "\"resource\"",
        "\"nvidia_com_gpu\"",
        "\"modelName\"",
        "\"A100\"",
        "\"H100\"",
        "1793538000",
        "1793539800.5",
        "\"1793541600\"",
        "\"3\"",
        "\"50\"",
        "\"0.5\"",
        "\"NaN\"",
        "\"-1\"",
        "7",
        "-2.5e1",
        "1e999",
        "null",
        "true",
        "\"\\u00e9\"",
        "\"\\ud800\"",
        "\"a\\\"b\"",
        "[1793538000,\"40\"]",
        "[1793541600,\"5\"]",
        "[1793538000,\"1\"],",
        "\u{feff}",
        "😀",
    ];

    /// A well-formed answer from parts: `series` of (metric kind, type, samples).
    fn doc() -> impl Strategy<Value = String> {
        let sample = (
            0i64..6,
            prop_oneof![
                Just("0".to_string()),
                Just("9".to_string()),
                Just("10".to_string()),
                Just("95".to_string()),
                Just("0.2".to_string()),
                Just("2".to_string()),
                Just("abc".to_string()),
                Just("-1".to_string()),
            ],
            any::<bool>(),
            prop::sample::select(vec!["", " ", "\n  "]),
        );
        let series = (
            prop::sample::select(vec![
                "\"__name__\":\"DCGM_FI_DEV_GPU_UTIL\",",
                "\"__name__\":\"DCGM_FI_PROF_GR_ENGINE_ACTIVE\",",
                "\"__name__\":\"kube_pod_container_resource_requests\",\"resource\":\"nvidia_com_gpu\",",
                "\"__name__\":\"kube_pod_container_resource_requests\",\"resource\":\"cpu\",",
                "\"__name__\":\"other\",",
                "",
            ]),
            prop::sample::select(vec!["\"modelName\":\"A100\"", "\"modelName\":\"H100 80GB\"", "\"gpu\":\"0\""]),
            prop::collection::vec(sample, 0..8),
            any::<bool>(),
        );
        (prop::collection::vec(series, 0..5), any::<bool>()).prop_map(|(series, values_first)| {
            let mut out = String::from(
                "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[",
            );
            for (i, (name, ty, samples, vector)) in series.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let metric = format!("\"metric\":{{{name}{ty}}}");
                let mut vals = String::new();
                for (j, (step, v, num, ws)) in samples.iter().enumerate() {
                    if j > 0 {
                        vals.push(',');
                    }
                    let t = T0 + step * 900;
                    if *num && v.parse::<f64>().is_ok() {
                        vals.push_str(&format!("[{ws}{t}{ws},{ws}{v}{ws}]"));
                    } else {
                        vals.push_str(&format!("[{ws}{t},\"{v}\"{ws}]"));
                    }
                }
                let values = if *vector && samples.len() == 1 {
                    format!("\"value\":{vals}")
                } else {
                    format!("\"values\":[{vals}]")
                };
                if values_first {
                    out.push_str(&format!("{{{values},{metric}}}"));
                } else {
                    out.push_str(&format!("{{{metric},{values}}}"));
                }
            }
            out.push_str("]}}");
            out
        })
    }

    fn options() -> impl Strategy<Value = ParseOptions> {
        (
            prop_oneof![
                3 => Just(None),
                1 => prop_oneof![Just(PromReading::Values), Just(PromReading::BusyPercent), Just(PromReading::BusyRatio), Just(PromReading::Requests)].prop_map(Some),
            ],
            prop_oneof![3 => Just(10.0f64), 1 => any::<f64>()],
            prop_oneof![3 => Just(ColumnChoice::Auto), 1 => (0usize..4).prop_map(ColumnChoice::One)],
            prop_oneof![Just(GapPolicy::Exclude), Just(GapPolicy::Zero)],
        )
            .prop_map(|(prometheus, busy, column, gaps)| ParseOptions {
                prometheus,
                busy_threshold_percent: busy,
                column,
                gaps,
                format: Some(Format::PrometheusJson),
                ..opts()
            })
    }

    use crate::core::ingest::test_feed::chunked as sliced;

    fn no_nan(r: &ParseResult) -> bool {
        match r {
            Ok(p) => {
                p.series.values.iter().all(|v| v.is_finite() && *v >= 0.0)
                    && p.types
                        .iter()
                        .all(|t| t.series.values.iter().all(|v| v.is_finite()))
            }
            Err(_) => true,
        }
    }

    proptest! {
        #![proptest_config(proptest::test_runner::Config { cases: 200, failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("tests/regressions/ingest_prom_unit.txt"))), ..proptest::test_runner::Config::default() })]

        #[test]
        fn answers_read_alike_whole_sliced_and_as_a_tree(text in doc(), o in options(), size in 1usize..40) {
            let whole = parse(&text, &o);
            prop_assert!(no_nan(&whole));
            prop_assert_eq!(&parse_prometheus_tree(&text, &o), &whole);
            prop_assert_eq!(&sliced(&text, &o, size), &whole);
        }

        #[test]
        fn pieces_read_alike_whole_sliced_and_as_a_tree(v in prop::collection::vec(prop::sample::select(PIECES), 0..60), size in 1usize..20) {
            let text = v.concat();
            let o = ParseOptions { format: Some(Format::PrometheusJson), ..opts() };
            let whole = parse(&text, &o);
            prop_assert!(no_nan(&whole));
            if read_as_json(&text, &o) {
                prop_assert_eq!(&parse_prometheus_tree(&text, &o), &whole);
            }
            prop_assert_eq!(&sliced(&text, &o, size), &whole);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Answers to the page's own queries (issue 38, `core::query`).

/// The known series of `end2end/real/prometheus.mjs` (its `GPUS`, `busyCount`, `PODS`),
/// whose answers the real Prometheus gave (`tests/fixtures/query/`, recorded and checked
/// against Prometheus by `end2end/tests/real_prometheus.test.mjs`).
mod real {
    pub const T0: i64 = 1_740_960_000; // 2025-03-03 00:00 UTC
    pub const HOURS: usize = 6;
    /// (modelName, namespace, first hour present)
    pub const GPUS: [(&str, Option<&str>, i64); 7] = [
        ("NVIDIA A100-SXM4-80GB", Some("ml"), -1),
        ("NVIDIA A100-SXM4-80GB", Some("ml"), -1),
        ("NVIDIA A100-SXM4-80GB", Some("research"), -1),
        ("NVIDIA H100 80GB HBM3", Some("ml"), -1),
        ("NVIDIA H100 80GB HBM3", None, -1),
        ("NVIDIA A100-SXM4-40GB", Some("research"), -1),
        ("NVIDIA H100 80GB HBM3", Some("research"), 3),
    ];

    /// GPU `g`'s busy fraction of hour `h` (its busy samples of 120).
    pub fn busy(g: usize, h: i64) -> f64 {
        if h < GPUS[g].2 {
            return 0.0;
        }
        ((g as i64 * 37 + (h + 1) * 53 + 11) % 121) as f64 / 120.0
    }

    /// GPU-hours per hour of the GPUs for which `keep(model, namespace)`.
    pub fn hours(keep: impl Fn(&str, Option<&str>) -> bool) -> Vec<f64> {
        (0..HOURS as i64)
            .map(|h| {
                (0..GPUS.len())
                    .filter(|&g| keep(GPUS[g].0, GPUS[g].1))
                    .map(|g| busy(g, h))
                    .sum()
            })
            .collect()
    }
}

fn close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: {got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= 1e-9, "{what}: {got:?} vs {want:?}");
    }
}

fn team<'a>(p: &'a Parsed, name: &str) -> &'a TeamSeries {
    let t = p.teams.as_ref().expect("teams");
    t.teams
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no team {name}: {:?}", t.teams))
}

/// A recorded answer `tests/fixtures/query/NAME.json`: its text, and its reading, which knows
/// it for a Prometheus query's answer.
fn recorded_answer(name: &str) -> (String, Parsed) {
    let text = std::fs::read_to_string(format!("tests/fixtures/query/{name}.json"))
        .expect("the recorded answer");
    let p = ok(&text, &opts());
    assert_eq!(
        p.report.query_answer,
        Some(QueryAnswer::Prometheus),
        "{name}"
    );
    (text, p)
}

#[test]
fn real_prometheus_answer_dcgm_by_namespace() {
    let (text, p) = recorded_answer("prometheus_dcgm_namespace");
    assert_eq!(prom(&p).reading, PromReading::Values);
    // The timestamps are the hours' starts: each value is read into the hour it measures.
    let hours: Vec<i64> = (0..real::HOURS as i64).map(|h| real::T0 + h * H).collect();
    assert_eq!(p.series.timestamps.as_deref(), Some(&hours[..]));
    assert_eq!(
        p.report.type_source,
        Some(TypeSource::Label("modelName".into()))
    );
    let keys: Vec<&str> = p.types.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(keys, ["a100-40g", "a100", "h100"]);
    for t in &p.types {
        let want = real::hours(|m, _| normalize_type(m) == t.key);
        close(&t.series.values, &want, &t.key);
    }
    close(&p.series.values, &real::hours(|_, _| true), "all");
    let teams = p.teams.as_ref().unwrap();
    assert_eq!(teams.source, TeamSource::Label("namespace".into()));
    for (name, ns) in [
        ("ml", Some("ml")),
        ("research", Some("research")),
        (UNALLOCATED, None),
    ] {
        close(&team(&p, name).values, &real::hours(|_, n| n == ns), name);
    }
    // Not read as utilisation: the same values without the marker would be.
    let plain = text.replace("\"grp_answer\":\"gpu_hours\",", "");
    let q = ok(&plain, &opts());
    assert_eq!(q.report.query_answer, None);
}

#[test]
fn real_prometheus_answer_kube_requests_by_namespace() {
    let (_, p) = recorded_answer("prometheus_kube_namespace");
    assert!(p.types.is_empty());
    // train-0 (2 GPUs) always; serve-2 (2) from 02:10; sweep-1 (4) 01:20–02:45.
    let ml = [2.0, 2.0, 2.0 + 2.0 * 50.0 / 60.0, 4.0, 4.0, 4.0];
    let research = [0.0, 4.0 * 40.0 / 60.0, 4.0 * 45.0 / 60.0, 0.0, 0.0, 0.0];
    close(&team(&p, "ml").values, &ml, "ml");
    close(&team(&p, "research").values, &research, "research");
    let all: Vec<f64> = ml.iter().zip(&research).map(|(a, b)| a + b).collect();
    close(&p.series.values, &all, "all");
}

#[test]
fn the_marker_reads_values_as_gpu_hours() {
    // A DCGM metric name would be read as one GPU's utilisation (0.75% < 10%: idle); the
    // answer's marker says the values are GPU-hours already.
    let labels = r#""__name__":"DCGM_FI_DEV_GPU_UTIL","modelName":"NVIDIA A100-SXM4-80GB""#;
    let marked = format!(r#"{labels},"grp_answer":"gpu_hours""#);
    let values: &[(i64, &str)] = &[(0, "0.75"), (H, "1.5")];
    let p = ok(&matrix(&[(&marked, values)]), &opts());
    assert_eq!(p.report.query_answer, Some(QueryAnswer::Prometheus));
    assert_eq!(p.series.values, [0.75, 1.5]);
    let q = ok(&matrix(&[(labels, values)]), &opts());
    assert_eq!(q.report.query_answer, None);
    assert_eq!(prom(&q).reading, PromReading::BusyPercent);
    assert_eq!(q.series.values, [0.0, 0.0]);
    // A recording rule's series, exported every 15 minutes: GPUs busy at each step, the
    // hour their mean.
    let rule = r#""__name__":"modelName:dcgm_gpu_busy:sum","modelName":"NVIDIA H100 80GB HBM3""#;
    let steps: &[(i64, &str)] = &[(0, "1"), (900, "2"), (1800, "3"), (2700, "2"), (H, "4")];
    let r = ok(&matrix(&[(rule, steps)]), &opts());
    assert_eq!(r.report.query_answer, Some(QueryAnswer::Prometheus));
    assert_eq!(r.series.values, [2.0, 4.0]);
    assert_eq!(r.types[0].key, "h100");
    // Another value of the label is not the marker.
    let other = format!(r#"{labels},"grp_answer":"other""#);
    let o = ok(&matrix(&[(&other, values)]), &opts());
    assert_eq!(o.report.query_answer, None);
}

const ANSWER_CSV: &str = "hour_utc,gpu_type,team,gpu_hours\n\
    2026-11-01T00:00:00Z,NVIDIA A100 80GB,ml,1.5\n\
    2026-11-01T01:00:00Z,NVIDIA A100 80GB,ml,2\n\
    2026-11-01T00:00:00Z,h100,\"r, \"\"d\"\"\",0.25\n\
    2026-11-01T01:00:00Z,h100,,0.5\n";

/// The CSV reading with what only the JSON says (how it came back, its lines) as `json`'s.
fn as_json_rows(csv: &Parsed, json: &Parsed) -> Parsed {
    let mut c = csv.clone();
    c.report.query_answer = Some(QueryAnswer::JsonRows);
    c.report.lines = json.report.lines;
    c
}

#[test]
fn bigquery_json_rows_read_as_the_csv() {
    let csv = ok(ANSWER_CSV, &opts());
    assert_eq!(csv.series.values, [1.75, 2.5]);
    // `bq query --format=json`: an array, numbers as strings (or numbers), null for NULL.
    let array = r#"[{"hour_utc":"2026-11-01T00:00:00Z","gpu_type":"NVIDIA A100 80GB","team":"ml","gpu_hours":"1.5"},
{"hour_utc":"2026-11-01T01:00:00Z","gpu_type":"NVIDIA A100 80GB","team":"ml","gpu_hours":2},
{"hour_utc":"2026-11-01T00:00:00Z","gpu_type":"h100","team":"r, \"d\"","gpu_hours":"0.25","extra":[1,{"x":2}]},
{"gpu_type":"h100","hour_utc":"2026-11-01T01:00:00Z","team":null,"gpu_hours":0.5e0}]"#;
    let a = ok(array, &opts());
    assert_eq!(a.report.query_answer, Some(QueryAnswer::JsonRows));
    assert_eq!(a, as_json_rows(&csv, &a));
    // The console's JSON download: one object a line.
    let lines = array
        .trim_start_matches('[')
        .trim_end_matches(']')
        .replace("},\n{", "}\n{");
    let n = ok(&lines, &opts());
    assert_eq!(n, as_json_rows(&csv, &n));
    assert_eq!(n.report.lines, 4);
    // The user forced the Prometheus reader: the rows are still an answer.
    let forced = ParseOptions {
        format: Some(Format::PrometheusJson),
        ..opts()
    };
    assert_eq!(ok(array, &forced).series, a.series);
}

#[test]
fn json_that_is_no_answer_reads_as_before() {
    for (text, want) in [
        (
            r#"[{"a":1},{"hour_utc":"2026-11-01T00:00:00Z","gpu_hours":"1"}]"#,
            IngestError::NotPrometheus,
        ),
        (
            r#"[{"hour_utc":"2026-11-01T00:00:00Z","gpu_hours":"1"},5]"#,
            IngestError::NotPrometheus,
        ),
        (
            r#"[{"hour_utc":"2026-11-01T00:00:00Z"}]"#,
            IngestError::NotPrometheus,
        ),
        ("[]", IngestError::NotPrometheus),
        ("{\"a\":1}\n{\"b\":2}", IngestError::InvalidJson { line: 2 }),
        (
            "{\"hour_utc\":\"x\",\"gpu_hours\":1}\n[1]",
            IngestError::InvalidJson { line: 2 },
        ),
        (
            "{\"hour_utc\":\"2026-11-01T00:00:00Z\",\"gpu_hours\":1}\n{\"hour_utc\":",
            IngestError::InvalidJson { line: 2 },
        ),
        (
            "{\"status\":\"success\",\"hour_utc\":\"x\",\"gpu_hours\":1}\n{\"hour_utc\":\"y\"}",
            IngestError::InvalidJson { line: 2 },
        ),
    ] {
        assert_eq!(same_everywhere(text, &opts()), Err(want), "{text}");
    }
    // A Prometheus response followed by a row is not rows.
    let m = matrix(&[(r#""__name__":"gpus""#, &[(0, "1")])]);
    let two = format!("{m}\n{{\"hour_utc\":\"2026-11-01T00:00:00Z\",\"gpu_hours\":1}}");
    assert!(matches!(
        same_everywhere(&two, &opts()),
        Err(IngestError::InvalidJson { .. })
    ));
}

#[test]
fn rates_json_rows_read_as_the_rates_csv() {
    let csv_text =
        "gpu_type,pricing,gpu_hours,cost,currency\na100,on_demand,10,30.5,USD\na100,spot,4,5,USD\n";
    let json = r#"[{"gpu_type":"a100","pricing":"on_demand","gpu_hours":"10","cost":"30.5","currency":"USD"},{"gpu_type":"a100","pricing":"spot","gpu_hours":4,"cost":5,"currency":"USD"}]"#;
    let csv = same_everywhere(csv_text, &opts());
    let j = same_everywhere(json, &opts());
    match (csv, j) {
        (Ok(c), Ok(j)) => {
            let mut c = c;
            if c.report.query_answer != Some(QueryAnswer::Rates) {
                c.report.query_answer = Some(QueryAnswer::JsonRows);
            }
            c.report.lines = j.report.lines;
            assert_eq!(j, c);
        }
        (Err(IngestError::NoUsableRows(c)), Err(IngestError::NoUsableRows(j))) => {
            assert_eq!(c.rows_read, j.rows_read);
        }
        (c, j) => assert_eq!(
            std::mem::discriminant(&c),
            std::mem::discriminant(&j),
            "{c:?} vs {j:?}"
        ),
    }
}

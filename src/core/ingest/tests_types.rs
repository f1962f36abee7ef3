//! Typed input: one hourly series per GPU type (long and wide tables, Prometheus, job
//! logs, nvidia-smi), type names matched loosely, more than 8 types, merges.

use super::test_feed::{column_name, ok, one_column, opts, same_every_way};
use super::*;

const T0: i64 = 1_793_538_000; // 2026-11-01T13:00:00Z
const H: i64 = 3600;

/// A type's hours without data, as (start, end) index pairs.
fn nd(t: &TypedSeries) -> Vec<(usize, usize)> {
    t.no_data.iter().map(|r| (r.start, r.end)).collect()
}

fn keys(p: &Parsed) -> Vec<&str> {
    p.types.iter().map(|t| t.key.as_str()).collect()
}

fn labels(p: &Parsed) -> Vec<&str> {
    p.types.iter().map(|t| t.label.as_str()).collect()
}

fn values<'a>(p: &'a Parsed, key: &str) -> &'a [f64] {
    &p.types
        .iter()
        .find(|t| t.key == key)
        .unwrap_or_else(|| panic!("no type {key}: {:?}", keys(p)))
        .series
        .values
}

/// What every typed result holds: the same hours for every type, their sum is the series.
fn check_typed(p: &Parsed) {
    assert!(!p.types.is_empty(), "typed");
    assert!(p.types.len() <= MAX_TYPES);
    for t in &p.types {
        assert_eq!(t.series.timestamps, p.series.timestamps, "{}", t.key);
        assert_eq!(t.series.values.len(), p.series.values.len());
        assert_eq!(t.hours, p.series.values.len());
        assert_eq!(t.peak, t.series.values.iter().copied().fold(0.0, f64::max));
        assert_eq!(t.series.utc_offset_minutes, p.series.utc_offset_minutes);
        assert!(t.label.chars().count() <= MAX_EXCERPT_CHARS);
        let in_series: usize = t.no_data.iter().map(|r| r.len()).sum();
        assert!(t.gap_hours >= in_series);
        for r in &t.no_data {
            assert!(t.series.values[r.clone()].iter().all(|&v| v == 0.0));
        }
    }
    for (i, &v) in p.series.values.iter().enumerate() {
        let sum: f64 = p.types.iter().map(|t| t.series.values[i]).sum();
        assert!((sum - v).abs() < 1e-9, "hour {i}: {sum} vs {v}");
    }
}

/// `text` read whole, in small chunks and in `Stepper` slices: all the same.
fn same_in_slices(text: &str, o: &ParseOptions) -> Parsed {
    same_every_way(text, o, &[1, 3, 7, 64, 1000], &[1, 10, 100, 64 * 1024], &[])
        .unwrap_or_else(|e| panic!("parse failed: {e:?}\n{text}"))
}

/// `text` read alike in slices (default options), typed, with the types `want` in order.
fn typed(text: &str, want: &[&str]) -> Parsed {
    let p = same_in_slices(text, &opts());
    check_typed(&p);
    assert_eq!(keys(&p), want, "{text}");
    p
}

// ---------------------------------------------------------------------------------------
// Names.

#[test]
fn type_names_fold_to_one_key() {
    for (label, key) in [
        ("NVIDIA A100-SXM4-80GB", "a100"),
        ("a100", "a100"),
        ("A100 80GB", "a100"),
        ("A100_80G", "a100"),
        ("NVIDIA-A100-PCIE", "a100"),
        ("Ａ１００", "a100"),
        ("NVIDIA GeForce RTX 4090", "4090"),
        ("4090", "4090"),
        ("RTX4090", "4090"),
        ("rtx 4090 24GB", "4090"),
        ("NVIDIA-GeForce-RTX-4090-D", "4090d"),
        ("GeForce RTX 3080 Ti", "3080ti"),
        ("H100 80GB HBM3", "h100"),
        ("NVIDIA H100 80GB HBM3", "h100"),
        ("H100-SXM5-80GB", "h100"),
        ("NVIDIA-H800", "h800"),
        ("H20", "h20"),
        ("L40S", "l40s"),
        ("NVIDIA L40S 48GB", "l40s"),
        ("Tesla T4", "t4"),
        ("Tesla V100-SXM2-32GB", "v100"),
        ("NVIDIA RTX 6000 Ada Generation", "6000ada"),
        ("RTX 6000 Ada", "6000ada"),
        ("NVIDIA RTX A6000", "a6000"),
        ("NVIDIA TITAN RTX", "titanrtx"),
        ("AMD Instinct MI300X", "mi300x"),
        ("Ascend 910B", "910b"),
        ("Ascend910B", "910b"),
        ("昇腾910B", "910b"),
        ("华为昇腾 910B", "910b"),
        ("A800 80GB", "a800"),
        ("A100 GPUs", "a100"),
        ("A100卡数", "a100"),
    ] {
        assert_eq!(normalize_type(label), key, "{label}");
    }
}

#[test]
fn a_memory_size_other_than_the_usual_one_is_a_distinct_type() {
    // The rule: a size is dropped when it is the model's usual one (A100: 80 GB), else
    // kept as `-<n>g`; the page lets the user merge the two.
    for (label, key) in [
        ("A100-40G", "a100-40g"),
        ("NVIDIA A100-SXM4-40GB", "a100-40g"),
        ("A100 40GB PCIe", "a100-40g"),
        ("A100（40G）", "a100-40g"),
        ("A100 40 GB", "a100-40g"),
        ("Tesla V100-PCIE-16GB", "v100-16g"),
        ("H100 NVL 94GB", "h100-94g"),
        ("RTX 4090 48GB", "4090-48g"),
    ] {
        assert_eq!(normalize_type(label), key, "{label}");
    }
    assert_ne!(normalize_type("A100-40G"), normalize_type("A100"));
    assert_eq!(normalize_type("A100-80G"), normalize_type("A100"));
    // A model the table does not know keeps its size.
    assert_eq!(normalize_type("Foo9 32GB"), "foo9-32g");
    // Untrusted text: the key is short.
    assert!(normalize_type(&"x".repeat(10_000)).chars().count() <= 40);
    assert_eq!(normalize_type(""), "");
}

#[test]
fn headers_that_look_like_gpu_types() {
    for h in [
        "A100",
        "H100",
        "H800",
        "H20",
        "A800",
        "V100",
        "T4",
        "L4",
        "L40S",
        "4090",
        "3090",
        "RTX 6000 Ada",
        "MI300X",
        "910B",
        "Ascend 910B",
        "a100",
        "NVIDIA A100-SXM4-80GB",
        "A100-40G",
        "rtx4090",
        "A10G",
        "B200",
        "RTX 8000",
        "A100_gpus",
        "\"H100\"",
    ] {
        assert!(looks_like_gpu_type(h), "{h}");
    }
    for h in [
        "gpus",
        "value",
        "used",
        "busy",
        "team-a",
        "cluster1",
        "total",
        "time",
        "p95",
        "node1",
        "gpu0",
        "a",
        "count",
        "nvidia_gpu_0",
        "GPU数",
        "使用台数",
        "2024",
        "",
    ] {
        assert!(!looks_like_gpu_type(h), "{h}");
    }
}

// ---------------------------------------------------------------------------------------
// Long tables.

#[test]
fn long_table_timestamp_type_gpus() {
    let text = "timestamp,type,gpus\n\
        2026-11-01T13:00:00Z,A100,4\n\
        2026-11-01T13:00:00Z,H100,2\n\
        2026-11-01T13:30:00Z,A100,6\n\
        2026-11-01T14:00:00Z,a100,3\n\
        2026-11-01T14:00:00Z,NVIDIA H100 80GB HBM3,1\n\
        2026-11-01T15:00:00Z,NVIDIA A100-SXM4-80GB,8\n";
    let p = typed(text, &["a100", "h100"]);
    // The label is the first one written.
    assert_eq!(labels(&p), ["A100", "H100"]);
    // 13:00 A100: 4 and 6 averaged; 15:00 H100: no data.
    assert_eq!(values(&p, "a100"), [5.0, 3.0, 8.0]);
    assert_eq!(values(&p, "h100"), [2.0, 1.0, 0.0]);
    assert_eq!(p.series.values, vec![7.0, 4.0, 8.0]);
    assert_eq!(p.series.timestamps, Some(vec![T0, T0 + H, T0 + 2 * H]));
    let h100 = &p.types[1];
    assert_eq!((h100.gap_hours, nd(h100)), (1, vec![(2, 3)]));
    assert_eq!((p.types[0].gap_hours, p.types[0].peak), (0, 8.0));
    assert_eq!(
        p.report.type_source,
        Some(TypeSource::Column(ValueColumn {
            field: 1,
            name: "type".into()
        }))
    );
    assert_eq!(p.report.too_many_types, None);
    assert_eq!(p.report.rows_read, 6);

    // Any order of columns; a type column header from the list.
    let text = "gpus,gpu_model,time\n4,A100,2026-11-01 13:00\n2,H100,2026-11-01 13:00\n3,A100,2026-11-01 14:00\n";
    let p = typed(text, &["a100", "h100"]);
    assert_eq!(values(&p, "a100"), [4.0, 3.0]);
    assert_eq!(values(&p, "h100"), [2.0, 0.0]);
    assert_eq!(
        p.report.type_source,
        Some(TypeSource::Column(ValueColumn {
            field: 1,
            name: "gpu_model".into()
        }))
    );
}

#[test]
fn short_type_names_are_not_read_as_times_or_numbers() {
    let mut text = String::from("time,gpu_type,gpus\n");
    let names = [
        "T4", "L4", "H20", "910B", "A10G", "V100S", "MI300X", "4090D",
    ];
    for h in 0..3 {
        for (k, n) in names.iter().enumerate() {
            text.push_str(&format!("2026-11-01 {:02}:00,{n},{}\n", 13 + h, k + 1));
        }
    }
    let p = typed(
        &text,
        &[
            "t4", "l4", "h20", "910b", "a10g", "v100s", "mi300x", "4090d",
        ],
    );
    assert_eq!(p.series.values, vec![36.0; 3]);
    let wide = "time,T4,L4,H20,910B\n2026-11-01 13:00,1,2,3,4\n2026-11-01 14:00,1,2,3,4\n";
    let p = typed(wide, &["t4", "l4", "h20", "910b"]);
    assert_eq!(values(&p, "910b"), [4.0, 4.0]);
}

#[test]
fn numeric_type_names_are_types_not_gpu_counts() {
    let text = "time,model,gpus\n2026-11-01 13:00,4090,7\n2026-11-01 13:00,3090,2\n2026-11-01 14:00,4090,5\n";
    let p = typed(text, &["4090", "3090"]);
    assert_eq!(values(&p, "4090"), [7.0, 5.0]);
    assert_eq!(p.report.columns.len(), 2, "the series are the types");
}

#[test]
fn chinese_headers_and_full_width_commas() {
    let text = "时间,GPU型号,使用台数\n\
        2026-11-01 13:00,A100,4\n\
        2026-11-01 13:00,昇腾910B,8\n\
        2026-11-01 14:00,a100 80GB,5\n\
        2026-11-01 14:00,Ascend 910B,6\n";
    let p = typed(text, &["a100", "910b"]);
    assert_eq!(labels(&p), ["A100", "昇腾910B"]);
    assert_eq!(values(&p, "910b"), [8.0, 6.0]);
    assert_eq!(p.series.values, vec![12.0, 11.0]);

    for header in ["时间，卡型，数量", "时间，型号，数量"] {
        let text = format!(
            "{header}\n2026年11月1日 13:00，H800，８\n2026年11月1日 13:00，H20，２\n2026年11月1日 14:00，H800，６\n"
        );
        let p = typed(&text, &["h800", "h20"]);
        assert_eq!(p.series.values, vec![10.0, 6.0]);
    }
}

#[test]
fn quoted_type_names() {
    let text = "\"timestamp\",\"gpu_type\",\"gpus\"\r\n\
        \"2026-11-01 13:00\",\"NVIDIA A100-SXM4-80GB\",\"1,024\"\r\n\
        \"2026-11-01 13:00\",\"H100, 80GB\",\"3\"\r\n\
        \"2026-11-01 14:00\",\"A100 \"\"80GB\"\"\",\"2\"\r\n\
        \"2026-11-01 14:00\",\"h100 80gb\",\"1\"\r\n";
    let p = typed(text, &["a100", "h100"]);
    assert_eq!(labels(&p), ["NVIDIA A100-SXM4-80GB", "H100, 80GB"]);
    assert_eq!(values(&p, "a100"), [1024.0, 2.0]);
    assert_eq!(values(&p, "h100"), [3.0, 1.0]);
    let names: Vec<&str> = p.report.columns.iter().map(|c| c.name.as_str()).collect();
    assert!(names.contains(&"A100 \"80GB\""), "{names:?}");
}

#[test]
fn series_of_one_type_are_summed() {
    // Two nodes with A100s, one with an H100: per node and type, then summed per type.
    let text = "time,node,gpu_type,gpus\n\
        2026-11-01 13:00,n1,A100,4\n\
        2026-11-01 13:00,n2,A100,3\n\
        2026-11-01 13:00,n3,H100,8\n\
        2026-11-01 13:30,n1,A100,2\n\
        2026-11-01 14:00,n1,A100,1\n\
        2026-11-01 14:00,n2,A100,1\n\
        2026-11-01 14:00,n3,H100,7\n";
    let p = typed(text, &["a100", "h100"]);
    // 13:00: n1 (4 + 2) / 2 = 3, n2 3.
    assert_eq!(values(&p, "a100"), [6.0, 2.0]);
    assert_eq!(values(&p, "h100"), [8.0, 7.0]);
    assert_eq!(column_name(&p.report.series_column), Some("node"));
    let names: Vec<&str> = p.report.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["n1 · A100", "n2 · A100", "n3 · H100"]);
}

#[test]
fn a_type_column_with_several_value_columns() {
    // The row's GPUs as untyped (here the sum of the teams), per type.
    let text = "time,gpu_type,team_a,team_b\n\
        2026-11-01 13:00,A100,3,1\n\
        2026-11-01 13:00,L40S,2,2\n\
        2026-11-01 14:00,A100,1,\n";
    let p = typed(text, &["a100", "l40s"]);
    assert_eq!(values(&p, "a100"), [4.0, 1.0]);
    assert_eq!(values(&p, "l40s"), [4.0, 0.0]);
    assert_eq!(p.report.used, ColumnUse::Sum);
    let names: Vec<&str> = p.report.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["team_a", "team_b"]);
}

#[test]
fn a_type_column_whose_cells_are_not_gpu_types_is_not_read_as_types() {
    // A job log's `type` is the kind of job here; a long table's `model` a team's model.
    let jobs = "start,end,gpus,type\n\
        2026-11-01 13:00,2026-11-01 15:00,2,training\n\
        2026-11-01 14:00,2026-11-01 15:00,1,inference\n";
    let p = ok(jobs, &opts());
    assert_eq!(p.report.format, Format::JobLog);
    assert!(p.types.is_empty());
    assert_eq!(p.report.type_source, None);
    assert_eq!(p.series.values, vec![2.0, 3.0]);
    let long = "time,model,gpus\n2026-11-01 13:00,llama,4\n2026-11-01 13:00,qwen,2\n2026-11-01 14:00,llama,1\n";
    let p = ok(long, &opts());
    assert!(p.types.is_empty());
    assert_eq!(p.report.type_source, None);
}

#[test]
fn empty_type_cells_are_rejected() {
    let text = "time,gpu_type,gpus\n2026-11-01 13:00,A100,4\n2026-11-01 13:00,,2\n2026-11-01 14:00,A100,3\n";
    let p = ok(text, &opts());
    check_typed(&p);
    assert_eq!(p.series.values, vec![4.0, 3.0]);
    assert_eq!(p.report.rejected.len(), 1);
    assert_eq!(
        (p.report.rejected[0].line, p.report.rejected[0].reason),
        (3, RejectReason::MissingValue)
    );
}

// ---------------------------------------------------------------------------------------
// Wide tables.

#[test]
fn wide_table_one_column_per_type() {
    let text = "timestamp,A100,H100,RTX 4090\n\
        2026-11-01 13:00,4,2,1\n\
        2026-11-01 13:30,6,2,\n\
        2026-11-01 14:00,3,,2\n\
        2026-11-01 16:00,1,1,1\n";
    let p = typed(text, &["a100", "h100", "4090"]);
    assert_eq!(labels(&p), ["A100", "H100", "RTX 4090"]);
    assert_eq!(values(&p, "a100"), [5.0, 3.0, 1.0]);
    assert_eq!(values(&p, "h100"), [2.0, 0.0, 1.0]);
    // 13:00: one 4090 sample (the empty cell is no sample, not 0).
    assert_eq!(values(&p, "4090"), [1.0, 2.0, 1.0]);
    assert_eq!(p.series.values, vec![8.0, 5.0, 3.0]);
    assert_eq!(
        p.series.timestamps,
        Some(vec![T0, T0 + H, T0 + 3 * H]),
        "15:00 has no data at all: excluded"
    );
    assert_eq!(p.report.type_source, Some(TypeSource::Headers));
    assert_eq!(p.report.used, ColumnUse::Sum);
    assert_eq!(p.report.columns.len(), 3);
    assert_eq!(p.report.missing_hours, 1);
    let h100 = &p.types[1];
    // The 14:00 hour in the series, the 15:00 hour left out.
    assert_eq!((nd(h100), h100.gap_hours), (vec![(1, 2)], 2));
    assert_eq!(p.types[0].gap_hours, 1);

    // Zero-filled: 15:00 is in every series, 0.
    let z = same_in_slices(
        text,
        &ParseOptions {
            gaps: GapPolicy::Zero,
            ..opts()
        },
    );
    check_typed(&z);
    assert_eq!(values(&z, "h100"), [2.0, 0.0, 0.0, 1.0]);
    assert_eq!(nd(&z.types[1]), vec![(1, 3)]);
    assert_eq!(z.types[1].gap_hours, 2);
    assert_eq!(nd(&z.types[0]), vec![(2, 3)]);

    // One column chosen: that type only.
    let one = ok(text, &one_column(1));
    check_typed(&one);
    assert_eq!(keys(&one), ["h100"]);
    assert_eq!(one.series.values, vec![2.0, 1.0]);
}

#[test]
fn grafana_wide_export_with_one_column_per_type() {
    let text = "\"Time\",\"A100\",\"H100\"\n2026-11-01 13:00:00,12,3\n2026-11-01 13:30:00,14,5\n2026-11-01 14:00:00,10,\n";
    let p = same_in_slices(text, &opts());
    check_typed(&p);
    assert_eq!(p.report.format, Format::GrafanaCsv);
    assert_eq!(values(&p, "a100"), [13.0, 10.0]);
    assert_eq!(values(&p, "h100"), [4.0, 0.0]);
    assert_eq!(nd(&p.types[1]), vec![(1, 2)]);
}

#[test]
fn wide_columns_of_one_type_are_summed() {
    let text = "time,A100-SXM4-80GB,a100 80GB,A100-40G\n\
        2026-11-01 13:00,4,2,1\n\
        2026-11-01 14:00,3,,2\n";
    let p = typed(text, &["a100", "a100-40g"]);
    assert_eq!(values(&p, "a100"), [6.0, 3.0]);
    assert_eq!(values(&p, "a100-40g"), [1.0, 2.0]);
}

#[test]
fn wide_table_with_columns_that_are_not_types_stays_one_series() {
    // A total column: today's picker takes it.
    let text = "time,A100,H100,total\n2026-11-01 13:00,3,4,7\n2026-11-01 14:00,1,1,2\n";
    let p = ok(text, &opts());
    assert!(p.types.is_empty());
    assert_eq!(p.report.type_source, None);
    assert_eq!(p.report.used, ColumnUse::One(2));
    assert_eq!(p.series.values, vec![7.0, 2.0]);
    // A team column: the sum, untyped.
    let text = "time,A100,team_b\n2026-11-01 13:00,3,4\n2026-11-01 14:00,1,\n";
    let p = ok(text, &opts());
    assert!(p.types.is_empty());
    assert_eq!(p.series.values, vec![7.0, 1.0]);
    // Types without a header row: nothing says types.
    let p = ok("2026-11-01 13:00,3,4\n2026-11-01 14:00,1,1\n", &opts());
    assert!(p.types.is_empty());
}

#[test]
fn wide_typed_table_without_timestamps_is_consecutive_hours() {
    let p = same_in_slices("A100,H100\n1,2\n3,\n,4\n", &opts());
    check_typed(&p);
    assert_eq!(p.series.timestamps, None);
    assert_eq!(values(&p, "a100"), [1.0, 3.0, 0.0]);
    assert_eq!(values(&p, "h100"), [2.0, 0.0, 4.0]);
    assert_eq!(nd(&p.types[0]), vec![(2, 3)]);
    assert_eq!(p.series.values, vec![3.0, 3.0, 4.0]);
}

#[test]
fn wide_typed_rows_out_of_order_and_repeated() {
    let text = "time,A100,H100\n\
        2026-11-01 14:00,3,1\n\
        2026-11-01 13:00,4,2\n\
        2026-11-01 13:00,6,\n";
    let p = same_in_slices(text, &opts());
    check_typed(&p);
    assert!(p.report.unsorted);
    assert_eq!(p.report.duplicates, 1);
    assert_eq!(values(&p, "a100"), [5.0, 3.0]);
    assert_eq!(values(&p, "h100"), [2.0, 1.0]);
    // A bad cell rejects its row (as the sum of columns does).
    let text = "time,A100,H100\n2026-11-01 13:00,4,x\n2026-11-01 14:00,1,1\n2026-11-01 15:00,1,2\n";
    let p = ok(text, &opts());
    assert_eq!(keys(&p), ["a100", "h100"]);
    assert_eq!(p.series.values, vec![2.0, 3.0]);
    assert_eq!(p.report.rejected[0].reason, RejectReason::NotANumber);
    assert_eq!(p.report.rejected[0].excerpt, "x");
}

#[test]
fn daily_typed_samples_are_held() {
    let text = "date,A100,H100\n2026-11-01,3,1\n2026-11-02,5,\n";
    let p = ok(text, &opts());
    check_typed(&p);
    assert_eq!(p.series.values.len(), 48);
    assert_eq!(values(&p, "a100")[23], 3.0);
    assert_eq!(values(&p, "a100")[24], 5.0);
    assert_eq!(nd(&p.types[1]), vec![(24, 48)]);
}

// ---------------------------------------------------------------------------------------
// Prometheus, job logs, nvidia-smi.

const PROM_TYPED: &str = r#"{
  "status": "success",
  "data": {
    "resultType": "matrix",
    "result": [
      {
        "metric": {"Hostname": "n1", "modelName": "NVIDIA A100-SXM4-80GB"},
        "values": [[1793538000, "4"], [1793541600, "3"]]
      },
      {
        "metric": {"Hostname": "n2", "modelName": "NVIDIA A100 80GB PCIe"},
        "values": [[1793538000, "2"], [1793539800, "4"], [1793541600, "1"]]
      },
      {
        "metric": {"Hostname": "n3", "modelName": "NVIDIA H100 80GB HBM3"},
        "values": [[1793538000, "8"]]
      }
    ]
  }
}"#;

#[test]
fn prometheus_series_typed_by_a_label() {
    let p = typed(PROM_TYPED, &["a100", "h100"]);
    assert_eq!(
        labels(&p),
        ["NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3"]
    );
    // 13:00: n1 4 + n2 (2 + 4) / 2.
    assert_eq!(values(&p, "a100"), [7.0, 4.0]);
    assert_eq!(values(&p, "h100"), [8.0, 0.0]);
    assert_eq!(p.series.values, vec![15.0, 4.0]);
    assert_eq!(p.series.timestamps, Some(vec![T0, T0 + H]));
    assert_eq!(
        p.report.type_source,
        Some(TypeSource::Label("modelName".into()))
    );
    assert_eq!(p.report.columns.len(), 3);
    // The Kubernetes node label, and one series picked.
    let k8s = PROM_TYPED.replace("modelName", "label_nvidia_com_gpu_product");
    let p = ok(&k8s, &one_column(2));
    check_typed(&p);
    assert_eq!(keys(&p), ["h100"]);
    assert_eq!(p.series.values, vec![8.0]);
    // A series without the label: untyped.
    let partial = PROM_TYPED.replacen("\"modelName\"", "\"model\"", 1);
    let p = ok(&partial, &opts());
    assert!(p.types.is_empty());
    assert_eq!(p.series.values, vec![15.0, 4.0]);
}

#[test]
fn job_log_with_a_type_column() {
    let text = "start,end,gpus,type\n\
        2026-11-01 13:00,2026-11-01 15:30,8,A100\n\
        2026-11-01 14:30,2026-11-01 15:00,2,H100\n\
        2026-11-01 16:00,2026-11-01 15:00,4,H100\n\
        2026-11-01 13:00,2026-11-01 14:00,1,NVIDIA A100-SXM4-80GB\n";
    let p = same_in_slices(text, &opts());
    check_typed(&p);
    assert_eq!(p.report.format, Format::JobLog);
    assert_eq!(keys(&p), ["a100", "h100"]);
    assert_eq!(values(&p, "a100"), [9.0, 8.0, 4.0]);
    assert_eq!(values(&p, "h100"), [0.0, 1.0, 0.0]);
    assert_eq!(p.series.values, vec![9.0, 9.0, 4.0]);
    assert!(p
        .types
        .iter()
        .all(|t| t.gap_hours == 0 && t.no_data.is_empty()));
    assert_eq!(p.report.rejected[0].reason, RejectReason::EndBeforeStart);
    assert_eq!(
        p.report.type_source,
        Some(TypeSource::Column(ValueColumn {
            field: 3,
            name: "type".into()
        }))
    );
}

#[test]
fn nvidia_smi_with_the_gpu_name() {
    let text = "timestamp, name, index, utilization.gpu [%]\n\
        2026/11/01 13:00:00.000, NVIDIA A100-SXM4-80GB, 0, 95 %\n\
        2026/11/01 13:00:00.000, NVIDIA A100-SXM4-80GB, 1, 0 %\n\
        2026/11/01 13:00:00.000, Tesla T4, 2, 50 %\n\
        2026/11/01 13:30:00.000, NVIDIA A100-SXM4-80GB, 0, 95 %\n\
        2026/11/01 13:30:00.000, NVIDIA A100-SXM4-80GB, 1, 90 %\n\
        2026/11/01 13:30:00.000, Tesla T4, 2, 0 %\n";
    let p = same_in_slices(text, &opts());
    check_typed(&p);
    assert_eq!(p.report.format, Format::NvidiaSmi);
    assert_eq!(keys(&p), ["a100", "t4"]);
    assert_eq!(values(&p, "a100"), [1.5]);
    assert_eq!(values(&p, "t4"), [0.5]);
    assert_eq!(p.report.columns.len(), 3, "one series per GPU");
}

// ---------------------------------------------------------------------------------------
// Limits and edits.

#[test]
fn more_than_eight_types_is_one_series_with_a_message() {
    let models = [
        "A100", "H100", "H800", "H20", "L40S", "T4", "V100", "4090", "3090", "MI300X",
    ];
    let long_label = format!("NVIDIA {}", "X".repeat(80));
    let mut text = String::from("time,gpu_type,gpus\n");
    for (k, m) in models.iter().enumerate() {
        text.push_str(&format!("2026-11-01 13:00,{m},{}\n", k + 1));
    }
    text.push_str(&format!("2026-11-01 14:00,{long_label},1\n"));
    let p = same_in_slices(&text, &opts());
    assert!(p.types.is_empty());
    let too_many = p.report.too_many_types.clone().expect("too many types");
    assert_eq!(too_many.found, 11);
    assert_eq!(too_many.labels, ["A100", "H100", "H800", "H20", "L40S"]);
    let msg = too_many.to_string();
    assert!(
        msg.starts_with("11 GPU types found (A100, H100, H800, H20, L40S, …)"),
        "{msg}"
    );
    assert!(msg.contains("at most 8"), "{msg}");
    assert!(matches!(p.report.type_source, Some(TypeSource::Column(_))));
    // One series per type name, summed.
    assert_eq!(p.series.values, vec![55.0, 1.0]);

    // Labels from the file are cut to 40 characters.
    let mut text = String::from("time,gpu_type,gpus\n");
    for k in 0..9 {
        text.push_str(&format!("2026-11-01 13:00,{k} {long_label},1\n"));
    }
    let p = ok(&text, &opts());
    let too_many = p.report.too_many_types.expect("too many types");
    assert_eq!(too_many.found, 9);
    assert!(too_many
        .labels
        .iter()
        .all(|l| l.chars().count() <= MAX_EXCERPT_CHARS && l.ends_with('…')));

    // Wide: nine type columns, read as today's sum of columns.
    let header = "time,A100,H100,H800,H20,L40S,T4,V100,4090,3090";
    let text = format!("{header}\n2026-11-01 13:00,1,1,1,1,1,1,1,1,1\n");
    let p = ok(&text, &opts());
    assert!(p.types.is_empty());
    assert_eq!(p.report.type_source, Some(TypeSource::Headers));
    assert_eq!(p.report.too_many_types.as_ref().map(|t| t.found), Some(9));
    assert_eq!(p.series.values, vec![9.0]);
    assert_eq!(p.report.used, ColumnUse::Sum);
    // Eight are fine.
    let text = "time,A100,H100,H800,H20,L40S,T4,V100,4090\n2026-11-01 13:00,1,1,1,1,1,1,1,1\n";
    let p = ok(text, &opts());
    check_typed(&p);
    assert_eq!(p.types.len(), MAX_TYPES);
}

#[test]
fn merge_a100_40g_into_a100() {
    let text = "time,A100,A100-40G,H100\n\
        2026-11-01 13:00,4,1,2\n\
        2026-11-01 14:00,,3,1\n\
        2026-11-01 15:00,,,1\n\
        2026-11-01 17:00,2,,1\n";
    let p = ok(text, &opts());
    check_typed(&p);
    assert_eq!(keys(&p), ["a100", "a100-40g", "h100"]);
    let mut types = p.types.clone();
    assert_eq!(nd(&types[0]), vec![(1, 3)]);
    assert_eq!(nd(&types[1]), vec![(2, 4)]);
    assert_eq!((types[0].gap_hours, types[1].gap_hours), (3, 3));
    merge_types(&mut types, "a100-40g", "a100").expect("merged");
    assert_eq!(types.len(), 2);
    let a = &types[0];
    assert_eq!((a.key.as_str(), a.label.as_str()), ("a100", "A100"));
    assert_eq!(a.series.values, vec![5.0, 3.0, 0.0, 2.0]);
    assert_eq!((a.peak, a.hours), (5.0, 4));
    // 15:00 had neither; 16:00 no type at all (left out).
    assert_eq!(nd(a), vec![(2, 3)]);
    assert_eq!(a.gap_hours, 2);
    assert_eq!(types[1].key, "h100");
    // Still the sum.
    for (i, &v) in p.series.values.iter().enumerate() {
        assert_eq!(types[0].series.values[i] + types[1].series.values[i], v);
    }
    assert_eq!(
        merge_types(&mut types, "a100", "a100"),
        Err(TypeEditError::SameType)
    );
    assert_eq!(
        merge_types(&mut types, "v100", "a100"),
        Err(TypeEditError::UnknownType { key: "v100".into() })
    );
    // Merging into an earlier or a later type.
    let mut types = p.types.clone();
    merge_types(&mut types, "a100", "h100").expect("merged");
    assert_eq!(keys_of(&types), ["a100-40g", "h100"]);
    assert_eq!(types[1].series.values, vec![6.0, 1.0, 1.0, 3.0]);
    let mut other = ok("time,A100\n2026-11-01 13:00,1\n", &opts()).types;
    other.push(types[1].clone());
    assert_eq!(
        merge_types(&mut other, "h100", "a100"),
        Err(TypeEditError::DifferentTimelines)
    );

    rename_type(&mut types, "h100", "  H100 (rented)  ").expect("renamed");
    assert_eq!(types[1].label, "H100 (rented)");
    assert_eq!(types[1].key, "h100");
    assert_eq!(
        rename_type(&mut types, "h100", "  "),
        Err(TypeEditError::EmptyLabel)
    );
    rename_type(&mut types, "h100", &"y".repeat(100)).expect("renamed");
    assert_eq!(types[1].label.chars().count(), MAX_EXCERPT_CHARS);
}

fn keys_of(types: &[TypedSeries]) -> Vec<&str> {
    types.iter().map(|t| t.key.as_str()).collect()
}

#[test]
fn untyped_inputs_have_no_types() {
    for text in [
        "3\n4\n",
        "time,gpus\n2026-11-01 13:00,3\n",
        "time,team_a,team_b\n2026-11-01 13:00,3,4\n",
        "series,time,value\na,2026-11-01 13:00,3\nb,2026-11-01 13:00,4\n",
        "start,end,gpus\n2026-11-01 13:00,2026-11-01 14:00,2\n",
    ] {
        let p = ok(text, &opts());
        assert!(p.types.is_empty(), "{text}");
        assert_eq!(p.report.type_source, None);
        assert_eq!(p.report.too_many_types, None);
    }
}

// ---------------------------------------------------------------------------------------
// Size: a year of minutes for 8 types.

const EIGHT: [&str; 8] = [
    "A100", "H100", "H800", "H20", "L40S", "4090", "A800", "V100",
];

fn minutely_wide(minutes: usize) -> String {
    let mut text = format!("time,{}\n", EIGHT.join(","));
    for m in 0..minutes {
        text.push_str(&(T0 + m as i64 * 60).to_string());
        for k in 0..8 {
            text.push_str(&format!(",{}", (m * (k + 3)) % 17));
        }
        text.push('\n');
    }
    text
}

fn minutely_long(minutes: usize) -> String {
    let mut text = String::from("time,gpu_type,gpus\n");
    for m in 0..minutes {
        for (k, name) in EIGHT.iter().enumerate() {
            text.push_str(&format!(
                "{},{name},{}\n",
                T0 + m as i64 * 60,
                (m * (k + 3)) % 17
            ));
        }
    }
    text
}

#[test]
fn wide_and_long_minutely_tables_agree() {
    let minutes = 3 * 24 * 60;
    let wide = ok(&minutely_wide(minutes), &opts());
    let long = ok(&minutely_long(minutes), &opts());
    check_typed(&wide);
    check_typed(&long);
    assert_eq!(wide.types.len(), 8);
    assert_eq!(wide.series.len(), 72);
    assert_eq!(wide.report.resolution_seconds, Some(60));
    for (w, l) in wide.types.iter().zip(&long.types) {
        assert_eq!(w.key, l.key);
        for (a, b) in w.series.values.iter().zip(&l.series.values) {
            assert!((a - b).abs() < 1e-9);
        }
    }
}

/// `cargo test --release --lib ingest::tests_types::throughput -- --ignored --nocapture`.
#[test]
#[ignore]
fn throughput() {
    let minutes = 525_600;
    let wide = minutely_wide(minutes);
    // The same numbers under headers that are not types: today's sum of columns.
    let untyped = wide.replacen(&EIGHT.join(","), "c1,c2,c3,c4,c5,c6,c7,c8", 1);
    for (name, text) in [
        ("wide", wide),
        ("wide untyped", untyped),
        ("long", minutely_long(minutes / 8)),
    ] {
        let t = std::time::Instant::now();
        let mut s = Stepper::new(&text, &opts());
        while !s.step(64 * 1024) {}
        let p = s.finish().expect("parses");
        let dt = t.elapsed().as_secs_f64();
        println!(
            "{name}: {:.1} MB in {:.1} ms: {:.0} MB/s, {} hours, {} types",
            text.len() as f64 / 1e6,
            dt * 1e3,
            text.len() as f64 / 1e6 / dt,
            p.series.len(),
            p.types.len()
        );
        assert_eq!(p.types.len(), if name == "wide untyped" { 0 } else { 8 });
    }
}

// ---------------------------------------------------------------------------------------
// Property: the sum over types is the untyped reading.

mod prop {
    use super::*;
    use proptest::prelude::*;

    /// Ways to write each of three types.
    const FORMS: [&[&str]; 3] = [
        &["A100", "a100", "NVIDIA A100-SXM4-80GB", "\"A100 80GB\""],
        &["H100", "NVIDIA H100 80GB HBM3", "h100"],
        &["RTX 4090", "4090", "NVIDIA GeForce RTX 4090"],
    ];

    proptest! {
        #![proptest_config(proptest::test_runner::Config { cases: 128, failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("tests/regressions/ingest_types.txt"))), ..proptest::test_runner::Config::default() })]

        /// Random typed long tables (each hour's rows of one type, written any way, at
        /// random minutes, in random order): the sum over types equals the untyped parse
        /// of the same rows without the type column, and every type has the same hours.
        /// (Minutes before :55 only: hourly data stamped a little early moves to the next
        /// hour, where another spelling is another series, summed, not averaged.)
        #[test]
        fn sum_over_types_is_the_untyped_reading(
            hours in proptest::collection::btree_map(0i64..200, (0usize..3, 0usize..4, proptest::collection::btree_set(0i64..55, 1..4), proptest::collection::vec(0u32..40, 3)), 1..40),
            zero in any::<bool>(),
            shuffle in any::<u64>(),
        ) {
            let mut rows: Vec<(i64, String, String)> = Vec::new();
            for (&h, (ty, form, minutes, vals)) in &hours {
                let forms = FORMS[*ty];
                let name = forms[form % forms.len()];
                for (k, &m) in minutes.iter().enumerate() {
                    let v = f64::from(vals[k % vals.len()]) / 4.0;
                    rows.push((T0 + h * H + m * 60, name.to_string(), v.to_string()));
                }
            }
            // A deterministic shuffle.
            let mut seed = shuffle | 1;
            for i in (1..rows.len()).rev() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                rows.swap(i, (seed % (i as u64 + 1)) as usize);
            }
            let mut typed = String::from("time,gpu_type,gpus\n");
            let mut plain = String::from("time,gpus\n");
            for (t, name, v) in &rows {
                typed.push_str(&format!("{t},{name},{v}\n"));
                plain.push_str(&format!("{t},{v}\n"));
            }
            let o = ParseOptions {
                gaps: if zero { GapPolicy::Zero } else { GapPolicy::Exclude },
                ..opts()
            };
            let p = parse(&typed, &o).expect("typed parses");
            let u = parse(&plain, &o).expect("untyped parses");
            check_typed(&p);
            prop_assert!(u.types.is_empty());
            prop_assert_eq!(&p.series, &u.series);
            let distinct: std::collections::BTreeSet<usize> = hours.values().map(|v| v.0).collect();
            prop_assert_eq!(p.types.len(), distinct.len());
            prop_assert_eq!(p.report.missing_hours, u.report.missing_hours);
            prop_assert_eq!(p.report.resolution_seconds, u.report.resolution_seconds);
            // Stepper slices give the same.
            let mut s = Stepper::new(&typed, &o);
            while !s.step(97) {}
            prop_assert_eq!(s.finish(), Ok(p));
        }
    }
}

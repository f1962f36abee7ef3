//! End-to-end ingestion tests on real-looking exports.

use super::test_feed::{chunked, column_name, ok, one_column, opts, same_every_way};
use super::*;

const T0: i64 = 1_793_538_000; // 2026-11-01T13:00:00Z
const H: i64 = 3600;

fn ts(p: &Parsed) -> Vec<i64> {
    p.series.timestamps.clone().expect("timestamps")
}

#[test]
fn one_number_per_line_is_hourly_without_timestamps() {
    let p = ok("3\n4.5\n\n5\nabc\n6\n", &opts());
    assert_eq!(p.report.format, Format::Values);
    assert_eq!(p.series.values, vec![3.0, 4.5, 5.0, 6.0]);
    assert_eq!(p.series.timestamps, None);
    assert_eq!(p.report.rows_read, 4);
    assert_eq!(
        p.report.rejected,
        vec![RejectedLine {
            line: 5,
            reason: RejectReason::NotANumber,
            excerpt: "abc".into()
        }]
    );
    assert_eq!(p.report.hours, 4);
    assert_eq!(p.report.lines, 6);
}

#[test]
fn one_number_per_line_with_header_and_thousands() {
    let p = ok("GPU数\n1,024\n2,048\n512\n", &opts());
    assert_eq!(p.report.format, Format::Values);
    assert!(p.report.has_header);
    assert_eq!(p.series.values, vec![1024.0, 2048.0, 512.0]);
}

#[test]
fn csv_with_header_iso_timestamps() {
    let text = "timestamp,gpus_busy\n2026-11-01T13:00:00Z,8\n2026-11-01T14:00:00Z,9\n2026-11-01T15:00:00Z,7.5\n";
    let p = ok(text, &opts());
    assert_eq!(p.report.format, Format::Table);
    assert_eq!(p.report.delimiter, Delimiter::Comma);
    assert!(p.report.has_header);
    assert_eq!(
        p.report.timestamp_style,
        Some(TimestampStyle::IsoWithOffset)
    );
    assert!(!p.report.naive_timestamps);
    assert_eq!(
        p.report.timestamp_column,
        Some(ValueColumn {
            field: 0,
            name: "timestamp".into()
        })
    );
    assert_eq!(
        p.report.columns,
        vec![ValueColumn {
            field: 1,
            name: "gpus_busy".into()
        }]
    );
    assert_eq!(p.report.used, ColumnUse::One(0));
    assert_eq!(p.series.values, vec![8.0, 9.0, 7.5]);
    assert_eq!(ts(&p), vec![T0, T0 + H, T0 + 2 * H]);
    assert_eq!(p.report.span, Some((T0, T0 + 2 * H)));
    assert_eq!(p.report.resolution_seconds, Some(3600));
    assert_eq!(p.report.missing_hours, 0);
}

#[test]
fn csv_without_header_and_tsv_and_semicolon_decimal_comma() {
    let p = ok("2026-11-01 13:00,8\n2026-11-01 14:00,9\n", &opts());
    assert!(!p.report.has_header);
    assert_eq!(p.report.timestamp_style, Some(TimestampStyle::IsoLocal));
    assert_eq!(p.series.values, vec![8.0, 9.0]);

    let p = ok(
        "time\tgpus\n2026-11-01 13:00:00\t8\n2026-11-01 14:00:00\t9\n",
        &opts(),
    );
    assert_eq!(p.report.delimiter, Delimiter::Tab);
    assert_eq!(p.series.values, vec![8.0, 9.0]);

    let p = ok(
        "Zeit;GPUs\n2026-11-01 13:00;8,5\n2026-11-01 14:00;1.024,5\n",
        &opts(),
    );
    assert_eq!(p.report.delimiter, Delimiter::Semicolon);
    assert_eq!(p.series.values, vec![8.5, 1024.5]);
}

#[test]
fn whitespace_table_with_date_and_time_fields() {
    let text = "2026/11/01 13:00   8\n2026/11/01 14:00   9\n2026/11/01 15:00   10\n";
    let p = ok(text, &opts());
    assert_eq!(p.report.delimiter, Delimiter::Whitespace);
    assert_eq!(p.report.time_column.as_ref().map(|c| c.field), Some(1));
    assert_eq!(p.series.values, vec![8.0, 9.0, 10.0]);
    assert_eq!(ts(&p), vec![T0, T0 + H, T0 + 2 * H]);
}

#[test]
fn chinese_headers_dates_and_full_width_digits() {
    let text = "时间，使用台数\n2026年11月1日 13:00，８\n2026年11月1日 14:00，１２\n２０２６年１１月１日 １５：００，１０２４\n";
    let p = ok(text, &opts());
    assert_eq!(p.report.delimiter, Delimiter::FullWidthComma);
    assert_eq!(p.report.timestamp_style, Some(TimestampStyle::ChineseLocal));
    assert_eq!(p.report.columns[0].name, "使用台数");
    assert_eq!(p.series.values, vec![8.0, 12.0, 1024.0]);
    assert_eq!(ts(&p), vec![T0, T0 + H, T0 + 2 * H]);

    let p = ok("时间\tGPU数\n2026-11-01 13:00\t１，０２４\n", &opts());
    assert_eq!(p.series.values, vec![1024.0]);

    // Separate date and time columns, ASCII commas, Chinese header.
    let text = "日期,时间,GPU数\n2026-11-01,13:00,4\n2026-11-01,14:00,6\n";
    let p = ok(text, &opts());
    assert_eq!(column_name(&p.report.timestamp_column), Some("日期"));
    assert_eq!(column_name(&p.report.time_column), Some("时间"));
    assert_eq!(p.series.values, vec![4.0, 6.0]);
    assert_eq!(ts(&p), vec![T0, T0 + H]);
}

#[test]
fn bom_crlf_and_quoted_thousands() {
    let text = "\u{FEFF}\"time\",\"gpus\"\r\n\"2026-11-01 13:00\",\"1,234\"\r\n\"2026-11-01 14:00\",\"2,000\"\r\n";
    let p = ok(text, &opts());
    assert!(p.report.has_header);
    assert_eq!(p.series.values, vec![1234.0, 2000.0]);
    assert_eq!(p.report.rows_rejected, 0);
}

#[test]
fn epoch_seconds_and_milliseconds() {
    let s = format!("{},5\n{},6\n", T0, T0 + H);
    let p = ok(&s, &opts());
    assert_eq!(p.report.timestamp_style, Some(TimestampStyle::EpochSeconds));
    assert_eq!(ts(&p), vec![T0, T0 + H]);
    let ms = format!("ts,gpus\n{},5\n{},6\n", T0 * 1000, (T0 + H) * 1000);
    let p = ok(&ms, &opts());
    assert_eq!(p.report.timestamp_style, Some(TimestampStyle::EpochMillis));
    assert_eq!(ts(&p), vec![T0, T0 + H]);
    assert_eq!(p.series.values, vec![5.0, 6.0]);
}

#[test]
fn time_zone_for_naive_timestamps_and_hour_alignment() {
    let text = "time,gpus\n2026-11-01 21:00,5\n2026-11-01 22:00,6\n";
    let o = ParseOptions {
        utc_offset_minutes: 480,
        ..opts()
    };
    let p = ok(text, &o);
    assert!(p.report.naive_timestamps);
    assert_eq!(ts(&p), vec![T0, T0 + H]);
    assert_eq!(p.series.utc_offset_minutes, 480);
    // Explicit offsets are not shifted by the option.
    let p = ok("time,gpus\n2026-11-01T13:00:00Z,5\n", &o);
    assert_eq!(ts(&p), vec![T0]);
    // India (+05:30): hours align to local hour starts.
    let o = ParseOptions {
        utc_offset_minutes: 330,
        ..opts()
    };
    let p = ok(
        "time,gpus\n2026-11-01T13:10:00Z,4\n2026-11-01T13:40:00Z,8\n",
        &o,
    );
    assert_eq!(p.series.values, vec![4.0, 8.0]);
    assert_eq!(ts(&p), vec![T0 - 30 * 60, T0 + 30 * 60]);
}

#[test]
fn sub_hourly_samples_are_averaged() {
    let mut text = String::from("time,gpus\n");
    for m in 0..120 {
        let v = if m < 60 { m % 2 * 4 } else { 6 };
        text.push_str(&format!(
            "2026-11-01 {:02}:{:02},{v}\n",
            13 + m / 60,
            m % 60
        ));
    }
    let p = ok(&text, &opts());
    assert_eq!(p.series.values, vec![2.0, 6.0]);
    assert_eq!(p.report.resolution_seconds, Some(60));
    assert_eq!(p.report.rows_read, 120);
}

#[test]
fn daily_samples_are_held_for_the_day() {
    let p = ok("date,gpus\n2026-11-01,3\n2026-11-02,5\n", &opts());
    assert_eq!(p.report.timestamp_style, Some(TimestampStyle::DateOnly));
    assert_eq!(p.series.len(), 48);
    assert_eq!(p.series.values[0], 3.0);
    assert_eq!(p.series.values[47], 5.0);
}

#[test]
fn gaps_excluded_by_default_or_zero_filled() {
    let text = "time,gpus\n2026-11-01 13:00,1\n2026-11-01 14:00,2\n2026-11-01 17:00,3\n2026-11-01 18:00,4\n";
    let p = ok(text, &opts());
    assert_eq!(p.series.values, vec![1.0, 2.0, 3.0, 4.0]);
    assert_eq!(ts(&p), vec![T0, T0 + H, T0 + 4 * H, T0 + 5 * H]);
    assert_eq!(p.report.missing_hours, 2);
    assert_eq!(
        p.report.gaps,
        vec![Gap {
            start: T0 + 2 * H,
            hours: 2
        }]
    );
    assert_eq!(p.report.gap_policy, GapPolicy::Exclude);
    let z = ok(
        text,
        &ParseOptions {
            gaps: GapPolicy::Zero,
            ..opts()
        },
    );
    assert_eq!(z.series.values, vec![1.0, 2.0, 0.0, 0.0, 3.0, 4.0]);
    assert_eq!(ts(&z), (0..6).map(|i| T0 + i * H).collect::<Vec<_>>());
    assert_eq!(z.report.missing_hours, 2);
}

#[test]
fn duplicates_and_unsorted_rows_are_reported_and_fixed() {
    let text = "time,gpus\n2026-11-01 15:00,3\n2026-11-01 13:00,1\n2026-11-01 14:00,2\n2026-11-01 14:00,4\n";
    let p = ok(text, &opts());
    assert!(p.report.unsorted);
    assert_eq!(p.report.duplicates, 1);
    assert_eq!(p.series.values, vec![1.0, 3.0, 3.0]);
    assert_eq!(ts(&p), vec![T0, T0 + H, T0 + 2 * H]);
    let sorted = ok(
        "time,gpus\n2026-11-01 13:00,1\n2026-11-01 14:00,2\n",
        &opts(),
    );
    assert!(!sorted.report.unsorted);
    assert_eq!(sorted.report.duplicates, 0);
}

/// The rows a reading rejected, as (line, reason, excerpt).
fn rejects(p: &Parsed) -> Vec<(usize, RejectReason, &str)> {
    p.report
        .rejected
        .iter()
        .map(|r| (r.line, r.reason, r.excerpt.as_str()))
        .collect()
}

/// The rows a reading rejected, as (line, reason).
fn rejected_lines(p: &Parsed) -> Vec<(usize, RejectReason)> {
    p.report
        .rejected
        .iter()
        .map(|r| (r.line, r.reason))
        .collect()
}

/// The names of the value columns a reading found.
fn column_names(p: &Parsed) -> Vec<&str> {
    p.report.columns.iter().map(|c| c.name.as_str()).collect()
}

#[test]
fn negative_nan_and_bad_timestamps_rejected_with_line_numbers() {
    let text = "time,gpus\n2026-11-01 13:00,1\n2026-11-01 14:00,-2\n2026-11-01 15:00,NaN\nyesterday,4\n2026-11-01 16:00,\n1900-01-01 00:00,3\n2026-11-01 17:00,5\n";
    let p = ok(text, &opts());
    assert_eq!(
        rejects(&p),
        vec![
            (3, RejectReason::Negative, "-2"),
            (4, RejectReason::NotFinite, "NaN"),
            (5, RejectReason::BadTimestamp, "yesterday"),
            (6, RejectReason::MissingValue, "2026-11-01 16:00,"),
            (7, RejectReason::TimestampOutOfRange, "1900-01-01 00:00"),
        ]
    );
    assert_eq!(p.report.rows_read, 2);
    assert_eq!(p.report.rows_rejected, 5);
    assert!(p.series.values.iter().all(|v| v.is_finite()));
}

#[test]
fn twenty_rejects_listed_the_rest_counted() {
    let mut text = String::from("gpus\n");
    for i in 0..30 {
        text.push_str(if i % 2 == 0 {
            "7\n"
        } else {
            "bad value that is definitely longer than forty characters\n"
        });
    }
    let p = ok(&text, &opts());
    assert_eq!(p.report.rows_rejected, 15);
    assert_eq!(p.report.rejected.len(), 15);
    let mut text = String::from("gpus\n1\n");
    for _ in 0..25 {
        text.push_str("x\n");
    }
    let p = ok(&text, &opts());
    assert_eq!(p.report.rows_rejected, 25);
    assert_eq!(p.report.rejected.len(), MAX_LISTED_REJECTS);
    assert_eq!(p.report.rejected_not_listed, 5);
    assert_eq!(p.report.rejected[0].line, 3);
    assert_eq!(p.report.rejected[19].line, 22);
    let long = ok(
        "gpus\n1\nbad value that is definitely longer than forty characters\n",
        &opts(),
    );
    assert_eq!(
        long.report.rejected[0].excerpt.chars().count(),
        MAX_EXCERPT_CHARS
    );
    assert!(long.report.rejected[0].excerpt.ends_with('…'));
}

#[test]
fn several_columns_sum_pick_or_total() {
    let text = "time,team_a_gpus,team_b_gpus\n2026-11-01 13:00,3,4\n2026-11-01 14:00,5,\n";
    let p = ok(text, &opts());
    assert_eq!(p.report.used, ColumnUse::Sum);
    assert_eq!(column_names(&p), ["team_a_gpus", "team_b_gpus"]);
    assert_eq!(p.series.values, vec![7.0, 5.0]);
    let p = ok(text, &one_column(1));
    assert_eq!(p.report.used, ColumnUse::One(1));
    assert_eq!(p.series.values, vec![4.0]);
    assert_eq!(p.report.rejected[0].reason, RejectReason::MissingValue);
    assert!(matches!(
        parse(text, &one_column(5)),
        Err(IngestError::NoSuchColumn {
            index: 5,
            available: 2
        })
    ));
    let p = ok("time,node1,node2,total\n2026-11-01 13:00,3,4,7\n", &opts());
    assert_eq!(p.report.used, ColumnUse::One(2));
    assert_eq!(p.series.values, vec![7.0]);
    let p = ok(
        "time,node1,node2,total\n2026-11-01 13:00,3,4,7\n",
        &ParseOptions {
            column: ColumnChoice::Sum,
            ..opts()
        },
    );
    assert_eq!(p.series.values, vec![14.0]);
}

#[test]
fn table_without_timestamps_is_consecutive_hours() {
    let p = ok("a b\n1 2\n3 4\n", &opts());
    assert_eq!(p.series.values, vec![3.0, 7.0]);
    assert_eq!(p.series.timestamps, None);
}

const GRAFANA_WIDE: &str =
    "\"Time\",\"gpu-busy{cluster=\"\"a\"\"}\",\"gpu-busy{cluster=\"\"b\"\"}\"
2026-11-01 13:00:00,12,3
2026-11-01 13:30:00,14,5
2026-11-01 14:00:00,10,
";

const GRAFANA_LONG: &str = "\"Series\";\"Time\";\"Value\"
\"count(DCGM_FI_DEV_GPU_UTIL > 10)\";\"2026-11-01T21:00:00+08:00\";12
\"count(DCGM_FI_DEV_GPU_UTIL > 10)\";\"2026-11-01T22:00:00+08:00\";14
\"count(DCGM_FI_DEV_GPU_UTIL > 10) staging\";\"2026-11-01T21:00:00+08:00\";2
\"count(DCGM_FI_DEV_GPU_UTIL > 10) staging\";\"2026-11-01T22:00:00+08:00\";3
";

#[test]
fn grafana_csv_exports_wide_and_long() {
    let p = ok(GRAFANA_WIDE, &opts());
    assert_eq!(p.report.format, Format::GrafanaCsv);
    assert_eq!(p.report.columns.len(), 2);
    assert_eq!(p.series.values, vec![13.0 + 4.0, 10.0]);
    assert_eq!(ts(&p), vec![T0, T0 + H]);

    let p = ok(GRAFANA_LONG, &opts());
    assert_eq!(p.report.format, Format::GrafanaCsv);
    assert_eq!(p.report.delimiter, Delimiter::Semicolon);
    assert_eq!(column_name(&p.report.series_column), Some("Series"));
    assert_eq!(p.report.columns.len(), 2);
    assert_eq!(
        p.report.columns[1].name,
        "count(DCGM_FI_DEV_GPU_UTIL > 10) staging"
    );
    assert_eq!(p.report.used, ColumnUse::Sum);
    assert!(
        !p.report.unsorted,
        "series listed one after another are not 'unsorted'"
    );
    assert_eq!(p.series.values, vec![14.0, 17.0]);
    assert_eq!(ts(&p), vec![T0, T0 + H]);
    let one = ok(GRAFANA_LONG, &one_column(1));
    assert_eq!(one.series.values, vec![2.0, 3.0]);
}

const PROMETHEUS: &str = r#"{
  "status": "success",
  "data": {
    "resultType": "matrix",
    "result": [
      {
        "metric": {"cluster": "a"},
        "values": [
          [1793538000, "12"],
          [1793539800, "14"],
          [1793541600, "10"],
          [1793543400, "NaN"]
        ]
      },
      {
        "metric": {"cluster": "b"},
        "values": [
          [1793538000, "4"],
          [1793541600, "6"]
        ]
      }
    ]
  }
}"#;

#[test]
fn prometheus_query_range_json() {
    let p = ok(PROMETHEUS, &opts());
    assert_eq!(p.report.format, Format::PrometheusJson);
    assert_eq!(column_names(&p), ["{cluster=\"a\"}", "{cluster=\"b\"}"]);
    assert_eq!(p.report.used, ColumnUse::Sum);
    assert_eq!(p.series.values, vec![13.0 + 4.0, 10.0 + 6.0]);
    assert_eq!(ts(&p), vec![T0, T0 + H]);
    assert_eq!(p.report.rows_read, 5);
    assert_eq!(rejected_lines(&p), [(12, RejectReason::NotFinite)]);
    assert_eq!(p.report.resolution_seconds, Some(1800));
    let a = ok(PROMETHEUS, &one_column(0));
    assert_eq!(a.series.values, vec![13.0, 10.0]);

    let minified = r#"{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"x"},"values":[[1793538000.5,"3"]]}]}}"#;
    let p = ok(minified, &opts());
    assert_eq!(p.series.values, vec![3.0]);
    assert_eq!(p.report.columns[0].name, "x");
    assert_eq!(p.report.used, ColumnUse::One(0));
}

#[test]
fn prometheus_errors() {
    let e = parse(
        r#"{"status":"error","errorType":"bad_data","error":"parse error at char 5"}"#,
        &opts(),
    );
    assert_eq!(
        e,
        Err(IngestError::PrometheusError {
            message: "parse error at char 5".into()
        })
    );
    assert_eq!(
        parse("{\"a\": 1}", &opts()),
        Err(IngestError::NotPrometheus)
    );
    assert_eq!(
        parse("{\n\"data\": [1,\n}", &opts()),
        Err(IngestError::InvalidJson { line: 3 })
    );
    let empty = parse(
        r#"{"status":"success","data":{"resultType":"matrix","result":[]}}"#,
        &opts(),
    );
    assert!(matches!(empty, Err(IngestError::NoUsableRows(_))));
}

const NVIDIA_SMI: &str = "timestamp, index, utilization.gpu [%]
2026/11/01 13:00:00.123, 0, 95 %
2026/11/01 13:00:00.125, 1, 0 %
2026/11/01 13:15:00.120, 0, 97 %
2026/11/01 13:15:00.121, 1, 5 %
2026/11/01 13:30:00.101, 0, 99 %
2026/11/01 13:30:00.103, 1, 60 %
2026/11/01 13:45:00.110, 0, 100 %
2026/11/01 13:45:00.111, 1, 80 %
timestamp, index, utilization.gpu [%]
2026/11/01 14:00:00.100, 0, 3 %
2026/11/01 14:00:00.102, 1, [N/A]
";

#[test]
fn nvidia_smi_log_counts_busy_gpus() {
    let p = ok(NVIDIA_SMI, &opts());
    assert_eq!(p.report.format, Format::NvidiaSmi);
    assert_eq!(p.report.busy_threshold_percent, Some(10.0));
    assert_eq!(column_name(&p.report.series_column), Some("index"));
    assert_eq!(p.report.columns.len(), 2);
    assert_eq!(p.report.lines_skipped, 1, "the repeated header is skipped");
    // 13:00 hour: GPU 0 busy 4/4, GPU 1 busy 2/4 → 1.5 GPUs; 14:00: GPU 0 idle.
    assert_eq!(p.series.values, vec![1.5, 0.0]);
    assert_eq!(rejected_lines(&p), [(12, RejectReason::NotANumber)]);
    let p = ok(
        NVIDIA_SMI,
        &ParseOptions {
            busy_threshold_percent: 70.0,
            ..opts()
        },
    );
    assert_eq!(p.series.values, vec![1.25, 0.0]);
}

const JOB_LOG: &str = "job_id,user,start,end,gpus
1001,alice,2026-11-01 13:00,2026-11-01 15:30,8
1002,bob,2026-11-01 14:30,2026-11-01 15:00,2
1003,carol,2026-11-01 16:00,2026-11-01 15:00,4
";

#[test]
fn job_log_split_into_hours() {
    let p = ok(JOB_LOG, &opts());
    assert_eq!(p.report.format, Format::JobLog);
    assert_eq!(column_name(&p.report.timestamp_column), Some("start"));
    assert_eq!(column_name(&p.report.end_column), Some("end"));
    assert_eq!(p.report.columns[0].name, "gpus");
    assert_eq!(p.series.values, vec![8.0, 9.0, 4.0]);
    assert_eq!(ts(&p), vec![T0, T0 + H, T0 + 2 * H]);
    assert_eq!(p.report.rejected[0].line, 4);
    assert_eq!(p.report.rejected[0].reason, RejectReason::EndBeforeStart);
    // Epoch job log without header; idle hours in between are 0, not gaps.
    let text = format!("{},{},2\n{},{},1\n", T0, T0 + H, T0 + 3 * H, T0 + 4 * H);
    let p = ok(
        &text,
        &ParseOptions {
            format: Some(Format::JobLog),
            ..opts()
        },
    );
    assert_eq!(p.series.values, vec![2.0, 0.0, 0.0, 1.0]);
    assert_eq!(p.report.missing_hours, 0);
}

#[test]
fn empty_binary_oversize_and_long_lines() {
    assert_eq!(parse("", &opts()), Err(IngestError::Empty));
    assert_eq!(parse(" \n\r\n\t\n", &opts()), Err(IngestError::Empty));
    assert_eq!(parse("\u{FEFF}", &opts()), Err(IngestError::Empty));
    assert_eq!(
        parse("# only a comment\n", &opts()),
        Err(IngestError::Empty)
    );
    assert_eq!(
        parse("PK\u{3}\u{4}\0\0\u{14}\0garbage", &opts()),
        Err(IngestError::Binary)
    );
    let ctrl: String = (0..200)
        .map(|i| char::from_u32(1 + i % 8).unwrap_or('x'))
        .collect();
    assert_eq!(parse(&ctrl, &opts()), Err(IngestError::Binary));
    let big = "1\n".repeat(100);
    let small = ParseOptions {
        max_input_bytes: 50,
        ..opts()
    };
    assert_eq!(
        parse(&big, &small),
        Err(IngestError::TooLarge {
            bytes: 200,
            max_bytes: 50
        })
    );
    let mut s = Stepper::new(&big, &small);
    assert!(s.step(10));
    assert_eq!(
        s.finish(),
        Err(IngestError::TooLarge {
            bytes: 200,
            max_bytes: 50
        })
    );
    let long = format!("gpus\n1\n{}\n2\n", "9".repeat(MAX_LINE_BYTES + 10));
    let p = ok(&long, &opts());
    assert_eq!(p.series.values, vec![1.0, 2.0]);
    assert_eq!(p.report.rejected[0].reason, RejectReason::LineTooLong);
    assert_eq!(p.report.rejected[0].line, 3);
    assert!(matches!(
        parse("name,team\nalice,x\nbob,y\n", &opts()),
        Err(IngestError::NoNumericColumn)
    ));
    match parse("hello\nworld\n", &opts()) {
        Err(IngestError::NoUsableRows(r)) => assert_eq!(r.rows_rejected, 2),
        other => panic!("{other:?}"),
    }
}

#[test]
fn ten_year_cap() {
    let text = "time,gpus\n2000-01-01 00:00,1\n2000-01-01 01:00,1\n2000-01-01 02:00,1\n2026-01-01 00:00,1\n";
    assert!(matches!(
        parse(
            text,
            &ParseOptions {
                gaps: GapPolicy::Zero,
                ..opts()
            }
        ),
        Err(IngestError::TooManyHours { .. })
    ));
    let values = "1\n".repeat(MAX_HOURS + 1);
    assert!(matches!(
        parse(&values, &opts()),
        Err(IngestError::TooManyHours { .. })
    ));
}

#[test]
fn format_override() {
    // Forced "one number per line" on a two-column text: lines are not numbers.
    let r = parse(
        "2026-11-01 13:00,5\n",
        &ParseOptions {
            format: Some(Format::Values),
            ..opts()
        },
    );
    assert!(matches!(r, Err(IngestError::NoUsableRows(_))));
    assert!(matches!(
        parse(
            "1\n2\n",
            &ParseOptions {
                format: Some(Format::JobLog),
                ..opts()
            }
        ),
        Err(IngestError::LayoutMismatch {
            format: Format::JobLog
        })
    ));
    // Header override: a numeric first line treated as header.
    let p = ok(
        "1\n2\n3\n",
        &ParseOptions {
            header: Some(true),
            ..opts()
        },
    );
    assert_eq!(p.series.values, vec![2.0, 3.0]);
}

/// `text` read every way the page and the tests read it: whole, in chunks of a few bytes
/// (cutting `""` and `\r\n` in two), and in `Stepper` slices; all must agree.
fn same_in_slices(text: &str) -> ParseResult {
    let chunks = [1, 2, 3, 5, 7, 64, 1000];
    same_every_way(text, &opts(), &chunks, &[1, 10, 100, 64 * 1024], &[])
}

#[test]
fn quoted_notes_with_delimiters_quotes_and_line_breaks() {
    let plain = "time,gpus\n2026-11-01 13:00,3\n2026-11-01 14:00,4\n2026-11-01 15:00,5\n2026-11-01 16:00,6.5\n2026-11-01 17:00,7\n";
    let quoted = "time,gpus,notes\n\
        2026-11-01 13:00,3,\"a, b\"\n\
        2026-11-01 14:00,4,\"say \"\"hi\"\"\"\r\n\
        2026-11-01 15:00,5,\"two\nlines\"\n\
        2026-11-01 16:00,6.5,\"crlf\r\nline\"\r\n\
        \"2026-11-01 17:00\", \"7\" ,plain\n";
    let want = ok(plain, &opts());
    let p = same_in_slices(quoted).expect("parses");
    assert_eq!(p.series, want.series);
    assert_eq!(ts(&p), vec![T0, T0 + H, T0 + 2 * H, T0 + 3 * H, T0 + 4 * H]);
    assert_eq!(
        p.report.columns,
        vec![ValueColumn {
            field: 1,
            name: "gpus".into()
        }]
    );
    assert_eq!(p.report.used, ColumnUse::One(0));
    assert_eq!((p.report.rows_read, p.report.rows_rejected), (5, 0));
    assert_eq!(p.report.lines, 8, "physical lines");
}

#[test]
fn line_numbers_stay_physical_after_a_multi_line_record() {
    let text = "time,gpus,notes\n\
        2026-11-01 13:00,3,ok\n\
        2026-11-01 14:00,4,\"first\nsecond\"\n\
        2026-11-01 15:00,abc,\"spans\r\nlines 5\r\nto 7\"\r\n\
        2026-11-01 16:00,-1,right after\n\
        2026-11-01 17:00,5,\"\"\n";
    let p = same_in_slices(text).expect("parses");
    assert_eq!(p.series.values, vec![3.0, 4.0, 5.0]);
    assert_eq!(ts(&p), vec![T0, T0 + H, T0 + 4 * H]);
    assert_eq!(
        rejects(&p),
        vec![
            (5, RejectReason::NotANumber, "abc"),
            (8, RejectReason::Negative, "-1"),
        ]
    );
    assert_eq!(p.report.lines, 9);
    // Without timestamps too (consecutive hours).
    let p = same_in_slices("gpus,notes\n1,x\n2,\"y\"\nabc,\"a\n\nb\"\n3,z\n").expect("parses");
    assert_eq!(p.series.values, vec![1.0, 2.0, 3.0]);
    assert_eq!(
        (p.report.rejected[0].line, p.report.rejected[0].reason),
        (4, RejectReason::NotANumber)
    );
    assert_eq!(p.report.lines, 7);
}

#[test]
fn a_stray_inch_mark_is_a_character_not_a_quote() {
    let text = "time,gpus,notes\n\
        2026-11-01 13:00,3,12\" monitor and 5\"\n\
        2026-11-01 14:00,5\",x\n\
        2026-11-01 15:00,5,a \"b c\n\
        2026-11-01 16:00,6,ok\n";
    let p = same_in_slices(text).expect("parses");
    assert_eq!(p.series.values, vec![3.0, 5.0, 6.0]);
    assert_eq!(ts(&p), vec![T0, T0 + 2 * H, T0 + 3 * H]);
    assert_eq!(rejects(&p), [(3, RejectReason::NotANumber, "5\"")]);
    assert_eq!(p.report.lines, 5);
}

#[test]
fn an_unclosed_quote_costs_one_record_of_at_most_64_kib() {
    // Epoch-second rows, one an hour; row 1 (line 2) opens a quote that never closes.
    let mut text = String::from("time,gpus,notes\n");
    let rows = 5000;
    for k in 0..rows {
        let note = if k == 0 { "\"never closed" } else { "fine" };
        text.push_str(&format!("{},{},{note}\n", T0 + k as i64 * H, 1 + k % 3));
    }
    // The bad record ends at the first line end more than MAX_LINE_BYTES after its start.
    let start = text.find('\n').unwrap() + 1;
    let end = start + MAX_LINE_BYTES + text[start + MAX_LINE_BYTES..].find('\n').unwrap();
    let swallowed = text[start..end].matches('\n').count() + 1; // rows in the bad record
    assert!(swallowed > 1000);
    let p = same_in_slices(&text).expect("parses");
    assert_eq!(p.report.rows_rejected, 1);
    assert_eq!(p.report.rejected[0].line, 2);
    assert_eq!(p.report.rejected[0].reason, RejectReason::LineTooLong);
    assert!(p.report.rejected[0].excerpt.starts_with(&T0.to_string()));
    assert_eq!(p.report.rows_read, rows - swallowed);
    assert_eq!(p.report.lines, rows + 1);
    assert_eq!(ts(&p)[0], T0 + swallowed as i64 * H);
    assert_eq!(p.series.values.len(), rows - swallowed);
    // Within the limit, the quote takes the rest of the text (nothing bounds it earlier).
    let short = "time,gpus,notes\n2026-11-01 13:00,3,\"open\n2026-11-01 14:00,4,x\n";
    let p = same_in_slices(short).expect("parses");
    assert_eq!(p.series.values, vec![3.0]);
    assert_eq!(p.report.lines, 3);
}

#[test]
fn a_stepper_slice_boundary_inside_quotes() {
    // Rows with long multi-line notes, so that 64 KiB slices end inside quotes.
    let mut text = String::from("time,gpus,notes\n");
    let mut plain = String::from("time,gpus\n");
    for k in 0..600i64 {
        let t = format!("{}", T0 + k * H);
        let v = (k % 7) as f64 * 0.5;
        let note = format!("\"row {k}\r\n{}\"\"end,\n\"", "x, \n".repeat(100));
        text.push_str(&format!("{t},{v},{note}\r\n"));
        plain.push_str(&format!("{t},{v}\n"));
    }
    assert!(text.len() > 3 * 64 * 1024);
    // Where the page's first slice ends: inside a quoted note.
    let mut s = Stepper::new(&text, &opts());
    s.step(64 * 1024);
    let cut = (s.progress() * text.len() as f64).round() as usize;
    assert_eq!(
        text[..cut].matches('"').count() % 2,
        1,
        "the slice ends inside quotes"
    );
    let p = same_in_slices(&text).expect("parses");
    assert_eq!(p.series, ok(&plain, &opts()).series);
    assert_eq!(p.report.rows_rejected, 0);
    assert_eq!(p.report.lines, text.matches('\n').count());
}

#[test]
fn quoted_names_are_unescaped() {
    let text = "series,time,value\n\
        \"gpu \"\"A\"\"\",2026-11-01 13:00,3\n\
        \"team\nB\",2026-11-01 13:00,2\n\
        \"gpu \"\"A\"\"\",2026-11-01 14:00,4\n\
        \"team\nB\",2026-11-01 14:00,1\n";
    let p = same_in_slices(text).expect("parses");
    let names: Vec<&str> = p.report.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["gpu \"A\"", "team\nB"]);
    assert_eq!(p.series.values, vec![5.0, 5.0]);
    assert_eq!(p.report.lines, 7);
    let p = ok("time,\"gpus \"\"busy\"\"\"\n2026-11-01 13:00,3\n", &opts());
    assert_eq!(p.report.columns[0].name, "gpus \"busy\"");
    let smi = "timestamp, index, utilization.gpu [%]\n\
        2026/11/01 13:00:00, \"0 \"\"a\"\"\", 95 %\n\
        2026/11/01 13:00:00, 1, 0 %\n";
    let p = ok(smi, &opts());
    let names: Vec<&str> = p.report.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["0 \"a\"", "1"]);
}

#[test]
fn chunked_feeding_equals_one_shot() {
    let texts = [
        NVIDIA_SMI.to_string(),
        JOB_LOG.to_string(),
        GRAFANA_LONG.to_string(),
        PROMETHEUS.to_string(),
        "时间，使用台数\n2026年11月1日 13:00，８\n2026年11月1日 14:00，１２\n".to_string(),
        crate::core::examples::generate_minutely_csv(5000),
    ];
    for t in &texts {
        let one = parse(t, &opts());
        for size in [1, 3, 7, 64, 1000] {
            assert_eq!(chunked(t, &opts(), size), one, "size {size}");
        }
        let mut s = Stepper::new(t, &opts());
        let mut last = 0.0;
        while !s.step(100) {
            assert!(s.progress() >= last && s.progress() < 1.0);
            last = s.progress();
        }
        assert_eq!(s.progress(), 1.0);
        assert_eq!(s.finish(), one);
    }
}

#[test]
fn minutely_year_parses() {
    let text = crate::core::examples::generate_minutely_csv(525_600);
    assert!(text.len() > 11_000_000 && text.len() < 13_000_000);
    let p = ok(&text, &opts());
    assert_eq!(p.report.rows_read, 525_600);
    assert_eq!(p.series.len(), 8760);
    assert_eq!(p.report.resolution_seconds, Some(60));
    assert_eq!(p.report.missing_hours, 0);
}

/// Native throughput: `cargo test --release --lib ingest::tests::throughput -- --ignored --nocapture`.
#[test]
#[ignore]
fn throughput() {
    let text = crate::core::examples::generate_minutely_csv(525_600);
    let t = std::time::Instant::now();
    let p = parse(&text, &opts()).unwrap();
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{:.1} MB in {:.1} ms: {:.0} MB/s",
        text.len() as f64 / 1e6,
        dt * 1e3,
        text.len() as f64 / 1e6 / dt
    );
    assert_eq!(p.series.len(), 8760);
}

fn check_output(r: &ParseResult) {
    if let Ok(p) = r {
        assert!(p.series.values.iter().all(|v| v.is_finite() && *v >= 0.0));
        if let Some(t) = &p.series.timestamps {
            assert_eq!(t.len(), p.series.values.len());
            assert!(t.windows(2).all(|w| w[0] < w[1]));
        }
        assert!(p.report.rejected.len() <= MAX_LISTED_REJECTS);
        assert!(p
            .report
            .rejected
            .iter()
            .all(|r| r.excerpt.chars().count() <= MAX_EXCERPT_CHARS));
        assert_eq!(p.report.hours, p.series.len());
    }
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(proptest::test_runner::Config { cases: 256, failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("tests/regressions/ingest_unit.txt"))), ..proptest::test_runner::Config::default() })]

        #[test]
        fn arbitrary_strings_never_panic(s in any::<String>()) {
            check_output(&parse(&s, &opts()));
        }

        #[test]
        fn csv_like_strings_never_panic(
            s in "([0-9０-９,，;\\t .:/\\-+eE年月日TZ%\"\n\r]|NaN|inf|2026-11-0[1-3] 1[0-9]:[0-5]0|1793538000|nvidia|utilization.gpu){0,80}",
            zero in any::<bool>(),
            off in -720i32..840,
        ) {
            let o = ParseOptions {
                gaps: if zero { GapPolicy::Zero } else { GapPolicy::Exclude },
                utc_offset_minutes: off,
                ..opts()
            };
            let r = parse(&s, &o);
            check_output(&r);
            prop_assert_eq!(chunked(&s, &o, 5), r);
        }

        #[test]
        fn json_like_strings_never_panic(s in "(\\{|\\}|\\[|\\]|\"|,|:|[0-9]|\\\\u|\\\\|result|values|data|status|NaN| |\n){0,60}") {
            check_output(&parse(&s, &opts()));
        }
    }
}

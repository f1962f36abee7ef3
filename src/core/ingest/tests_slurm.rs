//! Slurm accounting exports (`sacct -P`): hand-computed hours, the rules for steps, pending
//! and running jobs, GPU types, detection and its messages, and the same result whole, in
//! chunks, in stepper slices and in byte slices.

use super::test_feed::{column_name, opts, same_every_way};
use super::*;

const HEAD: &str = "JobIDRaw|Start|End|ElapsedRaw|AllocTRES|State|Account|User|Partition";

/// Whole, in Parser chunks, Stepper slices and ByteStepper slices: all equal (also used by
/// `tests_teams`).
pub(super) fn same_everywhere(text: &str, o: &ParseOptions) -> ParseResult {
    same_every_way(
        text,
        o,
        &[1, 2, 3, 5, 8, 13, 64],
        &[1, 7, 100, 64 * 1024],
        &[1, 3, 17, 1 << 20],
    )
}

fn ok(text: &str) -> Parsed {
    same_everywhere(text, &opts()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn slurm(p: &Parsed) -> &SlurmReport {
    p.report.slurm.as_ref().expect("slurm report")
}

/// 2026-11-01 10:00 UTC.
const T10: i64 = 1_793_527_200;

#[test]
fn a_job_counts_for_the_part_of_each_hour_it_ran() {
    // 10:30–12:00 with 4 GPUs: 2 GPUs in the 10:00 hour, 4 in 11:00 (the job log's rule).
    let text = format!(
        "{HEAD}\n1041|2026-11-01T10:30:00|2026-11-01T12:00:00|5400|billing=4,cpu=16,gres/gpu=4,mem=64G,node=1|COMPLETED|ml|ana|gpu\n"
    );
    let p = ok(&text);
    assert_eq!(p.report.format, Format::Slurm);
    assert_eq!(p.series.values, vec![2.0, 4.0]);
    assert_eq!(p.series.timestamps, Some(vec![T10, T10 + 3600]));
    assert!(p.types.is_empty());
    let s = slurm(&p);
    assert_eq!((s.jobs, s.gpu_jobs, s.no_gpu_jobs), (1, 1, 0));
    assert_eq!(s.gpu_hours, 6.0);
    assert_eq!(s.id_column, "JobIDRaw");
    assert_eq!(p.report.rows_read, 1);
    assert_eq!(p.report.timestamp_style, Some(TimestampStyle::IsoLocal));
    assert!(p.report.naive_timestamps);
    // The same jobs as a job log give the same hours.
    let log = parse(
        "start,end,gpus\n2026-11-01 10:30,2026-11-01 12:00,4\n",
        &opts(),
    )
    .unwrap();
    assert_eq!(log.series, p.series);
}

#[test]
fn times_are_read_in_the_planning_zone() {
    let text = format!(
        "{HEAD}\n7|2026-11-01T18:30:00|2026-11-01T20:00:00|5400|gres/gpu=4|COMPLETED|a|u|p\n"
    );
    let o = ParseOptions {
        utc_offset_minutes: 480,
        ..opts()
    };
    let p = same_everywhere(&text, &o).unwrap();
    // 18:30 at UTC+8 is 10:30 UTC.
    assert_eq!(p.series.timestamps, Some(vec![T10, T10 + 3600]));
    assert_eq!(p.series.values, vec![2.0, 4.0]);
    assert_eq!(p.report.utc_offset_minutes, 480);
    // Unix seconds (SLURM_TIME_FORMAT=%s), with the time form chosen.
    let text = format!(
        "{HEAD}\n7|{}|{}|5400|gres/gpu=4|COMPLETED|a|u|p\n",
        T10 + 1800,
        T10 + 7200
    );
    let o = ParseOptions {
        time_form: TimeForm::Unix,
        ..opts()
    };
    assert_eq!(
        same_everywhere(&text, &o).unwrap().series.values,
        vec![2.0, 4.0]
    );
}

#[test]
fn typed_and_untyped_counts_are_never_added_twice() {
    let text = format!(
        "{HEAD}\n\
         1|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|cpu=8,gres/gpu:a100=4,gres/gpu=4,gres/gpumem=320G,gres/gpuutil=90|COMPLETED|a|u|p\n\
         2|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu=2,gres/gpu:h100=2|COMPLETED|a|u|p\n"
    );
    let p = ok(&text);
    assert_eq!(p.series.values, vec![6.0]);
    assert_eq!(p.types.len(), 2);
    assert_eq!(
        (p.types[0].key.as_str(), p.types[0].series.values.clone()),
        ("a100", vec![4.0])
    );
    assert_eq!(
        (p.types[1].key.as_str(), p.types[1].series.values.clone()),
        ("h100", vec![2.0])
    );
    let s = slurm(&p);
    assert_eq!(
        s.types,
        vec![("a100".to_string(), 1), ("h100".to_string(), 1)]
    );
    assert_eq!(s.untyped_jobs, 0);
    assert!(
        matches!(p.report.type_source, Some(TypeSource::Column(ref c)) if c.name == "AllocTRES")
    );
}

#[test]
fn untyped_gpus_of_a_typed_file_are_their_own_type() {
    // Job 2 names no type; job 3 has 4 GPUs of which 2 are typed: 2 more are untyped.
    let text = format!(
        "{HEAD}\n\
         1|2026-11-01T10:00:00|2026-11-01T12:00:00|7200|gres/gpu:a100=4,gres/gpu=4|COMPLETED|a|u|p\n\
         2|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu=1|COMPLETED|a|u|p\n\
         3|2026-11-01T11:00:00|2026-11-01T12:00:00|3600|gres/gpu:a100=2,gres/gpu=4|COMPLETED|a|u|p\n"
    );
    let p = ok(&text);
    assert_eq!(p.series.values, vec![5.0, 8.0]);
    let labels: Vec<&str> = p.types.iter().map(|t| t.label.as_str()).collect();
    assert_eq!(labels, vec!["a100", UNTYPED_LABEL]);
    assert_eq!(p.types[0].series.values, vec![4.0, 6.0]);
    assert_eq!(p.types[1].series.values, vec![1.0, 2.0]);
    let s = slurm(&p);
    assert_eq!(s.untyped_jobs, 2);
    assert_eq!(s.gpu_jobs, 3);
}

#[test]
fn steps_are_skipped_when_their_allocation_row_is_there() {
    // Without -X: steps after their job (skipped), a step before its job (skipped at the
    // end), and steps of a job not in the file (counted once each).
    let text = format!(
        "{HEAD}\n\
         9.0|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu=2|COMPLETED|a|u|p\n\
         1041|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu=4|COMPLETED|a|u|p\n\
         1041.batch|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|cpu=1,gres/gpu=4,mem=4G|COMPLETED|a||\n\
         1041.extern|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|billing=4,gres/gpu=4|COMPLETED|a||\n\
         1041.0|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu=4|COMPLETED|a||\n\
         9|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu=2|COMPLETED|a|u|p\n\
         77.0|2026-11-01T11:00:00|2026-11-01T11:30:00|1800|gres/gpu=2|COMPLETED|a||\n"
    );
    let p = ok(&text);
    // Hour 10: 4 + 2; hour 11: the counted step 77.0 (2 GPUs for half an hour).
    assert_eq!(p.series.values, vec![6.0, 1.0]);
    let s = slurm(&p);
    assert_eq!((s.jobs, s.steps_skipped, s.steps_counted), (2, 4, 1));
    assert_eq!(s.gpu_jobs, 3);
    assert_eq!(p.report.rows_read, 7);
}

#[test]
fn pending_and_cancelled_jobs_are_skipped_and_running_jobs_run_to_the_latest_time() {
    let text = format!(
        "{HEAD}\n\
         1|2026-11-01T10:00:00|2026-11-01T12:00:00|7200|gres/gpu=1|COMPLETED|a|u|p\n\
         2|Unknown|Unknown|0||PENDING|a|u|p\n\
         3|None|2026-11-01T10:15:00|0||CANCELLED by 1000|a|u|p\n\
         4|2026-11-01T11:30:00|Unknown|1800|gres/gpu=2|RUNNING|a|u|p\n\
         5|2026-11-01T10:00:00|2026-11-01T13:00:00|10800|billing=1,cpu=1,mem=1G|COMPLETED|a|u|p\n"
    );
    let p = ok(&text);
    // Job 4 runs 11:30 → 13:00 (the latest time written: job 5's end); the CPU job covers
    // 12:00–13:00 with 0 GPUs.
    assert_eq!(p.series.values, vec![1.0, 2.0, 2.0]);
    let s = slurm(&p);
    assert_eq!(s.never_started, 2);
    assert_eq!(s.running, 1);
    assert_eq!(s.run_to, Some(T10 + 3 * 3600));
    assert_eq!(s.no_gpu_jobs, 1);
    assert_eq!(s.jobs, 5);
    assert_eq!(s.gpu_jobs, 2);
    // A rejected row's times do not move the end of running jobs.
    let late =
        format!("{text}6|2026-11-01T10:00:00|2026-11-01T18:00:00|0|gres/gpu=x|COMPLETED|a|u|p\n");
    let p = ok(&late);
    assert_eq!(p.report.rows_rejected, 1);
    assert_eq!(slurm(&p).run_to, Some(T10 + 3 * 3600));
}

#[test]
fn columns_by_name_in_any_order_with_extras_and_a_trailing_pipe() {
    // --parsable (a trailing |), other order, extra columns, JobID instead of JobIDRaw.
    let text = "User|JobID|JobName|AllocTRES|End|Start|State|\n\
                ana|5|train|cpu=4,gres/gpu=3|2026-11-01T11:00:00|2026-11-01T10:00:00|COMPLETED|\n\
                ana|5.batch|batch|cpu=4,gres/gpu=3|2026-11-01T11:00:00|2026-11-01T10:00:00|COMPLETED|\n";
    let p = ok(text);
    assert_eq!(p.series.values, vec![3.0]);
    let s = slurm(&p);
    assert_eq!(s.id_column, "JobID");
    assert_eq!(s.steps_skipped, 1);
    assert_eq!(column_name(&p.report.timestamp_column), Some("Start"));
    assert_eq!(p.report.end_column.as_ref().map(|c| c.field), Some(4));
}

#[test]
fn bad_rows_are_rejected_with_their_line_and_reason() {
    let text = format!(
        "{HEAD}\n\
         1|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu=1|COMPLETED|a|u|p\n\
         2|yesterday|2026-11-01T11:00:00|3600|gres/gpu=1|COMPLETED|a|u|p\n\
         3|2026-11-01T11:00:00|2026-11-01T10:00:00|0|gres/gpu=1|COMPLETED|a|u|p\n\
         4|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu=lots|COMPLETED|a|u|p\n\
         5|2026-11-01T10:00:00\n\
         |2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu=1|COMPLETED|a|u|p\n\
         {HEAD}\n"
    );
    let p = ok(&text);
    assert_eq!(p.series.values, vec![1.0]);
    let r = &p.report;
    let got: Vec<(usize, RejectReason)> = r.rejected.iter().map(|x| (x.line, x.reason)).collect();
    assert_eq!(
        got,
        vec![
            (3, RejectReason::BadTimestamp),
            (4, RejectReason::EndBeforeStart),
            (5, RejectReason::NotANumber),
            (6, RejectReason::TooFewColumns),
            (7, RejectReason::MissingValue),
        ]
    );
    assert_eq!(r.rejected[0].excerpt, "yesterday");
    assert_eq!(r.rejected[2].excerpt, "gres/gpu=lots");
    // The repeated header is skipped, not rejected.
    assert_eq!(r.lines_skipped, 1);
}

#[test]
fn sacct_without_p_gets_the_command() {
    let fixed = "JobID           Start                 End  ElapsedRaw  AllocTRES      State\n\
                 ------------ ------------------- ------------------- ---------- ---------- ----------\n\
                 1041         2026-11-01T10:30:00 2026-11-01T12:00:00       5400 billing=4+  COMPLETED\n";
    assert_eq!(
        parse(fixed, &opts()),
        Err(IngestError::Sacct(SacctProblem::FixedWidth))
    );
    // The default sacct columns (no -P): JobID JobName Partition …
    let default = "JobID           JobName  Partition    Account  AllocCPUS      State ExitCode\n\
                   ------------ ---------- ---------- ---------- ---------- ---------- --------\n\
                   1041              train        gpu         ml         16  COMPLETED      0:0\n";
    assert_eq!(
        parse(default, &opts()),
        Err(IngestError::Sacct(SacctProblem::FixedWidth))
    );
    // `sacct -P` with its default columns: no Start, End or AllocTRES.
    let p_default = "JobID|JobName|Partition|Account|AllocCPUS|State|ExitCode\n1041|train|gpu|ml|16|COMPLETED|0:0\n";
    assert_eq!(
        parse(p_default, &opts()),
        Err(IngestError::Sacct(SacctProblem::MissingColumns(vec![
            "Start".to_string(),
            "End".to_string(),
            "AllocTRES".to_string()
        ])))
    );
    // Forced on something else.
    let forced = ParseOptions {
        format: Some(Format::Slurm),
        ..opts()
    };
    assert!(matches!(
        parse("1\n2\n3\n", &forced),
        Err(IngestError::Sacct(SacctProblem::MissingColumns(_)))
    ));
}

#[test]
fn generic_job_logs_with_a_job_id_are_not_sacct() {
    let text = "JobID|Start|End|GPUs\n1|2026-11-01 10:00|2026-11-01 11:00|3\n";
    let p = parse(text, &opts()).unwrap();
    assert_eq!(p.report.format, Format::JobLog);
    assert_eq!(p.series.values, vec![3.0]);
    let ws = "job Start End gpus\n1 2026-11-01T10:00 2026-11-01T11:00 3\n";
    assert_ne!(
        parse(ws, &opts()),
        Err(IngestError::Sacct(SacctProblem::FixedWidth))
    );
}

#[test]
fn a_file_of_only_pending_jobs_says_none_ran() {
    let text =
        format!("{HEAD}\n1|Unknown|Unknown|0||PENDING|a|u|p\n2|None|Unknown|0||PENDING|a|u|p\n");
    assert_eq!(
        same_everywhere(&text, &opts()),
        Err(IngestError::Sacct(SacctProblem::NoJobRan {
            never_started: 2
        }))
    );
}

#[test]
fn a_cluster_without_gpu_jobs_reads_as_zeros() {
    let text =
        format!("{HEAD}\n1|2026-11-01T10:00:00|2026-11-01T12:00:00|7200|cpu=4|COMPLETED|a|u|p\n");
    let p = ok(&text);
    assert_eq!(p.series.values, vec![0.0, 0.0]);
    assert_eq!(slurm(&p).no_gpu_jobs, 1);
}

#[test]
fn crlf_bom_and_comments() {
    let text = format!(
        "\u{FEFF}{HEAD}\r\n# exported by cron\r\n1|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu=2|COMPLETED|a|u|p\r\n"
    );
    let p = ok(&text);
    assert_eq!(p.series.values, vec![2.0]);
    assert_eq!(p.report.lines_skipped, 1);
}

#[test]
fn nvml_type_names_fold() {
    let text = format!(
        "{HEAD}\n1|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu:nvidia_a100-sxm4-80gb=8,gres/gpu=8|COMPLETED|a|u|p\n\
         2|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu:a100=1,gres/gpu=1|COMPLETED|a|u|p\n"
    );
    let p = ok(&text);
    assert_eq!(p.types.len(), 1);
    assert_eq!(p.types[0].key, "a100");
    assert_eq!(p.types[0].series.values, vec![9.0]);
}

#[test]
fn more_than_max_types_read_as_one_series() {
    let mut text = format!("{HEAD}\n");
    for i in 0..=MAX_TYPES {
        text.push_str(&format!(
            "{i}|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu:t{i}x=1|COMPLETED|a|u|p\n"
        ));
    }
    let p = ok(&text);
    assert!(p.types.is_empty());
    assert_eq!(p.series.values, vec![(MAX_TYPES + 1) as f64]);
    assert_eq!(
        p.report.too_many_types.as_ref().map(|t| t.found),
        Some(MAX_TYPES + 1)
    );
}

#[test]
fn a_pending_state_is_read_in_any_case_even_with_a_start_time() {
    // A planned start on a pending job (sacct writes the expected start): never started.
    let text = format!(
        "{HEAD}\n\
         1|2026-11-01T10:00:00|2026-11-01T12:00:00|7200|gres/gpu=1|COMPLETED|a|u|p\n\
         2|2026-11-01T10:00:00|Unknown|0|gres/gpu=4| pending (Resources)|a|u|p\n\
         3|2026-11-01T10:00:00|Unknown|0|gres/gpu=4|Pend|a|u|p\n"
    );
    let p = ok(&text);
    let s = slurm(&p);
    assert_eq!(
        s.never_started, 1,
        "only the second job is pending: 'Pend' is not PENDING"
    );
    assert_eq!(s.running, 1);
}

//! Robustness of the usage parser (`core::ingest`) on arbitrary and near-valid text: never
//! panics, never yields NaN/infinity or a negative value, stays within its size limits, and
//! reading in slices (`Stepper`, as the page does) gives exactly what `parse` gives.
//!
//! Default case counts keep `cargo test` quick; `PROPTEST_CASES=20000 cargo test --release
//! --test fuzz_ingest` is the long run (`scripts/bench` does it and records the counts).
//! Inputs in `tests/regressions/ingest/` (hostile files, past failures) are checked the same way.
#![cfg(not(target_arch = "wasm32"))]

#[allow(dead_code)] // each suite uses part of it
#[path = "common/fuzz.rs"]
mod common;
#[path = "common/feed.rs"]
mod feed;
use feed::fed_in_chunks;

use gpu_rent_planner::core::ingest::{
    parse, ByteStepper, ColumnChoice, ColumnUse, Delimiter, Format, GapPolicy, IngestError,
    ParseOptions, ParseResult, Parser, Stepper, TimeForm, ValueColumn, MAX_EXCERPT_CHARS,
    MAX_HOURS, MAX_LISTED_GAPS, MAX_LISTED_REJECTS,
};
use proptest::prelude::*;

/// Everything a parse result promises, whatever the input.
fn check(text: &str, opts: &ParseOptions, r: &ParseResult) -> Result<(), String> {
    let report = match r {
        Ok(p) => {
            let s = &p.series;
            if s.values.is_empty() {
                return Err("Ok with an empty series".into());
            }
            if s.values.len() > MAX_HOURS {
                return Err(format!("{} hours > MAX_HOURS", s.values.len()));
            }
            if let Some(v) = s.values.iter().find(|v| !v.is_finite() || **v < 0.0) {
                return Err(format!("value {v} in the series"));
            }
            if let Some(ts) = &s.timestamps {
                if ts.len() != s.values.len() {
                    return Err("timestamps and values differ in length".into());
                }
                if ts.windows(2).any(|w| w[0] >= w[1]) {
                    return Err("timestamps not strictly increasing".into());
                }
            }
            if p.report.hours != s.values.len() {
                return Err("report.hours differs from the series".into());
            }
            &p.report
        }
        Err(IngestError::NoUsableRows(report)) => report.as_ref(),
        Err(IngestError::TooLarge { bytes, max_bytes }) => {
            return if text.len() > opts.max_input_bytes
                && *bytes == text.len()
                && *max_bytes == opts.max_input_bytes
            {
                Ok(())
            } else {
                Err(format!(
                    "TooLarge {bytes} > {max_bytes} for {} bytes",
                    text.len()
                ))
            };
        }
        Err(IngestError::Empty) => {
            // Nothing but blank lines, byte-order marks and comments (`#`, `//`). U+FEFF is a
            // zero-width no-break space: a line of spaces and a stray BOM shows nothing, and the
            // parser counts it as blank (found: " \u{feff}").
            let blank = text.lines().all(|l| {
                let t = l.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
                t.is_empty() || t.starts_with('#') || t.starts_with("//")
            });
            return if blank {
                Ok(())
            } else {
                Err("Empty for a text with content".into())
            };
        }
        Err(IngestError::TooManyHours { hours, max_hours }) => {
            return if *hours > *max_hours as u64 {
                Ok(())
            } else {
                Err("TooManyHours under the limit".into())
            };
        }
        Err(_) => return Ok(()),
    };
    if report.rejected.len() > MAX_LISTED_REJECTS || report.gaps.len() > MAX_LISTED_GAPS {
        return Err("report lists more than its limits".into());
    }
    if report.rejected.len() + report.rejected_not_listed != report.rows_rejected {
        return Err("rejected lines miscounted".into());
    }
    if let Some(r) = report
        .rejected
        .iter()
        .find(|r| r.excerpt.chars().count() > MAX_EXCERPT_CHARS)
    {
        return Err(format!("excerpt of {} chars", r.excerpt.chars().count()));
    }
    if report
        .rejected
        .iter()
        .any(|r| r.line == 0 || r.line > report.lines.max(1))
    {
        return Err("a rejected line number outside the input".into());
    }
    if let Some(t) = report.busy_threshold_percent {
        if !t.is_finite() {
            return Err("non-finite threshold".into());
        }
    }
    Ok(())
}

/// `parse` and a `Stepper` in slices of `slice` bytes must agree exactly.
fn check_all(text: &str, opts: &ParseOptions, slice: usize) -> Result<(), String> {
    let whole = parse(text, opts);
    check(text, opts, &whole)?;
    let mut st = Stepper::new(text, opts);
    let mut steps = 0usize;
    let mut last = 0.0;
    while !st.step(slice) {
        let p = st.progress();
        if !(0.0..=1.0).contains(&p) || p < last {
            return Err(format!("progress {p} after {last}"));
        }
        last = p;
        steps += 1;
        if steps > text.len() / slice.max(1) + 4 {
            return Err("Stepper does not finish".into());
        }
    }
    let sliced = st.finish();
    if sliced != whole {
        return Err(format!("slices of {slice} bytes differ from a whole parse"));
    }
    if read_bytes(text.as_bytes(), opts, slice)? != whole {
        return Err(format!(
            "a file read in {slice}-byte slices differs from a whole parse"
        ));
    }
    Ok(())
}

/// Bytes read as the page reads a large file: a `ByteStepper` asking for `slice` bytes at a
/// time (so UTF-8 sequences are cut anywhere).
fn read_bytes(bytes: &[u8], opts: &ParseOptions, slice: usize) -> Result<ParseResult, String> {
    let mut st = ByteStepper::new(bytes.len() as u64, opts);
    let (mut reads, mut last) = (0usize, 0.0);
    while let Some(at) = st.wants() {
        let at = usize::try_from(at).map_err(|_| "offset past usize")?;
        if at > bytes.len() {
            return Err(format!("asked for byte {at} of {}", bytes.len()));
        }
        st.feed(&bytes[at..(at + slice.max(1)).min(bytes.len())]);
        let p = st.progress();
        if !(0.0..=1.0).contains(&p) || p < last {
            return Err(format!("file progress {p} after {last}"));
        }
        last = p;
        reads += 1;
        if reads > 2 * (bytes.len() / slice.max(1) + 2) {
            return Err("ByteStepper does not finish".into());
        }
    }
    Ok(st.finish())
}

fn format_strategy() -> impl Strategy<Value = Option<Format>> {
    prop_oneof![
        4 => Just(None),
        1 => prop_oneof![
            Just(Format::Values), Just(Format::Table), Just(Format::GrafanaCsv),
            Just(Format::PrometheusJson), Just(Format::NvidiaSmi), Just(Format::JobLog),
        ].prop_map(Some),
    ]
}

fn options() -> impl Strategy<Value = ParseOptions> {
    (
        format_strategy(),
        prop_oneof![
            4 => Just(None),
            1 => prop_oneof![
                Just(Delimiter::Comma), Just(Delimiter::Tab), Just(Delimiter::Semicolon), Just(Delimiter::Pipe),
                Just(Delimiter::FullWidthComma), Just(Delimiter::Whitespace), Just(Delimiter::None),
            ].prop_map(Some),
        ],
        prop_oneof![2 => Just(None), 1 => any::<bool>().prop_map(Some)],
        prop_oneof![3 => Just(ColumnChoice::Auto), 1 => Just(ColumnChoice::Sum), 1 => (0usize..6).prop_map(ColumnChoice::One)],
        prop_oneof![Just(GapPolicy::Exclude), Just(GapPolicy::Zero)],
        prop_oneof![3 => Just(0i32), 1 => -1440i32..=1440, 1 => any::<i32>()],
        prop_oneof![3 => Just(10.0f64), 1 => any::<f64>()],
        prop_oneof![4 => Just(1usize << 20), 1 => 0usize..64],
    )
        .prop_map(|(format, delimiter, header, column, gaps, utc, busy, max)| ParseOptions {
            format, delimiter, header, column, gaps,
            utc_offset_minutes: utc,
            busy_threshold_percent: busy,
            max_input_bytes: max,
            ..ParseOptions::default()
        })
}

/// Pieces real exports are made of, and the ways they break.
const FRAGMENTS: &[&str] = &[
    "1",
    "2.5",
    "0",
    "-3",
    "1e9",
    "1e999",
    "NaN",
    "inf",
    "-0",
    "１２",
    "1,234",
    "1 234",
    "12%",
    "¥3",
    "2026-01-01",
    "2026-01-01 00:00",
    "2026-01-01T00:00:00Z",
    "2026-01-01T00:00:00+08:00",
    "2026/01/01 13:00",
    "2026年1月1日 13:00",
    // Spreadsheet forms (US, European, month names, 12-hour clock, Excel serials).
    "10/5/2026 12:15 AM",
    "13/10/2026 00:00",
    "10/13/2026 11:59 PM",
    "05.10.2026 00:00",
    "05-Oct-2026 00:00",
    "Oct 5, 2026 1:00 PM",
    "2026/10/5 下午 1:00",
    "46300.5",
    "46300.010416666664",
    "12:00 PM",
    "AM",
    "Zeit",
    "notes",
    "\"a, \"\"b\"\"\nc\"",
    "1767225600",
    "1767225600000",
    "1767225600123456",
    "1989-12-31",
    "2100-01-01",
    "9999-99-99 99:99",
    "2026-02-30",
    "0000-00-00",
    ",",
    ";",
    "\t",
    "|",
    "，",
    " ",
    "  ",
    "\n",
    "\r\n",
    "\r",
    "\u{feff}",
    "\0",
    "\u{fffd}",
    "timestamp",
    "time",
    "gpus",
    "GPU",
    "总数",
    "series",
    "value",
    "index",
    "utilization.gpu [%]",
    "start",
    "end",
    "\"",
    "\"a,b\"",
    "#",
    "# comment",
    "[",
    "]",
    "{",
    "}",
    ":",
    "\"status\"",
    "\"success\"",
    "\"data\"",
    "\"result\"",
    "\"values\"",
    "\"value\"",
    "\"metric\"",
    "\"matrix\"",
    "\"error\"",
    "null",
    "true",
    "[1767225600,\"3\"]",
    "[1767225600.5,\"NaN\"]",
    "\\u00e9",
    "\\ud800",
    "x",
    "…",
    "😀",
];

fn near_valid_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..160).prop_map(|v| v.concat())
}

fn arbitrary_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(any::<char>(), 0..400).prop_map(String::from_iter),
        prop::collection::vec(any::<u8>(), 0..600)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

/// [`check_all`] as a property: a failure fails the case with the input and the options.
fn check_case(text: &str, opts: &ParseOptions, slice: usize) -> Result<(), TestCaseError> {
    check_all(text, opts, slice)
        .map_err(|e| TestCaseError::fail(format!("{e}\ninput: {text:?}\noptions: {opts:?}")))
}

fn config(default_cases: u32) -> ProptestConfig {
    common::config(default_cases, "tests/regressions/fuzz_ingest.txt")
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn near_valid_exports(text in near_valid_text(), opts in options(), slice in 1usize..300) {
        check_case(&text, &opts, slice)?;
    }

    #[test]
    fn raw_bytes_read_from_a_file_as_lossy_text(
        bytes in prop::collection::vec(any::<u8>(), 0..600),
        opts in options(),
        slice in 1usize..64,
    ) {
        let text = String::from_utf8_lossy(&bytes);
        let whole = parse(&text, &opts);
        match read_bytes(&bytes, &opts, slice) {
            // The file's size is counted in its own bytes, the text's in UTF-8 (a broken byte
            // is 3 bytes of U+FFFD): over the limit, both are refused as too large.
            Ok(Err(IngestError::TooLarge { max_bytes, .. })) => prop_assert!(
                matches!(whole, Err(IngestError::TooLarge { max_bytes: m, .. }) if m == max_bytes),
                "bytes {bytes:?} refused as too large, the lossy text not"
            ),
            Ok(read) => prop_assert!(read == whole, "bytes {bytes:?} read in {slice}-byte slices differ from the lossy text"),
            Err(e) => prop_assert!(false, "{e}\nbytes: {bytes:?}"),
        }
    }

    #[test]
    fn arbitrary_text_and_bytes(text in arbitrary_text(), opts in options(), slice in 1usize..500) {
        check_case(&text, &opts, slice)?;
    }

    #[test]
    fn timestamped_tables_with_noise(
        rows in prop::collection::vec((0i64..4_000_000_000, prop::sample::select(FRAGMENTS), any::<f64>()), 0..120),
        sep in prop::sample::select(&[",", ";", "\t", "，", " "][..]),
        opts in options(),
    ) {
        let mut text = String::from("time,gpus\n");
        for (t, junk, v) in &rows {
            text.push_str(&format!("{t}{sep}{v}{junk}\n"));
        }
        if let Err(e) = check_all(&text, &opts, 97) {
            prop_assert!(false, "{e}\ninput: {text:?}\noptions: {opts:?}");
        }
    }
}

/// What a notes cell is made of: delimiters, quotes, line breaks, spaces, digits.
const NOTE_PIECES: &[&str] = &[
    ",",
    "\"",
    "\"\"",
    "\n",
    "\r\n",
    " ",
    "  ",
    "0",
    "7",
    "42",
    "1,5",
    "abc",
    "x y",
    "5\"",
    "12\" monitor",
    ", \"",
    "\",",
    "\"\n\"",
    "#",
    "；",
];

/// One data row: GPUs busy (half steps, 0 ..= 64), note pieces around the row's own
/// marker, whether each of the three fields is quoted, spaces before each field, CRLF.
type RowSpec = (
    u32,
    Vec<&'static str>,
    Vec<&'static str>,
    [bool; 3],
    [u8; 3],
    bool,
);

fn row_spec(max_pieces: usize) -> impl Strategy<Value = RowSpec> {
    (
        0u32..=128,
        prop::collection::vec(prop::sample::select(NOTE_PIECES), 0..max_pieces),
        prop::collection::vec(prop::sample::select(NOTE_PIECES), 0..max_pieces),
        any::<[bool; 3]>(),
        any::<[u8; 3]>(),
        any::<bool>(),
    )
}

/// A CSV writer (as a spreadsheet or Python's csv module writes): a field is quoted when it
/// must be (a `,`, a line break, or a `"` at its start) or when `quote` says so; a quoted
/// field doubles its `"`. Other fields go as they are, `5"` included.
fn csv_field(out: &mut String, field: &str, quote: bool, pad: u8) {
    for _ in 0..pad % 3 {
        out.push(' ');
    }
    let must = field.contains([',', '\n', '\r']) || field.trim_start().starts_with('"');
    if quote || must {
        out.push('"');
        out.push_str(&field.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(field);
    }
}

/// The same hourly series (2026-10-05 00:00 on, consecutive hours) as a plain two-column
/// CSV and as `time,gpus,notes` written by [`csv_field`].
fn quoted_csv(rows: &[RowSpec], header_quotes: [bool; 3], last_newline: bool) -> (String, String) {
    let mut plain = String::from("time,gpus\n");
    let mut text = String::new();
    for (j, name) in ["time", "gpus", "notes"].iter().enumerate() {
        if j > 0 {
            text.push(',');
        }
        csv_field(&mut text, name, header_quotes[j], 0);
    }
    text.push('\n');
    for (k, (v, before, after, quote, pad, crlf)) in rows.iter().enumerate() {
        let time = format!("2026-10-{:02} {:02}:00", 5 + k / 24, k % 24);
        let gpus = format!("{}", f64::from(*v) / 2.0);
        // Every note holds a word and its row number: a text column, never a series key.
        let note = format!("{}note{k}{}", before.concat(), after.concat());
        plain.push_str(&format!("{time},{gpus}\n"));
        csv_field(&mut text, &time, quote[0], pad[0]);
        text.push(',');
        csv_field(&mut text, &gpus, quote[1], pad[1]);
        text.push(',');
        csv_field(&mut text, &note, quote[2], pad[2]);
        if k + 1 < rows.len() || last_newline {
            text.push_str(if *crlf { "\r\n" } else { "\n" });
        }
    }
    (text, plain)
}

/// A quoted CSV and its plain twin ([`quoted_csv`] of rows with notes of fewer than
/// `max_pieces` pieces, a row count in `rows`), its row count, a `Stepper` slice size and
/// chunk sizes below `chunk_max`.
fn quoted_case(
    max_pieces: usize,
    rows: std::ops::Range<usize>,
    chunk_max: usize,
) -> impl Strategy<Value = (String, String, usize, usize, Vec<usize>)> {
    (
        prop::collection::vec(row_spec(max_pieces), rows),
        any::<[bool; 3]>(),
        any::<bool>(),
        1usize..300,
        prop::collection::vec(1usize..chunk_max, 1..6),
    )
        .prop_map(|(rows, header_quotes, last_newline, slice, chunks)| {
            let (text, plain) = quoted_csv(&rows, header_quotes, last_newline);
            (text, plain, rows.len(), slice, chunks)
        })
}

/// A quoted CSV reads exactly as the plain one: whole, in `Stepper` slices of `slices`
/// bytes, and fed in chunks of `chunks` bytes.
fn check_quoted(
    text: &str,
    plain: &str,
    rows: usize,
    slices: &[usize],
    chunks: &[usize],
) -> Result<(), String> {
    let opts = ParseOptions::default();
    let want = parse(plain, &opts).map_err(|e| format!("plain CSV: {e:?}"))?;
    let got = parse(text, &opts).map_err(|e| format!("quoted CSV: {e:?}"))?;
    if got.series != want.series {
        return Err(format!(
            "series differ:\n{:?}\n{:?}",
            got.series, want.series
        ));
    }
    let r = &got.report;
    let gpus = vec![ValueColumn {
        field: 1,
        name: "gpus".into(),
    }];
    if r.columns != gpus || r.used != ColumnUse::One(0) {
        return Err(format!("columns {:?}, used {:?}", r.columns, r.used));
    }
    if r.rows_read != rows || r.rows_rejected != 0 {
        return Err(format!("{} read, rejected {:?}", r.rows_read, r.rejected));
    }
    let lines = text.matches('\n').count() + usize::from(!text.ends_with('\n'));
    if r.lines != lines {
        return Err(format!("{} lines reported, {lines} in the text", r.lines));
    }
    for &slice in slices {
        check_all(text, &opts, slice)?;
    }
    if fed_in_chunks(text, &opts, chunks) != Ok(got) {
        return Err(format!("fed in chunks of {chunks:?} bytes: not as a whole"));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn quoted_csv_reads_as_the_plain_series((text, plain, rows, slice, chunks) in quoted_case(6, 2..40, 40)) {
        if let Err(e) = check_quoted(&text, &plain, rows, &[slice], &chunks) {
            prop_assert!(false, "{e}\ninput: {text:?}");
        }
    }
}

proptest! {
    #![proptest_config(config(8))]

    /// Over 64 KiB: the page's 64 KiB slices end inside quoted notes.
    #[test]
    fn large_quoted_csv_in_64k_slices((text, plain, rows, slice, chunks) in quoted_case(120, 300..640, 5000)) {
        prop_assume!(text.len() > 96 * 1024);
        if let Err(e) = check_quoted(&text, &plain, rows, &[64 * 1024, slice], &chunks) {
            prop_assert!(false, "{e}\ninput of {} bytes", text.len());
        }
    }
}

/// Bounded memory: a two-line input spanning a century is refused, not expanded.
#[test]
fn a_century_between_two_rows_is_refused_not_allocated() {
    for gaps in [GapPolicy::Zero, GapPolicy::Exclude] {
        let opts = ParseOptions {
            gaps,
            ..ParseOptions::default()
        };
        let r = parse("time,gpus\n1990-01-01 00:00,1\n2099-12-31 23:00,1\n", &opts);
        check("", &opts, &r).unwrap();
        if gaps == GapPolicy::Zero {
            assert!(matches!(r, Err(IngestError::TooManyHours { .. })), "{r:?}");
        }
        let jobs = parse(
            "start,end,gpus\n1990-01-01 00:00,2099-12-31 00:00,3\n",
            &opts,
        );
        assert!(
            jobs.is_err()
                || jobs
                    .as_ref()
                    .is_ok_and(|p| p.series.values.len() <= MAX_HOURS)
        );
    }
}

/// Every file in tests/regressions/ingest/ (hostile inputs, past failures), under every
/// format and both gap policies, through `parse` and through slices of three sizes.
#[test]
fn regression_corpus() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions/ingest");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/regressions/ingest exists") {
        let path = entry.expect("readable entry").path();
        let bytes = std::fs::read(&path).expect("readable file");
        let text = String::from_utf8_lossy(&bytes);
        for format in [
            None,
            Some(Format::Values),
            Some(Format::Table),
            Some(Format::GrafanaCsv),
            Some(Format::PrometheusJson),
            Some(Format::NvidiaSmi),
            Some(Format::JobLog),
            Some(Format::Slurm),
        ] {
            for gaps in [GapPolicy::Exclude, GapPolicy::Zero] {
                let opts = ParseOptions {
                    format,
                    gaps,
                    ..ParseOptions::default()
                };
                // Small slices cut every token; at least ~64 steps (1-byte slices over the
                // 80 KB line are quadratic in a debug build: minutes, not a finding).
                for slice in [(text.len() / 64).max(1), 4096, 65536] {
                    if let Err(e) = check_all(&text, &opts, slice) {
                        panic!("{}: {e} ({opts:?}, slices of {slice})", path.display());
                    }
                }
            }
        }
        n += 1;
    }
    assert!(n >= 8, "corpus has {n} files");
}

// ---------------------------------------------------------------------------------------
// Slurm accounting exports (`sacct -P`): near-valid exports never fail badly and read the
// same in slices; valid exports keep every counted job's GPU-hours, hour by hour as the job
// log reads the same jobs.

const SACCT_COLUMNS: [&str; 9] = [
    "JobIDRaw",
    "Start",
    "End",
    "ElapsedRaw",
    "AllocTRES",
    "State",
    "Account",
    "User",
    "Partition",
];

/// Cells of sacct exports, and the ways they break.
const SACCT_CELLS: &[&str] = &[
    "1041",
    "1041.batch",
    "1041.0",
    "1041.extern",
    "77",
    "77.0",
    "",
    " ",
    "Unknown",
    "None",
    "unknown",
    "2026-11-01T10:30:00",
    "2026-11-01T12:00:00",
    "2026-11-01T10:30",
    "2099-12-31T23:59:59",
    "1989-01-01T00:00:00",
    "2026-13-01T00:00:00",
    "1793538000",
    "46300.5",
    "5400",
    "-1",
    "gres/gpu=4",
    "gres/gpu:a100=4,gres/gpu=4",
    "billing=8,cpu=8,gres/gpu:h100=2,gres/gpu=2,mem=8G",
    "gres/gpu=-1",
    "gres/gpu=1e999",
    "gres/gpu=NaN",
    "gres/gpu:=3",
    "gres/gpu",
    "gres/gpu=",
    "gres/gpumem=40G,gres/gpuutil=100",
    "cpu=4,mem=4G",
    "gres/gpu:😀=1",
    "gres/gpu:a100=1,gres/gpu:a100=2",
    "PENDING",
    "RUNNING",
    "COMPLETED",
    "CANCELLED by 0",
    "|",
    "\"",
    "\"a|b\"",
    "#",
    "x",
    "…",
    "\r",
    "JobIDRaw",
    "\u{feff}",
];

/// A header (columns shuffled, some dropped, a trailing `|` or not) and rows of cells.
fn sacct_text() -> impl Strategy<Value = String> {
    (
        Just(SACCT_COLUMNS.to_vec()).prop_shuffle(),
        0usize..3,
        any::<bool>(),
        prop::collection::vec(
            prop::collection::vec(prop::sample::select(SACCT_CELLS), 0..11),
            0..40,
        ),
        prop::sample::select(&["\n", "\r\n"][..]),
    )
        .prop_map(|(mut cols, drop, trailing, rows, nl)| {
            cols.truncate(cols.len() - drop);
            let tail = if trailing { "|" } else { "" };
            let mut text = format!("{}{tail}{nl}", cols.join("|"));
            for r in rows {
                text.push_str(&r.join("|"));
                text.push_str(tail);
                text.push_str(nl);
            }
            text
        })
}

fn sacct_options() -> impl Strategy<Value = ParseOptions> {
    (
        prop_oneof![3 => Just(None), 1 => Just(Some(Format::Slurm)), 1 => format_strategy()],
        prop_oneof![3 => Just(0i32), 1 => -1440i32..=1440],
        prop_oneof![
            4 => Just(TimeForm::Auto), 1 => Just(TimeForm::Unix), 1 => Just(TimeForm::ExcelSerial),
            1 => Just(TimeForm::DayFirst),
        ],
        prop_oneof![4 => Just(1usize << 20), 1 => 0usize..64],
    )
        .prop_map(|(format, utc, time_form, max)| ParseOptions {
            format,
            utc_offset_minutes: utc,
            time_form,
            max_input_bytes: max,
            ..ParseOptions::default()
        })
}

/// A valid job: start (minutes after 2026-11-01 00:00), minutes run, GPUs, type (0 none,
/// 1 `a100`, 2 `h100`, 3 typed `a100` with more untyped), state (0 ran, 1 pending, 2
/// running), and how many step rows follow it.
type SacctJob = (u32, u32, u32, u8, u8, u8);

fn sacct_job() -> impl Strategy<Value = SacctJob> {
    (
        0u32..20_000,
        0u32..3_000,
        0u32..9,
        0u8..4,
        prop_oneof![6 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)],
        0u8..3,
    )
}

fn sacct_time(out: &mut String, minutes: u32) {
    // 2026-11-01 00:00 UTC is day 20 758.
    let days = 20_758 + i64::from(minutes / 1440);
    let (y, m, d) = gpu_rent_planner::core::calendar::civil_from_days(days);
    let mm = minutes % 1440;
    out.push_str(&format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:00",
        mm / 60,
        mm % 60
    ));
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn sacct_exports_never_fail_badly(text in sacct_text(), opts in sacct_options(), slice in 1usize..200) {
        check_case(&text, &opts, slice)?;
    }

    #[test]
    fn sacct_keeps_the_gpu_hours_of_every_job(
        jobs in prop::collection::vec(sacct_job(), 1..40),
        order in any::<prop::sample::Index>(),
        steps_first in any::<bool>(),
        slice in 1usize..200,
    ) {
        // The export, and the same counted jobs as a job log (`start,end,gpus`).
        let mut text = format!("{}\n", SACCT_COLUMNS.join("|"));
        let mut log = String::from("start,end,gpus\n");
        let latest = jobs
            .iter()
            .map(|j| if j.4 == 1 { 0 } else if j.4 == 2 { j.0 } else { j.0 + j.1 })
            .max()
            .unwrap_or(0);
        let mut gpu_hours = 0.0;
        let mut any_ran = false;
        let mut rows = Vec::new();
        for (i, &(start, len, gpus, ty, state, steps)) in jobs.iter().enumerate() {
            let tres = match ty {
                0 => format!("cpu=4,gres/gpu={gpus},mem=8G"),
                1 => format!("gres/gpu:a100={gpus},gres/gpu={gpus}"),
                2 => format!("gres/gpu={gpus},gres/gpu:h100={gpus},gres/gpumem=80G"),
                _ => format!("gres/gpu:a100={gpus},gres/gpu={}", 2 * gpus),
            };
            let counted = if ty == 3 { 2 * gpus } else { gpus };
            let mut row = format!("{}|", 500 + i);
            let end = match state {
                1 => {
                    row.push_str("Unknown|Unknown|0|");
                    None
                }
                2 => {
                    sacct_time(&mut row, start);
                    row.push_str("|Unknown|0|");
                    Some(latest.max(start))
                }
                _ => {
                    sacct_time(&mut row, start);
                    row.push('|');
                    sacct_time(&mut row, start + len);
                    row.push_str(&format!("|{}|", len * 60));
                    Some(start + len)
                }
            };
            row.push_str(&tres);
            row.push_str(["|COMPLETED", "|PENDING", "|RUNNING"][usize::from(state)]);
            row.push_str("|acct|user|gpu\n");
            let mut block = vec![row.clone()];
            for k in 0..steps {
                block.push(row.replacen(&format!("{}|", 500 + i), &format!("{}.{k}|", 500 + i), 1));
            }
            rows.push(block);
            if let Some(e) = end {
                any_ran = true;
                let (mut a, mut b) = (String::new(), String::new());
                sacct_time(&mut a, start);
                sacct_time(&mut b, e);
                log.push_str(&format!("{a},{b},{counted}\n"));
                gpu_hours += f64::from(counted) * f64::from(e - start) / 60.0;
            }
        }
        // Move one job's rows (allocation and steps) to another place.
        let n = rows.len();
        let mut moved = rows.remove(order.index(n));
        if steps_first {
            // Its steps before its allocation row: still skipped (found at the end).
            moved.reverse();
        }
        rows.insert(order.index(n).min(rows.len()) / 2, moved);
        for block in rows {
            for r in block {
                text.push_str(&r);
            }
        }
        let opts = ParseOptions::default();
        if let Err(e) = check_all(&text, &opts, slice) {
            prop_assert!(false, "{e}\ninput: {text:?}");
        }
        let got = parse(&text, &opts);
        if !any_ran {
            prop_assert!(matches!(got, Err(IngestError::Sacct(_))), "{got:?}");
            return Ok(());
        }
        let p = got.map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(p.report.format, Format::Slurm);
        prop_assert_eq!(p.report.rows_rejected, 0);
        let sum: f64 = p.series.values.iter().sum();
        prop_assert!((sum - gpu_hours).abs() <= 1e-9 * (1.0 + gpu_hours), "{sum} vs {gpu_hours}\n{text}");
        let want = parse(&log, &opts).map_err(|e| TestCaseError::fail(format!("{e}\n{log}")))?;
        prop_assert_eq!(&p.series.timestamps, &want.series.timestamps, "{}\n{}", text, log);
        for (a, b) in p.series.values.iter().zip(&want.series.values) {
            prop_assert!((a - b).abs() <= 1e-9 * (1.0 + b.abs()), "{a} vs {b}\n{text}\n{log}");
        }
        if !p.types.is_empty() {
            for h in 0..p.series.values.len() {
                let typed: f64 = p.types.iter().map(|t| t.series.values[h]).sum();
                prop_assert!((typed - p.series.values[h]).abs() <= 1e-9 * (1.0 + typed));
            }
        }
        let r = p.report.slurm.as_ref().expect("slurm report");
        prop_assert_eq!(r.jobs, jobs.len());
        prop_assert_eq!(r.steps_skipped, jobs.iter().map(|j| usize::from(j.5)).sum::<usize>());
        prop_assert_eq!(r.never_started, jobs.iter().filter(|j| j.4 == 1).count());
        prop_assert_eq!(r.running, jobs.iter().filter(|j| j.4 == 2).count());
    }
}

// ---------------------------------------------------------------------------------------
// AWS Cost and Usage Reports (issue 17): near-valid bills never panic and read the same in
// slices as whole; a bill built from a known hourly series reads back as that series.

const CUR_COLUMNS: &[(&str, &str)] = &[
    ("lineItem/LineItemType", "line_item_line_item_type"),
    ("lineItem/UsageStartDate", "line_item_usage_start_date"),
    ("lineItem/UsageEndDate", "line_item_usage_end_date"),
    ("lineItem/UsageType", "line_item_usage_type"),
    ("lineItem/UsageAmount", "line_item_usage_amount"),
    ("lineItem/CurrencyCode", "line_item_currency_code"),
    ("lineItem/UnblendedCost", "line_item_unblended_cost"),
    ("product/instanceType", "product_instance_type"),
    ("pricing/term", "pricing_term"),
    ("reservation/EffectiveCost", "reservation_effective_cost"),
    (
        "savingsPlan/SavingsPlanEffectiveCost",
        "savings_plan_savings_plan_effective_cost",
    ),
    (
        "lineItem/LineItemDescription",
        "line_item_line_item_description",
    ),
];

/// Cell fragments per column (valid and not).
fn cur_cell(col: usize) -> BoxedStrategy<String> {
    let pick =
        |v: &'static [&'static str]| prop::sample::select(v).prop_map(str::to_string).boxed();
    match col {
        0 => pick(&[
            "Usage",
            "DiscountedUsage",
            "SavingsPlanCoveredUsage",
            "Tax",
            "Credit",
            "RIFee",
            "SavingsPlanNegation",
            "EdpDiscount",
            "Refund",
            "",
            "usage",
            "Fee",
        ]),
        1 | 2 => prop_oneof![
            (0i64..96).prop_map(|h| format!("2026-11-0{}T{:02}:00:00Z", 1 + h / 24, h % 24)),
            (0i64..96).prop_map(|h| format!("2026-11-0{}T{:02}:00:00.000Z", 1 + h / 24, h % 24)),
            pick(&[
                "",
                "2026-11-01",
                "2026-11-02T00:00:00Z",
                "yesterday",
                "1899-01-01T00:00:00Z",
                "2026-13-01T00:00:00Z",
                "2026-11-01T00:30:00+05:30"
            ]),
        ]
        .boxed(),
        3 => pick(&[
            "USE1-BoxUsage:p4d.24xlarge",
            "BoxUsage:g5.xlarge",
            "APN1-SpotUsage:g5.12xlarge",
            "EU-DedicatedUsage:p5.48xlarge",
            "USE1-EBS:VolumeUsage.gp3",
            "USE1-DataTransfer-Out-Bytes",
            "USE1-BoxUsage:m5.large",
            "USE1-BoxUsage:p9.99xlarge",
            "USE1-HeavyUsage:p4d.24xlarge",
            "",
            ":",
            "BoxUsage:",
        ]),
        4 | 6 | 9 | 10 => prop_oneof![
            (0u32..100_000).prop_map(|n| format!("{}.{:04}", n / 10_000, n % 10_000)),
            pick(&[
                "",
                "0",
                "1",
                "-1",
                "1e-5",
                "1E3",
                "abc",
                "NaN",
                "inf",
                "1e400",
                "99999999999999999999",
                ".",
                "1.2.3",
                "-0.0"
            ]),
        ]
        .boxed(),
        5 => pick(&["USD", "CNY", "", "EUR"]),
        7 => pick(&[
            "p4d.24xlarge",
            "g5.xlarge",
            "g5.12xlarge",
            "p5.48xlarge",
            "m5.large",
            "g6f.large",
            "",
            "P4D.24XLARGE",
            "trn1.2xlarge",
        ]),
        8 => pick(&["OnDemand", "Reserved", "Spot", ""]),
        _ => pick(&[
            "$32.7726 per On Demand Linux p4d.24xlarge Instance Hour",
            "a, \"quoted\" note",
            "line\nbreak",
            "",
            "税费",
        ]),
    }
}

fn csv_cell(out: &mut String, cell: &str, quote: bool) {
    if quote || cell.contains(',') || cell.contains('"') || cell.contains('\n') {
        out.push('"');
        out.push_str(&cell.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(cell);
    }
}

/// A header (CUR 1.0 or 2.0 names, columns in any order, some left out) and rows of cells
/// from [`cur_cell`], each row possibly cut short or quoted.
fn near_valid_cur() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        Just((0..CUR_COLUMNS.len()).collect::<Vec<usize>>()).prop_shuffle(),
        0usize..4,
        any::<bool>(),
    )
        .prop_flat_map(|(v2, order, drop, crlf)| {
            let cols: Vec<usize> = order
                .into_iter()
                .enumerate()
                .filter(|&(i, c)| i >= drop || c == 1 || c == 4)
                .map(|(_, c)| c)
                .collect();
            let row = (
                cols.iter().map(|&c| cur_cell(c)).collect::<Vec<_>>(),
                any::<u8>(),
                0usize..cols.len() + 1,
            );
            (Just((v2, cols, crlf)), prop::collection::vec(row, 0..40))
        })
        .prop_map(|((v2, cols, crlf), rows)| {
            let eol = if crlf { "\r\n" } else { "\n" };
            let names: Vec<&str> = cols
                .iter()
                .map(|&c| {
                    if v2 {
                        CUR_COLUMNS[c].1
                    } else {
                        CUR_COLUMNS[c].0
                    }
                })
                .collect();
            let mut out = names.join(",");
            out.push_str(eol);
            for (cells, quotes, cut) in rows {
                let keep = if quotes % 7 == 0 { cut } else { cells.len() };
                for (i, cell) in cells.iter().take(keep).enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    csv_cell(
                        &mut out,
                        cell,
                        quotes & (1 << (i % 8)) != 0 && quotes % 3 == 0,
                    );
                }
                out.push_str(eol);
            }
            out
        })
}

/// A CUR's own promises: counted rows add up, rates are cents or none, GPU-hours equal the
/// series' sum (one series per model, or their sum when there are too many).
fn check_cur(r: &ParseResult) -> Result<(), String> {
    let report = match r {
        Ok(p) => &p.report,
        Err(IngestError::NoGpuInstances(rep)) => rep.as_ref(),
        Err(_) => return Ok(()),
    };
    let Some(c) = report.cur.as_ref() else {
        return match r {
            Ok(p) if p.report.format == Format::AwsCur => Err("a CUR without its report".into()),
            _ => Ok(()),
        };
    };
    if c.gpu_rows != report.rows_read
        || c.hourly_rows + c.daily_rows + c.other_window_rows != c.gpu_rows
    {
        return Err(format!("GPU rows miscounted: {c:?}"));
    }
    let left: usize = c.left_out.iter().map(|x| x.1).sum();
    if c.gpu_rows + left > c.rows {
        return Err(format!(
            "{} counted + {left} left out > {} rows",
            c.gpu_rows, c.rows
        ));
    }
    let total: f64 = c.types.iter().map(|t| t.gpu_hours()).sum();
    for t in &c.types {
        if !t.gpu_hours().is_finite() || t.gpu_hours() < 0.0 {
            return Err(format!("GPU-hours {}", t.gpu_hours()));
        }
        for term in &t.terms {
            let _ = term.rate_cents();
            let _ = term.monthly_cents(730.0);
        }
    }
    if let Ok(p) = r {
        let sum: f64 = p.series.values.iter().sum();
        if (sum - total).abs() > 1e-6 * total.max(1.0) {
            return Err(format!("series sums {sum} GPU-hours, the bill {total}"));
        }
    }
    Ok(())
}

/// One hour's GPUs (tenths) split into rows of A10G instances: (instance type, GPUs, line
/// item type, usage type prefix).
const A10G_ROWS: &[(&str, u64, &str, &str)] = &[
    ("g5.xlarge", 1, "Usage", "USE1-BoxUsage"),
    ("g5.12xlarge", 4, "DiscountedUsage", "USE1-BoxUsage"),
    ("g5.48xlarge", 8, "SavingsPlanCoveredUsage", "BoxUsage"),
    ("g5.2xlarge", 1, "Usage", "USE1-SpotUsage"),
];

/// A CUR 2.0 whose A10G hours give `tenths[h] / 10` GPUs in hour h from 2026-11-01 00:00 UTC
/// (each hour split into up to four rows), and the plain CSV of the same series.
fn cur_of_series(tenths: &[(u64, [u8; 4])], quote: bool) -> (String, String) {
    let mut bill = String::from("line_item_line_item_type,line_item_usage_start_date,line_item_usage_end_date,line_item_usage_type,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost,product_instance_type,pricing_term,reservation_effective_cost,savings_plan_savings_plan_effective_cost\n");
    let mut plain = String::from("time,gpus\n");
    let t0 = 1_793_491_200i64; // 2026-11-01 00:00 UTC
    let iso = |t: i64| {
        let day = (t - t0) / 86_400 + 1;
        format!("2026-11-{:02}T{:02}:00:00Z", day, (t - t0) % 86_400 / 3600)
    };
    for (h, &(v, shares)) in tenths.iter().enumerate() {
        let t = t0 + h as i64 * 3600;
        plain.push_str(&format!(
            "{},{}.{}\n",
            iso(t).trim_end_matches('Z'),
            v / 10,
            v % 10
        ));
        // Split v tenths by the shares (the last row takes the rest).
        let weights: u64 = shares.iter().map(|&s| u64::from(s)).sum::<u64>().max(1);
        let mut left = v;
        for (k, &(itype, gpus, kind, prefix)) in A10G_ROWS.iter().enumerate() {
            let part = if k == 3 {
                left
            } else {
                (v * u64::from(shares[k]) / weights).min(left)
            };
            left -= part;
            if part == 0 {
                continue;
            }
            // part tenths of GPUs for an hour on `gpus`-GPU instances: part / (10 × gpus)
            // instance-hours = part × (1000 / gpus) / 10^4, exact (gpus divides 1000).
            let amount = part * (1000 / gpus);
            let cells = [
                kind.to_string(),
                iso(t),
                iso(t + 3600),
                format!("{prefix}:{itype}"),
                format!("{}.{:04}", amount / 10_000, amount % 10_000),
                "USD".into(),
                "1.0".into(),
                itype.into(),
                "OnDemand".into(),
                "0.5".into(),
                "0.25".into(),
            ];
            for (i, c) in cells.iter().enumerate() {
                if i > 0 {
                    bill.push(',');
                }
                csv_cell(&mut bill, c, quote);
            }
            bill.push('\n');
        }
    }
    (bill, plain)
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn near_valid_cur_bills(text in near_valid_cur(), opts in options(), slice in 1usize..600) {
        check_case(&text, &opts, slice)?;
        if let Err(e) = check_cur(&parse(&text, &opts)) {
            prop_assert!(false, "{e}\ninput: {text:?}\noptions: {opts:?}");
        }
    }

    #[test]
    fn a_cur_of_a_known_series_reads_as_its_plain_csv(
        tenths in prop::collection::vec((1u64..2000, any::<[u8; 4]>()), 1..120),
        quote in any::<bool>(),
        utc in prop_oneof![Just(0i32), Just(480), Just(330), Just(-300)],
        slice in 1usize..2000,
    ) {
        let (bill, plain) = cur_of_series(&tenths, quote);
        let opts = ParseOptions { utc_offset_minutes: utc, ..ParseOptions::default() };
        // The plain CSV's naive times are UTC: read it in UTC, then compare instants.
        let want = parse(&plain, &ParseOptions { zone_from_data: false, ..ParseOptions::default() }).map_err(|e| e.to_string());
        let got = parse(&bill, &opts);
        if let Err(e) = check_all(&bill, &opts, slice) {
            prop_assert!(false, "{e}\ninput: {bill:?}");
        }
        if let Err(e) = check_cur(&got) {
            prop_assert!(false, "{e}\ninput: {bill:?}");
        }
        let (Ok(want), Ok(got)) = (want, got) else {
            prop_assert!(false, "not read: {bill:?}");
            unreachable!()
        };
        prop_assert_eq!(got.report.format, Format::AwsCur);
        prop_assert_eq!(got.types.len(), 1);
        // In UTC the hours are the same hours; elsewhere each UTC hour starts on the local
        // hour (whole-hour offsets) or straddles two (+05:30): GPU-hours agree in all.
        let sum = |v: &[f64]| v.iter().sum::<f64>();
        prop_assert!((sum(&got.series.values) - sum(&want.series.values)).abs() < 1e-6);
        if utc % 60 == 0 {
            prop_assert_eq!(&got.series.timestamps, &want.series.timestamps);
            for (a, b) in got.series.values.iter().zip(&want.series.values) {
                prop_assert!((a - b).abs() < 1e-9, "{} vs {}", a, b);
            }
        }
    }
}

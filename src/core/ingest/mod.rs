//! Usage-history ingestion: monitoring exports → hourly [`UsageSeries`] (and one per GPU
//! type for mixed fleets, see below).
//!
//! Pure and natively tested. Reads (auto-detected, overridable):
//! one number per line; CSV / TSV / semicolon / whitespace / full-width-comma tables
//! with or without (English or Chinese) headers, BOM, CRLF, full-width digits and
//! thousands separators; several numeric columns (pick one or sum); long "series,time,
//! value" tables (Grafana CSV export); Prometheus `query_range` JSON; `nvidia-smi
//! --query-gpu=timestamp,index,utilization.gpu --format=csv` logs; job logs
//! `start,end,gpus`; each of these with GPU types; AWS Cost and Usage Reports (CUR 1.0 / 2.0
//! CSV, `cur.rs`: GPU instance hours per GPU model, and the bill's effective rates). Tables may quote fields as RFC 4180 does (spreadsheets, Python's
//! csv module): a quoted field holds delimiters, `""` and line breaks.
//!
//! Everything is resampled to hourly GPUs busy (= GPU-hours per hour): sub-hourly
//! samples averaged, coarser samples held, jobs split across hours. Hours are aligned
//! to the planning time zone (`utc_offset_minutes`), which also interprets naive
//! local timestamps.
//!
//! ## GPU types (mixed fleets)
//!
//! Typed input gives one hourly series per GPU type in [`Parsed::types`] (at most
//! [`MAX_TYPES`], in order of first appearance), all on the hours of [`Parsed::series`],
//! which is then their sum hour by hour (so a page that plans one pool still works);
//! [`ParseReport::type_source`] says what carried the types. Untyped input: `types` empty,
//! results as before. Typed shapes:
//!
//! - long tables `timestamp,type,gpus`, columns in any order, the type column headed `type`,
//!   `model`, `name` or `类型` (when its cells look like GPU types: a job's `type` may be
//!   `training`), or `gpu_type`, `gpu_model`, `gpu_name`, `modelName`, `卡型`, `型号`,
//!   `GPU型号`, … (always). Each type name as written is one series (rows of it at one time
//!   averaged as duplicates, sub-hourly rows averaged); the series of one type are summed.
//!   With a series-name column too (`time,node,gpu_type,gpus`), one series per name and
//!   type, summed per type. An empty type cell rejects its row;
//! - wide tables `timestamp,A100,H100,4090` whose value columns ALL have a header that
//!   [`looks_like_gpu_type`] (any other column, `total`, `team_b`: today's column picker);
//!   columns of one type are summed; an empty cell is no data of that type (not 0); a bad
//!   cell rejects the row. Without a time column each row is an hour, as untyped;
//! - Prometheus JSON whose every series carries a type label (`modelName` of the DCGM
//!   exporter, `gpu_model`, `gpu_type`, `label_nvidia_com_gpu_product`, …, by preference);
//! - job logs with a type column (`start,end,gpus,type`), and nvidia-smi logs with `name`.
//!
//! The column picker ([`ColumnChoice::One`]) still picks one column / series: only its type
//! is read. Resampling is [`GapPolicy`]'s, per type, on one timeline: spacing is the median
//! between distinct sample times of all types; an hour is in the timeline when some type has
//! data there (every hour with [`GapPolicy::Zero`]); a type without data in such an hour reads
//! 0 there, listed in [`TypedSeries::no_data`] and counted in [`TypedSeries::gap_hours`]
//! (which also counts the hours no type has). Job logs: idle hours are 0, not gaps.
//!
//! Type names match by [`normalize_type`]: case, spaces, `_` and `-` folded; vendor and line
//! words (`NVIDIA`, `GeForce`, `RTX`, `Tesla`, `AMD Instinct`, `Ascend`/`昇腾`), form factors
//! (`SXM4`, `PCIe`, `NVL`), memory kinds (`HBM3`) and words like `GPUs` dropped:
//! `NVIDIA A100-SXM4-80GB` = `a100` = `A100 80GB` → `a100`; `NVIDIA GeForce RTX 4090` =
//! `RTX4090` = `4090` → `4090`. **A memory size** is dropped when it is the model's usual
//! size (A100/H100/H800/A800 80 GB, H20 96 GB, L40S 48 GB, 4090 24 GB, …), otherwise kept in
//! the key: `A100-40G` → `a100-40g`, distinct from `A100` (the two rent at different prices;
//! the page lets the user merge them, [`merge_types`]). A model not in that table keeps any
//! size written. The label shown is the first form met (at most 40 characters). More than
//! [`MAX_TYPES`] keys: the input is read as one series (all types summed) and
//! [`ParseReport::too_many_types`] names how many and the first labels.
//!
//! Entry points: [`parse`] (all at once) and [`Parser`] / [`Stepper`] (in slices, so
//! a browser page can yield between slices and show progress). Never panics; every
//! rejected line is reported with its 1-based number and a [`RejectReason`].
//!
//! ```ignore
//! let mut s = Stepper::new(&text, &options);
//! while !s.step(64 * 1024) {          // ~1 ms of work per 64 KiB in wasm
//!     set_progress(s.progress());     // 0.0 ..= 1.0
//!     sleep(Duration::ZERO).await;    // yield to the browser
//! }
//! let result: ParseResult = s.finish(); // resampling (+ whole JSON parse) happens here
//! ```

mod bytes;
mod cur;
mod detect;
mod guard;
mod json;
mod meaning;
mod number;
mod parser;
mod prom_stream;
mod prometheus;
pub mod rates;
/// The team labels the Prometheus reader looks for, by preference (the PromQL writer copies
/// another label into the first of them).
pub(crate) use prometheus::TEAM_LABELS as PROM_TEAM_LABELS;
mod resample;
mod slurm;
mod split;
mod teams;
pub(crate) mod timestamp;
mod types;

#[cfg(test)]
mod test_feed;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_answer;
#[cfg(test)]
mod tests_cur;
#[cfg(test)]
mod tests_forms;
#[cfg(test)]
mod tests_meaning;
#[cfg(test)]
mod tests_prom;
#[cfg(test)]
mod tests_slurm;
#[cfg(test)]
mod tests_teams;
#[cfg(test)]
mod tests_types;

use std::fmt;

pub use bytes::{ByteStepper, Utf8Slices};
pub use cur::{
    BillLeftOut, BillTerm, CurReport, CurType, CurVersion, OtherBill, PriceFill, TermRate,
    MAX_LISTED_UNKNOWN,
};
pub use guard::{Warning, JUMP_FACTOR};
pub use meaning::{ColumnMeaning, MeaningReport, MeaningWhy, NOT_USAGE};
pub use parser::{Parser, Stepper};
pub use prometheus::parse_prometheus_tree;
pub use slurm::{SacctProblem, SlurmReport, SACCT_COMMAND, SACCT_REQUIRED, UNTYPED_LABEL};
pub use teams::{TeamChoice, TeamSeries, TeamSource, Teams, MAX_TEAMS, OTHER_TEAMS, UNALLOCATED};
pub use types::{
    looks_like_gpu_type, merge_types, normalize_type, rename_type, TooManyTypes, TypeEditError,
    TypeSource, TypedSeries, MAX_LISTED_TYPES, MAX_TYPES,
};

use crate::core::series::UsageSeries;

/// Default maximum input size (50 MiB).
pub const DEFAULT_MAX_INPUT_BYTES: usize = 50 * 1024 * 1024;
/// Largest file the page reads from disk in slices ([`ByteStepper`]): the text is never held
/// whole, only what the parser keeps (a sample per row at most), so a file may be larger than
/// a paste.
pub const MAX_FILE_BYTES: usize = 512 * 1024 * 1024;
/// At most this many rejected lines are listed; the rest are only counted.
pub const MAX_LISTED_REJECTS: usize = 20;
/// At most this many gap ranges are listed; all missing hours are counted.
pub const MAX_LISTED_GAPS: usize = 10;
/// Longest series produced: 10 years of hours.
pub const MAX_HOURS: usize = 10 * 8766;
/// Longest excerpt of an offending text, in characters.
pub const MAX_EXCERPT_CHARS: usize = 40;
/// At most this many distinct series (GPUs, teams, Prometheus series).
pub const MAX_SERIES: usize = 4096;
/// Lines longer than this (bytes) are rejected without being split.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// An input format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Format {
    /// One number per line, consecutive hours.
    Values,
    /// A delimited table: optional timestamp column, one or more numeric columns,
    /// or a long table (time, series name, value).
    Table,
    /// A Grafana panel "Export CSV" (wide `Time,<series>…` or long `Series;Time;Value`).
    GrafanaCsv,
    /// A Prometheus HTTP API `query_range` (or instant query) JSON response.
    PrometheusJson,
    /// `nvidia-smi --query-gpu=timestamp,index,utilization.gpu --format=csv` log.
    NvidiaSmi,
    /// Scheduler job log: start, end, GPUs.
    JobLog,
    /// Slurm accounting (`sacct -P`): jobs with their `AllocTRES` GPUs (see `slurm.rs`).
    Slurm,
    /// AWS Cost and Usage Report (CUR 1.0 or 2.0 CSV): GPU instance hours per GPU model, and
    /// the bill's effective rates ([`ParseReport::cur`]).
    AwsCur,
}

/// Field delimiter of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Delimiter {
    Comma,
    Tab,
    Semicolon,
    Pipe,
    /// `，` (U+FF0C)
    FullWidthComma,
    /// Runs of spaces / tabs.
    Whitespace,
    /// One field per line.
    None,
}

/// How timestamps were written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum TimestampStyle {
    /// ISO 8601 with `Z` or an offset: `2026-11-01T13:00:00+08:00`.
    IsoWithOffset,
    /// `2026-11-01 13:00[:00]` / `2026-11-01T13:00` (local time).
    IsoLocal,
    /// `2026/11/01 13:00` (local time).
    SlashLocal,
    /// `2026年11月1日 13:00` (local time).
    ChineseLocal,
    /// A date only (daily data, local midnight).
    DateOnly,
    /// Unix epoch seconds.
    EpochSeconds,
    /// Unix epoch milliseconds (or micro/nanoseconds).
    EpochMillis,
    /// `10/5/2026 12:15 AM` / `10/5/2026 0:15` (month first: US Excel).
    MonthFirst,
    /// `5/10/2026 0:15` / `05.10.2026 00:15` (day first: European Excel).
    DayFirst,
    /// `05-Oct-2026 00:15`, `5 Oct 2026`, `Oct 5, 2026` (a month name).
    MonthName,
    /// Excel serial day numbers (`46300.5` = 2026-10-05 12:00): days since 1899-12-30.
    ExcelSerial,
}

/// The order of day and month in dates written `a/b/yyyy` or `a-b-yyyy`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum DateOrder {
    /// `10/5/2026` = 5 October (US).
    #[default]
    MonthFirst,
    /// `5/10/2026` = 5 October (most of the world).
    DayFirst,
}

impl DateOrder {
    pub fn other(self) -> Self {
        match self {
            DateOrder::MonthFirst => DateOrder::DayFirst,
            DateOrder::DayFirst => DateOrder::MonthFirst,
        }
    }
}

/// What decided the order of day and month.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum OrderSource {
    /// A date in the file has a field above 12.
    File,
    /// Every date in the file reads both ways: the browser locale's order was taken.
    Locale,
    /// The user chose it ([`ParseOptions::time_form`]).
    Choice,
}

/// How the time column is read, when the user chooses.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum TimeForm {
    /// Detect the form (and the order of day and month from the file, else the locale).
    #[default]
    Auto,
    /// `a/b/yyyy` dates are month first.
    MonthFirst,
    /// `a/b/yyyy` dates are day first.
    DayFirst,
    /// The time column holds Excel serial day numbers.
    ExcelSerial,
    /// The time column holds Unix seconds (or milliseconds, by magnitude).
    Unix,
}

/// A column that looks like time but was not read as time.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UnreadTime {
    pub column: ValueColumn,
    /// One of its cells, as written (at most 40 characters).
    pub example: String,
}

/// Which numeric column(s) give GPUs busy.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum ColumnChoice {
    /// Decide: a single numeric column; a "total" column; the one GPU-count column;
    /// otherwise the sum of all.
    #[default]
    Auto,
    /// `report.columns[k]` only.
    One(usize),
    /// Sum of all numeric columns / series.
    Sum,
}

impl ColumnChoice {
    /// The column use among `n` series (long tables, GPUs, Prometheus results).
    pub(crate) fn for_series(self, n: usize) -> Result<ColumnUse, IngestError> {
        match self {
            ColumnChoice::One(k) if k < n => Ok(ColumnUse::One(k)),
            ColumnChoice::One(k) => Err(IngestError::NoSuchColumn {
                index: k,
                available: n,
            }),
            ColumnChoice::Sum => Ok(ColumnUse::Sum),
            ColumnChoice::Auto if n == 1 => Ok(ColumnUse::One(0)),
            ColumnChoice::Auto => Ok(ColumnUse::Sum),
        }
    }
}

/// What to do with hours that have no data.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum GapPolicy {
    /// Missing hours are absent from the series (timestamps jump).
    #[default]
    Exclude,
    /// Missing hours are inserted with 0 GPUs busy.
    Zero,
}

/// Parsing options. `Default` = auto-detect everything, UTC, 10 % busy threshold, 50 MiB.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ParseOptions {
    /// `None` = auto-detect.
    pub format: Option<Format>,
    /// `None` = auto-detect.
    pub delimiter: Option<Delimiter>,
    /// `None` = auto-detect whether the first line is a header.
    pub header: Option<bool>,
    pub column: ColumnChoice,
    pub gaps: GapPolicy,
    /// Planning time zone: interprets naive timestamps and aligns hours (bands). With
    /// daylight saving, the offset before the first of `offset_changes`.
    pub utc_offset_minutes: i32,
    /// Daylight saving of the planning zone (see [`crate::core::zone::Zone`]).
    pub offset_changes: Vec<(i64, i32)>,
    /// When the timestamps carry a numeric offset (`+08:00`), plan in that offset (the
    /// team's clock) instead of `utc_offset_minutes`.
    pub zone_from_data: bool,
    /// How the time column is read (`Auto`: detected).
    pub time_form: TimeForm,
    /// The order of day and month when every date of the file reads both ways (the
    /// browser locale's).
    pub locale_date_order: DateOrder,
    /// nvidia-smi: a GPU is busy in a sample when utilization is above this (percent);
    /// DCGM utilisation: at or above it (a ratio metric against it / 100).
    pub busy_threshold_percent: f64,
    /// Prometheus: how the series' values are read. `None`: by the metric name
    /// (`__name__`) of the first series.
    pub prometheus: Option<PromReading>,
    /// What the value columns of a table hold (GPU counts, one GPU's utilisation each,
    /// series to sum); `Auto`: decided from the headers and cells ([`MeaningReport`]).
    pub meaning: ColumnMeaning,
    /// Which column, label or tag names the team of each hour's usage ([`Parsed::teams`]).
    pub team: TeamChoice,
    pub max_input_bytes: usize,
}

/// How the values of a Prometheus response are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum PromReading {
    /// The values are GPUs: each series averaged per hour, the series summed.
    Values,
    /// GPU utilisation in percent, one series per GPU (`DCGM_FI_DEV_GPU_UTIL`): GPUs busy
    /// at a step = series at or above the busy threshold.
    BusyPercent,
    /// GPU activity as a ratio 0–1 (`DCGM_FI_PROF_GR_ENGINE_ACTIVE`,
    /// `DCGM_FI_PROF_SM_ACTIVE`): busy at or above threshold / 100.
    BusyRatio,
    /// GPUs requested by pods (`kube_pod_container_resource_requests{resource=
    /// "nvidia_com_gpu"}`): summed per step; a pod without a sample at a step adds 0.
    Requests,
}

/// Why a Prometheus series was left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum LeftOutReason {
    /// Another metric than the one read (its `__name__` differs).
    OtherMetric,
    /// A Kubernetes request for another resource than `nvidia_com_gpu` (CPU, memory).
    OtherResource,
}

/// A Prometheus series that was not counted.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LeftOut {
    /// 1-based position in `result`.
    pub series: usize,
    /// Its metric and labels (at most 40 characters).
    pub name: String,
    pub reason: LeftOutReason,
}

/// At most this many left-out series are listed; the rest are counted.
pub const MAX_LISTED_LEFT_OUT: usize = 5;

/// What a Prometheus response was read as.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PromReport {
    pub reading: PromReading,
    /// The reading came from the metric name (not the user's choice).
    pub by_name: bool,
    /// The metric read (`__name__` of the first series counted; empty without one).
    pub metric: String,
    /// Series counted that had samples (GPUs for DCGM, pod containers for Kubernetes).
    pub series: usize,
    /// Series counted per GPU type, in the order of [`Parsed::types`] (empty: untyped).
    pub series_per_type: Vec<usize>,
    /// Distinct evaluation times (steps) read (utilisation and requests readings).
    pub steps: usize,
    /// Utilisation: (GPU, step) pairs without a sample at a step where another GPU had one;
    /// counted as not busy.
    pub absent: u64,
    /// The series share almost no steps (about one series per step: raw samples at each
    /// series' own times, not a `query_range` at one step): counts per step undercount.
    pub unaligned: bool,
    /// Series left out (first [`MAX_LISTED_LEFT_OUT`]) and how many in all.
    pub left_out: Vec<LeftOut>,
    pub left_out_count: usize,
    /// Read as values, but the series carry the DCGM exporter's labels (`UUID`,
    /// `modelName`) without a metric name: perhaps utilisation (choose the reading).
    pub looks_like_dcgm: bool,
    /// Series counted that name one GPU (a `UUID`, `gpu`, `device` … label): when every
    /// series does and the values are read as GPUs, no hour can have more GPUs busy.
    pub per_gpu_series: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        Self {
            format: None,
            delimiter: None,
            header: None,
            column: ColumnChoice::Auto,
            gaps: GapPolicy::Exclude,
            utc_offset_minutes: 0,
            offset_changes: Vec::new(),
            zone_from_data: false,
            time_form: TimeForm::Auto,
            locale_date_order: DateOrder::MonthFirst,
            busy_threshold_percent: 10.0,
            prometheus: None,
            meaning: ColumnMeaning::Auto,
            team: TeamChoice::Auto,
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
        }
    }
}

/// A column (or series) of the input.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ValueColumn {
    /// 0-based field position in a row; for series (long tables, GPUs, Prometheus),
    /// the series number in order of first appearance.
    pub field: usize,
    /// Header name / series label; empty when there is none (show "column N").
    pub name: String,
}

impl ValueColumn {
    /// The series named `names` (in order of first appearance) as columns.
    pub(crate) fn series(names: &[String]) -> Vec<ValueColumn> {
        names
            .iter()
            .enumerate()
            .map(|(field, name)| ValueColumn {
                field,
                name: name.clone(),
            })
            .collect()
    }
}

/// What was used as GPUs busy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ColumnUse {
    /// `report.columns[k]`.
    One(usize),
    /// The sum of all `report.columns`.
    Sum,
}

/// Why a line was rejected. The UI translates these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum RejectReason {
    /// The value cell is not a number.
    NotANumber,
    /// The value is NaN or infinite.
    NotFinite,
    /// The value is negative.
    Negative,
    /// The value is implausibly large (> 1e9).
    TooLarge,
    /// The value (or timestamp) cell is empty.
    MissingValue,
    /// The row has fewer fields than the columns in use.
    TooFewColumns,
    /// The row has more than 256 fields.
    TooManyColumns,
    /// The timestamp cell is not a recognised date-time.
    BadTimestamp,
    /// The timestamp is before 1990 or after 2099.
    TimestampOutOfRange,
    /// Job log: end before start.
    EndBeforeStart,
    /// Job log: a job longer than 10 years.
    JobTooLong,
    /// More than 4096 distinct series / GPUs.
    TooManySeries,
    /// The line is longer than 64 KiB.
    LineTooLong,
    /// Prometheus JSON: a sample is not `[time, "value"]`.
    BadSample,
}

/// One rejected line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RejectedLine {
    /// 1-based line number in the input (a record whose quoted field spans several
    /// lines: its first line).
    pub line: usize,
    pub reason: RejectReason,
    /// The offending cell (or line), at most 40 characters (`…` when cut).
    pub excerpt: String,
}

/// A run of missing hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Gap {
    /// UTC unix seconds of the first missing hour.
    pub start: i64,
    pub hours: usize,
}

/// What was read and how ("read as …").
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ParseReport {
    pub format: Format,
    pub delimiter: Delimiter,
    pub has_header: bool,
    /// The timestamp column (job logs: the start column).
    pub timestamp_column: Option<ValueColumn>,
    /// When date and time are in two columns: the time column.
    pub time_column: Option<ValueColumn>,
    /// Job logs: the end column.
    pub end_column: Option<ValueColumn>,
    pub timestamp_style: Option<TimestampStyle>,
    /// Timestamps had no offset and were read in `utc_offset_minutes`.
    pub naive_timestamps: bool,
    /// A time cell as written (the first one read), to show the form used.
    pub time_example: Option<String>,
    /// Times were written with `AM`/`PM`.
    pub twelve_hour: bool,
    /// Dates written `a/b/yyyy`: the order of day and month used and what decided it.
    pub date_order: Option<(DateOrder, OrderSource)>,
    /// A column that looks like time but was not read as time (the user can pick a form).
    pub unread_time: Option<UnreadTime>,
    /// The planning zone is the timestamps' own offset (`utc_offset_minutes`).
    pub zone_from_data: bool,
    /// Long tables: the series-name column; nvidia-smi: the GPU id column.
    pub series_column: Option<ValueColumn>,
    /// Numeric columns / series the user can pick from or sum.
    pub columns: Vec<ValueColumn>,
    pub used: ColumnUse,
    /// Lines in the input (physical lines: line breaks inside quoted fields count).
    pub lines: usize,
    /// Data rows accepted.
    pub rows_read: usize,
    pub rows_rejected: usize,
    /// The first [`MAX_LISTED_REJECTS`] rejected lines.
    pub rejected: Vec<RejectedLine>,
    /// Rejected lines not listed.
    pub rejected_not_listed: usize,
    /// Comment lines and repeated header lines skipped (blank lines are not counted).
    pub lines_skipped: usize,
    /// First and last timestamp read (UTC unix seconds).
    pub span: Option<(i64, i64)>,
    /// Typical spacing of the input samples (median), seconds.
    pub resolution_seconds: Option<i64>,
    /// Hours in the produced series.
    pub hours: usize,
    pub gap_policy: GapPolicy,
    /// Hours without data between the first and last (excluded or zero-filled).
    pub missing_hours: usize,
    /// The first [`MAX_LISTED_GAPS`] runs of missing hours.
    pub gaps: Vec<Gap>,
    /// Rows with the same timestamp (and series) as an earlier row (averaged).
    pub duplicates: usize,
    /// Rows were out of time order (they were sorted).
    pub unsorted: bool,
    /// nvidia-smi, DCGM utilisation: the busy threshold used.
    pub busy_threshold_percent: Option<f64>,
    /// Prometheus: what the series were read as.
    pub prometheus: Option<PromReport>,
    /// Slurm accounting: the jobs read, skipped and still running.
    pub slurm: Option<SlurmReport>,
    pub utc_offset_minutes: i32,
    /// What carried the GPU types (typed input; [`Parsed::types`] holds them unless
    /// `too_many_types`).
    pub type_source: Option<TypeSource>,
    /// More than [`MAX_TYPES`] GPU types: the input was read as one series (all types
    /// summed) and [`Parsed::types`] is empty.
    pub too_many_types: Option<TooManyTypes>,
    /// An AWS Cost and Usage Report: what was counted, left out, and the effective rates.
    pub cur: Option<Box<CurReport>>,
    /// A table's value columns (or a long table's series): what they were read as
    /// (GPU counts, one GPU's utilisation each, series to sum) and why.
    pub meaning: Option<MeaningReport>,
    /// The plausibility guard's findings ([`Warning`]); empty when the reading is plausible.
    pub warnings: Vec<Warning>,
    /// The input is the answer to a query the page wrote (`core::query`), and how it was
    /// exported.
    pub query_answer: Option<QueryAnswer>,
}

/// How the answer to one of the page's queries (`core::query`) came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum QueryAnswer {
    /// A CSV with every field quoted: Athena's "Download results".
    CsvQuoted,
    /// A plain CSV: DuckDB's `COPY … TO` / CLI `-csv`, BigQuery's CSV download.
    Csv,
    /// Tab-separated with a header: the MySQL/MariaDB client's batch output (`-B`).
    Tsv,
    /// JSON rows: BigQuery's `bq query --format=json` / JSON download.
    JsonRows,
    /// A Prometheus `query_range` response to the page's PromQL.
    Prometheus,
    /// The bills' effective-rates answer ([`crate::core::query::RATES_HEADER`]).
    Rates,
}

impl ParseReport {
    pub(crate) fn new(format: Format, opts: &ParseOptions) -> Self {
        Self {
            format,
            delimiter: Delimiter::None,
            has_header: false,
            timestamp_column: None,
            time_column: None,
            end_column: None,
            timestamp_style: None,
            naive_timestamps: false,
            time_example: None,
            twelve_hour: false,
            date_order: None,
            unread_time: None,
            zone_from_data: false,
            series_column: None,
            columns: Vec::new(),
            used: ColumnUse::One(0),
            lines: 0,
            rows_read: 0,
            rows_rejected: 0,
            rejected: Vec::new(),
            rejected_not_listed: 0,
            lines_skipped: 0,
            span: None,
            resolution_seconds: None,
            hours: 0,
            gap_policy: opts.gaps,
            missing_hours: 0,
            gaps: Vec::new(),
            duplicates: 0,
            unsorted: false,
            busy_threshold_percent: None,
            prometheus: None,
            slurm: None,
            utc_offset_minutes: opts.utc_offset_minutes,
            type_source: None,
            too_many_types: None,
            cur: None,
            meaning: None,
            warnings: Vec::new(),
            query_answer: None,
        }
    }

    /// The reading needs the user's look: a plausibility warning, a column meaning or an
    /// order of day and month taken as the more plausible one and not yet confirmed.
    pub fn needs_check(&self) -> bool {
        !self.warnings.is_empty()
            || self.meaning.as_ref().is_some_and(|m| m.ask)
            || matches!(self.date_order, Some((_, OrderSource::Locale)))
    }

    /// Count line `line` (`t`) read, or reject it ([`ParseReport::reject_row`]).
    pub(crate) fn count_row(&mut self, line: usize, t: &str, read: Result<(), RowError>) {
        match read {
            Ok(()) => self.rows_read += 1,
            Err(e) => self.reject_row(line, t, e),
        }
    }

    /// Reject line `line` (`t`) with the cell at fault as its excerpt (the whole line when
    /// the error names no cell).
    pub(crate) fn reject_row(&mut self, line: usize, t: &str, (reason, cell): RowError) {
        let (a, b) = cell.filter(|(a, b)| a < b).unwrap_or((0, t.len()));
        self.reject(line, reason, t.get(a..b).unwrap_or(t));
    }

    /// Record a rejected line (listed up to [`MAX_LISTED_REJECTS`], then counted).
    pub(crate) fn reject(&mut self, line: usize, reason: RejectReason, text: &str) {
        self.rows_rejected += 1;
        if self.rejected.len() < MAX_LISTED_REJECTS {
            self.rejected.push(RejectedLine {
                line,
                reason,
                excerpt: excerpt(text),
            });
        } else {
            self.rejected_not_listed += 1;
        }
    }
}

/// Series plus what was read.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Parsed {
    /// GPUs busy per hour; for typed input, the sum of `types` hour by hour.
    pub series: UsageSeries,
    pub report: ParseReport,
    /// One series per GPU type (at most [`MAX_TYPES`], in order of first appearance, all on
    /// the hours of `series`); empty for untyped input.
    pub types: Vec<TypedSeries>,
    /// Who used the GPUs: one series per team, when the input names teams and
    /// [`ParseOptions::team`] is not `Off` (issue 37).
    pub teams: Option<Teams>,
}

/// Why nothing usable came out.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum IngestError {
    /// Empty or whitespace-only input.
    Empty,
    /// Input larger than `max_input_bytes`.
    TooLarge { bytes: usize, max_bytes: usize },
    /// Not text (NUL bytes, mostly control or replacement characters).
    Binary,
    /// No numeric column found.
    NoNumericColumn,
    /// The forced format needs columns the text does not have
    /// (job log: two timestamp columns; nvidia-smi: timestamp and utilization).
    LayoutMismatch { format: Format },
    /// `ColumnChoice::One(index)` but only `available` columns.
    NoSuchColumn { index: usize, available: usize },
    /// Every data row was rejected; the report lists why.
    NoUsableRows(Box<ParseReport>),
    /// The series would be longer than [`MAX_HOURS`].
    TooManyHours { hours: u64, max_hours: usize },
    /// Malformed JSON at a 1-based line.
    InvalidJson { line: usize },
    /// JSON, but not a Prometheus query response with `data.result`.
    NotPrometheus,
    /// Prometheus answered `"status":"error"`; its message (for display as is).
    PrometheusError { message: String },
    /// A file read in slices ([`ByteStepper`]) could not be read on from byte `at` (moved,
    /// changed or deleted on disk since it was picked).
    Unreadable { at: u64 },
    /// A Prometheus `/metrics` scrape (text exposition format: one instant), not a history;
    /// `metric` is the first metric named (at most 40 characters).
    MetricsScrape { metric: String },
    /// Looks like Slurm `sacct` output but cannot be read as it (see [`SacctProblem`]).
    Sacct(SacctProblem),
    /// A gzip file (`.csv.gz`, as AWS delivers CUR files): the page reads text only.
    Gzip,
    /// A cloud bill, but not one the page reads (Cost Explorer, FOCUS, Azure, a CUR without
    /// the columns needed).
    OtherBill(OtherBill),
    /// An AWS Cost and Usage Report without any GPU instance hours; the report says what
    /// its rows were.
    NoGpuInstances(Box<ParseReport>),
    /// Not a usage history: GPU temperature, memory or power, or a tool's live view without
    /// time (see [`NotUsage`]).
    NotUsage(NotUsage),
    /// The page's reader (a worker of its own, `reader_client`) stopped or could not start
    /// before it answered: `detail` is what the browser said (empty: it could not be loaded).
    ReaderStopped { detail: String },
}

/// A file that holds something other than GPU usage over time.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum NotUsage {
    /// A metric that is not usage (`DCGM_FI_DEV_GPU_TEMP`, `DCGM_FI_DEV_FB_USED`,
    /// `DCGM_FI_DEV_POWER_USAGE`, clocks), named in a header or by Prometheus.
    Metric(String),
    /// `nvidia-smi dmon` output (a live view: power, temperatures, `sm` %).
    NvidiaSmiDmon,
    /// `dcgmi dmon` output (a live view without time).
    DcgmiDmon,
    /// A GPU log without a header (`nvidia-smi --format=csv,noheader`): time, GPU index,
    /// model name and several numbers that cannot be told apart.
    HeaderlessGpuLog,
}

impl fmt::Display for IngestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IngestError::Empty => write!(f, "the input is empty"),
            IngestError::TooLarge { bytes, max_bytes } => {
                write!(
                    f,
                    "the input is {bytes} bytes, more than the {max_bytes} bytes accepted"
                )
            }
            IngestError::Binary => write!(f, "the input is not text"),
            IngestError::NoNumericColumn => write!(f, "no numeric column found"),
            IngestError::LayoutMismatch { format } => {
                write!(f, "the text does not have the columns of {format:?}")
            }
            IngestError::NoSuchColumn { index, available } => {
                write!(f, "column {index} chosen but only {available} columns")
            }
            IngestError::NoUsableRows(r) => {
                write!(f, "no usable rows ({} rejected)", r.rows_rejected)
            }
            IngestError::TooManyHours { hours, max_hours } => {
                write!(f, "{hours} hours is more than the {max_hours} accepted")
            }
            IngestError::InvalidJson { line } => write!(f, "invalid JSON at line {line}"),
            IngestError::NotPrometheus => write!(f, "JSON but not a Prometheus query result"),
            IngestError::PrometheusError { message } => write!(f, "Prometheus error: {message}"),
            IngestError::Unreadable { at } => write!(f, "the file could not be read at byte {at}"),
            IngestError::MetricsScrape { metric } => write!(
                f,
                "a Prometheus /metrics scrape ({metric}: one instant), not a query_range history"
            ),
            IngestError::Sacct(p) => write!(
                f,
                "sacct output that cannot be read: {p:?}; run {SACCT_COMMAND}"
            ),
            IngestError::Gzip => write!(f, "a gzip file: unzip it first"),
            IngestError::OtherBill(_) => write!(f, "a cloud bill, but not a CUR the page reads"),
            IngestError::NotUsage(n) => write!(f, "not GPU usage over time: {n:?}"),
            IngestError::ReaderStopped { detail } => write!(f, "the reader stopped: {detail}"),
            IngestError::NoGpuInstances(r) => write!(
                f,
                "a Cost and Usage Report without GPU instance hours ({} rows)",
                r.cur.as_ref().map_or(0, |c| c.rows)
            ),
        }
    }
}

impl std::error::Error for IngestError {}

pub type ParseResult = Result<Parsed, IngestError>;

/// Parse a whole text at once.
pub fn parse(text: &str, options: &ParseOptions) -> ParseResult {
    let mut p = Parser::new(options.clone());
    p.feed(text);
    p.flush();
    if let Some(order) = p.rereading_order() {
        // Every date of the first lines read both ways, and later ones fix the other order.
        p = Parser::with_order(options.clone(), order);
        p.feed(text);
    }
    p.finish()
}

/// Why a row was rejected, and the byte range of the offending cell.
pub(crate) type RowError = (RejectReason, Option<(usize, usize)>);

/// Field `col` of line `t` split into `fields` (byte ranges): its text and range, or
/// `TooFewColumns` when the line has no such field.
pub(crate) fn field_at<'a>(
    fields: &[(usize, usize)],
    t: &'a str,
    col: usize,
) -> Result<(&'a str, (usize, usize)), RowError> {
    match fields.get(col) {
        Some(&(a, b)) => Ok((t.get(a..b).unwrap_or(""), (a, b))),
        None => Err((RejectReason::TooFewColumns, None)),
    }
}

/// At most [`MAX_EXCERPT_CHARS`] characters of `s` (cut on a char boundary, `…` appended).
pub(crate) fn excerpt(s: &str) -> String {
    let s = s.trim();
    if s.chars().count() <= MAX_EXCERPT_CHARS {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(MAX_EXCERPT_CHARS - 1).collect();
        out.push('…');
        out
    }
}

impl ParseOptions {
    /// The planning zone these options name.
    pub fn zone(&self) -> crate::core::zone::Zone {
        crate::core::zone::Zone::with_changes(self.utc_offset_minutes, self.offset_changes.clone())
    }
}

/// UTC unix seconds of the start of the local hour containing `ms`.
pub(crate) fn hour_key(ms: i64, utc_offset_minutes: i32) -> i64 {
    (ms + i64::from(utc_offset_minutes) * 60_000).div_euclid(3_600_000)
}

/// UTC unix seconds at which local hour `key` starts.
pub(crate) fn hour_start_s(key: i64, utc_offset_minutes: i32) -> i64 {
    key * 3600 - i64::from(utc_offset_minutes) * 60
}

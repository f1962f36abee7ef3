//! Slurm accounting exports read as jobs:
//! `sacct -P -X --format=JobIDRaw,Start,End,ElapsedRaw,AllocTRES,State,Account,User,Partition`.
//!
//! The columns are found by their header names (any order, extra columns, a trailing `|` of
//! `--parsable`). A job's GPUs come from `AllocTRES`: `gres/gpu=4` (untyped) and
//! `gres/gpu:a100=4` (typed; the untyped total is then not counted again, only what it has
//! beyond the typed counts). A job counts its GPUs for the fraction of each hour it ran: the
//! job log's rule (`resample::jobs`). Job steps (`1041.batch`, `1041.0`) are skipped when the
//! file has their job's allocation row, else counted as jobs; jobs that never started (`Start`
//! `Unknown` / `None`, or `State` `PENDING`) are skipped and counted; running jobs (`End`
//! `Unknown`) run until the latest time written in the file. Times carry no zone: they are
//! read in the planning zone, in the form [`super::TimeForm`] says.
//!
//! Per job the reader keeps 34 bytes (start, end, GPUs, type, the job id's hash): never the
//! text. Jobs without GPUs are not kept, only the time they cover.

use super::number::{fast_trim, parse_number, MAX_VALUE};
use super::resample::{jobs, jobs_typed};
use super::teams::{from_jobs, pick, teams_of, TeamSource, TeamTable, NO_TEAM};
use super::timestamp::{parse_datetime, parse_epoch, parse_excel, TsError};
use super::types::{positions, typed_series, TypeSource, TypeTable};
use super::{
    field_at, ColumnUse, Delimiter, Format, IngestError, ParseOptions, ParseReport, ParseResult,
    Parsed, RejectReason, RowError, TimeForm, TimestampStyle, ValueColumn, MAX_HOURS,
};
use crate::core::series::UsageSeries;
use crate::core::zone::Zone;

/// The export command the page asks for.
pub const SACCT_COMMAND: &str =
    "sacct -P -X --format=JobIDRaw,Start,End,ElapsedRaw,AllocTRES,State,Account,User,Partition";

/// The columns the reader needs, as `sacct` names them.
pub const SACCT_REQUIRED: [&str; 4] = ["JobIDRaw", "Start", "End", "AllocTRES"];

/// Why a text that looks like `sacct` output cannot be read as one.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SacctProblem {
    /// `sacct` without `-P`: its default fixed-width columns (values cut to the column width).
    FixedWidth,
    /// A pipe-separated `sacct` export without these columns (of [`SACCT_REQUIRED`]).
    MissingColumns(Vec<String>),
    /// Every job read had never started (pending, or cancelled before it started).
    NoJobRan { never_started: usize },
}

/// What a `sacct` export was read as (besides the [`ParseReport`]'s rows, span and hours).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SlurmReport {
    /// The job id column as headed (`JobIDRaw`, or `JobID`).
    pub id_column: String,
    /// Allocation rows read (jobs, whether they ran or not).
    pub jobs: usize,
    /// Jobs counted (allocation rows that started, and counted steps) with GPUs.
    pub gpu_jobs: usize,
    /// Jobs counted without any GPU in `AllocTRES` (they add 0, and cover their hours).
    pub no_gpu_jobs: usize,
    /// Step rows skipped because their job's allocation row is in the file.
    pub steps_skipped: usize,
    /// Step rows counted as jobs (their allocation row is not in the file).
    pub steps_counted: usize,
    /// Jobs skipped because they never started (`Start` `Unknown`/`None`, `PENDING`).
    pub never_started: usize,
    /// Jobs still running (`End` `Unknown`), run to [`SlurmReport::run_to`].
    pub running: usize,
    /// The latest time written in the file (UTC unix seconds): where running jobs end.
    pub run_to: Option<i64>,
    /// GPU-hours counted in all.
    pub gpu_hours: f64,
    /// GPU types found in `AllocTRES` (`gres/gpu:a100`), as written, with the jobs of each, in
    /// order of first appearance; empty when no job names a type.
    pub types: Vec<(String, usize)>,
    /// In a typed file: jobs with GPUs that name no type (their own series, [`UNTYPED_LABEL`]).
    pub untyped_jobs: usize,
}

/// The label of GPUs without a type in a file whose other jobs name types.
pub const UNTYPED_LABEL: &str = "gres/gpu (no type)";

/// Header names `sacct` writes that a generic table would hardly have.
const SACCT_ONLY: [&str; 30] = [
    "jobidraw",
    "jobname",
    "alloccpus",
    "exitcode",
    "elapsedraw",
    "alloctres",
    "reqtres",
    "allocgres",
    "reqgres",
    "allocnodes",
    "reqcpus",
    "reqmem",
    "ncpus",
    "nnodes",
    "nodelist",
    "cputime",
    "cputimeraw",
    "totalcpu",
    "maxrss",
    "maxvmsize",
    "submit",
    "eligible",
    "timelimit",
    "qos",
    "cluster",
    "derivedexitcode",
    "workdir",
    "reservation",
    "priority",
    "reqnodes",
];

/// Header names of `sacct` that generic tables share.
const SACCT_COMMON: [&str; 8] = [
    "jobid",
    "start",
    "end",
    "state",
    "account",
    "user",
    "partition",
    "elapsed",
];

/// The columns of a recognised export.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SacctLayout {
    header_line: String,
    names: Vec<String>,
    id: usize,
    start: usize,
    end: usize,
    tres: usize,
    state: Option<usize>,
    /// The columns that can name a job's team, of `Account`, `User`, `Partition`, `QOS` in
    /// this order.
    teams: Vec<usize>,
}

/// The columns that can name a team, in the order offered.
const TEAM_COLUMNS: [&str; 4] = ["account", "user", "partition", "qos"];

fn lower_names(line: &str, pipe: bool) -> Vec<String> {
    if pipe {
        line.split('|')
            .map(|s| s.trim().trim_matches('"').to_ascii_lowercase())
            .collect()
    } else {
        line.split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect()
    }
}

fn sacct_names(names: &[String]) -> (bool, usize, usize) {
    let id = names.iter().any(|n| n == "jobid" || n == "jobidraw");
    let only = names
        .iter()
        .filter(|n| SACCT_ONLY.contains(&n.as_str()))
        .count();
    let common = names
        .iter()
        .filter(|n| SACCT_COMMON.contains(&n.as_str()))
        .count();
    (id, only, common)
}

/// A `sacct` header in the first content line (`sample`: the head's content lines, trimmed):
/// `Some(Ok)` to read it, `Some(Err)` when it looks like `sacct` but cannot be read (the
/// message says what to run), `None` when it is not `sacct` (the other readers take it).
/// With the format forced to [`Format::Slurm`], anything else is an error.
pub(crate) fn recognise(
    sample: &[&str],
    opts: &ParseOptions,
) -> Option<Result<SacctLayout, IngestError>> {
    let forced = opts.format == Some(Format::Slurm);
    let all_missing = || {
        Some(Err(IngestError::Sacct(SacctProblem::MissingColumns(
            SACCT_REQUIRED.iter().map(|c| c.to_string()).collect(),
        ))))
    };
    let Some(first) = sample.first() else {
        return forced.then(all_missing).flatten();
    };
    if first.contains('|') {
        let names = lower_names(first, true);
        let (id, only, common) = sacct_names(&names);
        let find = |n: &str| names.iter().position(|x| x == n);
        let tres = find("alloctres");
        let looks = id && (tres.is_some() || only >= 2 || (only >= 1 && common >= 2));
        if !looks {
            return forced.then(all_missing).flatten();
        }
        let idc = find("jobidraw").or_else(|| find("jobid"));
        let (start, end) = (find("start"), find("end"));
        let mut missing = Vec::new();
        for (name, col) in SACCT_REQUIRED.iter().zip([idc, start, end, tres]) {
            if col.is_none() {
                missing.push(*name);
            }
        }
        return match (idc, start, end, tres) {
            (Some(id), Some(start), Some(end), Some(tres)) => Some(Ok(SacctLayout {
                header_line: first.to_string(),
                names: first
                    .split('|')
                    .map(|s| super::excerpt(s.trim_matches('"')))
                    .collect(),
                id,
                start,
                end,
                tres,
                state: find("state"),
                teams: TEAM_COLUMNS.iter().filter_map(|n| find(n)).collect(),
            })),
            _ => Some(Err(IngestError::Sacct(SacctProblem::MissingColumns(
                missing.into_iter().map(str::to_string).collect(),
            )))),
        };
    }
    // `sacct` without `-P`: a header of sacct names over a line of dashes.
    let names = lower_names(first, false);
    let (id, only, common) = sacct_names(&names);
    let dashes = sample.get(1).is_some_and(|l| {
        l.contains("--") && l.bytes().all(|b| b == b'-' || b == b' ' || b == b'\t')
    });
    if id && (only >= 2 || (dashes && only + common >= 2)) {
        return Some(Err(IngestError::Sacct(SacctProblem::FixedWidth)));
    }
    forced.then(all_missing).flatten()
}

/// Ends of running jobs until the latest time is known.
const RUNNING: i64 = i64::MAX;
/// The type of a kept job whose GPUs name no type.
const NO_TYPE: u16 = u16::MAX;
/// The type of the marker that carries the hours of jobs without GPUs (counted nowhere).
const NO_GPU: u16 = u16::MAX - 1;

/// A step row kept until the end because its job's allocation row was not just before it.
#[derive(Debug)]
struct Orphan {
    key: u64,
    start: Option<i64>,
    end: Option<i64>,
    never_started: bool,
    total: f64,
    typed: Vec<(u16, f64)>,
    team: u32,
}

/// The reader's state between rows.
pub(crate) struct SacctRows {
    layout: SacctLayout,
    report: ParseReport,
    slurm: SlurmReport,
    zone: Zone,
    time_form: TimeForm,
    order: super::DateOrder,
    fields: Vec<(usize, usize)>,
    header_seen: bool,
    /// Kept jobs: (start ms, end ms or [`RUNNING`], GPUs) and each one's type.
    jobs: Vec<(i64, i64, f64)>,
    job_types: Vec<u16>,
    table: TypeTable,
    /// Hashes of the allocation rows' job ids, and of the last one.
    alloc: Vec<u64>,
    last_alloc: Option<u64>,
    orphans: Vec<Orphan>,
    /// Typed GPUs of the row being read.
    typed: Vec<(u16, f64)>,
    /// The latest time written in the file (ms).
    latest: Option<i64>,
    /// The hours covered by jobs without GPUs (start ms, end ms or [`RUNNING`]).
    no_gpu_span: Option<(i64, i64)>,
    style: Option<TimestampStyle>,
    naive: bool,
    time_example: Option<String>,
    /// The column that names the teams (the choice among `layout.teams`), the teams met and
    /// each kept job's team.
    team_col: Option<usize>,
    team_table: TeamTable,
    job_teams: Vec<u32>,
    /// Which of `layout.teams` is `team_col`.
    team_choice: Option<usize>,
}

/// FNV-1a of a job id (the part before a step's `.`).
fn id_hash(id: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in id.as_bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn no_time(c: &str) -> bool {
    c.is_empty()
        || c.eq_ignore_ascii_case("unknown")
        || c.eq_ignore_ascii_case("none")
        || c.eq_ignore_ascii_case("n/a")
}

impl SacctRows {
    pub(crate) fn new(layout: SacctLayout, opts: &ParseOptions) -> Self {
        let mut report = ParseReport::new(Format::Slurm, opts);
        report.delimiter = Delimiter::Pipe;
        report.has_header = true;
        let col = |c: usize| ValueColumn {
            field: c,
            name: layout.names.get(c).cloned().unwrap_or_default(),
        };
        report.timestamp_column = Some(col(layout.start));
        report.end_column = Some(col(layout.end));
        report.columns = vec![col(layout.tres)];
        report.used = ColumnUse::One(0);
        let slurm = SlurmReport {
            id_column: layout.names.get(layout.id).cloned().unwrap_or_default(),
            jobs: 0,
            gpu_jobs: 0,
            no_gpu_jobs: 0,
            steps_skipped: 0,
            steps_counted: 0,
            never_started: 0,
            running: 0,
            run_to: None,
            gpu_hours: 0.0,
            types: Vec::new(),
            untyped_jobs: 0,
        };
        let order = match opts.time_form {
            TimeForm::MonthFirst => super::DateOrder::MonthFirst,
            TimeForm::DayFirst => super::DateOrder::DayFirst,
            _ => opts.locale_date_order,
        };
        // Auto: `Account`, else `User` (never a partition or QOS).
        let auto = layout.teams.first().filter(|&&c| {
            layout.names.get(c).is_some_and(|n| {
                ["account", "user"]
                    .iter()
                    .any(|w| n.eq_ignore_ascii_case(w))
            })
        });
        let team_choice = pick(&opts.team, &team_choices(&layout), auto.map(|_| 0));
        Self {
            team_col: team_choice.and_then(|i| layout.teams.get(i).copied()),
            team_table: TeamTable::default(),
            job_teams: Vec::new(),
            team_choice,
            layout,
            report,
            slurm,
            zone: opts.zone(),
            time_form: opts.time_form,
            order,
            fields: Vec::with_capacity(16),
            header_seen: false,
            jobs: Vec::new(),
            job_types: Vec::new(),
            table: TypeTable::default(),
            alloc: Vec::new(),
            last_alloc: None,
            orphans: Vec::new(),
            typed: Vec::new(),
            latest: None,
            no_gpu_span: None,
            style: None,
            naive: false,
            time_example: None,
        }
    }

    /// One record (see `Rows::row` in the parser).
    pub(crate) fn row(
        &mut self,
        no: usize,
        l: &str,
        overflow: bool,
        no_quotes: bool,
        skipped: &mut usize,
    ) {
        let header = (
            Some(self.layout.header_line.as_str()),
            &mut self.header_seen,
        );
        let Some(t) = self.report.record(
            no,
            l,
            overflow,
            header,
            Delimiter::Pipe,
            no_quotes,
            &mut self.fields,
            skipped,
        ) else {
            return;
        };
        let read = self.read(t);
        self.report.count_row(no, t, read);
    }

    fn cell<'a>(&self, t: &'a str, col: usize) -> Result<(&'a str, (usize, usize)), RowError> {
        field_at(&self.fields, t, col)
    }

    /// A `Start` / `End` cell: `None` for `Unknown`, `None` or empty.
    fn time(&mut self, cell: &str, r: (usize, usize)) -> Result<Option<i64>, RowError> {
        let c = fast_trim(cell);
        if no_time(c) {
            return Ok(None);
        }
        let res = match self.time_form {
            TimeForm::Unix => parse_epoch(c),
            TimeForm::ExcelSerial => parse_excel(c, &self.zone),
            _ => {
                parse_datetime(c, &self.zone, self.order).or_else(|e| parse_epoch(c).map_err(|_| e))
            }
        };
        match res {
            Ok(ts) => {
                if self.style.is_none() {
                    self.style = Some(ts.style);
                    self.naive = ts.naive;
                    self.time_example = Some(super::excerpt(c));
                }
                Ok(Some(ts.ms))
            }
            Err(TsError::OutOfRange) => Err((RejectReason::TimestampOutOfRange, Some(r))),
            Err(_) => Err((RejectReason::BadTimestamp, Some(r))),
        }
    }

    /// `AllocTRES` → the untyped total and the typed counts (into `self.typed`).
    fn gpus(&mut self, tres: &str, r: (usize, usize)) -> Result<f64, RowError> {
        self.typed.clear();
        let mut total = 0.0;
        for item in tres.split(',') {
            let Some((key, val)) = item.split_once('=') else {
                continue;
            };
            let key = key.trim();
            let ty = match key.strip_prefix("gres/gpu") {
                Some("") => None,
                Some(rest) => match rest.strip_prefix(':') {
                    Some(name) if !name.trim().is_empty() => Some(name.trim()),
                    // `gres/gpumem`, `gres/gpuutil`, `gres/gpu:` : not GPU counts.
                    _ => continue,
                },
                None => continue,
            };
            let v = parse_number(val.trim()).map_err(|_| (RejectReason::NotANumber, Some(r)))?;
            if v < 0.0 {
                return Err((RejectReason::Negative, Some(r)));
            }
            if v > MAX_VALUE {
                return Err((RejectReason::TooLarge, Some(r)));
            }
            match ty {
                None => total += v,
                Some(name) => {
                    let t = self
                        .table
                        .intern(name)
                        .ok_or((RejectReason::TooManySeries, Some(r)))?;
                    match self.typed.iter_mut().find(|(x, _)| *x == t) {
                        Some(e) => e.1 += v,
                        None => self.typed.push((t, v)),
                    }
                }
            }
        }
        Ok(total)
    }

    fn read(&mut self, t: &str) -> Result<(), RowError> {
        let (id, ri) = self.cell(t, self.layout.id)?;
        let id = fast_trim(id);
        if id.is_empty() {
            return Err((RejectReason::MissingValue, Some(ri)));
        }
        let (base, step) = match id.find('.') {
            Some(i) => (&id[..i], true),
            None => (id, false),
        };
        let key = id_hash(base);
        let (sc, rs) = self.cell(t, self.layout.start)?;
        let (ec, re) = self.cell(t, self.layout.end)?;
        let (tc, rt) = self.cell(t, self.layout.tres)?;
        let pending = match self.layout.state {
            Some(c) => self
                .cell(t, c)
                .is_ok_and(|(s, _)| fast_trim(s).to_ascii_uppercase().starts_with("PENDING")),
            None => false,
        };
        let start = self.time(sc, rs)?;
        let end = self.time(ec, re)?;
        if let (Some(s), Some(e)) = (start, end) {
            if e < s {
                return Err((RejectReason::EndBeforeStart, Some((rs.0, re.1.max(rs.1)))));
            }
            if (e - s) / 3_600_000 > MAX_HOURS as i64 {
                return Err((RejectReason::JobTooLong, Some((rs.0, re.1.max(rs.1)))));
            }
        }
        let total = self.gpus(tc, rt)?;
        let team = match self.team_col {
            // A row too short for the column: no team written.
            Some(c) => match self.fields.get(c) {
                Some(&r) => self.team_table.intern_in(t, r),
                None => self.team_table.unallocated(),
            },
            None => NO_TEAM,
        };
        // The latest time written (by rows read, not rejected ones): where running jobs end.
        for t in [start, end].into_iter().flatten() {
            self.latest = Some(self.latest.map_or(t, |l| l.max(t)));
        }
        let never_started = pending || start.is_none();
        if step {
            if self.last_alloc == Some(key) {
                self.slurm.steps_skipped += 1;
            } else {
                self.orphans.push(Orphan {
                    key,
                    start,
                    end,
                    never_started,
                    total,
                    typed: self.typed.clone(),
                    team,
                });
            }
            return Ok(());
        }
        self.slurm.jobs += 1;
        self.alloc.push(key);
        self.last_alloc = Some(key);
        let typed = std::mem::take(&mut self.typed);
        self.add(start, end, never_started, total, &typed, team);
        self.typed = typed;
        Ok(())
    }

    /// Count a job (an allocation row, or a step counted as one).
    fn add(
        &mut self,
        start: Option<i64>,
        end: Option<i64>,
        never_started: bool,
        total: f64,
        typed: &[(u16, f64)],
        team: u32,
    ) {
        let Some(s) = start.filter(|_| !never_started) else {
            self.slurm.never_started += 1;
            return;
        };
        let e = match end {
            Some(e) => e,
            None => {
                self.slurm.running += 1;
                RUNNING
            }
        };
        let typed_sum: f64 = typed.iter().map(|x| x.1).sum();
        // The untyped total counts only what it has beyond the typed counts.
        let rest = (total - typed_sum).max(0.0);
        if typed_sum + rest <= 0.0 {
            self.slurm.no_gpu_jobs += 1;
            self.no_gpu_span = Some(match self.no_gpu_span {
                None => (s, e),
                Some((a, b)) => (a.min(s), b.max(e)),
            });
            return;
        }
        self.slurm.gpu_jobs += 1;
        for &(ty, g) in typed {
            if g > 0.0 {
                self.jobs.push((s, e, g));
                self.job_types.push(ty);
                if self.team_col.is_some() {
                    self.job_teams.push(team);
                }
            }
        }
        if rest > 0.0 {
            self.jobs.push((s, e, rest));
            self.job_types.push(NO_TYPE);
            if self.team_col.is_some() {
                self.job_teams.push(team);
            }
        }
    }

    pub(crate) fn finish(mut self, lines: usize, skipped: usize) -> ParseResult {
        // Steps whose job's allocation row came elsewhere in the file are skipped; the others
        // count as jobs.
        let orphans = std::mem::take(&mut self.orphans);
        if !orphans.is_empty() {
            self.alloc.sort_unstable();
            for o in orphans {
                if self.alloc.binary_search(&o.key).is_ok() {
                    self.slurm.steps_skipped += 1;
                } else {
                    self.slurm.steps_counted += 1;
                    self.add(o.start, o.end, o.never_started, o.total, &o.typed, o.team);
                }
            }
        }
        self.alloc = Vec::new();
        let latest = self.latest.unwrap_or(0);
        if self.slurm.running > 0 {
            self.slurm.run_to = Some(latest.div_euclid(1000));
        }
        for j in &mut self.jobs {
            if j.1 == RUNNING {
                j.1 = latest.max(j.0);
            }
        }
        if let Some((a, b)) = self.no_gpu_span {
            let b = if b == RUNNING { latest.max(a) } else { b };
            self.jobs.push((a, b, 0.0));
            self.job_types.push(NO_GPU);
            if self.team_col.is_some() {
                self.job_teams.push(NO_TEAM);
            }
        }
        self.slurm.gpu_hours = self
            .jobs
            .iter()
            .map(|&(s, e, g)| g * (e - s) as f64 / 3_600_000.0)
            .sum();
        let r = &mut self.report;
        r.lines = lines;
        r.lines_skipped = skipped;
        r.timestamp_style = self.style;
        r.naive_timestamps = self.naive;
        r.time_example = self.time_example.take();
        if self.jobs.is_empty() {
            if r.rows_read > 0 && self.slurm.never_started > 0 {
                return Err(IngestError::Sacct(SacctProblem::NoJobRan {
                    never_started: self.slurm.never_started,
                }));
            }
            r.slurm = Some(self.slurm);
            return Err(IngestError::NoUsableRows(Box::new(self.report)));
        }
        let zone = self.zone.clone();
        let off = zone.base_minutes;
        r.utc_offset_minutes = off;
        // GPU types: those named in AllocTRES, plus the untyped GPUs of a typed file.
        let any_typed = self.job_types.iter().any(|&t| t < NO_GPU);
        let mut types = Vec::new();
        // Each kept job's place in `types` (typed and not too many types).
        let mut job_pos: Option<(Vec<u8>, usize)> = None;
        let h = if any_typed {
            let untyped = if self.job_types.contains(&NO_TYPE) {
                self.table.intern(UNTYPED_LABEL)
            } else {
                None
            };
            let mut present = vec![false; self.table.len()];
            let mut per_type = vec![0usize; self.table.len()];
            for &t in &self.job_types {
                let t = if t == NO_TYPE { untyped } else { Some(t) };
                if let Some(t) = t.filter(|&t| usize::from(t) < present.len()) {
                    present[usize::from(t)] = true;
                }
            }
            r.type_source = Some(TypeSource::Column(ValueColumn {
                field: self.layout.tres,
                name: self
                    .layout
                    .names
                    .get(self.layout.tres)
                    .cloned()
                    .unwrap_or_default(),
            }));
            // Jobs per type: a job is one kept entry per type it holds.
            for &t in &self.job_types {
                let t = if t == NO_TYPE { untyped } else { Some(t) };
                if let Some(t) = t.filter(|&t| usize::from(t) < per_type.len()) {
                    per_type[usize::from(t)] += 1;
                }
            }
            self.slurm.untyped_jobs = self.job_types.iter().filter(|&&t| t == NO_TYPE).count();
            match self.table.select(&present) {
                Ok(order) => {
                    let pos = positions(&order, self.table.len());
                    self.slurm.types = order
                        .iter()
                        .map(|&t| {
                            let t = usize::from(t);
                            (self.table.labels[t].clone(), per_type[t])
                        })
                        .collect();
                    let jt: Vec<u8> = self
                        .job_types
                        .iter()
                        .map(|&t| {
                            let t = if t == NO_TYPE { untyped } else { Some(t) };
                            t.and_then(|t| pos.get(usize::from(t)).copied())
                                .unwrap_or(u8::MAX)
                        })
                        .collect();
                    let th = jobs_typed(&self.jobs, &jt, order.len(), off)?;
                    types = typed_series(
                        &self.table,
                        &order,
                        th.types,
                        Some(th.total.starts.as_slice()),
                        &zone,
                    );
                    job_pos = Some((jt, order.len()));
                    th.total
                }
                Err(too_many) => {
                    r.too_many_types = Some(too_many);
                    jobs(&self.jobs, off)?
                }
            }
        } else {
            jobs(&self.jobs, off)?
        };
        h.fill_report(r);
        r.slurm = Some(self.slurm);
        if h.values.is_empty() {
            return Err(IngestError::NoUsableRows(Box::new(self.report)));
        }
        let teams = match (self.team_choice, h.starts.first()) {
            (Some(i), Some(&first)) if self.job_teams.len() == self.jobs.len() => {
                let choices = team_choices(&self.layout);
                let k0 = super::hour_key(first * 1000, off);
                let series = from_jobs(
                    &self.jobs,
                    &self.job_teams,
                    job_pos.as_ref().map(|(jt, n)| (jt.as_slice(), *n)),
                    &self.team_table,
                    off,
                    (k0, h.values.len()),
                );
                Some(teams_of(choices[i].clone(), choices, series))
            }
            _ => None,
        };
        Ok(Parsed {
            teams,
            series: UsageSeries {
                values: h.values,
                timestamps: Some(h.starts),
                utc_offset_minutes: off,
                offset_changes: zone.changes,
            },
            report: self.report,
            types,
        })
    }
}

/// The columns of `layout` that can name the teams, as sources.
fn team_choices(layout: &SacctLayout) -> Vec<TeamSource> {
    layout
        .teams
        .iter()
        .map(|&c| TeamSource::Column(layout.names.get(c).cloned().unwrap_or_default()))
        .collect()
}

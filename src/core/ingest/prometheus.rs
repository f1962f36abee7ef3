//! Prometheus HTTP API responses (`/api/v1/query_range` matrix, `/api/v1/query` vector),
//! read by the metric they carry:
//!
//! - **values** (any other metric, or none): each series is GPUs, averaged per hour and
//!   summed (the reading before metrics were told apart);
//! - **DCGM utilisation** (`DCGM_FI_DEV_GPU_UTIL` in percent, `DCGM_FI_PROF_GR_ENGINE_ACTIVE`
//!   and `DCGM_FI_PROF_SM_ACTIVE` as ratios): one series per GPU; GPUs busy at a step = the
//!   series at or above the busy threshold there (a GPU without a sample at a step where
//!   another GPU has one is not busy there, and is counted in [`PromReport::absent`]); the
//!   hour is the mean of its steps' counts;
//! - **Kubernetes requests** (`kube_pod_container_resource_requests{resource="nvidia_com_gpu"}`,
//!   the older `kube_pod_container_resource_requests_nvidia_com_gpu`, or series without a
//!   name whose `resource` label is `nvidia_com_gpu`): summed per step; a pod without a
//!   sample at a step adds 0 there (pods come and go); the hour is the mean of its steps.
//!
//! The first series decides (or [`ParseOptions::prometheus`]); series of another metric
//! are left out and listed. The document is read by [`super::prom_stream`] in slices, never
//! as a whole tree; [`parse_prometheus_tree`] reads it through [`super::json`] into the same
//! [`Doc`] (the test oracle of the streaming reader).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher};

use super::json::{self, JsonValue};
use super::number::{parse_f64, parse_number, NumError, MAX_VALUE};
use super::resample::{hourly, hourly_typed, sort_and_collapse, Sample, Timeline};
use super::teams::{
    from_entries, pick, series_means, teams_of, Groups, TeamChoice, TeamSource, TeamTable, Teams,
    MAX_TEAM_CHOICES,
};
use super::timestamp::{MAX_MS, MIN_MS};
use super::types::{positions, typed_series, TypeSource, TypeTable, TYPE_LABELS};
use super::{
    excerpt, ColumnChoice, Delimiter, Format, IngestError, LeftOut, LeftOutReason, ParseOptions,
    ParseReport, ParseResult, Parsed, PromReading, PromReport, QueryAnswer, RejectReason,
    TimestampStyle, ValueColumn, MAX_LISTED_LEFT_OUT, MAX_SERIES,
};
use crate::core::answer::{is_rule_metric, MARKER_LABEL, MARKER_VALUE};
use crate::core::series::UsageSeries;

/// Which `result` array: the root's own or `data.result`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Which {
    Root = 0,
    Data = 1,
}

/// What a value of the document is, from its place and key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Skip,
    Root,
    Status,
    Error,
    ErrorType,
    Data,
    Result(Which),
    Series(Which),
    Metric,
    Label,
    Values,
    Vector(Which),
    Sample(Which),
    /// Element `n` of a sample pair (2: any later one).
    PairElem(u8),
    /// JSON rows ([`json::Rows`]): an element of the root array, or a root object after
    /// the first (newline-delimited rows).
    RowElem,
    /// A member of a row that names answer column `n` ([`json::ROW_COLUMNS`]).
    RowField(u8),
}

/// An element of a sample pair `[time, "value"]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Elem<'a> {
    Num(f64),
    Str(&'a str),
    Other,
}

/// A string value met under a key (its first occurrence).
#[derive(Debug, Clone, Default, PartialEq)]
enum Seen {
    #[default]
    No,
    Other,
    Str(String),
}

impl Seen {
    fn as_str(&self) -> Option<&str> {
        match self {
            Seen::Str(s) => Some(s),
            _ => None,
        }
    }
}

enum ResultState {
    Absent,
    NotArray,
    Array(Box<Collector>),
}

/// The document as read so far: the root keys that matter and the `result` arrays.
pub(crate) struct Doc {
    opts: ParseOptions,
    root_obj: bool,
    status: Seen,
    error: Seen,
    error_type: Seen,
    /// `None`: no `data` key; `Some(is an object)`.
    data: Option<bool>,
    data_result_seen: bool,
    root_result_seen: bool,
    results: [ResultState; 2],
}

impl Doc {
    pub fn new(opts: &ParseOptions) -> Self {
        Self {
            opts: opts.clone(),
            root_obj: false,
            status: Seen::No,
            error: Seen::No,
            error_type: Seen::No,
            data: None,
            data_result_seen: false,
            root_result_seen: false,
            results: [ResultState::Absent, ResultState::Absent],
        }
    }

    pub fn root_is_object(&mut self) {
        self.root_obj = true;
    }

    /// The slot of the value of root key `k` (the first of each key counts).
    pub fn root_key(&mut self, k: &str) -> Slot {
        let first = |s: &mut Seen| {
            if *s == Seen::No {
                *s = Seen::Other;
                true
            } else {
                false
            }
        };
        match k {
            "status" if first(&mut self.status) => Slot::Status,
            "error" if first(&mut self.error) => Slot::Error,
            "errorType" if first(&mut self.error_type) => Slot::ErrorType,
            "data" if self.data.is_none() => {
                self.data = Some(false);
                Slot::Data
            }
            "result" if !self.root_result_seen => {
                self.root_result_seen = true;
                // With a `data` key the root's own result is never read.
                if self.data.is_some() {
                    Slot::Skip
                } else {
                    Slot::Result(Which::Root)
                }
            }
            _ => Slot::Skip,
        }
    }

    pub fn data_is_object(&mut self) {
        self.data = Some(true);
    }

    pub fn data_key(&mut self, k: &str) -> Slot {
        if k == "result" && !self.data_result_seen {
            self.data_result_seen = true;
            Slot::Result(Which::Data)
        } else {
            Slot::Skip
        }
    }

    /// A string under `status`, `error` or `errorType`.
    pub fn root_string(&mut self, slot: Slot, s: &str) {
        let s = Seen::Str(s.chars().take(500).collect());
        match slot {
            Slot::Status => self.status = s,
            Slot::Error => self.error = s,
            Slot::ErrorType => self.error_type = s,
            _ => {}
        }
    }

    /// A `result` value: an array starts collecting its series.
    pub fn result(&mut self, w: Which, array: bool) {
        self.results[w as usize] = if array {
            ResultState::Array(Box::new(Collector::new(&self.opts)))
        } else {
            ResultState::NotArray
        };
    }

    pub fn collector(&mut self, w: Which) -> Option<&mut Collector> {
        match &mut self.results[w as usize] {
            ResultState::Array(c) => Some(c),
            _ => None,
        }
    }

    /// After the whole document was read (valid JSON): the series, or why not.
    pub fn finish(mut self, lines: usize) -> ParseResult {
        if self.root_obj && self.status.as_str() == Some("error") {
            let msg = self
                .error
                .as_str()
                .or(self.error_type.as_str())
                .unwrap_or("");
            return Err(IngestError::PrometheusError {
                message: msg.to_string(),
            });
        }
        let w = match self.data {
            Some(true) => Which::Data,
            Some(false) => return Err(IngestError::NotPrometheus),
            None if self.root_obj => Which::Root,
            None => return Err(IngestError::NotPrometheus),
        };
        match std::mem::replace(&mut self.results[w as usize], ResultState::Absent) {
            ResultState::Array(c) => c.finish(lines),
            _ => Err(IngestError::NotPrometheus),
        }
    }
}

/// Whether a value of `0..` is taken, in which order keys are first seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum ValuesKey {
    #[default]
    Unseen,
    NotArray,
    Array,
}

/// An instant vector's sample, or why it was rejected (line, reason, excerpt).
type VectorSample = Result<(i64, f64), (usize, RejectReason, String)>;

/// The series being read.
#[derive(Default)]
struct Cur {
    labels: Vec<(String, Option<String>)>,
    metric_seen: bool,
    values: ValuesKey,
    vector_seen: bool,
    /// `"value"` of an instant vector, used when the series has no `"values"`.
    vector: Option<VectorSample>,
    samples: Vec<(i64, f64)>,
}

/// What a series is, by its name and labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Util { ratio: bool },
    Requests,
    OtherResource,
    Other,
}

use super::meaning::{busy, is_gpu_id_label, threshold, UTIL_PERCENT, UTIL_RATIO};
const REQUESTS: &str = "kube_pod_container_resource_requests";
const REQUESTS_OLD: &str = "kube_pod_container_resource_requests_nvidia_com_gpu";
const GPU_RESOURCE: &str = "nvidia_com_gpu";

fn first_label<'a>(labels: &'a [(String, Option<String>)], name: &str) -> Option<&'a str> {
    labels.iter().find(|(k, _)| k == name)?.1.as_deref()
}

fn kind(name: &str, labels: &[(String, Option<String>)]) -> Kind {
    let resource = first_label(labels, "resource");
    if UTIL_PERCENT.contains(&name) {
        Kind::Util { ratio: false }
    } else if UTIL_RATIO.contains(&name) {
        Kind::Util { ratio: true }
    } else if name == REQUESTS_OLD {
        Kind::Requests
    } else if name == REQUESTS || name.is_empty() && resource.is_some() {
        if resource == Some(GPU_RESOURCE) {
            Kind::Requests
        } else if name.is_empty() {
            Kind::Other
        } else {
            Kind::OtherResource
        }
    } else {
        Kind::Other
    }
}

/// The series' label as the column picker shows it: `name{k="v",…}`, at most 200 chars.
fn column_label(labels: &[(String, Option<String>)]) -> String {
    let name = first_label(labels, "__name__").unwrap_or("");
    let mut s = name.to_string();
    let mut any = false;
    for (k, v) in labels.iter().filter(|(k, _)| k != "__name__") {
        s.push(if any { ',' } else { '{' });
        any = true;
        s.push_str(k);
        s.push_str("=\"");
        s.push_str(v.as_deref().unwrap_or(""));
        s.push('"');
        if s.len() > 800 {
            break;
        }
    }
    if any {
        s.push('}');
    }
    s.chars().take(200).collect()
}

/// How the collected series are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Values,
    Busy { ratio: bool },
    Requests,
}

fn mode_of(r: PromReading) -> Mode {
    match r {
        PromReading::Values => Mode::Values,
        PromReading::BusyPercent => Mode::Busy { ratio: false },
        PromReading::BusyRatio => Mode::Busy { ratio: true },
        PromReading::Requests => Mode::Requests,
    }
}

/// Per-step sums of the series counted (utilisation: GPUs busy; requests: GPUs requested),
/// per group of series with the same type labels. Memory: per step, not per sample.
#[derive(Default)]
struct Steps {
    ms: Vec<i64>,
    present: Vec<u32>,
    /// The first group seen at each step and its sum (`u16::MAX`: none yet).
    first: Vec<(u16, f64)>,
    /// Further groups: `step << 16 | group` → sum. A hasher without a random seed: the map
    /// is read in its own order, which is then the same for the same insertions (the
    /// streaming and the tree reader add a step's group sums alike, in every run).
    more: HashMap<u64, f64, BuildHasherDefault<DefaultHasher>>,
    index: HashMap<i64, u32>,
    /// Where the series being added is expected next (series share their steps).
    cursor: usize,
}

impl Steps {
    fn step(&mut self, ms: i64) -> usize {
        if self.ms.get(self.cursor) == Some(&ms) {
            self.cursor += 1;
            return self.cursor - 1;
        }
        let i = match self.index.get(&ms) {
            Some(&i) => i as usize,
            None => {
                let i = self.ms.len();
                self.ms.push(ms);
                self.present.push(0);
                self.first.push((u16::MAX, 0.0));
                self.index.insert(ms, i as u32);
                i
            }
        };
        self.cursor = i + 1;
        i
    }

    fn add(&mut self, i: usize, group: u16, v: f64) {
        self.present[i] += 1;
        let f = &mut self.first[i];
        if f.0 == group {
            f.1 += v;
        } else if f.0 == u16::MAX {
            *f = (group, v);
        } else {
            *self
                .more
                .entry((i as u64) << 16 | u64::from(group))
                .or_insert(0.0) += v;
        }
    }
}

/// The series of one `result` array, read as they come.
pub(crate) struct Collector {
    opts: ParseOptions,
    report: ParseReport,
    /// Series begun (at most [`MAX_SERIES`]).
    n: usize,
    cur: Cur,
    names: Vec<String>,
    /// Per series: the value of each of [`TYPE_LABELS`] (first occurrence, a string).
    type_vals: Vec<Vec<Option<String>>>,
    mode: Option<Mode>,
    by_name: bool,
    metric: String,
    looks_like_dcgm: bool,
    per_gpu_series: usize,
    // Values reading: every sample, as before.
    samples: Vec<Sample>,
    sorted: bool,
    last_key: (i64, u32),
    used_series: usize,
    // Utilisation and requests readings.
    steps: Steps,
    groups: Vec<Vec<Option<String>>>,
    group_index: HashMap<Vec<Option<String>>, u16>,
    /// The group of each series counted (with samples), in order.
    counted: Vec<u16>,
    duplicates: usize,
    left_out: Vec<LeftOut>,
    left_out_count: usize,
    /// The labels that can name the teams, and each series' values of them.
    teams: Option<TeamLabels>,
    /// The first series is the answer to the page's PromQL (`core::query::promql`): it
    /// carries the marker label `grp_answer="gpu_hours"` or a recording rule's name. Its
    /// values are GPUs per hour, read as values.
    answer: bool,
}

/// The labels the Auto choice of a team label looks for, by preference.
pub(crate) const TEAM_LABELS: [&str; 6] = [
    "namespace",
    "exported_namespace",
    "team",
    "project",
    "tenant",
    "account",
];

/// What the teams of a Prometheus answer need: the label names met (the choices), and per
/// series the values of the labels that may name its team.
struct TeamLabels {
    /// The labels looked at: [`TEAM_LABELS`] (Auto), or the one name chosen.
    wanted: Vec<String>,
    /// Per wanted label: the name as first written on a series, if any series has it.
    seen: Vec<Option<String>>,
    /// Label names met, but `__name__` (the first [`MAX_TEAM_CHOICES`] in sorted order).
    names: Vec<String>,
    /// Per series: its value of each wanted label.
    values: Vec<Vec<Option<String>>>,
}

impl TeamLabels {
    fn new(choice: &TeamChoice) -> Option<Self> {
        let wanted: Vec<String> = match choice {
            TeamChoice::Off => return None,
            TeamChoice::Auto => TEAM_LABELS.iter().map(|l| l.to_string()).collect(),
            TeamChoice::Named(n) => vec![n.trim().to_string()],
        };
        Some(Self {
            seen: vec![None; wanted.len()],
            wanted,
            names: Default::default(),
            values: Vec::new(),
        })
    }

    /// A series' labels: its values of the wanted labels, and the names met.
    fn series(&mut self, labels: &[(String, Option<String>)]) {
        let mut vals = vec![None; self.wanted.len()];
        for (k, v) in labels {
            if k == "__name__" {
                continue;
            }
            if let Err(at) = self.names.binary_search(k) {
                if at < MAX_TEAM_CHOICES {
                    self.names.insert(at, k.clone());
                    self.names.truncate(MAX_TEAM_CHOICES);
                }
            }
            for (w, (want, seen)) in self.wanted.iter().zip(&mut self.seen).enumerate() {
                if vals[w].is_none() && k.eq_ignore_ascii_case(want) {
                    seen.get_or_insert_with(|| k.clone());
                    vals[w] = Some(v.clone().unwrap_or_default());
                }
            }
        }
        self.values.push(vals);
    }

    /// The label chosen (its index among the wanted ones), its source and the choices.
    fn choose(&self, choice: &TeamChoice) -> Option<(usize, TeamSource, Vec<TeamSource>)> {
        let w = self.seen.iter().position(Option::is_some)?;
        let name = self.seen[w].clone()?;
        let mut names = self.names.clone();
        if let Err(at) = names.binary_search(&name) {
            if names.len() >= MAX_TEAM_CHOICES {
                names.pop();
            }
            names.insert(at.min(names.len()), name.clone());
        }
        let choices: Vec<TeamSource> = names.into_iter().map(TeamSource::Label).collect();
        let i = choices.iter().position(|c| c.name() == name);
        let i = pick(choice, &choices, i)?;
        Some((w, choices[i].clone(), choices))
    }

    /// The team of each series: its value of the chosen label (none: [`super::UNALLOCATED`]).
    fn table(&self, w: usize) -> (TeamTable, Vec<u32>) {
        // Interned in series order: the teams' first appearance.
        let mut table = TeamTable::default();
        let of_series = self
            .values
            .iter()
            .map(|v| match v.get(w).and_then(Option::as_deref) {
                Some(name) => table.intern(name),
                None => table.unallocated(),
            })
            .collect();
        (table, of_series)
    }
}

impl Collector {
    fn new(opts: &ParseOptions) -> Self {
        let mut report = ParseReport::new(Format::PrometheusJson, opts);
        report.delimiter = Delimiter::None;
        report.timestamp_style = Some(TimestampStyle::EpochSeconds);
        Self {
            opts: opts.clone(),
            report,
            n: 0,
            cur: Cur::default(),
            names: Vec::new(),
            type_vals: Vec::new(),
            mode: opts.prometheus.map(mode_of),
            by_name: opts.prometheus.is_none(),
            metric: String::new(),
            looks_like_dcgm: false,
            per_gpu_series: 0,
            samples: Vec::new(),
            sorted: true,
            last_key: (i64::MIN, 0),
            used_series: 0,
            steps: Steps::default(),
            groups: Vec::new(),
            group_index: HashMap::new(),
            counted: Vec::new(),
            duplicates: 0,
            left_out: Vec::new(),
            left_out_count: 0,
            teams: TeamLabels::new(&opts.team),
            answer: false,
        }
    }

    /// Series `n` begins; `false` past [`MAX_SERIES`] (it is not read).
    pub fn begin_series(&mut self) -> bool {
        if self.n >= MAX_SERIES {
            return false;
        }
        self.cur = Cur::default();
        self.steps.cursor = 0;
        true
    }

    /// The slot of the value of series key `k` (the first of each counts).
    pub fn series_key(&mut self, w: Which, k: &str) -> Slot {
        let c = &mut self.cur;
        match k {
            "metric" if !c.metric_seen => {
                c.metric_seen = true;
                Slot::Metric
            }
            "values" if c.values == ValuesKey::Unseen => {
                c.values = ValuesKey::NotArray;
                Slot::Values
            }
            "value" if !c.vector_seen => {
                c.vector_seen = true;
                Slot::Vector(w)
            }
            _ => Slot::Skip,
        }
    }

    pub fn label(&mut self, k: String, v: Option<&str>) {
        if self.cur.labels.len() < 4096 {
            self.cur.labels.push((k, v.map(str::to_string)));
        }
    }

    /// The series' `values` is an array.
    pub fn values_array(&mut self) {
        self.cur.values = ValuesKey::Array;
    }

    /// A sample of `values` (`n` elements; `n == usize::MAX`: not an array) at `line`.
    /// Rejected: its index in `report.rejected` when listed (the excerpt is set later).
    pub fn sample(&mut self, line: usize, n: usize, ts: Elem, val: Elem) -> Option<usize> {
        match eval(n, ts, val) {
            Ok(x) => {
                self.cur.samples.push(x);
                None
            }
            Err(r) => {
                let listed = self.report.rejected.len();
                self.report.reject(line, r, "");
                (self.report.rejected.len() > listed).then_some(listed)
            }
        }
    }

    pub fn set_excerpt(&mut self, i: usize, text: String) {
        if let Some(r) = self.report.rejected.get_mut(i) {
            r.excerpt = text;
        }
    }

    /// The series' `value` pair (an instant vector).
    pub fn vector(&mut self, line: usize, n: usize, ts: Elem, val: Elem, ex: String) {
        self.cur.vector = Some(eval(n, ts, val).map_err(|r| (line, r, ex)));
    }

    pub fn end_series(&mut self) {
        let i = self.n;
        self.n += 1;
        let mut cur = std::mem::take(&mut self.cur);
        if cur.values == ValuesKey::Unseen {
            match cur.vector.take() {
                Some(Ok(x)) => cur.samples.push(x),
                Some(Err((line, r, ex))) => {
                    let listed = self.report.rejected.len();
                    self.report.reject(line, r, "");
                    if self.report.rejected.len() > listed {
                        self.report.rejected[listed].excerpt = ex;
                    }
                }
                None => {}
            }
        }
        let labels = &cur.labels;
        self.names.push(column_label(labels));
        let tv: Vec<Option<String>> = TYPE_LABELS
            .iter()
            .map(|l| first_label(labels, l).map(str::to_string))
            .collect();
        if let Some(t) = &mut self.teams {
            t.series(labels);
        }
        let name = first_label(labels, "__name__").unwrap_or("");
        let k = kind(name, labels);
        if i == 0 {
            self.answer =
                first_label(labels, MARKER_LABEL) == Some(MARKER_VALUE) || is_rule_metric(name);
        }
        let answer = self.answer;
        let mode = *self.mode.get_or_insert_with(|| {
            self.metric = name.to_string();
            match k {
                _ if answer => Mode::Values,
                Kind::Util { ratio } => Mode::Busy { ratio },
                Kind::Requests | Kind::OtherResource => Mode::Requests,
                Kind::Other => Mode::Values,
            }
        });
        if i == 0 && !self.by_name {
            self.metric = name.to_string();
        }
        if i == 0 && mode == Mode::Values && name.is_empty() {
            self.looks_like_dcgm = first_label(labels, "modelName").is_some()
                && (first_label(labels, "UUID").is_some() || first_label(labels, "uuid").is_some());
        }
        let wanted = match self.opts.column {
            ColumnChoice::One(c) => c == i,
            _ => true,
        };
        match mode {
            Mode::Values => {
                if wanted
                    && !cur.samples.is_empty()
                    && labels.iter().any(|(k, _)| is_gpu_id_label(k))
                {
                    self.per_gpu_series += 1;
                }
                self.push_values(i, &cur.samples, wanted)
            }
            Mode::Busy { .. } | Mode::Requests => {
                let counts = !self.by_name
                    || match (mode, k) {
                        (Mode::Busy { .. }, Kind::Util { .. }) => name == self.metric,
                        (Mode::Requests, Kind::Requests) => true,
                        _ => false,
                    };
                if !counts {
                    self.left_out_count += 1;
                    if self.left_out.len() < MAX_LISTED_LEFT_OUT {
                        self.left_out.push(LeftOut {
                            series: i + 1,
                            name: excerpt(&self.names[i]),
                            reason: if k == Kind::OtherResource {
                                LeftOutReason::OtherResource
                            } else {
                                LeftOutReason::OtherMetric
                            },
                        });
                    }
                } else {
                    self.report.rows_read += cur.samples.len();
                    if wanted && !cur.samples.is_empty() {
                        // Series of one type (and one team) are summed per step together.
                        let mut key = tv.clone();
                        if let Some(t) = &self.teams {
                            key.extend(t.values[i].iter().cloned());
                        }
                        self.push_steps(mode, cur.samples, &key);
                    }
                }
            }
        }
        self.type_vals.push(tv);
    }

    /// Values reading: samples in file order, as the whole-tree reader took them.
    fn push_values(&mut self, i: usize, s: &[(i64, f64)], wanted: bool) {
        let mut last = i64::MIN;
        self.used_series += usize::from(wanted && !s.is_empty());
        for &(ms, v) in s {
            self.report.rows_read += 1;
            if !wanted {
                continue;
            }
            let key = (ms, i as u32);
            if key < self.last_key {
                self.sorted = false;
            }
            self.last_key = key;
            if ms < last {
                self.report.unsorted = true;
            }
            last = ms;
            self.samples.push(Sample {
                ms,
                col: i as u32,
                v,
            });
        }
    }

    /// Utilisation and requests: one series' samples into the per-step sums.
    fn push_steps(&mut self, mode: Mode, mut s: Vec<(i64, f64)>, tv: &[Option<String>]) {
        if s.windows(2).any(|w| w[1].0 < w[0].0) {
            self.report.unsorted = true;
            s.sort_by_key(|x| x.0);
        }
        // Duplicates (same time twice in one series): their mean.
        let mut w = 0;
        let mut i = 0;
        while i < s.len() {
            let (ms, mut sum) = s[i];
            let mut j = i + 1;
            while j < s.len() && s[j].0 == ms {
                sum += s[j].1;
                j += 1;
            }
            self.duplicates += j - i - 1;
            s[w] = (ms, sum / (j - i) as f64);
            w += 1;
            i = j;
        }
        s.truncate(w);
        let group = match self.group_index.get(tv) {
            Some(&g) => g,
            None => {
                let g = self.groups.len() as u16;
                self.groups.push(tv.to_vec());
                self.group_index.insert(tv.to_vec(), g);
                g
            }
        };
        let contrib = |v: f64| match mode {
            Mode::Busy { ratio } => busy(v, threshold(self.opts.busy_threshold_percent, ratio)),
            _ => v,
        };
        for (ms, v) in s {
            let k = self.steps.step(ms);
            self.steps.add(k, group, contrib(v));
        }
        self.counted.push(group);
    }

    fn prom_report(&self, series: usize) -> PromReport {
        let reading = match self.mode {
            Some(Mode::Busy { ratio: false }) => PromReading::BusyPercent,
            Some(Mode::Busy { ratio: true }) => PromReading::BusyRatio,
            Some(Mode::Requests) => PromReading::Requests,
            _ => PromReading::Values,
        };
        PromReport {
            reading,
            by_name: self.by_name,
            metric: self.metric.chars().take(100).collect(),
            series,
            series_per_type: Vec::new(),
            steps: 0,
            absent: 0,
            unaligned: false,
            left_out: self.left_out.clone(),
            left_out_count: self.left_out_count,
            looks_like_dcgm: self.looks_like_dcgm,
            per_gpu_series: self.per_gpu_series,
        }
    }

    fn finish(mut self, lines: usize) -> ParseResult {
        let mut report = std::mem::replace(
            &mut self.report,
            ParseReport::new(Format::PrometheusJson, &self.opts),
        );
        report.lines = lines;
        if self.answer {
            report.query_answer = Some(QueryAnswer::Prometheus);
        }
        report.columns = ValueColumn::series(&self.names);
        report.used = self.opts.column.for_series(report.columns.len().max(1))?;
        match self.mode {
            Some(Mode::Busy { .. }) | Some(Mode::Requests) => self.finish_steps(report),
            _ => self.finish_values(report),
        }
    }

    /// Values reading: each series averaged per hour, summed (per type when typed).
    fn finish_values(mut self, mut report: ParseReport) -> ParseResult {
        report.prometheus = Some(self.prom_report(self.used_series));
        let opts = &self.opts;
        let mut samples = std::mem::take(&mut self.samples);
        if samples.is_empty() {
            return Err(IngestError::NoUsableRows(Box::new(report)));
        }
        let type_label = type_label_of(self.type_vals.iter());
        if let Some(li) = type_label {
            let mut used = vec![false; self.type_vals.len()];
            for x in &samples {
                used[x.col as usize] = true;
            }
            if let Some((table, order, col_type)) =
                label_types(&mut report, &self.type_vals, &used, li)
            {
                let dups = sort_and_collapse(&mut samples, self.sorted);
                let off = opts.utc_offset_minutes;
                let h = hourly_typed(&samples[..], dups, &col_type, order.len(), off, opts.gaps)?;
                h.total.fill_report(&mut report);
                let teams =
                    self.values_teams(&samples, &h.total.timeline, Some(&col_type), order.len());
                let zone = opts.zone();
                let types = typed_series(&table, &order, h.types, Some(&h.total.starts), &zone);
                let series = hourly_series(opts, h.total.values, h.total.starts);
                return Ok(Parsed {
                    teams,
                    series,
                    report,
                    types,
                });
            }
        }
        let h = hourly(
            &mut samples,
            self.sorted,
            self.names.len(),
            opts.utc_offset_minutes,
            opts.gaps,
        )?;
        h.fill_report(&mut report);
        let teams = self.values_teams(&samples, &h.timeline, None, 0);
        Ok(Parsed {
            teams,
            series: hourly_series(opts, h.values, h.starts),
            report,
            types: Vec::new(),
        })
    }

    /// Utilisation and requests: the per-step sums, per type, then hours (the mean of
    /// each hour's steps).
    fn finish_steps(mut self, mut report: ParseReport) -> ParseResult {
        let mode = self.mode.unwrap_or(Mode::Requests);
        let mut prom = self.prom_report(self.counted.len());
        if let Mode::Busy { .. } = mode {
            report.busy_threshold_percent = Some(self.opts.busy_threshold_percent);
        }
        let steps = std::mem::take(&mut self.steps);
        let nsteps = steps.ms.len();
        prom.steps = nsteps;
        if nsteps == 0 {
            report.prometheus = Some(prom);
            return Err(IngestError::NoUsableRows(Box::new(report)));
        }
        let present: u64 = steps.present.iter().map(|&p| u64::from(p)).sum();
        let all = nsteps as u64 * self.counted.len() as u64;
        if let Mode::Busy { .. } = mode {
            prom.absent = all.saturating_sub(present);
        }
        // Raw samples at each series' own times: about one series per step.
        prom.unaligned = self.counted.len() >= 2 && present * 10 <= nsteps as u64 * 11;
        // Types: a type label every counted series carries.
        let mut group_type: Vec<u8> = vec![0; self.groups.len()];
        let mut typed = None;
        if let Some(li) = type_label_of(self.counted.iter().map(|&g| &self.groups[usize::from(g)]))
        {
            let mut used = vec![false; self.groups.len()];
            for &g in &self.counted {
                used[usize::from(g)] = true;
            }
            if let Some((table, order, set_type)) =
                label_types(&mut report, &self.groups, &used, li)
            {
                group_type = set_type;
                typed = Some((table, order));
            }
        }
        let ntypes = typed.as_ref().map_or(1, |(_, o)| o.len().max(1));
        let is_typed = typed.is_some();
        let type_of = |g: u16| {
            if is_typed {
                usize::from(group_type[usize::from(g)])
            } else {
                0
            }
        };
        let mut dense = vec![0.0f64; nsteps * ntypes];
        for (i, &(g, v)) in steps.first.iter().enumerate() {
            if g != u16::MAX {
                dense[i * ntypes + type_of(g).min(ntypes - 1)] += v;
            }
        }
        for (&key, &v) in &steps.more {
            let (i, g) = ((key >> 16) as usize, (key & 0xFFFF) as u16);
            if i < nsteps {
                dense[i * ntypes + type_of(g).min(ntypes - 1)] += v;
            }
        }
        let mut order: Vec<u32> = (0..nsteps as u32).collect();
        order.sort_unstable_by_key(|&i| steps.ms[i as usize]);
        let mut samples = Vec::with_capacity(nsteps * ntypes);
        for &i in &order {
            let i = i as usize;
            for t in 0..ntypes {
                samples.push(Sample {
                    ms: steps.ms[i],
                    col: t as u32,
                    v: dense[i * ntypes + t],
                });
            }
        }
        drop(dense);
        let col_type: Vec<u8> = (0..ntypes as u8).collect();
        let opts = &self.opts;
        let off = opts.utc_offset_minutes;
        let h = hourly_typed(
            &samples[..],
            self.duplicates,
            &col_type,
            ntypes,
            off,
            opts.gaps,
        )?;
        drop(samples);
        h.total.fill_report(&mut report);
        let ntyped = typed.as_ref().map_or(0, |(_, o)| o.len());
        let teams = self.steps_teams(&steps, &h.total.timeline, |g| type_of(g) as u8, ntyped);
        let zone = opts.zone();
        let types = match typed {
            Some((table, order)) => {
                let mut per = vec![0usize; order.len()];
                for &g in &self.counted {
                    if let Some(c) = per.get_mut(type_of(g)) {
                        *c += 1;
                    }
                }
                prom.series_per_type = per;
                typed_series(&table, &order, h.types, Some(&h.total.starts), &zone)
            }
            None => Vec::new(),
        };
        report.prometheus = Some(prom);
        Ok(Parsed {
            teams,
            series: hourly_series(opts, h.total.values, h.total.starts),
            report,
            types,
        })
    }
}

/// The hours read, `values` from the hours starting at `starts`, in the planning zone of `opts`.
fn hourly_series(opts: &ParseOptions, values: Vec<f64>, starts: Vec<i64>) -> UsageSeries {
    UsageSeries {
        values,
        timestamps: Some(starts),
        utc_offset_minutes: opts.utc_offset_minutes,
        offset_changes: opts.zone().changes,
    }
}

impl Collector {
    /// Values reading: the teams of the series read (`samples` as resampled, in (time, series)
    /// order; `col_type`: each series' type, typed).
    fn values_teams(
        &self,
        samples: &[Sample],
        tl: &Timeline,
        col_type: Option<&[u8]>,
        ntypes: usize,
    ) -> Option<Teams> {
        let t = self.teams.as_ref()?;
        let (w, source, choices) = t.choose(&self.opts.team)?;
        let (table, of_series) = t.table(w);
        let mut groups = Groups::new(table.len(), ntypes);
        let group_of: Vec<u32> = of_series
            .iter()
            .enumerate()
            .map(|(i, &team)| match col_type {
                Some(ct) => groups.of(team, ct.get(i).copied().unwrap_or(u8::MAX)),
                None => groups.of(team, 0),
            })
            .collect();
        let mut entries = Vec::new();
        series_means(samples, tl, &group_of, &mut entries);
        let series = from_entries(&entries, tl, &groups.list, ntypes, &table);
        Some(teams_of(source, choices, series))
    }

    /// Utilisation and requests: the teams from the per-step sums of each group of series
    /// (a group: one type and one team); an hour holds the mean of its steps, as the series.
    fn steps_teams(
        &self,
        steps: &Steps,
        tl: &Timeline,
        type_of: impl Fn(u16) -> u8,
        ntypes: usize,
    ) -> Option<Teams> {
        let t = self.teams.as_ref()?;
        let (w, source, choices) = t.choose(&self.opts.team)?;
        let (mut table, _) = t.table(w);
        let at = TYPE_LABELS.len() + w;
        let teams: Vec<u32> = self
            .groups
            .iter()
            .map(|key| match key.get(at).and_then(Option::as_deref) {
                Some(name) => table.intern(name),
                None => table.unallocated(),
            })
            .collect();
        let mut groups = Groups::new(table.len(), ntypes);
        let group_of: Vec<u32> = teams
            .iter()
            .enumerate()
            .map(|(g, &team)| groups.of(team, if ntypes > 0 { type_of(g as u16) } else { 0 }))
            .collect();
        // Each step's hour, and the steps per hour.
        let src: Vec<Option<usize>> = steps.ms.iter().map(|&ms| tl.index_of(ms)).collect();
        let mut per_hour = vec![0u32; tl.keys.len()];
        for s in src.iter().flatten() {
            per_hour[*s] += 1;
        }
        let mut entries: Vec<(u32, u32, f64)> = Vec::new();
        let mut push = |i: usize, g: u16, v: f64| {
            if let (Some(Some(s)), Some(&gr)) = (src.get(i), group_of.get(usize::from(g))) {
                let n = f64::from(per_hour[*s].max(1));
                entries.push((*s as u32, gr, v / n));
            }
        };
        for (i, &(g, v)) in steps.first.iter().enumerate() {
            if g != u16::MAX {
                push(i, g, v);
            }
        }
        for (&key, &v) in &steps.more {
            push((key >> 16) as usize, (key & 0xFFFF) as u16, v);
        }
        let series = from_entries(&entries, tl, &groups.list, ntypes, &table);
        Some(teams_of(source, choices, series))
    }
}

/// The types the label `li` names in the label sets (the series', or the groups') that
/// `used` marks: their table, the chosen order and each set's place in it (`u8::MAX`: a type
/// left out); `None` with too many types (the report says so). The report says where the
/// types came from.
fn label_types(
    report: &mut ParseReport,
    sets: &[Vec<Option<String>>],
    used: &[bool],
    li: usize,
) -> Option<(TypeTable, Vec<u16>, Vec<u8>)> {
    report.type_source = Some(TypeSource::Label(TYPE_LABELS[li].to_string()));
    let mut table = TypeTable::default();
    let sub: Vec<u16> = sets
        .iter()
        .map(|tv| table.intern(tv[li].as_deref().unwrap_or("")).unwrap_or(0))
        .collect();
    let mut present = vec![false; table.len()];
    for (&t, _) in sub.iter().zip(used).filter(|(_, &u)| u) {
        present[usize::from(t)] = true;
    }
    match table.select(&present) {
        Ok(order) => {
            let pos = positions(&order, table.len());
            let set_type = sub.iter().map(|&t| pos[usize::from(t)]).collect();
            Some((table, order, set_type))
        }
        Err(too_many) => {
            report.too_many_types = Some(too_many);
            None
        }
    }
}

/// The first of [`TYPE_LABELS`] that every series carries (non-empty).
fn type_label_of<'a>(
    series: impl Iterator<Item = &'a Vec<Option<String>>> + Clone,
) -> Option<usize> {
    (0..TYPE_LABELS.len()).find(|&li| {
        series
            .clone()
            .all(|tv| tv[li].as_deref().is_some_and(|v| !v.trim().is_empty()))
    })
}

/// The metric of a Prometheus `/metrics` scrape (text exposition format): a
/// `# TYPE name gauge` line or a sample line `name{label="…",…} value` among `lines`.
pub(crate) fn scrape_metric<'a>(lines: impl Iterator<Item = &'a str>) -> Option<String> {
    let ident = |s: &str| {
        let n = s
            .bytes()
            .take_while(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b':')
            .count();
        let ok = s.bytes().next().is_some_and(|c| !c.is_ascii_digit());
        if ok {
            n
        } else {
            0
        }
    };
    for l in lines {
        let l = l.trim();
        if let Some(rest) = l.strip_prefix("# TYPE ") {
            let mut w = rest.split_ascii_whitespace();
            if let (Some(name), Some(kind)) = (w.next(), w.next()) {
                let kinds = ["gauge", "counter", "histogram", "summary", "untyped"];
                if ident(name) == name.len() && kinds.contains(&kind) {
                    return Some(excerpt(name));
                }
            }
            continue;
        }
        let n = ident(l);
        if n == 0 || l.as_bytes().get(n) != Some(&b'{') {
            continue;
        }
        let inner = &l[n + 1..];
        let k = ident(inner);
        if k > 0 && inner[k..].starts_with("=\"") {
            return Some(excerpt(&l[..n]));
        }
    }
    None
}

/// A sample pair `[time, "value"]` (`n` elements) → (ms, value), or why not.
pub(crate) fn eval(n: usize, ts: Elem, val: Elem) -> Result<(i64, f64), RejectReason> {
    if n != 2 {
        return Err(RejectReason::BadSample);
    }
    let ms = match ts {
        Elem::Num(t) => (t * 1000.0).floor(),
        Elem::Str(t) => parse_f64(t.trim())
            .map(|t| (t * 1000.0).floor())
            .unwrap_or(f64::NAN),
        Elem::Other => f64::NAN,
    };
    if !ms.is_finite() {
        return Err(RejectReason::BadTimestamp);
    }
    if !(MIN_MS as f64..MAX_MS as f64).contains(&ms) {
        return Err(RejectReason::TimestampOutOfRange);
    }
    let v = match val {
        Elem::Str(v) => parse_number(v).map_err(|e| match e {
            NumError::NotFinite => RejectReason::NotFinite,
            NumError::Empty => RejectReason::MissingValue,
            NumError::NotANumber => RejectReason::NotANumber,
        })?,
        Elem::Num(v) => v,
        Elem::Other => return Err(RejectReason::BadSample),
    };
    if v < 0.0 {
        return Err(RejectReason::Negative);
    }
    if v > MAX_VALUE {
        return Err(RejectReason::TooLarge);
    }
    Ok((ms as i64, v))
}

// ---------------------------------------------------------------------------------------
// The whole-tree reader: the same document, parsed into a tree first (the oracle the
// streaming reader is tested against; the page uses the streaming reader).

/// Maps increasing byte offsets to 1-based line numbers in one pass.
struct Lines<'a> {
    b: &'a [u8],
    pos: usize,
    line: usize,
}

impl Lines<'_> {
    fn at(&mut self, at: usize) -> usize {
        let at = at.min(self.b.len());
        if at < self.pos {
            self.pos = 0;
            self.line = 1;
        }
        self.line += self.b[self.pos..at].iter().filter(|&&c| c == b'\n').count();
        self.pos = at;
        self.line
    }
}

fn elem(v: &JsonValue) -> Elem<'_> {
    match v {
        JsonValue::Num(x) => Elem::Num(*x),
        JsonValue::Str(s) => Elem::Str(s),
        _ => Elem::Other,
    }
}

fn pair(v: &JsonValue) -> (usize, Elem<'_>, Elem<'_>) {
    match v {
        JsonValue::Arr(p) => (
            p.len(),
            p.first().map_or(Elem::Other, |x| elem(&x.1)),
            p.get(1).map_or(Elem::Other, |x| elem(&x.1)),
        ),
        _ => (usize::MAX, Elem::Other, Elem::Other),
    }
}

/// Read a Prometheus response through a whole JSON tree (the test oracle of the page's
/// streaming reader: both give the same result on every text).
#[doc(hidden)]
pub fn parse_prometheus_tree(text: &str, opts: &ParseOptions) -> ParseResult {
    let mut lines = Lines {
        b: text.as_bytes(),
        pos: 0,
        line: 1,
    };
    let values = json::parse_values(text, |first| {
        let mut rows = json::Rows::default();
        rows.value(first, true);
        rows.more_objects()
    })
    .map_err(|e| IngestError::InvalidJson {
        line: lines.at(e.at),
    })?;
    let mut doc = Doc::new(opts);
    let mut rows = json::Rows::default();
    for (i, v) in values.iter().enumerate() {
        rows.value(v, i == 0);
    }
    if let JsonValue::Obj(kv) = &values[0] {
        doc.root_is_object();
        for (k, _, v) in kv {
            let slot = doc.root_key(k);
            tree_value(&mut doc, slot, v, text, &mut lines);
        }
    }
    super::guard::finish(finish_doc(doc, rows, opts, text.lines().count()))
}

/// The document read: a Prometheus response, or else the JSON rows of an answer to the
/// page's SQL (only where the document is not a Prometheus response at all).
pub(crate) fn finish_doc(
    doc: Doc,
    rows: json::Rows,
    opts: &ParseOptions,
    lines: usize,
) -> ParseResult {
    match doc.finish(lines) {
        Err(IngestError::NotPrometheus) => rows
            .read(opts, lines)
            .unwrap_or(Err(IngestError::NotPrometheus)),
        other => other,
    }
}

fn tree_value(doc: &mut Doc, slot: Slot, v: &JsonValue, text: &str, lines: &mut Lines) {
    match slot {
        Slot::Status | Slot::Error | Slot::ErrorType => {
            if let JsonValue::Str(s) = v {
                doc.root_string(slot, s);
            }
        }
        Slot::Data => {
            if let JsonValue::Obj(kv) = v {
                doc.data_is_object();
                for (k, _, v) in kv {
                    let slot = doc.data_key(k);
                    tree_value(doc, slot, v, text, lines);
                }
            }
        }
        Slot::Result(w) => {
            doc.result(w, matches!(v, JsonValue::Arr(_)));
            let (JsonValue::Arr(items), Some(c)) = (v, doc.collector(w)) else {
                return;
            };
            for (_, s) in items {
                if !c.begin_series() {
                    break;
                }
                if let JsonValue::Obj(kv) = s {
                    for (k, at, v) in kv {
                        match c.series_key(w, k) {
                            Slot::Metric => {
                                if let JsonValue::Obj(labels) = v {
                                    for (lk, _, lv) in labels {
                                        c.label(lk.clone(), lv.as_str());
                                    }
                                }
                            }
                            Slot::Values => {
                                if let JsonValue::Arr(ps) = v {
                                    c.values_array();
                                    for (at, p) in ps {
                                        let (n, ts, val) = pair(p);
                                        let line = lines.at(*at);
                                        if let Some(i) = c.sample(line, n, ts, val) {
                                            c.set_excerpt(i, excerpt_at(text, *at));
                                        }
                                    }
                                }
                            }
                            Slot::Vector(_) => {
                                if let JsonValue::Arr(_) = v {
                                    let (n, ts, val) = pair(v);
                                    let line = lines.at(*at);
                                    c.vector(line, n, ts, val, excerpt_at(text, *at));
                                }
                            }
                            _ => {}
                        }
                    }
                }
                c.end_series();
            }
        }
        _ => {}
    }
}

/// The JSON text at a byte offset (up to the end of its array element), char-safe.
fn excerpt_at(text: &str, at: usize) -> String {
    let mut a = at.min(text.len());
    while !text.is_char_boundary(a) {
        a -= 1;
    }
    let rest = &text[a..];
    let end = rest.find(']').map_or(rest.len(), |i| i + 1);
    excerpt(&rest[..end])
}

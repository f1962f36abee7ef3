//! The usage history in a link: a compact binary series → raw deflate → base64url,
//! carried in the `data` parameter. Pure, natively tested; schema in `docs/url.md`.
//!
//! Series format 1 (all integers LEB128 varints; signed ones zigzag-encoded):
//! ```text
//! byte    format = 1
//! byte    flags: bit 0 = timestamps, bit 1 = histogram (values sorted, stored as deltas)
//! varint  n, the number of hours (1 ..= MAX_HOURS)
//! zigzag  utc offset of the planning time zone, minutes
//! zigzag  [timestamps] first local hour: (unix seconds + offset·60) / 3600
//! n×varint values in milli-GPU, round(value × 1000) (histogram: differences, ascending)
//! (n−1)×varint [timestamps] hours from the previous hour (1 = consecutive, > 1 = a gap)
//! ```
//! Series format 2 carries a typed history (a mixed fleet, two to eight GPU types) in the
//! same frame, the total being the sum of the types:
//! ```text
//! byte    format = 2
//! byte    flags: bit 0 = timestamps (no histogram)
//! varint  n, the number of hours        zigzag offset      zigzag [timestamps] first hour
//! varint  k, the number of types (2 ..= 8)
//! k×      varint byte length (1 ..= 160), the type's label as written, UTF-8
//! k×n×    varint values in milli-GPU, type by type (all hours of type 1, then type 2 …)
//! (n−1)×varint [timestamps] hours from the previous hour
//! ```
//! Series format 3 carries who used the GPUs (issue 37): the teams, each team's hourly
//! values (per type it used, in a typed history), the types and the total being their sums.
//! Timestamps are required (a history without them travels as format 1 or 2, its teams
//! left out: [`teams_left_out`]):
//! ```text
//! byte    format = 3
//! byte    flags: bit 0 = timestamps (required; no histogram)
//! varint  n, the number of hours        zigzag offset      zigzag first hour
//! varint  k, the number of types (0 = untyped, else 2 ..= 8)
//! k×      varint byte length (1 ..= 160), the type's label as written, UTF-8
//! varint  m, the number of teams (1 ..= MAX_TEAMS, `UNALLOCATED` and `OTHER_TEAMS` among them)
//! m×      varint byte length (1 ..= 160), the team's name, UTF-8;
//!         [k > 0] byte: the types the team used, bit j = type j (not 0)
//! per team, per type it used (k = 0: once): n×varint values in milli-GPU
//! (n−1)×varint hours from the previous hour
//! ```
//! Quantisation to 0.001 GPU is the one lossy step, so the page analyses
//! [`quantize_parsed`] histories: what a link carries is exactly what was planned from.

use std::fmt::Write as _;

use crate::core::ingest::{normalize_type, Parsed, MAX_HOURS, MAX_TEAMS, MAX_TYPES, UNALLOCATED};
use crate::core::profile::Lookback;
use crate::core::series::UsageSeries;

/// The newest series format this build writes and reads (1: one series; 2: typed; 3: with
/// teams).
pub const SERIES_FORMAT: u8 = 3;
const FORMAT_ONE: u8 = 1;
const FORMAT_TYPED: u8 = 2;
const FORMAT_TEAMS: u8 = 3;
/// Longest type label or team name read, in bytes (40 characters of up to 4 bytes).
const MAX_LABEL_BYTES: u64 = 160;
/// Longest type label or team name kept, in characters (as `core::ingest` keeps them).
const MAX_LABEL_CHARS: usize = 40;
/// Most values a history with teams carries (teams × the types each used × hours): as many
/// as the largest typed history (8 types, 10 years), e.g. 256 teams for 114 days, 30 for a
/// year. A larger history travels without its teams ([`teams_left_out`]).
pub const MAX_TEAM_CELLS: usize = MAX_TYPES * MAX_HOURS;
const FLAG_TIMESTAMPS: u8 = 1;
const FLAG_HISTOGRAM: u8 = 2;
/// Longest `data` value read (characters of base64url).
pub const MAX_DATA_CHARS: usize = 4 * 1024 * 1024;
/// Largest inflated series read (bytes): the labels and team names (with their type bytes),
/// at most `MAX_TYPES` values per hour (types, or teams × types: [`MAX_TEAM_CELLS`]) and n
/// deltas, of at most 10 bytes each (about 7.9 MB).
const MAX_INFLATED_BYTES: usize =
    32 + MAX_TYPES * 162 + MAX_TEAMS * 163 + MAX_HOURS * (MAX_TYPES + 1) * 10;
/// Largest value read: 10⁹ GPUs (what the parser accepts), in milli-GPU.
const MAX_MILLI: u64 = 1_000_000_000_000;
/// Largest planning-time-zone offset read (±18 h).
const MAX_OFFSET_MINUTES: i64 = 18 * 60;
/// 1990-01-01 and 2100-01-01 (UTC): the timestamps the parser accepts.
const MIN_UNIX: i64 = 631_152_000;
const END_UNIX: i64 = 4_102_444_800;

/// Why a `data` value could not be read. The UI names these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HistoryError {
    /// Characters outside base64url, or an impossible length (a cut link).
    NotBase64,
    /// The deflate stream is damaged or cut short.
    NotDeflate,
    /// The data inflates to more than a 10-year hourly series.
    TooLarge,
    /// A series format newer than this build.
    NewerFormat(u8),
    /// The series is malformed (bad varint, unknown flag, trailing bytes…).
    Malformed,
    /// No hours, or more than 10 years of them.
    BadLength,
    /// A value above 10⁹ GPUs.
    ValueTooLarge,
    /// Timestamps before 1990, after 2099, or a time-zone offset beyond ±18 h.
    OutOfRange,
}

impl HistoryError {
    /// Short English description (tests, logs); the page translates the variants.
    pub fn key(self) -> &'static str {
        match self {
            HistoryError::NotBase64 => "not-base64",
            HistoryError::NotDeflate => "damaged",
            HistoryError::TooLarge => "too-large",
            HistoryError::NewerFormat(_) => "newer-format",
            HistoryError::Malformed => "malformed",
            HistoryError::BadLength => "bad-length",
            HistoryError::ValueTooLarge => "value-too-large",
            HistoryError::OutOfRange => "out-of-range",
        }
    }
}

/// A history read from a link.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkHistory {
    /// The hours (timestamps, zone) and, for a typed history, the sum of the types.
    pub series: UsageSeries,
    /// Only the load-duration histogram travelled: values sorted ascending, no time order.
    pub histogram: bool,
    /// A typed history's GPU types (two or more, on the hours of `series`); empty: one series.
    pub types: Vec<LinkType>,
    /// Who used the GPUs (series format 3), on the hours of `series`; empty: no teams (or
    /// left out). With teams, the types are the sums of the teams' `by_type` and the total
    /// the sum of the types (untyped: of the teams), rounded as [`quantize_parsed`] rounds.
    pub teams: Vec<LinkTeam>,
}

/// One team of a history in a link.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkTeam {
    /// The team's name as the link writes it (cleaned as a type label; at most 40
    /// characters). `core::ingest::UNALLOCATED` and `OTHER_TEAMS` are names like any other.
    pub name: String,
    /// GPUs busy per hour (quantised), on the hours of [`LinkHistory::series`]; in a typed
    /// history the rounded sum of `by_type`.
    pub values: Vec<f64>,
    /// A typed history: the team's GPUs busy per hour of each type (index as in
    /// [`LinkHistory::types`]), empty for a type the team never used. Empty: untyped.
    pub by_type: Vec<Vec<f64>>,
}

/// One GPU type of a typed history in a link.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkType {
    /// The type as first written in the history (at most 40 characters).
    pub label: String,
    /// GPUs busy per hour (quantised), on the hours of [`LinkHistory::series`].
    pub values: Vec<f64>,
}

impl LinkHistory {
    /// One series (format 1).
    pub fn one(series: UsageSeries, histogram: bool) -> Self {
        Self {
            series,
            histogram,
            types: Vec::new(),
            teams: Vec::new(),
        }
    }
}

/// Round a parsed history to 0.001 GPU in place, as a link carries it: each type, and the
/// total as the rounded sum of the rounded types (in their order, as the parser sums them),
/// so that the text a link reopens as ([`history_to_csv`]) parses back to the same values.
/// With teams (their shapes consistent with the history), each team's cells (per type when
/// typed) are rounded, every type becomes the rounded sum of the teams' cells of that type
/// (in the teams' order), a typed team's `values` the rounded sum of its types, and the
/// total the rounded sum of the types (untyped: of the teams).
/// The page does this once per parse; everything is planned from the result.
pub fn quantize_parsed(parsed: &mut Parsed) {
    if teams_fit(parsed) {
        quantize_teams(parsed);
        return;
    }
    if parsed.types.is_empty() {
        for v in &mut parsed.series.values {
            *v = quantize_value(*v);
        }
        return;
    }
    for t in &mut parsed.types {
        for v in &mut t.series.values {
            *v = quantize_value(*v);
        }
    }
    for (i, v) in parsed.series.values.iter_mut().enumerate() {
        let sum: f64 = parsed
            .types
            .iter()
            .map(|t| t.series.values.get(i).copied().unwrap_or(0.0))
            .sum();
        *v = quantize_value(sum);
    }
}

/// Whether the parsed teams are on the history's hours and add up to its types: 1 ..=
/// `MAX_TEAMS` teams (the reader's limit, [`UNALLOCATED`] and `OTHER_TEAMS` among them),
/// each with a value per hour; untyped (or one type), no `by_type` needed; typed, one
/// `by_type` entry per type, each empty or a value per hour, every team using a type and
/// every type used by a team.
fn teams_fit(parsed: &Parsed) -> bool {
    let Some(teams) = &parsed.teams else {
        return false;
    };
    let n = parsed.series.values.len();
    let k = parsed.types.len();
    if teams.teams.is_empty()
        || teams.teams.len() > MAX_TEAMS
        || parsed.types.iter().any(|t| t.series.values.len() != n)
    {
        return false;
    }
    let untyped = teams.teams.iter().all(|t| t.by_type.is_empty());
    if untyped {
        // One type (or none): the teams' values are that type's.
        return k <= 1 && teams.teams.iter().all(|t| t.values.len() == n);
    }
    let shapes = teams.teams.iter().all(|t| {
        t.values.len() == n
            && if k == 0 {
                false
            } else {
                t.by_type.len() == k
                    && t.by_type.iter().all(|c| c.is_empty() || c.len() == n)
                    && t.by_type.iter().any(|c| !c.is_empty())
            }
    });
    shapes && (0..k).all(|j| teams.teams.iter().any(|t| !t.by_type[j].is_empty()))
}

/// [`quantize_parsed`] of a history whose teams fit it ([`teams_fit`]).
fn quantize_teams(parsed: &mut Parsed) {
    let Some(teams) = &mut parsed.teams else {
        return;
    };
    let teams = &mut teams.teams;
    if teams.iter().all(|t| t.by_type.is_empty()) {
        for t in teams.iter_mut() {
            for v in &mut t.values {
                *v = quantize_value(*v);
            }
        }
        for (i, v) in parsed.series.values.iter_mut().enumerate() {
            *v = quantize_value(teams.iter().map(|t| t.values[i]).sum());
        }
        // One type: it is the total.
        for t in &mut parsed.types {
            t.series.values.clone_from(&parsed.series.values);
        }
        return;
    }
    for t in teams.iter_mut() {
        for cells in &mut t.by_type {
            for v in cells.iter_mut() {
                *v = quantize_value(*v);
            }
        }
        for (i, v) in t.values.iter_mut().enumerate() {
            *v = quantize_value(t.by_type.iter().filter_map(|c| c.get(i)).sum());
        }
    }
    for (j, ty) in parsed.types.iter_mut().enumerate() {
        for (i, v) in ty.series.values.iter_mut().enumerate() {
            *v = quantize_value(teams.iter().filter_map(|t| t.by_type[j].get(i)).sum());
        }
    }
    for (i, v) in parsed.series.values.iter_mut().enumerate() {
        *v = quantize_value(parsed.types.iter().map(|t| t.series.values[i]).sum());
    }
}

/// What a link carries of a parsed ([`quantize_parsed`]) history: its types when there are
/// two or more (one type is the total), else the series; its teams when it has timestamps
/// and series format 3 can carry them ([`teams_left_out`]).
pub fn link_history(parsed: &Parsed) -> LinkHistory {
    let n = parsed.series.values.len();
    let typed = parsed.types.len() >= 2 && parsed.types.iter().all(|t| t.series.len() == n);
    let mut history = LinkHistory {
        series: parsed.series.clone(),
        histogram: false,
        types: if typed {
            parsed
                .types
                .iter()
                .map(|t| LinkType {
                    label: t.label.clone(),
                    values: t.series.values.clone(),
                })
                .collect()
        } else {
            Vec::new()
        },
        teams: Vec::new(),
    };
    if let Some(teams) = parsed.teams.as_ref().filter(|_| teams_fit(parsed)) {
        let teams: Vec<LinkTeam> = teams
            .teams
            .iter()
            .map(|t| LinkTeam {
                name: clean_label(&t.name),
                values: t.values.clone(),
                by_type: if typed { t.by_type.clone() } else { Vec::new() },
            })
            .collect();
        if teams_carried(&history.series, &history.types, &teams) {
            history.teams = teams;
        }
    }
    history
}

/// Whether a link leaves out the teams of a parsed history (the page says so): a history
/// without timestamps, one whose teams do not add up to it, or more than series format 3
/// carries (more than `MAX_TEAMS` teams or [`MAX_TEAM_CELLS`] values, two names that
/// clean to the same).
pub fn teams_left_out(parsed: &Parsed) -> bool {
    parsed.teams.is_some() && link_history(parsed).teams.is_empty()
}

/// Whether series format 3 carries these teams: timestamps, 1 ..= `MAX_TEAMS` teams with
/// distinct clean names, each with a value per hour; untyped (no types, no `by_type`) or
/// typed (2 ..= 8 types, each team's `by_type` one entry per type, empty or a value per
/// hour, each team using a type, each type used); at most [`MAX_TEAM_CELLS`] values.
fn teams_carried(series: &UsageSeries, types: &[LinkType], teams: &[LinkTeam]) -> bool {
    let n = series.values.len();
    let k = types.len();
    let has_times = series.timestamps.as_ref().is_some_and(|t| t.len() == n) && n > 0;
    if !has_times
        || !(1..=MAX_TEAMS).contains(&teams.len())
        || !(k == 0 || (2..=MAX_TYPES).contains(&k))
        || types.iter().any(|t| t.values.len() != n)
    {
        return false;
    }
    let mut cells = 0usize;
    let mut used = vec![false; k];
    for (i, t) in teams.iter().enumerate() {
        if t.values.len() != n || teams[..i].iter().any(|o| o.name == t.name) {
            return false;
        }
        if clean_label(&t.name) != t.name {
            return false;
        }
        if k == 0 {
            if !t.by_type.is_empty() {
                return false;
            }
            cells += n;
            continue;
        }
        if t.by_type.len() != k || t.by_type.iter().all(Vec::is_empty) {
            return false;
        }
        for (j, c) in t.by_type.iter().enumerate() {
            if c.is_empty() {
                continue;
            }
            if c.len() != n {
                return false;
            }
            used[j] = true;
            cells += n;
        }
    }
    used.iter().all(|&u| u) && cells <= MAX_TEAM_CELLS
}

/// The series rounded to 0.001 GPU, exactly as a link carries it.
pub fn quantize(series: &UsageSeries) -> UsageSeries {
    UsageSeries {
        values: series.values.iter().map(|&v| quantize_value(v)).collect(),
        timestamps: series.timestamps.clone(),
        utc_offset_minutes: series.utc_offset_minutes,
        offset_changes: series.offset_changes.clone(),
    }
}

fn milli(v: f64) -> u64 {
    let m = (v * 1000.0).round();
    if m.is_finite() && m > 0.0 {
        m.min(MAX_MILLI as f64) as u64
    } else {
        0
    }
}

fn quantize_value(v: f64) -> f64 {
    milli(v) as f64 / 1000.0
}

/// The load-duration histogram: the multiset of hourly values (sorted ascending), order
/// and timestamps dropped. Plan it with lookback "all": the window is already applied.
pub fn histogram(series: &UsageSeries) -> UsageSeries {
    let mut values: Vec<f64> = series.values.iter().map(|&v| quantize_value(v)).collect();
    values.sort_by(f64::total_cmp);
    UsageSeries {
        values,
        timestamps: None,
        utc_offset_minutes: series.utc_offset_minutes,
        offset_changes: series.offset_changes.clone(),
    }
}

/// The hours of the lookback window (the same cut the profile makes).
pub fn trim_to_lookback(series: &UsageSeries, lookback: Lookback) -> UsageSeries {
    let n = series.values.len();
    let start = match (lookback, &series.timestamps) {
        (Lookback::All, _) => 0,
        (Lookback::Days(d), Some(ts)) if n > 0 && ts.len() == n => {
            let last = ts[n - 1];
            ts.partition_point(|&t| last - t >= i64::from(d) * 86_400)
        }
        (Lookback::Days(d), _) => n.saturating_sub(d as usize * 24),
    };
    UsageSeries {
        values: series.values[start..].to_vec(),
        timestamps: series
            .timestamps
            .as_ref()
            .map(|ts| ts[start.min(ts.len())..].to_vec()),
        utc_offset_minutes: series.utc_offset_minutes,
        offset_changes: series.offset_changes.clone(),
    }
}

/// A history cut to the lookback window (its types too).
pub fn trim_history(history: &LinkHistory, lookback: Lookback) -> LinkHistory {
    let series = trim_to_lookback(&history.series, lookback);
    let start = history.series.len() - series.len();
    // In place on copies of the types and teams: the hours before `start` go.
    let cut = |v: &mut Vec<f64>| drop(v.drain(..start.min(v.len())));
    let mut types = history.types.clone();
    for t in &mut types {
        cut(&mut t.values);
    }
    let mut teams = history.teams.clone();
    for t in &mut teams {
        cut(&mut t.values);
        t.by_type.iter_mut().for_each(cut);
    }
    LinkHistory {
        types,
        teams,
        series,
        histogram: history.histogram,
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, HistoryError> {
        let b = *self.bytes.get(self.pos).ok_or(HistoryError::Malformed)?;
        self.pos += 1;
        Ok(b)
    }

    /// Bytes not yet read.
    fn left(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// A type label or team name: a byte length (1 ..= 160), then as many bytes of UTF-8,
    /// already clean ([`clean_label`]: no control characters, trimmed, ≤ 40 characters).
    fn label(&mut self) -> Result<String, HistoryError> {
        let len = self.varint()?;
        if len == 0 || len > MAX_LABEL_BYTES {
            return Err(HistoryError::Malformed);
        }
        let end = self.pos + len as usize;
        let raw = self
            .bytes
            .get(self.pos..end)
            .ok_or(HistoryError::Malformed)?;
        self.pos = end;
        let label = std::str::from_utf8(raw).map_err(|_| HistoryError::Malformed)?;
        if clean_label(label) != label {
            return Err(HistoryError::Malformed);
        }
        Ok(label.to_string())
    }

    /// `n` values in milli-GPU (a histogram's as differences), each at most 10⁹ GPUs.
    fn values(&mut self, n: usize, histogram: bool) -> Result<Vec<f64>, HistoryError> {
        let mut values = Vec::with_capacity(n);
        let mut acc: u64 = 0;
        for _ in 0..n {
            let v = self.varint()?;
            let m = if histogram {
                acc = acc.checked_add(v).ok_or(HistoryError::ValueTooLarge)?;
                acc
            } else {
                v
            };
            if m > MAX_MILLI {
                return Err(HistoryError::ValueTooLarge);
            }
            values.push(m as f64 / 1000.0);
        }
        Ok(values)
    }

    fn varint(&mut self) -> Result<u64, HistoryError> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            let bits = u64::from(b & 0x7f);
            if shift == 63 && bits > 1 {
                return Err(HistoryError::Malformed);
            }
            v |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(HistoryError::Malformed)
    }
}

/// The binary series (before deflate): format 3 when it carries `teams` ([`teams_carried`];
/// never with a histogram), else format 2 when `types` has two or more (never with a
/// histogram), else format 1.
fn to_binary(
    series: &UsageSeries,
    types: &[LinkType],
    teams: &[LinkTeam],
    as_histogram: bool,
) -> Vec<u8> {
    let n = series.values.len();
    let teamed = !as_histogram && teams_carried(series, types, teams);
    let typed = !as_histogram
        && (2..=MAX_TYPES).contains(&types.len())
        && types.iter().all(|t| t.values.len() == n);
    let ts = series.timestamps.as_ref().filter(|t| t.len() == n && n > 0);
    let ts = if as_histogram { None } else { ts };
    let columns = if teamed {
        teams.iter().map(|t| t.by_type.len().max(1)).sum()
    } else if typed {
        types.len()
    } else {
        1
    };
    let mut out = Vec::with_capacity(16 + n * 3 * columns);
    out.push(if teamed {
        FORMAT_TEAMS
    } else if typed {
        FORMAT_TYPED
    } else {
        FORMAT_ONE
    });
    let mut flags = 0;
    if ts.is_some() {
        flags |= FLAG_TIMESTAMPS;
    }
    if as_histogram {
        flags |= FLAG_HISTOGRAM;
    }
    out.push(flags);
    put_varint(&mut out, n as u64);
    let off = i64::from(series.utc_offset_minutes) * 60;
    put_varint(&mut out, zigzag(i64::from(series.utc_offset_minutes)));
    if let Some(ts) = ts {
        put_varint(&mut out, zigzag((ts[0] + off).div_euclid(3600)));
    }
    let put_labels = |out: &mut Vec<u8>, labels: &mut dyn Iterator<Item = &str>| {
        for label in labels {
            let label = clean_label(label);
            put_varint(out, label.len() as u64);
            out.extend(label.as_bytes());
        }
    };
    let put_values = |out: &mut Vec<u8>, values: &[f64]| {
        for &v in values {
            put_varint(out, milli(v));
        }
    };
    if teamed {
        put_varint(&mut out, types.len() as u64);
        put_labels(&mut out, &mut types.iter().map(|t| t.label.as_str()));
        put_varint(&mut out, teams.len() as u64);
        for t in teams {
            put_labels(&mut out, &mut std::iter::once(t.name.as_str()));
            if !types.is_empty() {
                let bits = t.by_type.iter().enumerate().filter(|(_, c)| !c.is_empty());
                out.push(bits.fold(0u8, |acc, (j, _)| acc | 1 << j));
            }
        }
        for t in teams {
            if types.is_empty() {
                put_values(&mut out, &t.values);
            }
            for cells in t.by_type.iter().filter(|c| !c.is_empty()) {
                put_values(&mut out, cells);
            }
        }
    } else if typed {
        put_varint(&mut out, types.len() as u64);
        put_labels(&mut out, &mut types.iter().map(|t| t.label.as_str()));
        for t in types {
            put_values(&mut out, &t.values);
        }
    } else if as_histogram {
        let mut m: Vec<u64> = series.values.iter().map(|&v| milli(v)).collect();
        m.sort_unstable();
        let mut prev = 0;
        for v in m {
            put_varint(&mut out, v - prev);
            prev = v;
        }
    } else {
        put_values(&mut out, &series.values);
    }
    if let Some(ts) = ts {
        for w in ts.windows(2) {
            put_varint(&mut out, ((w[1] - w[0]).div_euclid(3600)).max(1) as u64);
        }
    }
    out
}

/// A label as a link writes and reads it: control characters dropped, trimmed, at most 40
/// characters (never empty: `?`).
fn clean_label(label: &str) -> String {
    let kept: String = label
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .chars()
        .take(MAX_LABEL_CHARS)
        .collect();
    let kept = kept.trim_end();
    if kept.is_empty() {
        "?".to_string()
    } else {
        kept.to_string()
    }
}

fn from_binary(bytes: &[u8]) -> Result<LinkHistory, HistoryError> {
    let mut r = Reader { bytes, pos: 0 };
    let format = r.byte()?;
    if format > SERIES_FORMAT {
        return Err(HistoryError::NewerFormat(format));
    }
    if !matches!(format, FORMAT_ONE | FORMAT_TYPED | FORMAT_TEAMS) {
        return Err(HistoryError::Malformed);
    }
    let typed = format == FORMAT_TYPED;
    let teamed = format == FORMAT_TEAMS;
    let flags = r.byte()?;
    if flags & !(FLAG_TIMESTAMPS | FLAG_HISTOGRAM) != 0
        || flags == FLAG_TIMESTAMPS | FLAG_HISTOGRAM
        || ((typed || teamed) && flags & FLAG_HISTOGRAM != 0)
        || (teamed && flags & FLAG_TIMESTAMPS == 0)
    {
        return Err(HistoryError::Malformed);
    }
    let n = r.varint()?;
    if n == 0 || n > MAX_HOURS as u64 {
        return Err(HistoryError::BadLength);
    }
    let n = n as usize;
    let offset = unzigzag(r.varint()?);
    if !(-MAX_OFFSET_MINUTES..=MAX_OFFSET_MINUTES).contains(&offset) {
        return Err(HistoryError::OutOfRange);
    }
    let first_hour = if flags & FLAG_TIMESTAMPS != 0 {
        Some(unzigzag(r.varint()?))
    } else {
        None
    };
    let histogram = flags & FLAG_HISTOGRAM != 0;
    let (values, types, teams) = if teamed {
        read_teams(&mut r, n)?
    } else {
        let labels = if typed {
            let k = r.varint()?;
            if !(2..=MAX_TYPES as u64).contains(&k) {
                return Err(HistoryError::Malformed);
            }
            read_labels(&mut r, k as usize)?
        } else {
            Vec::new()
        };
        // Each value takes at least one byte: reject impossible lengths before allocating.
        if r.left() / labels.len().max(1) < n {
            return Err(HistoryError::Malformed);
        }
        if typed {
            let mut types = Vec::with_capacity(labels.len());
            for label in labels {
                types.push(LinkType {
                    label,
                    values: r.values(n, false)?,
                });
            }
            // The total as the page sums a parsed history ([`quantize_parsed`]).
            let values = (0..n)
                .map(|i| quantize_value(types.iter().map(|t| t.values[i]).sum()))
                .collect();
            (values, types, Vec::new())
        } else {
            (r.values(n, histogram)?, Vec::new(), Vec::new())
        }
    };
    let timestamps = match first_hour {
        None => None,
        Some(h0) => {
            let off_s = offset * 60;
            let mut hour = h0;
            let mut ts = Vec::with_capacity(n);
            let first = h0
                .checked_mul(3600)
                .map(|s| s - off_s)
                .ok_or(HistoryError::OutOfRange)?;
            if !(MIN_UNIX..END_UNIX).contains(&first) {
                return Err(HistoryError::OutOfRange);
            }
            ts.push(first);
            for _ in 1..n {
                let d = r.varint()?;
                if d == 0 {
                    return Err(HistoryError::Malformed);
                }
                if d > MAX_HOURS as u64 {
                    return Err(HistoryError::BadLength);
                }
                hour += d as i64;
                if hour - h0 >= MAX_HOURS as i64 {
                    return Err(HistoryError::BadLength);
                }
                ts.push(hour * 3600 - off_s);
            }
            if ts.last().is_some_and(|&t| t >= END_UNIX) {
                return Err(HistoryError::OutOfRange);
            }
            Some(ts)
        }
    };
    if r.pos != bytes.len() {
        return Err(HistoryError::Malformed);
    }
    Ok(LinkHistory {
        series: UsageSeries {
            values,
            timestamps,
            utc_offset_minutes: offset as i32,
            offset_changes: Vec::new(),
        },
        histogram,
        types,
        teams,
    })
}

/// The total, types and teams of series format 3, after its header (see the module's doc):
/// every count, name and type byte checked before any value is allocated; the types and the
/// total summed as [`quantize_parsed`] sums them.
#[allow(clippy::type_complexity)]
fn read_teams(
    r: &mut Reader,
    n: usize,
) -> Result<(Vec<f64>, Vec<LinkType>, Vec<LinkTeam>), HistoryError> {
    let k = r.varint()?;
    if k != 0 && !(2..=MAX_TYPES as u64).contains(&k) {
        return Err(HistoryError::Malformed);
    }
    let k = k as usize;
    let labels = read_labels(r, k)?;
    let m = r.varint()?;
    if m == 0 || m > MAX_TEAMS as u64 {
        return Err(HistoryError::Malformed);
    }
    let mut names: Vec<(String, u8)> = Vec::with_capacity(m as usize);
    let mut used_types = 0u8;
    let mut columns = 0usize;
    for _ in 0..m {
        let name = r.label()?;
        if names.iter().any(|(other, _)| *other == name) {
            return Err(HistoryError::Malformed);
        }
        let bits = if k == 0 {
            columns += 1;
            0
        } else {
            let bits = r.byte()?;
            if bits == 0 || u32::from(bits) >> k != 0 {
                return Err(HistoryError::Malformed);
            }
            columns += bits.count_ones() as usize;
            bits
        };
        used_types |= bits;
        names.push((name, bits));
    }
    if k > 0 && u32::from(used_types) != (1 << k) - 1 {
        return Err(HistoryError::Malformed);
    }
    if columns.saturating_mul(n) > MAX_TEAM_CELLS {
        return Err(HistoryError::TooLarge);
    }
    // Each value and each hour's delta take at least one byte: reject impossible lengths
    // before allocating.
    if r.left() < columns * n + (n - 1) {
        return Err(HistoryError::Malformed);
    }
    let mut teams = Vec::with_capacity(names.len());
    for (name, bits) in names {
        let team = if k == 0 {
            LinkTeam {
                name,
                values: r.values(n, false)?,
                by_type: Vec::new(),
            }
        } else {
            let mut by_type = Vec::with_capacity(k);
            for j in 0..k {
                by_type.push(if bits & (1 << j) != 0 {
                    r.values(n, false)?
                } else {
                    Vec::new()
                });
            }
            let values = (0..n)
                .map(|i| quantize_value(by_type.iter().filter_map(|c| c.get(i)).sum()))
                .collect();
            LinkTeam {
                name,
                values,
                by_type,
            }
        };
        teams.push(team);
    }
    let types: Vec<LinkType> = labels
        .into_iter()
        .enumerate()
        .map(|(j, label)| LinkType {
            label,
            values: (0..n)
                .map(|i| quantize_value(teams.iter().filter_map(|t| t.by_type[j].get(i)).sum()))
                .collect(),
        })
        .collect();
    let total = (0..n)
        .map(|i| {
            quantize_value(if k == 0 {
                teams.iter().map(|t| t.values[i]).sum()
            } else {
                types.iter().map(|t| t.values[i]).sum()
            })
        })
        .collect();
    Ok((total, types, teams))
}

/// A typed history's `k` labels, each valid UTF-8, already clean ([`clean_label`]), and no
/// two with the same matching key (the parser would read them as one type).
fn read_labels(r: &mut Reader, k: usize) -> Result<Vec<String>, HistoryError> {
    let mut labels: Vec<String> = Vec::with_capacity(k);
    for _ in 0..k {
        let label = r.label()?;
        let key = normalize_type(&label);
        if labels.iter().any(|l| normalize_type(l) == key) {
            return Err(HistoryError::Malformed);
        }
        labels.push(label);
    }
    Ok(labels)
}

/// The `data` value for a series (quantised on the way), or for its histogram.
pub fn encode_series(series: &UsageSeries, as_histogram: bool) -> String {
    let bin = to_binary(series, &[], &[], as_histogram);
    base64url_encode(&miniz_oxide::deflate::compress_to_vec(&bin, 9))
}

/// The `data` value for a history: its teams when it has them (series format 3), else its
/// types when it has them (series format 2; a histogram is always the total, format 1).
pub fn encode_history(history: &LinkHistory) -> String {
    let bin = to_binary(
        &history.series,
        &history.types,
        &history.teams,
        history.histogram,
    );
    base64url_encode(&miniz_oxide::deflate::compress_to_vec(&bin, 9))
}

/// Read a `data` value. Never panics; every failure is named.
pub fn decode_series(data: &str) -> Result<LinkHistory, HistoryError> {
    let data = data.trim();
    if data.len() > MAX_DATA_CHARS {
        return Err(HistoryError::TooLarge);
    }
    let deflated = base64url_decode(data).ok_or(HistoryError::NotBase64)?;
    let bin = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_INFLATED_BYTES)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => HistoryError::TooLarge,
            _ => HistoryError::NotDeflate,
        })?;
    from_binary(&bin)
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url without padding (RFC 4648 § 5).
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// Decode base64url (padding and standard `+` `/` tolerated); `None` when invalid.
pub fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// The series as text that `core::ingest::parse` reads back as exactly the same series:
/// `timestamp,gpus_busy` rows with ISO 8601 UTC timestamps (`Z`) when there are
/// timestamps, otherwise one value per line; values with at most 3 decimals.
pub fn series_to_csv(series: &UsageSeries) -> String {
    let n = series.values.len();
    let mut out = String::with_capacity(n * 28 + 24);
    let ts = series.timestamps.as_ref().filter(|t| t.len() == n);
    if ts.is_some() {
        out.push_str("timestamp,gpus_busy\n");
    }
    for (i, &v) in series.values.iter().enumerate() {
        if let Some(ts) = ts {
            push_utc_iso(&mut out, ts[i]);
            out.push(',');
        }
        push_milli(&mut out, milli(v));
        out.push('\n');
    }
    out
}

/// The history as text that `core::ingest::parse` reads back to the same history: one with
/// teams as [`teams_to_csv`]; one series as [`series_to_csv`]; a typed history with
/// timestamps as a long table
/// `timestamp,gpu_type,gpus` (every type at every hour, the label quoted), without them as
/// a wide table with one column per type.
pub fn history_to_csv(history: &LinkHistory) -> String {
    if !history.teams.is_empty() && teams_carried(&history.series, &history.types, &history.teams) {
        return teams_to_csv(history);
    }
    if history.types.is_empty() {
        return series_to_csv(&history.series);
    }
    let series = &history.series;
    let n = series.values.len();
    let k = history.types.len();
    let quoted: Vec<String> = history
        .types
        .iter()
        .map(|t| format!("\"{}\"", clean_label(&t.label).replace('"', "\"\"")))
        .collect();
    let value = |out: &mut String, t: &LinkType, i: usize| {
        push_milli(out, milli(t.values.get(i).copied().unwrap_or(0.0)));
    };
    match series.timestamps.as_ref().filter(|t| t.len() == n) {
        Some(ts) => {
            let mut out = String::with_capacity(n * k * 40 + 24);
            out.push_str("timestamp,gpu_type,gpus\n");
            for (i, &t0) in ts.iter().enumerate() {
                for (t, label) in history.types.iter().zip(&quoted) {
                    push_utc_iso(&mut out, t0);
                    out.push(',');
                    out.push_str(label);
                    out.push(',');
                    value(&mut out, t, i);
                    out.push('\n');
                }
            }
            out
        }
        None => {
            let mut out = String::with_capacity(n * k * 8 + k * 12);
            out.push_str(&quoted.join(","));
            out.push('\n');
            for i in 0..n {
                for (j, t) in history.types.iter().enumerate() {
                    if j > 0 {
                        out.push(',');
                    }
                    value(&mut out, t, i);
                }
                out.push('\n');
            }
            out
        }
    }
}

/// A history with teams ([`teams_carried`]) as a long table the parser reads back to the same
/// history, teams included: `timestamp,team,gpus` (untyped) or `timestamp,gpu_type,team,gpus`
/// (typed), the label and the name quoted, [`UNALLOCATED`] as an empty team cell (the parser's
/// name for it). The first hour has a row for every (team, type) the team used, in an order
/// that makes the types and the teams first appear in their order ([`first_rows`]); every
/// later hour has the rows that are not 0 (a team without a row in an hour reads 0 there),
/// or one row of 0 when all are, so that no hour becomes a gap.
fn teams_to_csv(history: &LinkHistory) -> String {
    let series = &history.series;
    let n = series.values.len();
    let Some(ts) = series.timestamps.as_ref().filter(|t| t.len() == n) else {
        return series_to_csv(series);
    };
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let labels: Vec<String> = history
        .types
        .iter()
        .map(|t| quote(&clean_label(&t.label)))
        .collect();
    let names: Vec<String> = history
        .teams
        .iter()
        .map(|t| {
            if t.name == UNALLOCATED {
                String::new()
            } else {
                quote(&t.name)
            }
        })
        .collect();
    // Every (team, type) series, in the order of the first hour's rows.
    let typed = !labels.is_empty();
    let pairs: Vec<(usize, usize)> = if typed {
        let mut pairs = first_rows(&history.teams, labels.len());
        for (i, t) in history.teams.iter().enumerate() {
            for (j, c) in t.by_type.iter().enumerate() {
                if !c.is_empty() && !pairs.contains(&(i, j)) {
                    pairs.push((i, j));
                }
            }
        }
        pairs
    } else {
        (0..history.teams.len()).map(|i| (i, 0)).collect()
    };
    let cells = |&(i, j): &(usize, usize)| -> &[f64] {
        let t = &history.teams[i];
        if typed {
            &t.by_type[j]
        } else {
            &t.values
        }
    };
    let mut out = String::with_capacity(n * 48 + pairs.len() * 48 + 32);
    out.push_str(if typed {
        "timestamp,gpu_type,team,gpus\n"
    } else {
        "timestamp,team,gpus\n"
    });
    let row = |out: &mut String, hour: usize, pair: &(usize, usize), m: u64| {
        push_utc_iso(out, ts[hour]);
        out.push(',');
        if typed {
            out.push_str(&labels[pair.1]);
            out.push(',');
        }
        out.push_str(&names[pair.0]);
        out.push(',');
        push_milli(out, m);
        out.push('\n');
    };
    for pair in &pairs {
        row(&mut out, 0, pair, milli(cells(pair)[0]));
    }
    for hour in 1..n {
        let mut any = false;
        for pair in &pairs {
            let m = milli(cells(pair)[hour]);
            if m > 0 {
                row(&mut out, hour, pair, m);
                any = true;
            }
        }
        if !any {
            row(&mut out, hour, &pairs[0], 0);
        }
    }
    out
}

/// The (team, type) rows that make a long table's types and teams first appear in the order
/// of `history.types` and `history.teams` (the parser keeps both in order of first
/// appearance, [`UNALLOCATED`] last whatever its rows): each row introduces the next team
/// with a type already seen, else the next type with a team already seen, else both (any
/// such row keeps every order that was possible possible, so this finds one if any). A
/// history read from one long table always has such an order; one from elsewhere may not
/// (team A used only the second type, team B only the first): then the next team comes with
/// its first type, and the types read back in another order.
fn first_rows(teams: &[LinkTeam], k: usize) -> Vec<(usize, usize)> {
    let uses = |i: usize, j: usize| teams[i].by_type.get(j).is_some_and(|c| !c.is_empty());
    let free = |i: usize| teams[i].name == UNALLOCATED;
    let mut team_seen: Vec<bool> = (0..teams.len()).map(free).collect();
    let mut type_seen = vec![false; k];
    let mut rows = Vec::new();
    loop {
        let next_team = (0..teams.len()).find(|&i| !team_seen[i]);
        let next_type = (0..k).find(|&j| !type_seen[j]);
        // The next type with a team already seen (`free`: the unallocated team, only when no
        // other will do, so that the order holds whether or not the parser moves it last).
        let with_seen = |free_ok: bool| {
            let j = next_type?;
            (0..teams.len())
                .find(|&o| team_seen[o] && (free_ok || !free(o)) && uses(o, j))
                .map(|o| (o, j))
        };
        let row = match next_team {
            None if next_type.is_none() => break,
            None => with_seen(true),
            Some(i) => (0..k)
                .find(|&j| type_seen[j] && uses(i, j))
                .map(|j| (i, j))
                .or_else(|| with_seen(false))
                .or_else(|| next_type.filter(|&j| uses(i, j)).map(|j| (i, j)))
                .or_else(|| with_seen(true))
                .or_else(|| (0..k).find(|&j| uses(i, j)).map(|j| (i, j))),
        };
        let Some((i, j)) = row else {
            break; // a team without a type, or a type without a team: not carried
        };
        team_seen[i] = true;
        type_seen[j] = true;
        rows.push((i, j));
    }
    rows
}

fn push_milli(out: &mut String, m: u64) {
    let (int, frac) = (m / 1000, m % 1000);
    if frac == 0 {
        let _ = write!(out, "{int}");
    } else {
        let f = format!("{frac:03}");
        let _ = write!(out, "{int}.{}", f.trim_end_matches('0'));
    }
}

fn push_utc_iso(out: &mut String, t: i64) {
    crate::core::calendar::write_iso_seconds(out, t);
    out.push('Z');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::examples::{self, Example};
    use crate::core::ingest::{parse, GapPolicy, ParseOptions};

    const START: i64 = 1_793_538_000; // 2026-11-01T13:00:00Z

    fn gappy() -> UsageSeries {
        let h = 1_793_538_000 / 3600 * 3600;
        UsageSeries {
            values: vec![3.0, 2.5, 0.0, 4.125, 1.0 / 3.0, 7.0],
            timestamps: Some(vec![
                h,
                h + 3600,
                h + 2 * 3600,
                h + 5 * 3600,
                h + 6 * 3600,
                h + 7 * 3600,
            ]),
            utc_offset_minutes: 0,
            offset_changes: Vec::new(),
        }
    }

    #[test]
    fn base64url_round_trips_and_rejects_garbage() {
        for len in 0..40 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let text = base64url_encode(&bytes);
            assert!(!text.contains('='));
            assert_eq!(base64url_decode(&text), Some(bytes));
        }
        assert_eq!(base64url_encode(b"\xfb\xff"), "-_8");
        assert_eq!(base64url_decode("a"), None);
        assert_eq!(base64url_decode("ab$d"), None);
        assert_eq!(base64url_decode("中文"), None);
    }

    #[test]
    fn varints_and_zigzag() {
        for v in [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut b = Vec::new();
            put_varint(&mut b, v);
            assert_eq!(Reader { bytes: &b, pos: 0 }.varint(), Ok(v));
        }
        for v in [0i64, 1, -1, 480, -300, i64::MIN, i64::MAX] {
            assert_eq!(unzigzag(zigzag(v)), v);
        }
        // 11 continuation bytes: never read past 64 bits.
        let b = [0xffu8; 11];
        assert_eq!(
            Reader { bytes: &b, pos: 0 }.varint(),
            Err(HistoryError::Malformed)
        );
    }

    #[test]
    fn series_round_trips_exactly_after_quantisation() {
        for off in [480, 0, -300, 330] {
            for s in Example::ALL {
                let series = examples::series(s, START, off);
                let q = quantize(&series);
                let back = decode_series(&encode_series(&series, false)).unwrap();
                assert!(!back.histogram);
                assert_eq!(back.series, q, "{s:?} {off}");
            }
        }
        let g = gappy();
        let back = decode_series(&encode_series(&g, false)).unwrap();
        assert_eq!(back.series, quantize(&g));
        assert_eq!(back.series.values[4], 0.333);
        let plain = UsageSeries::from_values(vec![1.0, 2.0004, 2.0005, 0.0]);
        let back = decode_series(&encode_series(&plain, false)).unwrap();
        assert_eq!(back.series.values, vec![1.0, 2.0, 2.001, 0.0]);
        assert_eq!(back.series.timestamps, None);
    }

    #[test]
    fn quantize_is_idempotent() {
        let s = examples::series(Example::BurstyLab, START, 480);
        let q = quantize(&s);
        assert_eq!(quantize(&q), q);
        let odd = UsageSeries::from_values(vec![0.0004, 1.23456, 1e-9, 99999.9999]);
        let q = quantize(&odd);
        assert_eq!(q.values, vec![0.0, 1.235, 0.0, 100000.0]);
        assert_eq!(quantize(&q), q);
    }

    #[test]
    fn csv_parses_back_to_the_quantised_series() {
        let cases = [
            (examples::series(Example::BurstyLab, START, 480), 480),
            (examples::series(Example::RecentDrop, START, 330), 330),
            (
                examples::series(Example::SteadyPretraining, START, -300),
                -300,
            ),
            (gappy(), 0),
            (
                UsageSeries {
                    utc_offset_minutes: 480,
                    offset_changes: Vec::new(),
                    ..gappy()
                },
                480,
            ),
        ];
        for (series, off) in cases {
            let q = quantize(&series);
            let text = series_to_csv(&q);
            let opts = ParseOptions {
                utc_offset_minutes: off,
                ..Default::default()
            };
            let parsed = parse(&text, &opts).unwrap();
            assert_eq!(quantize(&parsed.series), parsed.series);
            assert_eq!(parsed.series, q, "offset {off}");
            assert_eq!(parsed.report.rows_rejected, 0);
        }
        // The gap stays a gap (3 missing hours, excluded).
        let parsed = parse(&series_to_csv(&gappy()), &ParseOptions::default()).unwrap();
        assert_eq!(parsed.report.missing_hours, 2);
        assert_eq!(parsed.report.gap_policy, GapPolicy::Exclude);
        // Values only: one number per line.
        let plain = UsageSeries::from_values(vec![1.5, 0.0, 12.0, 0.001, 3.333]);
        let text = series_to_csv(&plain);
        assert_eq!(text, "1.5\n0\n12\n0.001\n3.333\n");
        let parsed = parse(&text, &ParseOptions::default()).unwrap();
        assert_eq!(parsed.series, plain);
    }

    #[test]
    fn histogram_keeps_the_multiset_sorted() {
        let g = gappy();
        let h = decode_series(&encode_series(&g, true)).unwrap();
        assert!(h.histogram);
        assert_eq!(h.series.values, vec![0.0, 0.333, 2.5, 3.0, 4.125, 7.0]);
        assert_eq!(h.series.timestamps, None);
        assert_eq!(h.series, histogram(&g));
    }

    #[test]
    fn trim_follows_the_profile_window() {
        let s = examples::series(Example::BurstyLab, START, 480);
        let t = trim_to_lookback(&s, Lookback::Days(7));
        assert_eq!(t.len(), 7 * 24);
        assert_eq!(t.values[..], s.values[s.len() - 168..]);
        assert_eq!(trim_to_lookback(&s, Lookback::All), s);
        assert_eq!(trim_to_lookback(&s, Lookback::Days(90)), s);
        let plain = UsageSeries::from_values(vec![1.0; 50]);
        assert_eq!(trim_to_lookback(&plain, Lookback::Days(1)).len(), 24);
    }

    #[test]
    fn damaged_data_is_named_never_a_panic() {
        let good = encode_series(&gappy(), false);
        for cut in 1..good.len() {
            let e = decode_series(&good[..cut]).err();
            assert!(
                matches!(e, Some(HistoryError::NotBase64 | HistoryError::NotDeflate)),
                "{cut}: {e:?}"
            );
        }
        assert_eq!(decode_series("abc$").err(), Some(HistoryError::NotBase64));
        assert_eq!(decode_series("").err(), Some(HistoryError::NotDeflate));
        let deflate = |b: &[u8]| base64url_encode(&miniz_oxide::deflate::compress_to_vec(b, 6));
        // Newer series format, unknown flags, zero hours, too many hours.
        assert_eq!(
            decode_series(&deflate(&[4, 0, 1, 0, 5])).err(),
            Some(HistoryError::NewerFormat(4))
        );
        assert_eq!(
            decode_series(&deflate(&[1, 4, 1, 0, 5])).err(),
            Some(HistoryError::Malformed)
        );
        assert_eq!(
            decode_series(&deflate(&[1, 0, 0, 0])).err(),
            Some(HistoryError::BadLength)
        );
        let mut huge = vec![1, 0];
        put_varint(&mut huge, MAX_HOURS as u64 + 1);
        huge.push(0);
        assert_eq!(
            decode_series(&deflate(&huge)).err(),
            Some(HistoryError::BadLength)
        );
        // Claims 80 000 hours but carries 2 values.
        let mut short = vec![1, 0];
        put_varint(&mut short, 80_000);
        short.extend([0, 5, 5]);
        assert_eq!(
            decode_series(&deflate(&short)).err(),
            Some(HistoryError::Malformed)
        );
        // Trailing bytes, absurd value, absurd offset, timestamps out of range.
        assert_eq!(
            decode_series(&deflate(&[1, 0, 1, 0, 5, 9])).err(),
            Some(HistoryError::Malformed)
        );
        let mut big = vec![1, 0, 1, 0];
        put_varint(&mut big, MAX_MILLI + 1);
        assert_eq!(
            decode_series(&deflate(&big)).err(),
            Some(HistoryError::ValueTooLarge)
        );
        let mut far = vec![1, 0, 1];
        put_varint(&mut far, zigzag(24 * 60));
        far.push(5);
        assert_eq!(
            decode_series(&deflate(&far)).err(),
            Some(HistoryError::OutOfRange)
        );
        let mut old = vec![1, 1, 1, 0];
        put_varint(&mut old, zigzag(10)); // 1970
        old.push(5);
        assert_eq!(
            decode_series(&deflate(&old)).err(),
            Some(HistoryError::OutOfRange)
        );
        // Zero delta between hours.
        let mut zero = vec![1, 1, 2, 0];
        put_varint(&mut zero, zigzag(START / 3600));
        zero.extend([5, 5, 0]);
        assert_eq!(
            decode_series(&deflate(&zero)).err(),
            Some(HistoryError::Malformed)
        );
        // A deflate bomb: 20 MB of zeros.
        let bomb = deflate(&vec![0u8; 20_000_000]);
        assert_eq!(decode_series(&bomb).err(), Some(HistoryError::TooLarge));
    }

    /// A parsed two-type long table (A100 and H100, a gap hour, fractions to 0.0001).
    fn typed_parsed(off: i32) -> Parsed {
        let mut text = String::from("time,gpu_model,gpus\n");
        for h in 0..30 {
            if h == 7 {
                continue; // an hour no type has: excluded
            }
            let t = START + h * 3600;
            let day = crate::core::calendar::civil_from_days(t.div_euclid(86_400));
            let stamp = format!(
                "{:04}-{:02}-{:02}T{:02}:00:00Z",
                day.0,
                day.1,
                day.2,
                t.rem_euclid(86_400) / 3600
            );
            text.push_str(&format!(
                "{stamp},NVIDIA A100-SXM4-80GB,{}\n",
                3.0 + (h % 5) as f64 * 0.3337
            ));
            if h % 4 != 0 {
                text.push_str(&format!(
                    "{stamp},\"H100, 80GB\",{}\n",
                    1.0 / 3.0 + (h % 3) as f64
                ));
            }
        }
        let opts = ParseOptions {
            utc_offset_minutes: off,
            ..Default::default()
        };
        let mut parsed = parse(&text, &opts).unwrap();
        assert_eq!(parsed.types.len(), 2);
        quantize_parsed(&mut parsed);
        parsed
    }

    #[test]
    fn a_typed_history_round_trips_through_the_link_and_its_text() {
        for off in [480, 0, -300] {
            let parsed = typed_parsed(off);
            let h = link_history(&parsed);
            assert_eq!(h.types.len(), 2);
            assert_eq!(h.types[1].label, "H100, 80GB");
            let back = decode_series(&encode_history(&h)).unwrap();
            assert_eq!(back, h, "offset {off}");
            // The text the link reopens as parses back to the same types, labels, keys and
            // total (the hours without H100 data now read 0 with data: same values).
            let opts = ParseOptions {
                utc_offset_minutes: off,
                ..Default::default()
            };
            let mut again = parse(&history_to_csv(&back), &opts).unwrap();
            quantize_parsed(&mut again);
            assert_eq!(again.report.rows_rejected, 0);
            assert_eq!(again.series, parsed.series, "offset {off}");
            assert_eq!(again.types.len(), 2);
            for (a, b) in again.types.iter().zip(&parsed.types) {
                assert_eq!(a.key, b.key);
                assert_eq!(a.label, b.label);
                assert_eq!(a.series, b.series);
            }
            assert_eq!(link_history(&again), h);
        }
        // Rounded once: the total is the rounded sum of the rounded types.
        let parsed = typed_parsed(0);
        for (i, &v) in parsed.series.values.iter().enumerate() {
            let sum: f64 = parsed.types.iter().map(|t| t.series.values[i]).sum();
            assert_eq!(v, quantize_value(sum));
        }
        assert_eq!(parsed.types[0].series.values[1], 3.334);
        // Without timestamps: a wide table of the types.
        let h = LinkHistory {
            series: UsageSeries::from_values(vec![3.5, 2.0]),
            histogram: false,
            types: vec![
                LinkType {
                    label: "A100".into(),
                    values: vec![3.0, 2.0],
                },
                LinkType {
                    label: "RTX 4090".into(),
                    values: vec![0.5, 0.0],
                },
            ],
            teams: Vec::new(),
        };
        let back = decode_series(&encode_history(&h)).unwrap();
        assert_eq!(back, h);
        assert_eq!(history_to_csv(&back), "\"A100\",\"RTX 4090\"\n3,0.5\n2,0\n");
        let again = parse(&history_to_csv(&back), &ParseOptions::default()).unwrap();
        assert_eq!(again.types.len(), 2);
        assert_eq!(again.series.values, vec![3.5, 2.0]);
        // The lookback cut keeps the types on the window's hours.
        let long = link_history(&typed_parsed(0));
        let cut = trim_history(&long, Lookback::Days(1));
        assert_eq!(cut.series.len(), cut.types[0].values.len());
        assert!(cut.series.len() < long.series.len());
        assert_eq!(
            cut.types[1].values[..],
            long.types[1].values[long.series.len() - cut.series.len()..]
        );
        // A histogram is the total only (format 1).
        let hist = LinkHistory {
            histogram: true,
            ..long.clone()
        };
        let back = decode_series(&encode_history(&hist)).unwrap();
        assert!(back.types.is_empty());
        assert_eq!(back.series, histogram(&long.series));
    }

    #[test]
    fn hostile_typed_histories_are_named_never_a_panic() {
        let deflate = |b: &[u8]| base64url_encode(&miniz_oxide::deflate::compress_to_vec(b, 6));
        // format 2, no timestamps, 1 hour, offset 0, then k labels and values.
        let typed = |labels: &[&[u8]], values: &[u8]| {
            let mut b = vec![2, 0, 1, 0];
            put_varint(&mut b, labels.len() as u64);
            for l in labels {
                put_varint(&mut b, l.len() as u64);
                b.extend(*l);
            }
            b.extend(values);
            deflate(&b)
        };
        let good = typed(&[b"A100", b"H100"], &[5, 7]);
        let h = decode_series(&good).unwrap();
        assert_eq!(h.series.values, vec![0.012]);
        let bad: [(&[&[u8]], &[u8]); 9] = [
            (&[b"A100"], &[5]),                 // one type
            (&[b"A100", b"H100"], &[5]),        // a value missing
            (&[b"A100", b"H100"], &[5, 7, 1]),  // trailing byte
            (&[b"A100", b"a 100"], &[5, 7]),    // the same type twice
            (&[b"A100", b"\xff\xfe"], &[5, 7]), // not UTF-8
            (&[b"A100", b"H\n100"], &[5, 7]),   // a control character
            (&[b"A100", b" H100"], &[5, 7]),    // not trimmed
            (&[b"A100", b""], &[5, 7]),         // empty
            (
                &[b"A", b"B", b"C", b"D", b"E", b"F", b"G", b"H", b"I"],
                &[1; 9],
            ), // nine
        ];
        for (labels, values) in bad {
            assert_eq!(
                decode_series(&typed(labels, values)).err(),
                Some(HistoryError::Malformed),
                "{labels:?}"
            );
        }
        // 41 characters; a histogram flag on a typed series.
        let long = [b'x'; 41];
        assert_eq!(
            decode_series(&typed(&[b"A100", &long], &[5, 7])).err(),
            Some(HistoryError::Malformed)
        );
        let mut hist = vec![2, 2, 1, 0, 2, 1, b'a', 1, b'b', 5, 7];
        assert_eq!(
            decode_series(&deflate(&hist)).err(),
            Some(HistoryError::Malformed)
        );
        hist[1] = 0;
        assert!(decode_series(&deflate(&hist)).is_ok());
        // A label a link writes is cleaned the same way it is read.
        assert_eq!(clean_label("  A100\u{7}\n  "), "A100");
        assert_eq!(clean_label("\n"), "?");
        assert_eq!(clean_label(&"长".repeat(50)).chars().count(), 40);
        // Random bytes after a format-2 header never panic.
        let mut x: u64 = 0x9e37_79b9;
        for len in 0..200 {
            let mut b = vec![2, (x % 2) as u8, (x % 5) as u8, 0, (x % 10) as u8];
            push_random(&mut b, &mut x, len);
            let _ = from_binary(&b);
        }
    }

    /// The next state of a xorshift64 generator.
    fn xorshift(x: &mut u64) {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
    }

    /// `len` pseudo-random bytes from the generator `x`, pushed onto `b`.
    fn push_random(b: &mut Vec<u8>, x: &mut u64, len: usize) {
        for _ in 0..len {
            xorshift(x);
            b.push(*x as u8);
        }
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut x: u64 = 0x1234_5678;
        for len in 0..300 {
            let mut bytes = Vec::with_capacity(len);
            push_random(&mut bytes, &mut x, len);
            let _ = decode_series(&base64url_encode(&bytes));
            let d = base64url_encode(&miniz_oxide::deflate::compress_to_vec(&bytes, 6));
            let _ = decode_series(&d);
            let mut b = vec![1, (x % 4) as u8];
            b.extend(&bytes);
            let _ = from_binary(&b);
        }
    }

    // ---- Series format 3: teams (issue 37) ----

    const A100: &str = "NVIDIA A100-SXM4-80GB";
    const H100: &str = "H100, 80GB";
    const ML: &str = "ml-research";
    const SEARCH: &str = "search \"ranking\", ads";

    /// The rows of a long table with a team column, in the order written: hours 0 .. 30 but
    /// 7 (a gap), values to 0.0001 GPU; (hour, type, team, GPUs), team "" = unallocated.
    /// ml-research uses A100 and H100 (two rows in an hour: summed when untyped), search only
    /// H100 (no row at hours 1, 5, …: 0 there), unallocated only A100 (rows every 6 hours).
    fn team_rows() -> Vec<(i64, &'static str, &'static str, f64)> {
        let mut rows = Vec::new();
        for h in (0..30).filter(|&h| h != 7) {
            rows.push((h, A100, ML, 2.0 + (h % 5) as f64 * 0.3337));
            if h % 4 != 1 {
                rows.push((h, H100, SEARCH, 1.0 / 3.0 + (h % 3) as f64));
            }
            let ml = if h % 3 == 0 {
                0.0
            } else {
                0.25 * (h % 3) as f64 + 0.00049
            };
            rows.push((h, H100, ML, ml));
            if h % 6 == 0 {
                rows.push((h, A100, "", 0.5));
            }
        }
        rows
    }

    fn stamp(t: i64) -> String {
        let mut s = String::new();
        push_utc_iso(&mut s, t);
        s
    }

    /// The long table of [`team_rows`] as a user would write it (`team` column, typed or not;
    /// untyped, one row per team and hour: the parser takes two rows of a series at one time
    /// as two samples, their mean).
    fn team_text(typed: bool) -> String {
        let mut text = String::from(if typed {
            "timestamp,gpu_type,team,gpus\n"
        } else {
            "timestamp,team,gpus\n"
        });
        let mut rows = team_rows();
        if !typed {
            let mut one: Vec<(i64, &str, &str, f64)> = Vec::new();
            for (h, ty, team, v) in rows {
                match one.iter_mut().find(|r| r.0 == h && r.2 == team) {
                    Some(r) => r.3 += v,
                    None => one.push((h, ty, team, v)),
                }
            }
            rows = one;
        }
        for (h, ty, team, v) in rows {
            let team = if team.is_empty() {
                String::new()
            } else {
                format!("\"{}\"", team.replace('"', "\"\""))
            };
            let ty = if typed {
                format!("\"{ty}\",")
            } else {
                String::new()
            };
            text.push_str(&format!("{},{ty}{team},{v}\n", stamp(START + h * 3600)));
        }
        text
    }

    /// [`team_rows`] as the parser reads them (built here, not parsed): types and teams in
    /// order of first appearance, unallocated last; not yet quantised.
    fn team_parsed(typed: bool, off: i32) -> Parsed {
        use crate::core::ingest::{Format, ParseReport, TeamSeries, TeamSource, Teams};
        let rows = team_rows();
        let mut hours: Vec<i64> = rows.iter().map(|r| r.0).collect();
        hours.dedup();
        let n = hours.len();
        let at = |h: i64| hours.iter().position(|&x| x == h).unwrap();
        let types = [A100, H100];
        let names = [ML, SEARCH, ""];
        // cells[team][type]: None = never used.
        let mut cells = vec![vec![None::<Vec<f64>>; 2]; 3];
        for &(h, ty, team, v) in &rows {
            let i = names.iter().position(|&x| x == team).unwrap();
            let j = types.iter().position(|&x| x == ty).unwrap();
            cells[i][j].get_or_insert_with(|| vec![0.0; n])[at(h)] += v;
        }
        let timestamps: Vec<i64> = hours.iter().map(|h| START + h * 3600).collect();
        let series = |values: Vec<f64>| UsageSeries {
            values,
            timestamps: Some(timestamps.clone()),
            utc_offset_minutes: off,
            offset_changes: Vec::new(),
        };
        let sum = |vs: Vec<&Vec<f64>>| -> Vec<f64> {
            (0..n).map(|x| vs.iter().map(|v| v[x]).sum()).collect()
        };
        let teams: Vec<TeamSeries> = cells
            .iter()
            .zip(names)
            .map(|(c, name)| {
                let by_type: Vec<Vec<f64>> =
                    c.iter().map(|c| c.clone().unwrap_or_default()).collect();
                TeamSeries {
                    name: if name.is_empty() { UNALLOCATED } else { name }.to_string(),
                    values: sum(by_type.iter().filter(|c| !c.is_empty()).collect()),
                    by_type: if typed { by_type } else { Vec::new() },
                }
            })
            .collect();
        let type_series: Vec<crate::core::ingest::TypedSeries> = if typed {
            (0..2)
                .map(|j| {
                    let values = sum(cells.iter().filter_map(|c| c[j].as_ref()).collect());
                    crate::core::ingest::TypedSeries {
                        key: normalize_type(types[j]),
                        label: types[j].to_string(),
                        hours: n,
                        peak: values.iter().copied().fold(0.0, f64::max),
                        series: series(values),
                        gap_hours: 0,
                        no_data: Vec::new(),
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        let total = sum(teams.iter().map(|t| &t.values).collect());
        let opts = ParseOptions {
            utc_offset_minutes: off,
            ..Default::default()
        };
        Parsed {
            series: series(total),
            report: ParseReport::new(Format::Table, &opts),
            types: type_series,
            teams: Some(Teams {
                source: TeamSource::Column("team".into()),
                choices: vec![TeamSource::Column("team".into())],
                teams,
                merged: 0,
            }),
        }
    }

    #[test]
    fn teams_are_rounded_once_and_add_up() {
        for typed in [false, true] {
            let mut parsed = team_parsed(typed, 0);
            quantize_parsed(&mut parsed);
            let teams = &parsed.teams.as_ref().unwrap().teams;
            let n = parsed.series.len();
            for i in 0..n {
                if typed {
                    for (j, ty) in parsed.types.iter().enumerate() {
                        let sum: f64 = teams.iter().filter_map(|t| t.by_type[j].get(i)).sum();
                        assert_eq!(ty.series.values[i], quantize_value(sum));
                    }
                    let sum: f64 = parsed.types.iter().map(|t| t.series.values[i]).sum();
                    assert_eq!(parsed.series.values[i], quantize_value(sum));
                    for t in teams {
                        let sum: f64 = t.by_type.iter().filter_map(|c| c.get(i)).sum();
                        assert_eq!(t.values[i], quantize_value(sum));
                    }
                } else {
                    let sum: f64 = teams.iter().map(|t| t.values[i]).sum();
                    assert_eq!(parsed.series.values[i], quantize_value(sum));
                }
            }
            // Each cell rounded: 2 + 0.3337 → 2.334; 1/3 → 0.333; 0.25049 → 0.25.
            let ml = &teams[0];
            let first = if typed { &ml.by_type[0] } else { &ml.values };
            assert_eq!(first[1], if typed { 2.334 } else { 2.584 });
            // Idempotent: a second rounding changes nothing.
            let again = {
                let mut p = parsed.clone();
                quantize_parsed(&mut p);
                p
            };
            assert_eq!(again, parsed);
        }
        // Without teams, exactly as before (the typed history's own rounding).
        let mut plain = team_parsed(true, 0);
        plain.teams = None;
        let mut expected = plain.clone();
        for t in &mut expected.types {
            t.series
                .values
                .iter_mut()
                .for_each(|v| *v = quantize_value(*v));
        }
        for (i, v) in expected.series.values.iter_mut().enumerate() {
            *v = quantize_value(expected.types.iter().map(|t| t.series.values[i]).sum());
        }
        quantize_parsed(&mut plain);
        assert_eq!(plain, expected);
    }

    #[test]
    fn a_history_with_teams_round_trips_through_the_link() {
        for typed in [false, true] {
            for off in [480, 0, -300] {
                let mut parsed = team_parsed(typed, off);
                quantize_parsed(&mut parsed);
                assert!(!teams_left_out(&parsed));
                let h = link_history(&parsed);
                assert_eq!(h.teams.len(), 3);
                assert_eq!(h.teams[2].name, UNALLOCATED);
                assert_eq!(h.types.len(), if typed { 2 } else { 0 });
                let data = encode_history(&h);
                let bin =
                    miniz_oxide::inflate::decompress_to_vec(&base64url_decode(&data).unwrap())
                        .unwrap();
                assert_eq!(bin[0], FORMAT_TEAMS);
                let back = decode_series(&data).unwrap();
                assert_eq!(back, h, "typed {typed} offset {off}");
                assert_eq!(back.series, parsed.series);
                if typed {
                    // search used H100 only, unallocated A100 only.
                    assert!(back.teams[1].by_type[0].is_empty());
                    assert!(back.teams[2].by_type[1].is_empty());
                    for (a, b) in back.types.iter().zip(&parsed.types) {
                        assert_eq!(a.values, b.series.values);
                    }
                }
                // The lookback cut keeps the teams on the window's hours, and travels.
                let cut = trim_history(&h, Lookback::Days(1));
                assert_eq!(cut.teams[0].values.len(), cut.series.len());
                assert_eq!(decode_series(&encode_history(&cut)).unwrap(), cut);
                // A histogram is the total only (format 1).
                let hist = LinkHistory {
                    histogram: true,
                    ..h.clone()
                };
                let back = decode_series(&encode_history(&hist)).unwrap();
                assert!(back.teams.is_empty() && back.types.is_empty());
            }
        }
        // No timestamps: format 1 or 2, the teams left out (and said so).
        for typed in [false, true] {
            let mut parsed = team_parsed(typed, 0);
            parsed.series.timestamps = None;
            for t in &mut parsed.types {
                t.series.timestamps = None;
            }
            quantize_parsed(&mut parsed);
            assert!(teams_left_out(&parsed));
            let h = link_history(&parsed);
            assert!(h.teams.is_empty());
            let back = decode_series(&encode_history(&h)).unwrap();
            assert_eq!(back, h);
        }
        // One GPU type: the teams travel untyped (as the one type's history travels as the
        // total), whether or not the reader gave the teams that type's `by_type`.
        for with_by_type in [false, true] {
            let mut parsed = team_parsed(false, 60);
            let mut one = team_parsed(true, 60).types.remove(0);
            one.series.values.clone_from(&parsed.series.values);
            parsed.types = vec![one];
            if with_by_type {
                for t in &mut parsed.teams.as_mut().unwrap().teams {
                    t.by_type = vec![t.values.clone()];
                }
            }
            quantize_parsed(&mut parsed);
            assert_eq!(parsed.types[0].series.values, parsed.series.values);
            let h = link_history(&parsed);
            assert!(h.types.is_empty());
            assert_eq!(h.teams.len(), 3);
            assert!(h.teams.iter().all(|t| t.by_type.is_empty()));
            assert_eq!(decode_series(&encode_history(&h)).unwrap(), h);
            assert_eq!(h.series, parsed.series);
        }
        // Teams that do not fit the history: rounded as without teams, left out.
        let mut odd = team_parsed(false, 0);
        odd.teams.as_mut().unwrap().teams[0].values.pop();
        let mut plain = odd.clone();
        plain.teams = None;
        quantize_parsed(&mut odd);
        quantize_parsed(&mut plain);
        assert_eq!(odd.series, plain.series);
        assert!(teams_left_out(&odd));
        // Two names that clean to the same: left out, never a link that cannot be read.
        let mut twins = team_parsed(false, 0);
        twins.teams.as_mut().unwrap().teams[1].name = format!("{ML}\u{7}");
        quantize_parsed(&mut twins);
        assert!(teams_left_out(&twins));
        assert!(!teams_left_out(&{
            let mut p = team_parsed(false, 0);
            p.teams = None;
            p
        }));
    }

    #[test]
    fn a_history_with_teams_parses_back_from_its_text() {
        for typed in [false, true] {
            for off in [480, 0, -300] {
                let opts = ParseOptions {
                    utc_offset_minutes: off,
                    ..Default::default()
                };
                // The reader reads the user's table as this module's model of it.
                let mut parsed = parse(&team_text(typed), &opts).unwrap();
                quantize_parsed(&mut parsed);
                let mut model = team_parsed(typed, off);
                quantize_parsed(&mut model);
                let teams = |p: &Parsed| p.teams.as_ref().map(|t| t.teams.clone());
                assert_eq!(teams(&parsed), teams(&model), "typed {typed} offset {off}");
                assert_eq!(parsed.series, model.series);
                let h = link_history(&parsed);
                assert_eq!(h, link_history(&model));
                // The text the link reopens as parses back to the same history, teams included.
                let back = decode_series(&encode_history(&h)).unwrap();
                let text = history_to_csv(&back);
                let mut again = parse(&text, &opts).unwrap();
                quantize_parsed(&mut again);
                assert_eq!(again.report.rows_rejected, 0);
                assert_eq!(again.series, parsed.series, "typed {typed} offset {off}");
                assert_eq!(teams(&again), teams(&parsed), "typed {typed} offset {off}");
                assert_eq!(again.types.len(), parsed.types.len());
                for (a, b) in again.types.iter().zip(&parsed.types) {
                    assert_eq!(a.key, b.key);
                    assert_eq!(a.label, b.label);
                    assert_eq!(a.series, b.series);
                }
                assert_eq!(link_history(&again), h);
            }
        }
    }

    /// What a link opens as (its text, parsed and rounded) is the history it carried.
    fn reads_back(h: &LinkHistory) -> LinkHistory {
        let opts = ParseOptions {
            utc_offset_minutes: h.series.utc_offset_minutes,
            ..Default::default()
        };
        let mut p = parse(&history_to_csv(h), &opts).unwrap();
        quantize_parsed(&mut p);
        assert_eq!(p.report.rows_rejected, 0);
        link_history(&p)
    }

    #[test]
    fn long_histories_with_teams_read_back_from_their_text() {
        for (samples, typed) in [(true, false), (false, false), (false, true)] {
            let h = four_teams(samples, typed);
            let back = decode_series(&encode_history(&h)).unwrap();
            assert_eq!(reads_back(&back), h, "samples {samples} typed {typed}");
            // The lookback window: a team may be 0 throughout, and is still read.
            let mut cut = trim_history(&back, Lookback::Days(7));
            cut.teams[1].values.iter_mut().for_each(|v| *v = 0.0);
            if typed {
                for c in &mut cut.teams[1].by_type {
                    c.iter_mut().for_each(|v| *v = 0.0);
                }
                for (j, t) in cut.types.iter_mut().enumerate() {
                    for (i, v) in t.values.iter_mut().enumerate() {
                        *v = quantize_value(cut.teams.iter().map(|t| t.by_type[j][i]).sum());
                    }
                }
            }
            let cut = decode_series(&encode_history(&cut)).unwrap();
            assert_eq!(reads_back(&cut), cut, "samples {samples} typed {typed}");
        }
        // The first team used only the second type (the types still read back in order);
        // the link sums the types and totals again.
        let mut h = four_teams(false, true);
        h.teams[0].by_type[0] = Vec::new();
        let h = decode_series(&encode_history(&h)).unwrap();
        assert!(h.teams[0].by_type[0].is_empty());
        assert_eq!(reads_back(&h), h);
    }

    #[test]
    fn a_history_with_teams_is_written_as_a_long_table() {
        let mut parsed = team_parsed(true, 0);
        quantize_parsed(&mut parsed);
        let text = history_to_csv(&link_history(&parsed));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "timestamp,gpu_type,team,gpus");
        // The first hour: every (team, type) used, the types and teams in order.
        let t0 = stamp(START);
        assert_eq!(
            lines[1..5],
            [
                format!("{t0},\"{A100}\",\"{ML}\",2"),
                format!("{t0},\"{H100}\",\"{ML}\",0"),
                format!("{t0},\"{H100}\",\"search \"\"ranking\"\", ads\",0.333"),
                format!("{t0},\"{A100}\",,0.5"),
            ]
        );
        // Later hours: the rows that are not 0 (hour 1: no search row, no unallocated).
        let t1 = stamp(START + 3600);
        assert_eq!(
            lines[5..7],
            [
                format!("{t1},\"{A100}\",\"{ML}\",2.334"),
                format!("{t1},\"{H100}\",\"{ML}\",0.25")
            ]
        );
        assert!(
            !text.contains(&stamp(START + 7 * 3600)),
            "the gap stays a gap"
        );
        // Untyped: `timestamp,team,gpus`.
        let mut parsed = team_parsed(false, 0);
        quantize_parsed(&mut parsed);
        let text = history_to_csv(&link_history(&parsed));
        assert!(text.starts_with(&format!(
            "timestamp,team,gpus\n{t0},\"{ML}\",2\n\
             {t0},\"search \"\"ranking\"\", ads\",0.333\n{t0},,0.5\n{t1},\"{ML}\",2.584\n"
        )));
        // An hour where every team is 0 keeps one row (not a gap).
        let mut h = link_history(&parsed);
        for t in &mut h.teams {
            t.values[3] = 0.0;
        }
        let text = history_to_csv(&h);
        let t3 = stamp(START + 3 * 3600);
        assert!(text.contains(&format!("\n{t3},\"{ML}\",0\n")), "{text}");
    }

    #[test]
    fn first_rows_follow_the_order_of_types_and_teams() {
        let team = |name: &str, used: &[bool]| LinkTeam {
            name: name.into(),
            values: vec![0.0],
            by_type: used
                .iter()
                .map(|&u| if u { vec![0.0] } else { Vec::new() })
                .collect(),
        };
        // A uses only the second type, B the first and the second, C the first.
        let teams = [
            team("A", &[false, true]),
            team("B", &[true, true]),
            team("C", &[true, false]),
        ];
        // B+t0 would put B before A: A needs t1, t1 needs t0 first… the unallocated team
        // (free: read last whatever its rows) introduces t0.
        let with_free = [team(UNALLOCATED, &[true, false]), teams[0].clone()];
        assert_eq!(first_rows(&with_free, 2), vec![(0, 0), (1, 1)]);
        // Without a free team: no order of rows gives both orders; the next team comes with
        // its first type (t1 first), every team and type still written.
        assert_eq!(first_rows(&teams, 2), vec![(0, 1), (1, 1), (1, 0), (2, 0)]);
        let ok = [team("A", &[true, false]), team("B", &[false, true])];
        assert_eq!(first_rows(&ok, 2), vec![(0, 0), (1, 1)]);
        let ok = [team("A", &[true, true]), team("B", &[false, true])];
        assert_eq!(first_rows(&ok, 2), vec![(0, 0), (0, 1), (1, 1)]);
    }

    /// Format 3 with timestamps from [`START`], offset 0: the labels, then the teams (name and
    /// the type byte when typed), then the given value bytes and n − 1 deltas of 1.
    fn format3(n: u8, labels: &[&[u8]], teams: &[(&[u8], u8)], values: &[u8]) -> Vec<u8> {
        let mut b = vec![3, 1, n, 0];
        put_varint(&mut b, zigzag(START / 3600));
        put_varint(&mut b, labels.len() as u64);
        for l in labels {
            put_varint(&mut b, l.len() as u64);
            b.extend(*l);
        }
        put_varint(&mut b, teams.len() as u64);
        for (name, bits) in teams {
            put_varint(&mut b, name.len() as u64);
            b.extend(*name);
            if !labels.is_empty() {
                b.push(*bits);
            }
        }
        b.extend(values);
        b.extend(std::iter::repeat_n(1, usize::from(n).saturating_sub(1)));
        b
    }

    #[test]
    fn hostile_histories_with_teams_are_named_never_a_panic() {
        let deflate = |b: &[u8]| base64url_encode(&miniz_oxide::deflate::compress_to_vec(b, 6));
        let check = |b: &[u8]| decode_series(&deflate(b));
        // Good: untyped two teams over two hours; typed, one team on one type only.
        let h = check(&format3(2, &[], &[(b"a", 0), (b"b", 0)], &[1, 2, 3, 4])).unwrap();
        assert_eq!(h.series.values, vec![0.004, 0.006]);
        assert_eq!(h.teams[1].values, vec![0.003, 0.004]);
        let typed = format3(1, &[b"A100", b"H100"], &[(b"a", 3), (b"b", 2)], &[5, 7, 9]);
        let h = check(&typed).unwrap();
        assert_eq!(h.types[0].values, vec![0.005]);
        assert_eq!(h.types[1].values, vec![0.016]);
        assert_eq!(h.teams[1].by_type, vec![vec![], vec![0.009]]);
        assert_eq!(h.series.values, vec![0.021]);
        // Every cut of a good binary is refused, never read.
        let good = format3(
            2,
            &[b"A100", b"H100"],
            &[(b"a", 3), (b"b", 2)],
            &[5, 7, 9, 1, 2, 3],
        );
        assert!(from_binary(&good).is_ok());
        for cut in 0..good.len() {
            assert!(from_binary(&good[..cut]).is_err(), "{cut}");
        }
        let malformed: Vec<(&str, Vec<u8>)> = vec![
            ("no teams", format3(1, &[], &[], &[])),
            ("a value missing", format3(2, &[], &[(b"a", 0)], &[1])),
            ("trailing byte", format3(1, &[], &[(b"a", 0)], &[1, 1])),
            (
                "the same name twice",
                format3(1, &[], &[(b"a", 0), (b"a", 0)], &[1, 2]),
            ),
            (
                "a control character",
                format3(1, &[], &[(b"a\nb", 0)], &[1]),
            ),
            ("an escape", format3(1, &[], &[(b"a\x1b[31m", 0)], &[1])),
            ("not trimmed", format3(1, &[], &[(b" a", 0)], &[1])),
            ("empty name", format3(1, &[], &[(b"", 0)], &[1])),
            ("not UTF-8", format3(1, &[], &[(b"\xff", 0)], &[1])),
            ("41 characters", format3(1, &[], &[(&[b'x'; 41], 0)], &[1])),
            ("one type", format3(1, &[b"A100"], &[(b"a", 1)], &[1])),
            (
                "same type twice",
                format3(1, &[b"A100", b"a100"], &[(b"a", 3)], &[1, 2]),
            ),
            (
                "no type used",
                format3(1, &[b"A", b"H"], &[(b"a", 0), (b"b", 3)], &[1, 2]),
            ),
            (
                "a type beyond k",
                format3(1, &[b"A", b"H"], &[(b"a", 7)], &[1, 2, 3]),
            ),
            (
                "a type nobody used",
                format3(1, &[b"A", b"H"], &[(b"a", 1)], &[1]),
            ),
        ];
        for (what, b) in &malformed {
            assert_eq!(check(b).err(), Some(HistoryError::Malformed), "{what}");
        }
        // Nine types; huge m; m beyond the limit; no timestamps; a histogram flag.
        let nine: Vec<&[u8]> = vec![b"A", b"B", b"C", b"D", b"E", b"F", b"G", b"H", b"I"];
        let b = format3(1, &nine, &[(b"a", 1)], &[1]);
        assert_eq!(check(&b).err(), Some(HistoryError::Malformed));
        for m in [MAX_TEAMS as u64 + 1, u64::MAX] {
            let mut b = vec![3, 1, 1, 0];
            put_varint(&mut b, zigzag(START / 3600));
            b.push(0);
            put_varint(&mut b, m);
            b.extend([1, b'a', 1]);
            assert_eq!(check(&b).err(), Some(HistoryError::Malformed), "{m}");
        }
        let mut b = format3(1, &[], &[(b"a", 0)], &[1]);
        b[1] = 0; // no timestamps (the first hour is then read as values: refused anyway)
        assert_eq!(check(&b).err(), Some(HistoryError::Malformed));
        b[1] = 3;
        assert_eq!(check(&b).err(), Some(HistoryError::Malformed));
        // The most teams a link carries, each with a value: read; one more team: refused.
        let names: Vec<Vec<u8>> = (0..MAX_TEAMS)
            .map(|i| format!("t{i}").into_bytes())
            .collect();
        let teams: Vec<(&[u8], u8)> = names.iter().map(|n| (n.as_slice(), 0)).collect();
        let b = format3(1, &[], &teams, &vec![1; MAX_TEAMS]);
        assert_eq!(check(&b).unwrap().teams.len(), MAX_TEAMS);
        // More values than MAX_TEAM_CELLS (256 teams × 8 types × 10 years): refused before
        // any is read or allocated.
        let mut b = vec![3, 1];
        put_varint(&mut b, MAX_HOURS as u64);
        b.push(0);
        put_varint(&mut b, zigzag(START / 3600));
        b.push(8);
        for l in [b"A", b"B", b"C", b"D", b"E", b"F", b"G", b"H"] {
            b.extend([1, l[0]]);
        }
        put_varint(&mut b, 2);
        b.extend([1, b'a', 0xff, 1, b'b', 1]);
        assert_eq!(check(&b).err(), Some(HistoryError::TooLarge));
        // Claims 1 000 hours of 3 teams but carries a few bytes.
        let mut b = vec![3, 1];
        put_varint(&mut b, 1000);
        b.push(0);
        put_varint(&mut b, zigzag(START / 3600));
        b.extend([0, 3, 1, b'a', 1, b'b', 1, b'c', 5, 5, 5]);
        assert_eq!(check(&b).err(), Some(HistoryError::Malformed));
        // A value above 10⁹ GPUs.
        let mut v = Vec::new();
        put_varint(&mut v, MAX_MILLI + 1);
        assert_eq!(
            check(&format3(1, &[], &[(b"a", 0)], &v)).err(),
            Some(HistoryError::ValueTooLarge)
        );
        // Random bytes after a format-3 header never panic.
        let mut x: u64 = 0x5851_f42d_4c95_7f2d;
        for len in 0..300 {
            let mut b = vec![3, 1, (x % 4) as u8, 0];
            put_varint(&mut b, zigzag(START / 3600));
            b.push([0, 2, 3][(x % 3) as usize]);
            push_random(&mut b, &mut x, len);
            let _ = from_binary(&b);
        }
    }

    /// Four teams over 30 days, hourly. `samples`: the page's three samples and the research
    /// lab three days later (as the four-type fleet of `url::tests`). Else each hour the
    /// average of per-minute whole-GPU counts (what a scheduler's job log resamples to:
    /// multiples of 1/60, noisy in the third decimal), weekends and nights lower; `typed`:
    /// each team's usage over two types.
    fn four_teams(samples: bool, typed: bool) -> LinkHistory {
        let base = examples::series(Example::SteadyPretraining, START, 480);
        let n = base.len();
        if samples {
            let lab = examples::series(Example::BurstyLab, START, 480).values;
            let mut lab2 = lab.clone();
            lab2.rotate_left(24 * 3);
            let drop = examples::series(Example::RecentDrop, START, 480).values;
            let names = ["pretraining", "research", "inference", UNALLOCATED];
            let teams: Vec<LinkTeam> = names
                .iter()
                .zip([base.values.clone(), lab, drop, lab2])
                .map(|(name, values)| LinkTeam {
                    name: name.to_string(),
                    values: values.into_iter().map(quantize_value).collect(),
                    by_type: Vec::new(),
                })
                .collect();
            let values = (0..n)
                .map(|i| quantize_value(teams.iter().map(|t| t.values[i]).sum()))
                .collect();
            return LinkHistory {
                series: UsageSeries { values, ..base },
                histogram: false,
                types: Vec::new(),
                teams,
            };
        }
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut noisy = |level: u32, swing: u64, h: usize| -> f64 {
            let day = if (h / 24) % 7 >= 5 { 0.6 } else { 1.0 };
            let busy = if (8..20).contains(&(h % 24)) {
                1.0
            } else {
                0.7
            };
            let mut sum = 0u64;
            for _ in 0..60 {
                xorshift(&mut x);
                let b = (f64::from(level) * day * busy) as u64;
                sum += b.saturating_sub(swing / 2) + x % swing;
            }
            quantize_value(sum as f64 / 60.0)
        };
        let levels = [(32, 8), (16, 6), (8, 5), (2, 3)];
        let names = ["ml-research", "search-ranking", "speech", UNALLOCATED];
        let teams: Vec<LinkTeam> = names
            .iter()
            .zip(levels)
            .map(|(name, (level, swing))| {
                let by_type: Vec<Vec<f64>> = if typed {
                    vec![
                        (0..n).map(|h| noisy(level * 3 / 4, swing, h)).collect(),
                        (0..n).map(|h| noisy(level / 4 + 1, 2, h)).collect(),
                    ]
                } else {
                    Vec::new()
                };
                let values = if typed {
                    (0..n)
                        .map(|i| quantize_value(by_type[0][i] + by_type[1][i]))
                        .collect()
                } else {
                    (0..n).map(|h| noisy(level, swing, h)).collect()
                };
                LinkTeam {
                    name: name.to_string(),
                    values,
                    by_type,
                }
            })
            .collect();
        let types: Vec<LinkType> = if typed {
            ["A100", "H100"]
                .iter()
                .enumerate()
                .map(|(j, label)| LinkType {
                    label: label.to_string(),
                    values: (0..n)
                        .map(|i| quantize_value(teams.iter().map(|t| t.by_type[j][i]).sum()))
                        .collect(),
                })
                .collect()
        } else {
            Vec::new()
        };
        let values = (0..n)
            .map(|i| {
                quantize_value(if typed {
                    types.iter().map(|t| t.values[i]).sum()
                } else {
                    teams.iter().map(|t| t.values[i]).sum()
                })
            })
            .collect();
        LinkHistory {
            series: UsageSeries { values, ..base },
            histogram: false,
            types,
            teams,
        }
    }

    #[test]
    fn a_30_day_hourly_history_of_four_teams_fits_in_8000_characters() {
        // Measured (recorded in docs/url.md): `lang`, `tz` and the `data` of four teams,
        // query string only (untyped; and typed, two types, the fleet parameters left out).
        use crate::state::{Lang, UsageMode};
        let mut lengths = Vec::new();
        for (samples, typed) in [(true, false), (false, false), (false, true)] {
            let h = four_teams(samples, typed);
            assert_eq!(h.series.len(), 720);
            let state = crate::link::LinkState {
                lang: Some(Lang::En),
                mode: UsageMode::Data,
                tz: Some(crate::core::zone::ZoneChoice::Offset(480)),
                history: Some(h.clone()),
                ..Default::default()
            };
            let q = crate::link::encode_with_history(&state);
            let (back, problems) = crate::link::decode(&q);
            assert_eq!(problems, vec![]);
            assert_eq!(back.history.as_ref(), Some(&h));
            let without = crate::link::encode_with_history(&crate::link::LinkState {
                history: Some(LinkHistory {
                    teams: Vec::new(),
                    ..h.clone()
                }),
                ..state.clone()
            });
            println!(
                "four teams, 30 days hourly, samples {samples} typed {typed}: query {} \
                 characters (without the teams {})",
                q.len(),
                without.len()
            );
            lengths.push(q.len());
        }
        assert_eq!(lengths, vec![3049, 6499, 10772]);
        // Within 8 000 characters with a 44-character page address and the team choice; the
        // typed one is not (eight noisy series): the share panel's lookback window.
        assert!(lengths[..2]
            .iter()
            .all(|&l| l + 60 <= crate::link::PRACTICAL_LINK_CHARS));
    }
}

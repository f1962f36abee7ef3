//! Layout detection from the first lines: delimiter, header, column roles, format.

use super::meaning::{
    decide, label_set, measure_to_read, not_usage, CellFacts, ColumnMeaning, MeaningReport,
};
use super::number::parse_number;
use super::split::split_fields;
use super::timestamp::{
    day_month_fields, is_excel_serial, mentions_month, order_of, parse_datetime, parse_epoch,
    parse_time_of_day, OrderEvidence,
};
use super::types::{looks_like_gpu_type, type_header};
use super::{
    ColumnChoice, ColumnUse, DateOrder, Delimiter, Format, IngestError, NotUsage, OrderSource,
    ParseOptions, TimeForm, TimestampStyle, ValueColumn,
};
use crate::core::zone::Zone;

/// A timestamp made of one column, or a date column plus a time column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TsCol {
    pub col: usize,
    pub time_col: Option<usize>,
    pub epoch: bool,
    /// Excel serial day numbers.
    pub excel: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Mode {
    /// Numeric columns; with a timestamp or consecutive hours.
    Wide { cols: Vec<usize> },
    /// Long table: a series-name column and one value column.
    Pivot { key: usize, value: usize },
    /// nvidia-smi: GPU id column (or a single GPU) and utilization column.
    Nvidia { id: Option<usize>, util: usize },
    /// Job log: end timestamp and GPUs column (or 1 GPU per job).
    Job { end: TsCol, gpus: Option<usize> },
}

/// What carries the GPU types of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Typing {
    /// Untyped.
    None,
    /// A column of type names.
    Column(usize),
    /// Wide table: each value column's header names a type.
    Headers,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Layout {
    pub format: Format,
    pub delimiter: Delimiter,
    pub has_header: bool,
    pub header: Vec<String>,
    /// The header line as written (skipped wherever it repeats).
    pub header_line: Option<String>,
    pub ts: Option<TsCol>,
    pub ts_style: Option<TimestampStyle>,
    pub naive: bool,
    pub mode: Mode,
    /// For `Wide`: resolved; for series modes: `None` until the series are known.
    pub used: Option<ColumnUse>,
    /// The order of day and month for `a/b/yyyy` dates, when the file has such dates.
    pub date_order: Option<(DateOrder, OrderSource)>,
    /// A column that looks like time but is not read as time: (column, example cell).
    pub unread_time: Option<(usize, String)>,
    pub typing: Typing,
    /// What the value columns hold (tables), and why.
    pub meaning: Option<MeaningReport>,
    /// Utilisation columns' GPU models from their headers' label sets (`modelName`), one
    /// per value column: the types of a `Typing::Headers` table instead of the headers.
    pub models: Option<(String, Vec<String>)>,
    /// A long table's value column: what its cells look like (the series' meaning is
    /// decided from their names once they are known).
    pub value_cells: Option<CellFacts>,
    /// A long table's team columns ([`is_team_header`]), in header order: each is one more
    /// series-name dimension (a series per team, name and type), and one of them names the
    /// teams ([`super::Parsed::teams`]). Empty for every other layout.
    pub teams: Vec<usize>,
}

/// Headers of a column that names teams (compared trimmed, without ASCII case).
const TEAM_HEADERS: &[&str] = &[
    "team",
    "团队",
    "部门",
    "项目",
    "account",
    "namespace",
    "project",
    "tenant",
    "department",
    "cost_center",
    "owner",
];

/// A header that names teams: `team`, `namespace`, `project`, `团队`, … (never a value, time
/// or GPU type column).
pub(crate) fn is_team_header(header: &str) -> bool {
    let h = header.trim().trim_matches('"').trim();
    TEAM_HEADERS.iter().any(|t| h.eq_ignore_ascii_case(t))
}

impl Layout {
    pub fn name(&self, col: usize) -> String {
        self.header.get(col).cloned().unwrap_or_default()
    }

    /// Field `col` with its header, for the report.
    pub fn column(&self, col: usize) -> ValueColumn {
        ValueColumn {
            field: col,
            name: self.name(col),
        }
    }
}

impl TsCol {
    /// A timestamp in one column (no separate time-of-day column).
    fn one(col: usize, epoch: bool, excel: bool) -> Self {
        TsCol {
            col,
            time_col: None,
            epoch,
            excel,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Empty,
    DateTime(TimestampStyle),
    DateOnly,
    TimeOnly,
    Epoch(TimestampStyle),
    Number,
    Text,
}

fn classify(cell: &str, zone: &Zone, order: DateOrder) -> Kind {
    let t = cell.trim();
    if t.is_empty() {
        return Kind::Empty;
    }
    if let Ok(ts) = parse_datetime(t, zone, order) {
        return if ts.date_only {
            Kind::DateOnly
        } else {
            Kind::DateTime(ts.style)
        };
    }
    if parse_time_of_day(t).is_some() {
        return Kind::TimeOnly;
    }
    if parse_number(t).is_ok() {
        let int_digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if int_digits >= 9 {
            if let Ok(ts) = parse_epoch(t) {
                return Kind::Epoch(ts.style);
            }
        }
        return Kind::Number;
    }
    Kind::Text
}

#[derive(Debug, Default, Clone)]
struct Stats {
    nonempty: usize,
    datetime: usize,
    date: usize,
    time: usize,
    epoch: usize,
    number: usize,
    text: usize,
    /// Numbers in Excel's serial-date range.
    excel: usize,
    /// Cells that look like a date or time (digits with `/ . - :`, `AM`/`PM`).
    timeish: usize,
    /// The first non-empty cell.
    example: Option<String>,
    style: Option<TimestampStyle>,
}

impl Stats {
    /// At least 80 % of the non-empty cells.
    fn share(&self, n: usize) -> bool {
        self.nonempty > 0 && n * 5 >= self.nonempty * 4
    }
    /// At least half of the non-empty cells (a few bad rows do not hide a column).
    fn most(&self, n: usize) -> bool {
        self.nonempty > 0 && n * 2 >= self.nonempty
    }
    fn numeric(&self) -> bool {
        self.nonempty > 0 && self.number * 2 >= self.nonempty && self.number > self.text
    }
}

fn lower(s: &str) -> String {
    s.to_ascii_lowercase()
}

fn has_any(name: &str, words: &[&str]) -> bool {
    words.iter().any(|w| name.contains(w))
}

const TIME_WORDS: &[&str] = &[
    "time",
    "date",
    "timestamp",
    "时间",
    "日期",
    "时刻",
    "epoch",
    "zeit",
    "datum",
];
/// Free-text columns: never GPU counts.
const NOTE_WORDS: &[&str] = &[
    "note",
    "comment",
    "remark",
    "desc",
    "memo",
    "message",
    "备注",
    "说明",
    "注释",
    "描述",
    "bemerkung",
    "kommentar",
];
/// A free-text header: a note word as a word of its own (`notes`, `job comment`,
/// `description`, `备注`), not inside another (`notebooks`, a namespace).
fn is_note(name: &str) -> bool {
    // ASCII letters and digits, and any other character but ASCII (not
    // `char::is_alphanumeric`: its Unicode tables cost the page ~12 KB).
    name.split(|c: char| c.is_ascii() && !c.is_ascii_alphanumeric())
        .any(|w| {
            NOTE_WORDS.iter().any(|n| {
                if n.is_ascii() {
                    w == *n
                        || w.strip_suffix('s') == Some(n)
                        || (w.starts_with(n) && matches!(*n, "desc" | "comment" | "remark"))
                } else {
                    w.contains(n)
                }
            })
        })
}

const START_WORDS: &[&str] = &["start", "begin", "开始", "起始"];
const END_WORDS: &[&str] = &["end", "finish", "stop", "结束", "终止"];
const GPU_WORDS: &[&str] = &[
    "gpu", "卡", "台数", "busy", "数量", "使用", "value", "count",
];
const TOTAL_WORDS: &[&str] = &["total", "sum", "合计", "总"];
const UTIL_WORDS: &[&str] = &["utilization.gpu", "utilization", "利用率"];
const GPU_ID_WORDS: &[&str] = &["index", "uuid", "pci.bus_id", "gpu_id", "gpu id", "编号"];

/// Guess the delimiter: the first candidate that splits (almost) every line into the
/// same number (≥ 2) of fields.
fn guess_delimiter(lines: &[&str]) -> Delimiter {
    let mut buf = Vec::new();
    for d in [
        Delimiter::Tab,
        Delimiter::Semicolon,
        Delimiter::Comma,
        Delimiter::FullWidthComma,
        Delimiter::Pipe,
        Delimiter::Whitespace,
    ] {
        let mut counts: Vec<usize> = lines
            .iter()
            .map(|l| {
                split_fields(l, d, &mut buf);
                buf.len()
            })
            .collect();
        counts.sort_unstable();
        let mode = mode_of(&counts);
        let agree = counts.iter().filter(|&&c| c == mode).count();
        if mode >= 2 && agree * 5 >= counts.len() * 4 {
            if d == Delimiter::Comma && lines.iter().all(|l| thousands_only(l)) {
                continue;
            }
            return d;
        }
    }
    Delimiter::None
}

/// `1,234` / `-12,345,678.5`: a single number with thousands commas, not a table.
fn thousands_only(line: &str) -> bool {
    let t = line.trim().trim_matches('"');
    let t = t.strip_prefix('-').unwrap_or(t);
    let int = t.split('.').next().unwrap_or("");
    let mut groups = int.split(',');
    let first = groups.next().unwrap_or("");
    !first.is_empty()
        && first.len() <= 3
        && first.bytes().all(|b| b.is_ascii_digit())
        && groups.all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()))
}

fn mode_of(sorted: &[usize]) -> usize {
    let mut best = (0, 0);
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j < sorted.len() && sorted[j] == sorted[i] {
            j += 1;
        }
        if j - i > best.1 || (j - i == best.1 && sorted[i] > best.0) {
            best = (sorted[i], j - i);
        }
        i = j;
    }
    best.0
}

/// Detect the layout from the first content lines (comments already removed).
pub(crate) fn detect(
    lines: &[&str],
    opts: &ParseOptions,
    sep_hint: Option<Delimiter>,
    forced_order: Option<DateOrder>,
) -> Result<Layout, IngestError> {
    let zone = opts.zone();
    let delimiter = match (opts.format, opts.delimiter.or(sep_hint)) {
        (_, Some(d)) => d,
        (Some(Format::Values), None) => Delimiter::None,
        (_, None) => guess_delimiter(lines),
    };
    let mut buf = Vec::new();
    let rows: Vec<Vec<&str>> = lines
        .iter()
        .map(|l| {
            split_fields(l, delimiter, &mut buf);
            buf.iter().map(|&(a, b)| &l[a..b]).collect()
        })
        .collect();
    // The order of day and month: chosen, fixed by a date of the file (a field above 12),
    // or the browser locale's.
    let mut evidence = OrderEvidence::default();
    let mut day_month_dates = false;
    for cell in rows.iter().flatten() {
        if let Some((a, b)) = day_month_fields(cell) {
            day_month_dates = true;
            if let Some(o) = order_of(a, b) {
                evidence.add(o);
            }
        }
    }
    let (order, order_source) = match (opts.time_form, forced_order) {
        (TimeForm::MonthFirst, _) => (DateOrder::MonthFirst, OrderSource::Choice),
        (TimeForm::DayFirst, _) => (DateOrder::DayFirst, OrderSource::Choice),
        (_, Some(o)) => (o, OrderSource::File),
        _ => match evidence.decided() {
            Some(o) => (o, OrderSource::File),
            None => (opts.locale_date_order, OrderSource::Locale),
        },
    };
    let kinds: Vec<Vec<Kind>> = rows
        .iter()
        .map(|r| r.iter().map(|c| classify(c, &zone, order)).collect())
        .collect();
    let texts = |k: &[Kind]| k.iter().filter(|&&k| k == Kind::Text).count();
    let has_header = opts.header.unwrap_or_else(|| match kinds.len() {
        0 => false,
        1 => texts(&kinds[0]) > 0 && texts(&kinds[0]) == kinds[0].len(),
        _ => texts(&kinds[0]) > texts(&kinds[1]),
    });
    let header: Vec<String> = if has_header {
        rows.first()
            .map(|r| r.iter().map(|s| s.to_string()).collect())
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let header_line = if has_header {
        lines.first().map(|l| l.trim().to_string())
    } else {
        None
    };
    let skip = usize::from(has_header);
    let data = &kinds[skip.min(kinds.len())..];
    let data_rows = &rows[skip.min(rows.len())..];
    let mut counts: Vec<usize> = data.iter().map(Vec::len).collect();
    counts.sort_unstable();
    let ncols = mode_of(&counts).max(header.len()).max(1);
    let mut stats = vec![Stats::default(); ncols];
    for (row, cells) in data.iter().zip(data_rows) {
        for (j, k) in row.iter().enumerate().take(ncols) {
            let s = &mut stats[j];
            let cell = cells.get(j).copied().unwrap_or("");
            if *k != Kind::Empty {
                s.nonempty += 1;
                if s.example.is_none() {
                    s.example = Some(super::excerpt(cell));
                }
                if looks_like_time(cell) {
                    s.timeish += 1;
                }
            }
            if *k == Kind::Number && is_excel_serial(cell) {
                s.excel += 1;
            }
            match *k {
                Kind::DateTime(st) => {
                    s.datetime += 1;
                    s.style.get_or_insert(st);
                }
                Kind::DateOnly => s.date += 1,
                Kind::TimeOnly => s.time += 1,
                Kind::Epoch(st) => {
                    s.epoch += 1;
                    s.number += 1;
                    s.style.get_or_insert(st);
                }
                Kind::Number => s.number += 1,
                Kind::Text => s.text += 1,
                Kind::Empty => {}
            }
        }
    }
    let names: Vec<String> = (0..ncols)
        .map(|j| lower(header.get(j).map_or("", |s| s)))
        .collect();
    // Team columns (by their header): never time, values, types or a series-name column of
    // their own; a long table reads them as series dimensions.
    let team_cols: Vec<usize> = (0..ncols)
        .filter(|&j| header.get(j).is_some_and(|h| is_team_header(h)))
        .collect();
    let is_team = |j: usize| team_cols.contains(&j);

    // Timestamp columns.
    let mut ts_cols: Vec<(TsCol, Option<TimestampStyle>)> = Vec::new();
    let mut used = vec![false; ncols];
    let time_named = |j: usize| {
        let name = &names[j];
        has_any(name, TIME_WORDS) || has_any(name, START_WORDS) || has_any(name, END_WORDS)
    };
    // A chosen numeric form applies to the first time-named column, else the first column.
    let forced_col = match opts.time_form {
        TimeForm::ExcelSerial | TimeForm::Unix => (0..ncols).find(|&j| time_named(j)).or(Some(0)),
        _ => None,
    };
    for j in 0..ncols {
        if used[j] || is_team(j) {
            continue;
        }
        let s = &stats[j];
        let time_named = time_named(j);
        if forced_col == Some(j) {
            let excel = opts.time_form == TimeForm::ExcelSerial;
            ts_cols.push((
                TsCol::one(j, !excel, excel),
                Some(if excel {
                    TimestampStyle::ExcelSerial
                } else {
                    s.style.unwrap_or(TimestampStyle::EpochSeconds)
                }),
            ));
            used[j] = true;
        } else if s.most(s.datetime) {
            ts_cols.push((TsCol::one(j, false, false), s.style));
            used[j] = true;
        } else if s.most(s.date) {
            if j + 1 < ncols && stats[j + 1].most(stats[j + 1].time) {
                ts_cols.push((
                    TsCol {
                        col: j,
                        time_col: Some(j + 1),
                        epoch: false,
                        excel: false,
                    },
                    Some(TimestampStyle::IsoLocal),
                ));
                used[j + 1] = true;
            } else {
                ts_cols.push((TsCol::one(j, false, false), Some(TimestampStyle::DateOnly)));
            }
            used[j] = true;
        } else if s.share(s.epoch) {
            let prev_epoch = ts_cols
                .last()
                .is_some_and(|(t, _)| t.epoch && t.col + 1 == j);
            if time_named || (j == 0 && ncols >= 2) || prev_epoch {
                ts_cols.push((TsCol::one(j, true, false), s.style));
                used[j] = true;
            }
        } else if time_named && s.share(s.excel) && s.excel == s.number {
            // Excel serial dates (the cell kept its number format): only when the header
            // says time, so a GPU count is never read as a date.
            ts_cols.push((
                TsCol::one(j, false, true),
                Some(TimestampStyle::ExcelSerial),
            ));
            used[j] = true;
        }
    }
    // A column of GPU type names (`gpu_type`, `型号`; `type` / `model` when its cells look
    // like GPU types): never GPUs busy, even when the types are numbers (`4090`).
    let type_col = (0..ncols).find(|&j| {
        let Some(always) = header.get(j).and_then(|h| type_header(h)) else {
            return false;
        };
        if used[j] || stats[j].nonempty == 0 || is_team(j) {
            return false;
        }
        always || {
            let mut v: Vec<&str> = data_rows
                .iter()
                .filter_map(|r| r.get(j).copied())
                .filter(|c| !c.trim().is_empty())
                .collect();
            v.sort_unstable();
            v.dedup();
            !v.is_empty() && v.iter().filter(|c| looks_like_gpu_type(c)).count() * 2 >= v.len()
        }
    });
    // Free-text columns (notes) never give GPUs, nor does a time-named column that was not
    // read as time, unless it is the only number there is.
    let candidates: Vec<usize> = (0..ncols)
        .filter(|&j| {
            !used[j]
                && Some(j) != type_col
                && !is_team(j)
                && stats[j].numeric()
                && !is_note(&names[j])
        })
        .collect();
    let numeric: Vec<usize> = {
        let untimed: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&j| !time_named(j))
            .collect();
        if untimed.is_empty() {
            candidates
        } else {
            untimed
        }
    };
    // A wide table of several series: a named column without a value in the first lines
    // (a namespace that starts later, Grafana's empty cells) is one more series, never
    // dropped unseen.
    let numeric: Vec<usize> = if has_header && numeric.len() >= 2 {
        let mut n = numeric;
        n.extend((0..ncols).filter(|&j| {
            !used[j]
                && Some(j) != type_col
                && !is_team(j)
                && stats[j].nonempty == 0
                && !names[j].trim().is_empty()
                && !time_named(j)
                && !is_note(&names[j])
        }));
        n.sort_unstable();
        n
    } else {
        numeric
    };
    // A column that looks like time but is not read as time: say so, never silently.
    let unread_time = (0..ncols)
        .filter(|&j| !used[j] && !numeric.contains(&j) && Some(j) != type_col && !is_team(j))
        .find(|&j| {
            let s = &stats[j];
            s.nonempty > 0 && (s.most(s.timeish) || time_named(j))
        })
        .or_else(|| {
            // A time-named numeric column read as a number.
            (0..ncols).find(|&j| !used[j] && !is_team(j) && time_named(j) && stats[j].nonempty > 0)
        })
        .map(|j| (j, stats[j].example.clone().unwrap_or_default()));
    let find =
        |words: &[&str], pool: &[usize]| pool.iter().copied().find(|&j| has_any(&names[j], words));
    // nvidia-smi's `utilization.gpu [%]`: one such column, not a Prometheus label set (a
    // Grafana export of `nvidia_smi_utilization_gpu_ratio{…}`), nor one of several per-GPU
    // utilisation columns (a wide table of GPUs, read by `meaning`).
    let util_cols: Vec<usize> = (0..ncols)
        .filter(|&j| has_any(&names[j], UTIL_WORDS) && label_set(&names[j]).is_none())
        .collect();
    let util_col = util_cols
        .iter()
        .copied()
        .find(|&j| names[j].contains("utilization.gpu"))
        .or(match util_cols[..] {
            [j] if !(0..ncols).any(|k| k != j && label_set(&names[k]).is_some()) => Some(j),
            _ => None,
        });

    // A GPU log without its header (`nvidia-smi … --format=csv,noheader`): a time, a column
    // of GPU model names and several numbers (index, utilisation, memory): refused, never
    // summed.
    if opts.format.is_none()
        && !has_header
        && !ts_cols.is_empty()
        && numeric.len() >= 2
        && (0..ncols).any(|j| {
            !used[j] && stats[j].text > 0 && stats[j].most(stats[j].text) && {
                let named = data_rows
                    .iter()
                    .filter_map(|r| r.get(j))
                    .filter(|c| looks_like_gpu_type(c))
                    .count();
                named * 2 > stats[j].nonempty
            }
        })
    {
        return Err(IngestError::NotUsage(NotUsage::HeaderlessGpuLog));
    }
    let format = opts.format.unwrap_or_else(|| {
        if util_col.is_some() && !ts_cols.is_empty() {
            Format::NvidiaSmi
        } else if ts_cols.len() >= 2 {
            Format::JobLog
        } else if ncols == 1 && ts_cols.is_empty() {
            Format::Values
        } else if is_grafana(&names, header_line.as_deref()) {
            Format::GrafanaCsv
        } else {
            Format::Table
        }
    });

    let first_ts = ts_cols.first().copied();
    let mut layout = Layout {
        format,
        delimiter,
        has_header,
        header,
        header_line,
        ts: first_ts.map(|t| t.0),
        ts_style: first_ts.and_then(|t| t.1),
        naive: false,
        mode: Mode::Wide { cols: Vec::new() },
        used: None,
        date_order: day_month_dates.then_some((order, order_source)),
        unread_time: None,
        typing: Typing::None,
        meaning: None,
        models: None,
        value_cells: None,
        teams: Vec::new(),
    };
    layout.unread_time = unread_time;
    layout.naive = !matches!(
        layout.ts_style,
        None | Some(TimestampStyle::IsoWithOffset)
            | Some(TimestampStyle::EpochSeconds)
            | Some(TimestampStyle::EpochMillis)
    );

    match format {
        Format::Values => {
            layout.ts = None;
            layout.ts_style = None;
            layout.naive = false;
            if delimiter == Delimiter::None || ncols == 1 {
                layout.mode = Mode::Wide { cols: vec![0] };
            } else if let Some(&c) = numeric.first() {
                layout.mode = Mode::Wide { cols: vec![c] };
            } else {
                return Err(IngestError::NoNumericColumn);
            }
            layout.used = Some(ColumnUse::One(0));
        }
        Format::Table | Format::GrafanaCsv | Format::PrometheusJson => {
            if numeric.is_empty() {
                return Err(IngestError::NoNumericColumn);
            }
            // A series-name column of a long table: text, few distinct values; never a notes
            // column (free text repeats too: "ok", "retry"), nor the type column.
            let key = (0..ncols).find(|&j| {
                !used[j]
                    && Some(j) != type_col
                    && !is_team(j)
                    && !is_note(&names[j])
                    && stats[j].text * 2 >= stats[j].nonempty
                    && stats[j].nonempty > 0
                    && {
                        let mut v: Vec<&str> =
                            data_rows.iter().filter_map(|r| r.get(j).copied()).collect();
                        v.sort_unstable();
                        v.dedup();
                        v.len() * 2 <= data_rows.len().max(2)
                    }
            });
            let typed_col = type_col.filter(|_| layout.ts.is_some());
            // A team column is a series-name dimension of a long table (the first is the
            // series-name column when there is no other).
            let long_teams = numeric.len() == 1 && layout.ts.is_some() && !team_cols.is_empty();
            let key = match key {
                None if long_teams => team_cols.first().copied(),
                k => k,
            };
            match (key, typed_col) {
                // Types in a column: one series per type (per series-name and type when the
                // table also has a series-name column).
                (key, Some(tc)) if numeric.len() == 1 => {
                    layout.typing = Typing::Column(tc);
                    layout.mode = Mode::Pivot {
                        key: key.unwrap_or(tc),
                        value: numeric[0],
                    };
                    if long_teams {
                        layout.teams = team_cols.clone();
                    }
                }
                (Some(key), None) if numeric.len() == 1 && layout.ts.is_some() => {
                    layout.mode = Mode::Pivot {
                        key,
                        value: numeric[0],
                    };
                    layout.value_cells = Some(CellFacts::of(
                        data_rows.iter().filter_map(|r| r.get(numeric[0]).copied()),
                    ));
                    layout.teams = team_cols.clone();
                }
                _ => {
                    let used = match opts.column {
                        ColumnChoice::One(k) if k < numeric.len() => ColumnUse::One(k),
                        ColumnChoice::One(k) => {
                            return Err(IngestError::NoSuchColumn {
                                index: k,
                                available: numeric.len(),
                            })
                        }
                        ColumnChoice::Sum => ColumnUse::Sum,
                        ColumnChoice::Auto => {
                            auto_column(&numeric, &names, |j| stats[j].nonempty > 0)
                        }
                    };
                    layout.typing = match typed_col {
                        Some(tc) => Typing::Column(tc),
                        // Every value column named like a GPU type: one series per type.
                        None if has_header
                            && numeric.iter().all(|&j| {
                                looks_like_gpu_type(layout.header.get(j).map_or("", |h| h))
                            }) =>
                        {
                            Typing::Headers
                        }
                        None => Typing::None,
                    };
                    // A typed wide table reads every type unless one column is chosen.
                    let mut used = match (layout.typing, opts.column) {
                        (Typing::Headers, ColumnChoice::Auto) => ColumnUse::Sum,
                        _ => used,
                    };
                    // What the value columns hold: counts, one GPU's utilisation each, or
                    // series to sum (a Grafana export of per-GPU utilisation is not counts).
                    let heads: Vec<String> = numeric
                        .iter()
                        .map(|&j| {
                            layout
                                .header
                                .get(j)
                                .map_or(String::new(), |h| h.replace("\"\"", "\""))
                        })
                        .collect();
                    let heads: Vec<&str> = if has_header {
                        heads.iter().map(String::as_str).collect()
                    } else {
                        Vec::new()
                    };
                    let cells: Vec<CellFacts> = numeric
                        .iter()
                        .map(|&j| CellFacts::of(data_rows.iter().filter_map(|r| r.get(j).copied())))
                        .collect();
                    if opts.meaning == ColumnMeaning::Auto {
                        if let Some(m) = heads.iter().find_map(|h| not_usage(h)) {
                            return Err(IngestError::NotUsage(NotUsage::Metric(m)));
                        }
                    }
                    let d = decide(&heads, &cells, opts.meaning);
                    let one = match opts.column {
                        ColumnChoice::One(k) => Some(ColumnUse::One(k)),
                        _ => None,
                    };
                    match d.report.read {
                        ColumnMeaning::Utilisation => {
                            layout.typing = if d.models.is_some() && typed_col.is_none() {
                                Typing::Headers
                            } else if typed_col.is_some() {
                                layout.typing
                            } else {
                                Typing::None
                            };
                            layout.models = d.models;
                            used = one.unwrap_or(ColumnUse::Sum);
                        }
                        ColumnMeaning::Sum => {
                            if layout.typing == Typing::Headers {
                                layout.typing = Typing::None;
                            }
                            used = one.unwrap_or(ColumnUse::Sum);
                        }
                        _ => {
                            // One pool measured several ways (capacity, reserved, usage): the
                            // measure to plan on, never their sum.
                            if let (None, Some(k)) = (one, measure_to_read(&heads)) {
                                used = ColumnUse::One(k);
                                layout.typing = Typing::None;
                            }
                        }
                    }
                    layout.meaning = Some(d.report);
                    layout.mode = Mode::Wide { cols: numeric };
                    layout.used = Some(used);
                }
            }
        }
        Format::NvidiaSmi => {
            let ts = ts_cols
                .iter()
                .find(|(t, _)| has_any(&names[t.col], &["timestamp", "time"]))
                .or(ts_cols.first());
            let Some(&(ts, style)) = ts else {
                return Err(IngestError::LayoutMismatch { format });
            };
            let util = util_col.or_else(|| numeric.last().copied());
            let Some(util) = util else {
                return Err(IngestError::LayoutMismatch { format });
            };
            let id = find(GPU_ID_WORDS, &(0..ncols).collect::<Vec<_>>())
                .filter(|&j| j != util && j != ts.col)
                .or_else(|| numeric.iter().copied().find(|&j| j != util));
            layout.ts = Some(ts);
            layout.ts_style = style;
            layout.typing = match type_col {
                Some(c) if c != util && Some(c) != id && c != ts.col => Typing::Column(c),
                _ => Typing::None,
            };
            layout.mode = Mode::Nvidia { id, util };
        }
        // Read by `slurm.rs` before detection; never laid out here.
        Format::Slurm => return Err(IngestError::LayoutMismatch { format }),
        Format::AwsCur => return Err(IngestError::LayoutMismatch { format }),
        Format::JobLog => {
            let cols: Vec<usize> = ts_cols.iter().map(|(t, _)| t.col).collect();
            let start = find(START_WORDS, &cols).or(cols.first().copied());
            let end =
                find(END_WORDS, &cols).or_else(|| cols.iter().copied().find(|&c| Some(c) != start));
            let (Some(start), Some(end)) = (start, end) else {
                return Err(IngestError::LayoutMismatch { format });
            };
            if start == end {
                return Err(IngestError::LayoutMismatch { format });
            }
            let pick = |c: usize| ts_cols.iter().find(|(t, _)| t.col == c).copied();
            let (Some(s), Some(e)) = (pick(start), pick(end)) else {
                return Err(IngestError::LayoutMismatch { format });
            };
            let gpus = find(GPU_WORDS, &numeric).or(numeric.first().copied());
            layout.ts = Some(s.0);
            layout.ts_style = s.1;
            layout.typing = type_col.map_or(Typing::None, Typing::Column);
            layout.mode = Mode::Job { end: e.0, gpus };
            layout.used = Some(ColumnUse::One(0));
        }
    }
    Ok(layout)
}

/// A cell that looks like a date or a time: digits with at least two of `/ . - :` (or two
/// of one of them, not `.`), `AM`/`PM`, or Chinese date marks; with more than two letters,
/// only when one of them is a month name (`05-Oct-2026`, not `A100-SXM4-80GB`).
fn looks_like_time(cell: &str) -> bool {
    let b = cell.as_bytes();
    if !b.iter().any(u8::is_ascii_digit) {
        return false;
    }
    if cell.contains('年') || cell.contains('月') || cell.contains("午") {
        return true;
    }
    let lower = cell.to_ascii_lowercase();
    let letters = b.iter().filter(|c| c.is_ascii_alphabetic()).count();
    let meridiem = lower.contains("am") || lower.contains("pm");
    if letters > 2 && !mentions_month(&lower) {
        return false;
    }
    let kinds = [b'/', b'.', b'-', b':']
        .iter()
        .filter(|c| b.contains(c))
        .count();
    let marks = b.iter().filter(|c| matches!(c, b'/' | b'-' | b':')).count();
    kinds >= 2 || marks >= 2 || (meridiem && letters == 2)
}

/// `seen`: the column has a value in the first lines (a column empty there is never the
/// one total or GPU column).
fn auto_column(numeric: &[usize], names: &[String], seen: impl Fn(usize) -> bool) -> ColumnUse {
    if numeric.len() == 1 {
        return ColumnUse::One(0);
    }
    if let Some(k) = numeric
        .iter()
        .position(|&j| seen(j) && has_any(&names[j], TOTAL_WORDS))
    {
        return ColumnUse::One(k);
    }
    let gpuish: Vec<usize> = numeric
        .iter()
        .enumerate()
        .filter(|(_, &j)| seen(j) && has_any(&names[j], GPU_WORDS))
        .map(|(k, _)| k)
        .collect();
    if gpuish.len() == 1 && numeric.iter().any(|&j| !names[j].is_empty()) {
        return ColumnUse::One(gpuish[0]);
    }
    ColumnUse::Sum
}

fn is_grafana(names: &[String], header_line: Option<&str>) -> bool {
    let n: Vec<&str> = names.iter().map(String::as_str).collect();
    n == ["series", "time", "value"]
        || (n.first() == Some(&"time")
            && n.len() >= 2
            && header_line.is_some_and(|h| h.starts_with('"')))
}

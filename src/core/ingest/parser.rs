//! The line-driven parser: feed text in slices, then finish.

use std::borrow::Cow;
use std::collections::HashMap;

use super::cur::CurRows;
use super::detect::{detect, Layout, Mode, TsCol, Typing};
use super::meaning::{busy, threshold, ColumnMeaning};
use super::number::{
    fast_trim, fast_trim_inlined, parse_number, simple_decimal_inlined, NumError, MAX_VALUE,
};
use super::prom_stream::PromStream;
use super::resample::{
    hourly, hourly_typed, jobs, jobs_typed, rows_typed, sort_and_collapse, RowTable, Sample,
    TypedHourly,
};
use super::split::{is_comment, split_fields};
use super::teams::{from_entries, pick, series_means, teams_of, Groups, TeamSource, TeamTable};
use super::timestamp::{parse_datetime, parse_epoch, parse_excel, OrderEvidence, Ts, TsError};
use super::types::{positions, typed_series, TypeSource, TypeTable, TypedSeries};
use super::{
    field_at, ColumnChoice, ColumnUse, DateOrder, Delimiter, Format, IngestError, NotUsage,
    OrderSource, ParseOptions, ParseReport, ParseResult, Parsed, QueryAnswer, RejectReason,
    RowError, UnreadTime, ValueColumn, MAX_HOURS, MAX_LINE_BYTES, MAX_SERIES,
};
use crate::core::series::UsageSeries;
use crate::core::zone::Zone;

/// Content lines buffered before the layout is detected.
const HEAD_LINES: usize = 100;
const HEAD_BYTES: usize = 64 * 1024;
/// Bytes kept of an over-long record, for its excerpt.
const EXCERPT_BYTES: usize = 256;

/// Where the text stands with respect to RFC 4180 quotes, between two bytes. A `"`
/// opens a quoted field only at the start of a field: at the start of a record, or when
/// the previous character other than space / tab is a candidate delimiter (`,` `;` tab
/// `|` `，`; the delimiter is not known while the head is buffered, so these always).
/// A `"` anywhere else (`5"`, `12" monitor`) is a literal character. Inside quotes, `""`
/// is a quote and a single `"` closes the field; a line end there does not end the record.
/// Comment records (`#`, `//`) take quotes literally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quote {
    /// At the start of a record: only spaces / tabs / BOM so far.
    Start,
    /// A `/` at the start of a record (a second one makes a comment).
    Slash,
    /// At the start of a field.
    Field,
    /// In unquoted text.
    Text,
    /// In a comment record.
    Comment,
    /// Inside a quoted field.
    Quoted,
    /// Inside a quoted field just after a `"`: it closed the field unless a `"` follows.
    ClosingOrEscape,
}

/// Bytes in the UTF-8 sequence that starts with `lead`.
fn utf8_width(lead: u8) -> usize {
    match lead {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

impl Quote {
    /// Inside a quoted field (a line end does not end the record; a `"` matters).
    fn quoted(self) -> bool {
        matches!(self, Quote::Quoted | Quote::ClosingOrEscape)
    }

    /// The state after the character at `b[i]` (not a line end ending the record), and
    /// its width in bytes (a whole `，` or BOM, otherwise one byte).
    #[inline]
    fn step(self, b: &[u8], i: usize) -> (Quote, usize) {
        let c = b[i];
        match self {
            Quote::Quoted => (
                if c == b'"' {
                    Quote::ClosingOrEscape
                } else {
                    Quote::Quoted
                },
                1,
            ),
            Quote::ClosingOrEscape if c == b'"' => (Quote::Quoted, 1),
            Quote::Comment => (Quote::Comment, 1),
            Quote::Start if c == b'#' => (Quote::Comment, 1),
            // Leading white space is trimmed off a record before it is split.
            Quote::Start if matches!(c, b'\r' | 0x0B | 0x0C) => (Quote::Start, 1),
            Quote::Start if c >= 0x80 && c != 0xEF => {
                let w = utf8_width(c);
                let ch = std::str::from_utf8(&b[i..(i + w).min(b.len())])
                    .ok()
                    .and_then(|s| s.chars().next());
                match ch {
                    Some(ch) if ch.is_whitespace() => (Quote::Start, w),
                    _ => (Quote::Text, 1),
                }
            }
            Quote::Start if c == b'/' => (Quote::Slash, 1),
            Quote::Slash if c == b'/' => (Quote::Comment, 1),
            _ => {
                let at_start = matches!(self, Quote::Start | Quote::Field);
                match c {
                    b'"' if at_start => (Quote::Quoted, 1),
                    b' ' => (self.blank(), 1),
                    b',' | b';' | b'|' => (Quote::Field, 1),
                    b'\t' if self == Quote::Start => (Quote::Start, 1),
                    b'\t' => (Quote::Field, 1),
                    0xEF if b[i..].starts_with("，".as_bytes()) => (Quote::Field, 3),
                    0xEF if b[i..].starts_with("\u{FEFF}".as_bytes()) => (self.blank(), 3),
                    _ => (Quote::Text, 1),
                }
            }
        }
    }

    /// The state after a space (or BOM) outside quotes.
    fn blank(self) -> Quote {
        match self {
            Quote::Start | Quote::Field | Quote::Text => self,
            // `/ ` at the start of a record, or `"x" `: plain text from here.
            _ => Quote::Text,
        }
    }

    /// The state after `b`, which holds no `"` and no line end (outside quotes).
    fn advance_plain(self, b: &[u8]) -> Quote {
        let mut q = self;
        let mut i = 0;
        while i < b.len() {
            if q == Quote::Comment {
                return q;
            }
            let (next, width) = q.step(b, i);
            q = next;
            i += width;
        }
        q
    }
}

enum Phase {
    /// Nothing but whitespace seen so far (kept to replay).
    Start(String),
    /// Buffering the first lines for detection.
    Head,
    /// Layout known; rows are read as they come.
    Lines(Box<Rows>),
    /// The text is JSON: read as it comes (a Prometheus response).
    Json(Box<PromStream>),
    /// A Slurm `sacct` export: jobs read as they come.
    Slurm(Box<super::slurm::SacctRows>),
    /// An AWS Cost and Usage Report: read as it comes.
    Cur(Box<CurRows>),
    Failed(IngestError),
}

/// Incremental parser. Feed slices of text (any split, even mid-line) with
/// [`Parser::feed`], then call [`Parser::finish`]. Each `feed` does work
/// proportional to the slice, so a page can feed ~64 KiB at a time and yield.
pub struct Parser {
    opts: ParseOptions,
    phase: Phase,
    bytes_fed: usize,
    lines: usize,
    pending: String,
    pending_overflow: bool,
    /// Line ends inside quotes in the pending record (physical lines it spans, minus one).
    pending_newlines: usize,
    /// Where the text read so far stands with respect to quotes.
    quote: Quote,
    head: Vec<(usize, String, bool)>,
    head_bytes: usize,
    sep_hint: Option<Delimiter>,
    skipped: usize,
    /// A second reading with the order of day and month the whole file fixed.
    forced_order: Option<DateOrder>,
}

struct Rows {
    layout: Layout,
    report: ParseReport,
    fields: Vec<(usize, usize)>,
    scratch: String,
    /// The last timestamp cell read (its column, the day/month order it was read in, its
    /// text) and what it read as: a long table repeats one timestamp on a row per series
    /// (8 rows a minute for 8 GPU types), and reading it again was ~20 % of the parse.
    last_ts: Option<(usize, DateOrder, String, Ts)>,
    acc: Acc,
    keys: HashMap<String, u32>,
    names: Vec<String>,
    last_per_col: Vec<i64>,
    last_key: (i64, u32),
    sorted: bool,
    min_ms: i64,
    max_ms: i64,
    header_seen: bool,
    /// The planning zone naive times are read in.
    zone: Zone,
    /// Dates that read only one way.
    order_evidence: OrderEvidence,
    /// Numeric offsets written in the cells, with how often.
    offsets: Vec<(i32, usize)>,
    time_example: Option<String>,
    twelve_hour: bool,
    /// GPU types, when the layout has them.
    typed: Option<Box<Typed>>,
    /// One GPU's utilisation per value column: the busy threshold in the columns' unit
    /// (a cell at or above it is one GPU busy).
    util: Option<f64>,
    /// A long table's team columns, when it has any.
    teams: Option<Box<TeamCols>>,
}

/// A long table's team columns: each is a series-name dimension (a series per team, name
/// and type), and each series' team in each (the one chosen names the teams).
struct TeamCols {
    cols: Vec<usize>,
    /// Per team column: the teams met.
    tables: Vec<TeamTable>,
    /// Per series, per team column: its team.
    of_series: Vec<u32>,
    /// The series key being built (the series-name cell and the other team cells).
    key: String,
    display: String,
}

/// What typed rows need besides the untyped state.
struct Typed {
    /// The column of type names (`None`: a wide table, one column per type).
    col: Option<usize>,
    table: TypeTable,
    /// The type (table index) of each series (`Rows::names`), or of each value column of
    /// a wide table.
    sub_type: Vec<u16>,
    /// A long table with a series-name column besides the type column: per type, the
    /// series of each name.
    sub_keys: Vec<HashMap<String, u32>>,
    /// Job logs: the type of each job kept.
    job_types: Vec<u16>,
}

enum Acc {
    Plain(Vec<f64>),
    Samples(Vec<Sample>),
    Jobs(Vec<(i64, i64, f64)>),
    /// A wide typed table: each row's time (none without a time column) and its value
    /// columns (NaN: empty), row after row.
    Rows {
        ms: Vec<i64>,
        vals: Vec<f64>,
    },
}

impl Parser {
    pub fn new(options: ParseOptions) -> Self {
        Self {
            opts: options,
            phase: Phase::Start(String::new()),
            bytes_fed: 0,
            lines: 0,
            pending: String::new(),
            pending_overflow: false,
            pending_newlines: 0,
            quote: Quote::Start,
            head: Vec::new(),
            head_bytes: 0,
            sep_hint: None,
            skipped: 0,
            forced_order: None,
        }
    }

    /// A parser that reads `a/b/yyyy` dates in `order` (the file fixed it; see
    /// [`Parser::rereading_order`]).
    pub fn with_order(options: ParseOptions, order: DateOrder) -> Self {
        let mut p = Self::new(options);
        p.forced_order = Some(order);
        p
    }

    /// Read what is still buffered (the last line, a short head): call when all is fed.
    pub fn flush(&mut self) {
        if !self.pending.is_empty() || self.pending_overflow {
            let mut line = std::mem::take(&mut self.pending);
            let overflow = std::mem::replace(&mut self.pending_overflow, false);
            let mut newlines = std::mem::take(&mut self.pending_newlines);
            // An unclosed quote up to a final line end: that line end ends the text, it
            // is not one more line.
            if !overflow && line.ends_with('\n') {
                line.pop();
                newlines = newlines.saturating_sub(1);
            }
            if !self.has_failed() {
                self.line(&line, overflow, newlines, false);
            }
        }
        if let Phase::Head = self.phase {
            if !self.head.is_empty() {
                self.start_rows();
            }
        }
    }

    /// After [`Parser::flush`]: when the first lines' dates read both ways (the locale's
    /// order was taken) but later dates read only the other way, the order to read the
    /// whole text again with.
    pub fn rereading_order(&self) -> Option<DateOrder> {
        if self.forced_order.is_some() {
            return None;
        }
        let Phase::Lines(rows) = &self.phase else {
            return None;
        };
        let (order, source) = rows.layout.date_order?;
        if source != OrderSource::Locale {
            return None;
        }
        let (this, other) = (
            rows.order_evidence.of(order),
            rows.order_evidence.of(order.other()),
        );
        (other > 0 && this == 0).then_some(order.other())
    }

    /// Bytes fed so far.
    pub fn bytes_fed(&self) -> usize {
        self.bytes_fed
    }

    /// The input already failed (too large, binary, …): feeding more does nothing.
    pub fn has_failed(&self) -> bool {
        matches!(self.phase, Phase::Failed(_))
    }

    /// Feed the next slice of the text.
    pub fn feed(&mut self, chunk: &str) {
        if self.has_failed() {
            return;
        }
        self.bytes_fed = self.bytes_fed.saturating_add(chunk.len());
        if self.bytes_fed > self.opts.max_input_bytes {
            self.phase = Phase::Failed(IngestError::TooLarge {
                bytes: self.bytes_fed,
                max_bytes: self.opts.max_input_bytes,
            });
            self.head = Vec::new();
            self.pending = String::new();
            return;
        }
        match &mut self.phase {
            Phase::Json(stream) => {
                stream.feed(chunk);
                return;
            }
            Phase::Start(buf) => {
                let body = chunk.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
                if body.is_empty() {
                    buf.push_str(chunk);
                    return;
                }
                let json = match self.opts.format {
                    Some(Format::PrometheusJson) => true,
                    Some(_) => false,
                    None => body.starts_with('{') || body.starts_with('['),
                };
                let start = std::mem::take(buf);
                if json {
                    let mut stream = Box::new(PromStream::new(&self.opts));
                    stream.feed(&start);
                    stream.feed(chunk);
                    self.phase = Phase::Json(stream);
                    return;
                }
                self.phase = Phase::Head;
                self.feed_lines(&start);
            }
            _ => {}
        }
        self.feed_lines(chunk);
    }

    /// Cut `chunk` into records: a line end ends a record unless it is inside a quoted
    /// field. The quote state ([`Quote`]) carries across calls, so any split of the text
    /// gives the same records. Stretches with no `"` (outside quotes) take the fast path:
    /// every `'\n'` ends a record.
    fn feed_lines(&mut self, chunk: &str) {
        let b = chunk.as_bytes();
        let mut pos = 0;
        // The next `"` at or after `pos` (`b.len()` when none).
        let mut next_quote = chunk.find('"').unwrap_or(b.len());
        while pos < b.len() {
            if self.has_failed() {
                return;
            }
            if self.pending_overflow {
                // The record is already too long (rejected): it ends at the next physical
                // line end whatever the quotes, so one stray quote never eats more than
                // MAX_LINE_BYTES of the file.
                match chunk[pos..].find('\n') {
                    Some(k) => {
                        self.end_record(&chunk[pos..pos + k]);
                        pos += k + 1;
                    }
                    None => return,
                }
                continue;
            }
            if !self.quote.quoted() {
                if next_quote < pos {
                    next_quote = chunk[pos..].find('"').map_or(b.len(), |k| pos + k);
                }
                // Every line end before the next quote ends a record.
                if let Some(k) = chunk[pos..next_quote].rfind('\n') {
                    self.plain_lines(&chunk[pos..pos + k]);
                    pos += k + 1;
                    self.quote = Quote::Start;
                    if self.has_failed() {
                        return;
                    }
                }
                if next_quote == b.len() {
                    let tail = &chunk[pos..];
                    self.quote = self.quote.advance_plain(tail.as_bytes());
                    self.push_pending(tail);
                    return;
                }
            }
            pos = self.scan_quoted(chunk, pos);
        }
    }

    /// Lines without any `"` (outside quotes): `text` ends at a line end; its first line
    /// completes the pending record.
    fn plain_lines(&mut self, text: &str) {
        let mut lines = text.split('\n');
        if let Some(first) = lines.next() {
            self.end_record(first);
        }
        for l in lines {
            if self.has_failed() {
                return;
            }
            self.line(l, false, 0, true);
        }
    }

    /// The pending record plus `last` (up to a record end) is complete.
    fn end_record(&mut self, last: &str) {
        let newlines = std::mem::take(&mut self.pending_newlines);
        self.quote = Quote::Start;
        if self.pending.is_empty() && !self.pending_overflow {
            self.line(last, false, newlines, false);
            return;
        }
        self.push_pending(last);
        let line = std::mem::take(&mut self.pending);
        let overflow = std::mem::replace(&mut self.pending_overflow, false);
        self.line(&line, overflow, newlines, false);
        self.pending = line;
        self.pending.clear();
    }

    /// Read byte by byte from `pos`, following quotes, up to the end of the record (or of
    /// the chunk, kept pending). Returns where reading goes on.
    fn scan_quoted(&mut self, chunk: &str, pos: usize) -> usize {
        let b = chunk.as_bytes();
        let mut q = self.quote;
        let mut newlines = self.pending_newlines;
        let mut i = pos;
        while i < b.len() {
            let c = b[i];
            if c == b'\n' {
                if q == Quote::Quoted && self.pending.len() + (i - pos) <= MAX_LINE_BYTES {
                    newlines += 1;
                    i += 1;
                    continue;
                }
                // An unquoted line end, or a quoted one past the record limit (the record
                // is rejected as too long and reading resumes after it).
                self.pending_newlines = newlines;
                self.end_record(&chunk[pos..i]);
                return i + 1;
            }
            let (next, width) = q.step(b, i);
            q = next;
            i += width;
        }
        self.quote = q;
        self.pending_newlines = newlines;
        self.push_pending(&chunk[pos..]);
        b.len()
    }

    fn push_pending(&mut self, s: &str) {
        if self.pending_overflow {
            return;
        }
        if self.pending.len() + s.len() > MAX_LINE_BYTES {
            // Keep the record's first EXCERPT_BYTES for the excerpt (as `line` does with
            // a whole over-long line), cut on a char boundary.
            if self.pending.len() < EXCERPT_BYTES {
                let mut cut = (EXCERPT_BYTES - self.pending.len()).min(s.len());
                while !s.is_char_boundary(cut) {
                    cut -= 1;
                }
                self.pending.push_str(&s[..cut]);
            } else {
                let mut cut = EXCERPT_BYTES;
                while !self.pending.is_char_boundary(cut) {
                    cut -= 1;
                }
                self.pending.truncate(cut);
            }
            self.pending_overflow = true;
        } else {
            self.pending.push_str(s);
        }
    }

    /// One complete record (without its final '\n'): its first physical line, and
    /// `newlines` more inside quoted fields. `no_quotes`: known to hold no `"`.
    fn line(&mut self, raw: &str, overflow: bool, newlines: usize, no_quotes: bool) {
        self.lines += 1;
        let no = self.lines;
        self.lines += newlines;
        let (raw, overflow) = if raw.len() > MAX_LINE_BYTES {
            let mut cut = EXCERPT_BYTES;
            while !raw.is_char_boundary(cut) {
                cut -= 1;
            }
            (&raw[..cut], true)
        } else {
            (raw, overflow)
        };
        let mut l = match raw.as_bytes().last() {
            Some(b'\r') => &raw[..raw.len() - 1],
            _ => raw,
        };
        if no == 1 {
            l = l.strip_prefix('\u{FEFF}').unwrap_or(l);
        }
        match &mut self.phase {
            Phase::Lines(rows) => {
                rows.row(no, l, overflow, no_quotes, &self.opts, &mut self.skipped)
            }
            Phase::Slurm(rows) => rows.row(no, l, overflow, no_quotes, &mut self.skipped),
            Phase::Cur(rows) => rows.row(no, l, overflow, &mut self.skipped),
            Phase::Head => {
                let t = l.trim();
                if t.is_empty() && !overflow {
                    return;
                }
                if self.head.is_empty() && self.sep_hint.is_none() {
                    if let Some(d) = t.strip_prefix("sep=") {
                        self.sep_hint = match d {
                            "," => Some(Delimiter::Comma),
                            ";" => Some(Delimiter::Semicolon),
                            "\t" | "" => Some(Delimiter::Tab),
                            "|" => Some(Delimiter::Pipe),
                            _ => None,
                        };
                        self.skipped += 1;
                        return;
                    }
                }
                self.head_bytes += l.len();
                self.head.push((no, l.to_string(), overflow));
                let content = self
                    .head
                    .iter()
                    .filter(|(_, s, o)| !o && !is_comment(s.trim()))
                    .count();
                if content >= HEAD_LINES || self.head_bytes >= HEAD_BYTES {
                    self.start_rows();
                }
            }
            _ => {}
        }
    }

    /// Detect the layout from the buffered head, then replay it.
    fn start_rows(&mut self) {
        let head = std::mem::take(&mut self.head);
        let sample: Vec<&str> = head
            .iter()
            .filter(|(_, s, o)| !o && !is_comment(s.trim()))
            .map(|(_, s, _)| s.trim())
            .filter(|s| !s.is_empty())
            .collect();
        // A gzip file (`1f 8b`, the second byte read as U+FFFD): say to unzip it.
        if head
            .first()
            .is_some_and(|(_, s, _)| s.starts_with("\u{1f}\u{FFFD}"))
        {
            self.phase = Phase::Failed(IngestError::Gzip);
            return;
        }
        // Not text: NUL bytes, or more than 10 % control / replacement characters.
        let mut garbage = 0usize;
        let mut total = 0usize;
        for (_, s, _) in &head {
            for c in s.chars() {
                if c == '\0' {
                    self.phase = Phase::Failed(IngestError::Binary);
                    return;
                }
                total += 1;
                garbage += usize::from(is_garbage(c));
            }
        }
        if garbage > 0 && garbage * 10 > total {
            self.phase = Phase::Failed(IngestError::Binary);
            return;
        }
        if self.opts.format.is_none() {
            let lines = head
                .iter()
                .filter(|(_, _, o)| !o)
                .map(|(_, s, _)| s.as_str());
            if let Some(metric) = super::prometheus::scrape_metric(lines) {
                self.phase = Phase::Failed(IngestError::MetricsScrape { metric });
                return;
            }
        }
        if self.opts.format.is_none() {
            // A tool's live view, not a log: `nvidia-smi dmon` (`# gpu pwr gtemp … sm`),
            // `dcgmi dmon` (`#Entity GPUTL …`).
            let first = head
                .iter()
                .map(|(_, s, _)| s.trim())
                .find(|s| !s.is_empty())
                .unwrap_or("")
                .to_ascii_lowercase();
            if let Some(rest) = first.strip_prefix('#') {
                let words: Vec<&str> = rest.split_whitespace().collect();
                let has = |w: &str| words.contains(&w);
                let not = if words.first() == Some(&"entity") {
                    Some(NotUsage::DcgmiDmon)
                } else if has("gpu") && has("pwr") && has("sm") {
                    Some(NotUsage::NvidiaSmiDmon)
                } else {
                    None
                };
                if let Some(n) = not {
                    self.phase = Phase::Failed(IngestError::NotUsage(n));
                    return;
                }
            }
        }
        if matches!(self.opts.format, None | Some(Format::Slurm)) {
            match super::slurm::recognise(&sample, &self.opts) {
                Some(Ok(layout)) => {
                    let mut rows = Box::new(super::slurm::SacctRows::new(layout, &self.opts));
                    for (no, l, o) in &head {
                        rows.row(*no, l, *o, false, &mut self.skipped);
                    }
                    self.phase = Phase::Slurm(rows);
                    return;
                }
                Some(Err(e)) => {
                    self.phase = Phase::Failed(e);
                    return;
                }
                None => {}
            }
        }
        if sample.is_empty() && head.iter().all(|(_, _, o)| !o) {
            // Only comments so far: nothing to read.
            self.phase = Phase::Failed(IngestError::Empty);
            return;
        }
        if self.cur_head(&head, sample.first().copied()) {
            return;
        }
        let detect_opts;
        let opts = if sample.is_empty() {
            // Only over-long lines: read as values so each is reported.
            detect_opts = ParseOptions {
                format: Some(Format::Values),
                ..self.opts.clone()
            };
            &detect_opts
        } else {
            &self.opts
        };
        // The answer to one of the page's queries (`core::query`): its `gpu_hours` are GPU
        // counts whatever their size (an hour of half a GPU is not a utilisation ratio).
        let answer = sample.first().and_then(|h| query_answer(h));
        let answer_opts;
        let opts = match answer {
            Some(_) if opts.meaning == ColumnMeaning::Auto => {
                answer_opts = ParseOptions {
                    meaning: ColumnMeaning::Counts,
                    ..opts.clone()
                };
                &answer_opts
            }
            _ => opts,
        };
        let layout = match detect(&sample, opts, self.sep_hint, self.forced_order) {
            Ok(mut l) => {
                unescape_header(&mut l);
                l
            }
            Err(e) => {
                self.phase = Phase::Failed(e);
                return;
            }
        };
        let mut rows = Rows::new(layout, opts);
        rows.report.query_answer = answer;
        self.phase = Phase::Lines(Box::new(rows));
        if let Phase::Lines(rows) = &mut self.phase {
            for (no, l, o) in &head {
                rows.row(*no, l, *o, false, &self.opts, &mut self.skipped);
            }
        }
    }

    /// An AWS Cost and Usage Report header (or another bill) first: read the head as a CUR
    /// (`true`: the phase is set).
    fn cur_head(&mut self, head: &[(usize, String, bool)], first: Option<&str>) -> bool {
        if !matches!(self.opts.format, None | Some(Format::AwsCur)) {
            return false;
        }
        let forced = self.opts.format.is_some();
        match first.map(super::cur::header) {
            Some(Ok(Some(h))) => {
                let mut rows = Box::new(CurRows::new(h, first.unwrap_or(""), &self.opts));
                for (no, l, o) in head {
                    rows.row(*no, l, *o, &mut self.skipped);
                }
                self.phase = Phase::Cur(rows);
            }
            Some(Err(other)) => self.phase = Phase::Failed(IngestError::OtherBill(other)),
            _ if forced => {
                self.phase = Phase::Failed(IngestError::LayoutMismatch {
                    format: Format::AwsCur,
                })
            }
            _ => return false,
        }
        true
    }

    /// Finish: resample and report.
    pub fn finish(mut self) -> ParseResult {
        self.flush();
        let out = match std::mem::replace(&mut self.phase, Phase::Failed(IngestError::Empty)) {
            Phase::Start(_) => Err(IngestError::Empty),
            Phase::Head => Err(IngestError::Empty),
            Phase::Failed(e) => Err(e),
            Phase::Json(stream) => stream.finish(),
            Phase::Lines(rows) => rows.finish(self.lines, self.skipped, &self.opts),
            Phase::Slurm(rows) => rows.finish(self.lines, self.skipped),
            Phase::Cur(rows) => rows.finish(self.lines, self.skipped),
        };
        // The plausibility guard, over every reader.
        super::guard::finish(out)
    }
}

/// A header line that is the page's query answer ([`crate::core::query::ANSWER_HEADER`],
/// with or without `team`), and how it was exported: every field quoted (Athena's download),
/// tab-separated (the MySQL client), or a plain CSV (DuckDB, BigQuery).
fn query_answer(header: &str) -> Option<QueryAnswer> {
    use crate::core::answer::{HOUR, TEAM, TYPE, VALUE};
    let (sep, kind) = if header.contains('\t') {
        ('\t', QueryAnswer::Tsv)
    } else if header.starts_with('"') {
        (',', QueryAnswer::CsvQuoted)
    } else {
        (',', QueryAnswer::Csv)
    };
    let names: Vec<&str> = header
        .split(sep)
        .map(|n| n.trim().trim_matches('"'))
        .collect();
    let plain = [HOUR, TYPE, VALUE];
    let teams = [HOUR, TYPE, TEAM, VALUE];
    (names == plain || names == teams).then_some(kind)
}

fn is_garbage(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\r' && c != '\n') || c == '\u{FFFD}'
}

fn num_reason(e: NumError) -> RejectReason {
    match e {
        NumError::Empty => RejectReason::MissingValue,
        NumError::NotANumber => RejectReason::NotANumber,
        NumError::NotFinite => RejectReason::NotFinite,
    }
}

/// The text of the cell at `range` of `line`, kept as a name (series, GPU id, header):
/// in a quoted cell, `""` is one `"`. (Number and timestamp cells never need this.)
fn name_text(line: &str, (a, b): (usize, usize)) -> Cow<'_, str> {
    let cell = line.get(a..b).unwrap_or("");
    // `split_fields` drops the outer quotes of a quoted cell, so one sits just before it.
    let quoted = a > 0 && line.as_bytes().get(a - 1) == Some(&b'"');
    if quoted && cell.contains("\"\"") {
        Cow::Owned(cell.replace("\"\"", "\""))
    } else {
        Cow::Borrowed(cell)
    }
}

/// Header names as read (quoted names unescaped, see [`name_text`]).
fn unescape_header(layout: &mut Layout) {
    let Some(line) = layout.header_line.as_deref() else {
        return;
    };
    if !line.contains("\"\"") {
        return;
    }
    let mut fields = Vec::new();
    split_fields(line, layout.delimiter, &mut fields);
    for (name, &r) in layout.header.iter_mut().zip(&fields) {
        if let Cow::Owned(n) = name_text(line, r) {
            *name = n;
        }
    }
}

/// A value cell → GPUs busy (finite, 0 ..= 1e9).
#[inline(always)]
fn value(cell: &str) -> Result<f64, RejectReason> {
    in_range(parse_number(cell).map_err(num_reason)?)
}

/// [`value`] of the cell `t[a..b]`: a plain decimal read from its bytes (no char boundary
/// to check, nothing to trim: such a cell has no space or quote), anything else by `value`.
#[inline(always)]
fn value_at(t: &str, (a, b): (usize, usize)) -> Result<f64, RejectReason> {
    match t.as_bytes().get(a..b).and_then(simple_decimal_inlined) {
        Some(v) => in_range(v),
        None => value(t.get(a..b).unwrap_or("")),
    }
}

/// A value read from a cell: negative and too large are rejected.
#[inline(always)]
fn in_range(v: f64) -> Result<f64, RejectReason> {
    if v < 0.0 {
        Err(RejectReason::Negative)
    } else if v > MAX_VALUE {
        Err(RejectReason::TooLarge)
    } else {
        Ok(v + 0.0)
    }
}

impl Rows {
    fn new(mut layout: Layout, opts: &ParseOptions) -> Self {
        let mut report = ParseReport::new(layout.format, opts);
        report.delimiter = layout.delimiter;
        report.has_header = layout.has_header;
        report.meaning = layout.meaning.clone();
        let util = layout
            .meaning
            .as_ref()
            .filter(|m| m.read == ColumnMeaning::Utilisation)
            .map(|m| threshold(opts.busy_threshold_percent, m.ratio));
        if util.is_some() {
            report.busy_threshold_percent = Some(opts.busy_threshold_percent);
        }
        let typed = match (layout.typing, &layout.mode) {
            (Typing::Column(c), _) => Some(Box::new(Typed {
                col: Some(c),
                table: TypeTable::default(),
                sub_type: Vec::new(),
                sub_keys: Vec::new(),
                job_types: Vec::new(),
            })),
            (Typing::Headers, Mode::Wide { cols }) => {
                let mut table = TypeTable::default();
                let sub_type: Vec<u16> = cols
                    .iter()
                    .enumerate()
                    .filter_map(|(k, &c)| match &layout.models {
                        Some((_, m)) => table.intern(m.get(k).map_or("", String::as_str)),
                        None => table.intern(&layout.name(c)),
                    })
                    .collect();
                let all: Vec<bool> = vec![true; table.len()];
                match table.select(&all) {
                    Ok(_) if sub_type.len() == cols.len() => Some(Box::new(Typed {
                        col: None,
                        table,
                        sub_type,
                        sub_keys: Vec::new(),
                        job_types: Vec::new(),
                    })),
                    Ok(_) => None,
                    Err(too_many) => {
                        // Read as today's several columns, and say why.
                        report.type_source = Some(TypeSource::Headers);
                        report.too_many_types = Some(too_many);
                        None
                    }
                }
            }
            _ => None,
        };
        if typed.is_none() {
            layout.typing = Typing::None;
        }
        let acc = match (&layout.mode, layout.ts) {
            (Mode::Job { .. }, _) => Acc::Jobs(Vec::new()),
            (Mode::Wide { .. }, _) if layout.typing == Typing::Headers => Acc::Rows {
                ms: Vec::new(),
                vals: Vec::new(),
            },
            (_, Some(_)) => Acc::Samples(Vec::new()),
            (_, None) => Acc::Plain(Vec::new()),
        };
        Self {
            layout,
            report,
            fields: Vec::with_capacity(16),
            scratch: String::new(),
            last_ts: None,
            acc,
            keys: HashMap::new(),
            names: Vec::new(),
            last_per_col: Vec::new(),
            last_key: (i64::MIN, 0),
            sorted: true,
            min_ms: i64::MAX,
            max_ms: i64::MIN,
            header_seen: false,
            zone: opts.zone(),
            order_evidence: OrderEvidence::default(),
            offsets: Vec::new(),
            time_example: None,
            twelve_hour: false,
            typed,
            util,
            teams: None,
        }
        .with_teams()
    }

    /// A long table's team columns, when the layout has them.
    fn with_teams(mut self) -> Self {
        if let (false, Mode::Pivot { .. }) = (self.layout.teams.is_empty(), &self.layout.mode) {
            let n = self.layout.teams.len();
            self.teams = Some(Box::new(TeamCols {
                cols: self.layout.teams.clone(),
                tables: (0..n).map(|_| TeamTable::default()).collect(),
                of_series: Vec::new(),
                key: String::new(),
                display: String::new(),
            }));
        }
        self
    }

    /// The series of a long table's row with team columns (`key` its series-name column, a
    /// team column or another): one series per series-name, team and type cell; its teams
    /// are noted when the series is met first.
    fn team_series(&mut self, t: &str, key: usize, r: (usize, usize)) -> Result<u32, RowError> {
        let Some(mut tc) = self.teams.take() else {
            return Err((RejectReason::MissingValue, Some(r)));
        };
        let name = name_text(t, r);
        tc.key.clear();
        tc.key.push_str(&name);
        tc.display.clear();
        tc.display.push_str(&name);
        for &c in &tc.cols {
            if c == key {
                continue;
            }
            // A row without the cell: no team written.
            let cell = self
                .fields
                .get(c)
                .map_or(Cow::Borrowed(""), |&rc| name_text(t, rc));
            tc.key.push('\u{1f}');
            tc.key.push_str(&cell);
            tc.display.push_str(" · ");
            tc.display.push_str(&cell);
        }
        let before = self.names.len();
        let out = match self.type_col() {
            Some(ty) => self.keyed_typed_series_named(t, &tc.key, &tc.display, ty, r),
            None => self
                .series_index_as(&tc.key, &tc.display)
                .map_err(|e| (e, Some(r))),
        };
        if self.names.len() > before {
            for (k, &c) in tc.cols.iter().enumerate() {
                let cell = if c == key {
                    Some(r)
                } else {
                    self.fields.get(c).copied()
                };
                let team = match cell {
                    Some(rc) => tc.tables[k].intern(&name_text(t, rc)),
                    None => tc.tables[k].unallocated(),
                };
                tc.of_series.push(team);
            }
        }
        self.teams = Some(tc);
        out
    }

    fn row(
        &mut self,
        no: usize,
        l: &str,
        overflow: bool,
        no_quotes: bool,
        opts: &ParseOptions,
        skipped: &mut usize,
    ) {
        let header = (self.layout.header_line.as_deref(), &mut self.header_seen);
        let Some(t) = self.report.record(
            no,
            l,
            overflow,
            header,
            self.layout.delimiter,
            no_quotes,
            &mut self.fields,
            skipped,
        ) else {
            return;
        };
        // Matched here, not passed to `ParseReport::count_row`: that grew the readers' worker
        // by 0.4 KB gzip (measured in session 23; the CSV reader is its hottest loop).
        match self.read_row(t, opts) {
            Ok(()) => self.report.rows_read += 1,
            Err(e) => self.report.reject_row(no, t, e),
        }
    }

    fn cell<'a>(&self, t: &'a str, col: usize) -> Result<(&'a str, (usize, usize)), RowError> {
        field_at(&self.fields, t, col)
    }

    fn timestamp(&mut self, t: &str, tc: TsCol, opts: &ParseOptions) -> Result<i64, RowError> {
        let (cell, r) = self.cell(t, tc.col)?;
        if fast_trim_inlined(cell).is_empty() {
            return Err((RejectReason::MissingValue, Some(r)));
        }
        let order = self
            .layout
            .date_order
            .map_or(opts.locale_date_order, |(o, _)| o);
        let mut span = r;
        // The same cell as the last row's (not for a separate time column): the same reading.
        if tc.time_col.is_none() {
            if let Some((col, o, text, ts)) = &self.last_ts {
                if *col == tc.col && *o == order && text == cell {
                    let ts = *ts;
                    self.note(&ts, t, span);
                    return Ok(ts.ms);
                }
            }
        }
        let res = if let Some(tcol) = tc.time_col {
            let (time, r2) = self.cell(t, tcol)?;
            span = (r.0, r2.1);
            self.scratch.clear();
            self.scratch.push_str(cell);
            self.scratch.push(' ');
            self.scratch.push_str(time);
            parse_datetime(&self.scratch, &self.zone, order).map_err(|e| (e, Some((r.0, r2.1))))
        } else if tc.excel {
            parse_excel(cell, &self.zone).map_err(|e| (e, Some(r)))
        } else if tc.epoch {
            parse_epoch(cell).map_err(|e| (e, Some(r)))
        } else {
            parse_datetime(cell, &self.zone, order)
                .or_else(|e| parse_epoch(cell).map_err(|_| e))
                .map_err(|e| (e, Some(r)))
        };
        match res {
            Ok(ts) => {
                self.note(&ts, t, span);
                if tc.time_col.is_none() {
                    match &mut self.last_ts {
                        Some((col, o, text, last)) => {
                            *col = tc.col;
                            *o = order;
                            text.clear();
                            text.push_str(cell);
                            *last = ts;
                        }
                        None => self.last_ts = Some((tc.col, order, cell.to_string(), ts)),
                    }
                }
                Ok(ts.ms)
            }
            Err((TsError::OutOfRange, r)) => Err((RejectReason::TimestampOutOfRange, r)),
            Err((TsError::WrongOrder, r)) => {
                self.order_evidence.add(order.other());
                Err((RejectReason::BadTimestamp, r))
            }
            Err((TsError::Bad, r)) => Err((RejectReason::BadTimestamp, r)),
        }
    }

    /// What a read timestamp tells about the file: its form, the order of day and month,
    /// its offset.
    fn note(&mut self, ts: &Ts, t: &str, r: (usize, usize)) {
        if let Some(o) = ts.order_hint {
            self.order_evidence.add(o);
        }
        if let Some(m) = ts.offset_minutes {
            if let Some((_, n)) = self.offsets.iter_mut().find(|(o, _)| *o == m) {
                *n += 1;
            } else if self.offsets.len() < 64 {
                self.offsets.push((m, 1));
            }
        }
        self.twelve_hour |= ts.twelve_hour;
        if self.time_example.is_none() {
            self.time_example = Some(super::excerpt(t.get(r.0..r.1).unwrap_or("")));
        }
    }

    fn series_index(&mut self, name: &str) -> Result<u32, RejectReason> {
        self.series_index_as(name, name)
    }

    /// The series of key `key`, shown as `display` (its column name).
    fn series_index_as(&mut self, key: &str, display: &str) -> Result<u32, RejectReason> {
        if let Some(&i) = self.keys.get(key) {
            return Ok(i);
        }
        if self.names.len() >= MAX_SERIES {
            return Err(RejectReason::TooManySeries);
        }
        let i = self.names.len() as u32;
        self.keys.insert(key.to_string(), i);
        self.names.push(display.to_string());
        Ok(i)
    }

    /// The type column, when types come in a column.
    fn type_col(&self) -> Option<usize> {
        self.typed.as_ref().and_then(|ty| ty.col)
    }

    /// The type of the row's type cell (column `tc`).
    fn row_type(&mut self, t: &str, tc: usize) -> Result<u16, RowError> {
        let (_, r) = self.cell(t, tc)?;
        let name = name_text(t, r);
        if fast_trim(&name).is_empty() {
            return Err((RejectReason::MissingValue, Some(r)));
        }
        let Some(ty) = self.typed.as_mut() else {
            return Err((RejectReason::MissingValue, Some(r)));
        };
        ty.table
            .intern(&name)
            .ok_or((RejectReason::TooManySeries, Some(r)))
    }

    /// The series `name` of a typed table: its type is read from column `tc` the first time
    /// the name is met (a series has one type).
    fn typed_series(&mut self, t: &str, name: &str, tc: usize) -> Result<u32, RowError> {
        if let Some(&i) = self.keys.get(name) {
            return Ok(i);
        }
        let ty = self.row_type(t, tc)?;
        let i = self.series_index(name).map_err(|e| (e, None))?;
        if let Some(typed) = self.typed.as_mut() {
            typed.sub_type.push(ty);
        }
        Ok(i)
    }

    /// The series of a long table with both a series-name column (`key` cell at `r`) and a
    /// type column `tc`: one series per name and type.
    fn keyed_typed_series(
        &mut self,
        t: &str,
        r: (usize, usize),
        tc: usize,
    ) -> Result<u32, RowError> {
        let name = name_text(t, r);
        self.keyed_typed_series_named(t, &name, &name, tc, r)
    }

    /// [`Rows::keyed_typed_series`] of a series key `name`, shown as `display`.
    fn keyed_typed_series_named(
        &mut self,
        t: &str,
        name: &str,
        display: &str,
        tc: usize,
        r: (usize, usize),
    ) -> Result<u32, RowError> {
        let ty = self.row_type(t, tc)?;
        let n = self.names.len();
        let Some(typed) = self.typed.as_mut() else {
            return Err((RejectReason::MissingValue, None));
        };
        let slot = usize::from(ty);
        if typed.sub_keys.len() <= slot {
            typed.sub_keys.resize_with(slot + 1, HashMap::new);
        }
        if let Some(&i) = typed.sub_keys[slot].get(name) {
            return Ok(i);
        }
        if n >= MAX_SERIES {
            return Err((RejectReason::TooManySeries, Some(r)));
        }
        let i = n as u32;
        typed.sub_keys[slot].insert(name.to_string(), i);
        typed.sub_type.push(ty);
        let label = &typed.table.labels[slot];
        self.names.push(format!("{display} · {label}"));
        Ok(i)
    }

    /// A row of a wide typed table: every type column's value (or none).
    fn read_typed_row(&mut self, t: &str, ts: Option<i64>, cols: &[usize]) -> Result<(), RowError> {
        let only = match self.layout.used {
            Some(ColumnUse::One(k)) => Some(k),
            _ => None,
        };
        if let Some(k) = only {
            if self
                .fields
                .get(cols.get(k).copied().unwrap_or(usize::MAX))
                .is_none()
            {
                return Err((RejectReason::TooFewColumns, None));
            }
        }
        let Acc::Rows { ms, vals } = &mut self.acc else {
            return Ok(());
        };
        let base = vals.len();
        let mut any = false;
        let util = self.util;
        // One resize, then each cell in its place (empty: NaN; one GPU's utilisation: not
        // busy, as the DCGM reader counts a GPU without a sample at a step).
        vals.resize(
            base + cols.len(),
            if util.is_some() { 0.0 } else { f64::NAN },
        );
        let row = &mut vals[base..];
        for ((k, &j), slot) in cols.iter().enumerate().zip(row.iter_mut()) {
            let Some(&(a, b)) = self.fields.get(j).filter(|_| only.is_none_or(|o| o == k)) else {
                continue;
            };
            match value_at(t, (a, b)) {
                Ok(v) => {
                    any = true;
                    *slot = util.map_or(v, |th| busy(v, th));
                }
                Err(RejectReason::MissingValue) => {}
                Err(e) => {
                    vals.truncate(base);
                    return Err((e, Some((a, b))));
                }
            }
        }
        if !any {
            vals.truncate(base);
            let r = only.and_then(|k| self.fields.get(cols[k]).copied());
            return Err((RejectReason::MissingValue, r));
        }
        if let Some(t) = ts {
            if ms.last().is_some_and(|&l| t < l) {
                self.sorted = false;
                self.report.unsorted = true;
            }
            ms.push(t);
        }
        Ok(())
    }

    fn read_row(&mut self, t: &str, opts: &ParseOptions) -> Result<(), RowError> {
        let ts = match self.layout.ts {
            Some(tc) => Some(self.timestamp(t, tc, opts)?),
            None => None,
        };
        let mode = std::mem::replace(&mut self.layout.mode, Mode::Wide { cols: Vec::new() });
        let out = self.read_values(t, ts, &mode, opts);
        self.layout.mode = mode;
        out
    }

    fn read_values(
        &mut self,
        t: &str,
        ts: Option<i64>,
        mode: &Mode,
        opts: &ParseOptions,
    ) -> Result<(), RowError> {
        match mode {
            Mode::Wide { cols } if matches!(self.acc, Acc::Rows { .. }) => {
                self.read_typed_row(t, ts, cols)?;
            }
            Mode::Wide { cols } => {
                let util = self.util;
                let v = match self.layout.used.unwrap_or(ColumnUse::Sum) {
                    ColumnUse::One(k) => {
                        let (_, r) = self.cell(t, cols.get(k).copied().unwrap_or(0))?;
                        let v = value_at(t, r).map_err(|e| (e, Some(r)))?;
                        util.map_or(v, |th| busy(v, th))
                    }
                    ColumnUse::Sum => {
                        let mut sum = 0.0;
                        let mut any = false;
                        for &j in cols {
                            let Some(&(a, b)) = self.fields.get(j) else {
                                continue;
                            };
                            match value_at(t, (a, b)) {
                                Ok(v) => {
                                    sum += util.map_or(v, |th| busy(v, th));
                                    any = true;
                                }
                                Err(RejectReason::MissingValue) => {}
                                Err(e) => return Err((e, Some((a, b)))),
                            }
                        }
                        if !any {
                            return Err((RejectReason::MissingValue, None));
                        }
                        sum
                    }
                };
                let col = match self.type_col() {
                    Some(tc) => {
                        let (_, r) = self.cell(t, tc)?;
                        self.typed_series(t, &name_text(t, r), tc)?
                    }
                    None => 0,
                };
                self.push(ts, col, v);
            }
            Mode::Pivot { key, value: vc } => {
                let (_, r) = self.cell(t, *key)?;
                let (_, rv) = self.cell(t, *vc)?;
                let v = value_at(t, rv).map_err(|e| (e, Some(rv)))?;
                let i = match self.type_col() {
                    _ if self.teams.is_some() => self.team_series(t, *key, r)?,
                    Some(tc) if tc == *key => self.typed_series(t, &name_text(t, r), tc)?,
                    Some(tc) => self.keyed_typed_series(t, r, tc)?,
                    None => self
                        .series_index(&name_text(t, r))
                        .map_err(|e| (e, Some(r)))?,
                };
                if let ColumnChoice::One(k) = opts.column {
                    if k != i as usize {
                        return Ok(());
                    }
                }
                self.push(ts, i, v);
            }
            Mode::Nvidia { id, util } => {
                let i = match id {
                    Some(col) => {
                        let (name, r) = self.cell(t, *col)?;
                        if name.is_empty() {
                            return Err((RejectReason::MissingValue, Some(r)));
                        }
                        match self.type_col() {
                            Some(tc) => self.typed_series(t, &name_text(t, r), tc)?,
                            None => self
                                .series_index(&name_text(t, r))
                                .map_err(|e| (e, Some(r)))?,
                        }
                    }
                    None => match self.type_col() {
                        Some(tc) => self.typed_series(t, "", tc)?,
                        None => self.series_index("").map_err(|e| (e, None))?,
                    },
                };
                let (c, r) = self.cell(t, *util)?;
                let u = value(c).map_err(|e| (e, Some(r)))?;
                if let ColumnChoice::One(k) = opts.column {
                    if k != i as usize {
                        return Ok(());
                    }
                }
                let busy = if u > opts.busy_threshold_percent {
                    1.0
                } else {
                    0.0
                };
                self.push(ts, i, busy);
            }
            Mode::Job { end, gpus } => {
                let start = ts.unwrap_or(0);
                let end_ms = self.timestamp(t, *end, opts)?;
                let g = match gpus {
                    Some(col) => {
                        let (c, r) = self.cell(t, *col)?;
                        value(c).map_err(|e| (e, Some(r)))?
                    }
                    None => 1.0,
                };
                let ty = match self.type_col() {
                    Some(tc) => Some(self.row_type(t, tc)?),
                    None => None,
                };
                if end_ms < start {
                    return Err((RejectReason::EndBeforeStart, None));
                }
                if (end_ms - start) / 3_600_000 > MAX_HOURS as i64 {
                    return Err((RejectReason::JobTooLong, None));
                }
                if let (Some(ty), Some(typed)) = (ty, self.typed.as_mut()) {
                    typed.job_types.push(ty);
                }
                if start < self.last_key.0 {
                    self.sorted = false;
                }
                self.last_key = (start, 0);
                self.min_ms = self.min_ms.min(start);
                self.max_ms = self.max_ms.max(end_ms);
                if let Acc::Jobs(j) = &mut self.acc {
                    j.push((start, end_ms, g));
                }
            }
        }
        Ok(())
    }

    fn push(&mut self, ts: Option<i64>, col: u32, v: f64) {
        match (&mut self.acc, ts) {
            (Acc::Samples(s), Some(ms)) => {
                let key = (ms, col);
                if key < self.last_key {
                    self.sorted = false;
                }
                self.last_key = key;
                let c = col as usize;
                if self.last_per_col.len() <= c {
                    self.last_per_col.resize(c + 1, i64::MIN);
                }
                if ms < self.last_per_col[c] {
                    self.report.unsorted = true;
                }
                self.last_per_col[c] = ms;
                s.push(Sample { ms, col, v });
            }
            (Acc::Plain(p), _) => p.push(v),
            _ => {}
        }
    }

    fn finish(mut self, lines: usize, skipped: usize, opts: &ParseOptions) -> ParseResult {
        let lay = &self.layout;
        let r = &mut self.report;
        r.lines = lines;
        r.lines_skipped = skipped;
        r.timestamp_style = lay.ts_style;
        r.naive_timestamps = lay.naive;
        r.time_example = self.time_example.take();
        r.twelve_hour = self.twelve_hour;
        r.date_order = lay.date_order.filter(|_| lay.ts.is_some()).map(|(o, src)| {
            // The locale's order, confirmed by a later date of the file.
            let confirmed = self.order_evidence.of(o) > 0;
            if src == OrderSource::Locale && confirmed {
                (o, OrderSource::File)
            } else {
                (o, src)
            }
        });
        r.unread_time = lay.unread_time.as_ref().map(|(c, example)| UnreadTime {
            column: lay.column(*c),
            example: example.clone(),
        });
        r.timestamp_column = lay.ts.map(|t| lay.column(t.col));
        r.time_column = lay.ts.and_then(|t| t.time_col).map(|c| lay.column(c));
        match &lay.mode {
            Mode::Wide { cols } => {
                r.columns = cols.iter().map(|&c| lay.column(c)).collect();
                r.used = lay.used.unwrap_or(ColumnUse::Sum);
            }
            Mode::Pivot { key, .. } | Mode::Nvidia { id: Some(key), .. } => {
                r.series_column = Some(lay.column(*key));
            }
            Mode::Nvidia { id: None, util } => {
                r.series_column = None;
                let _ = util;
            }
            Mode::Job { end, gpus } => {
                r.end_column = Some(lay.column(end.col));
                r.columns = gpus.iter().map(|&c| lay.column(c)).collect();
                r.used = ColumnUse::One(0);
            }
        }
        if let Mode::Nvidia { .. } = lay.mode {
            r.busy_threshold_percent = Some(opts.busy_threshold_percent);
        }
        if matches!(lay.mode, Mode::Pivot { .. } | Mode::Nvidia { .. }) {
            r.columns = ValueColumn::series(&self.names);
            r.used = opts.column.for_series(r.columns.len())?;
        }
        if r.rows_read == 0 {
            return Err(IngestError::NoUsableRows(Box::new(self.report)));
        }
        // The planning zone: the timestamps' own offset (the most frequent) when asked,
        // else the chosen zone.
        let zone = match self.offsets.iter().max_by_key(|&&(o, n)| (n, -o)) {
            Some(&(o, _)) if opts.zone_from_data => {
                r.zone_from_data = true;
                Zone::fixed(o)
            }
            _ => self.zone.clone(),
        };
        r.utc_offset_minutes = zone.base_minutes;
        let off = zone.base_minutes;
        let typed = self.typed.take();
        let team_cols = self.teams.take();
        let mut teams = None;
        if let Some(ty) = &typed {
            r.type_source = Some(match ty.col {
                Some(c) => TypeSource::Column(lay.column(c)),
                None => match &lay.models {
                    Some((label, _)) if !label.is_empty() => TypeSource::Label(label.clone()),
                    _ => TypeSource::Headers,
                },
            });
        }
        let mut types: Vec<TypedSeries> = Vec::new();
        // The types with data (at most MAX_TYPES, else the report says why and the input
        // is read untyped), and each table type's place among them.
        let mut pick = |ty: &Typed, present: &[bool]| match ty.table.select(present) {
            Ok(order) => {
                let pos = positions(&order, ty.table.len());
                Some((order, pos))
            }
            Err(too_many) => {
                r.too_many_types = Some(too_many);
                None
            }
        };
        let mut emit = |ty: &Typed, order: &[u16], h: TypedHourly, timed: bool| {
            let starts = timed.then_some(h.total.starts.as_slice());
            types = typed_series(&ty.table, order, h.types, starts, &zone);
            h.total
        };
        // A long table's series: GPU counts, or one GPU's utilisation each (decided from
        // the series' names, `GPU 0` or a DCGM label set, and the value cells).
        if let (Mode::Pivot { .. }, Some(cells), Acc::Samples(s), None) =
            (&lay.mode, &lay.value_cells, &mut self.acc, typed.as_deref())
        {
            let names: Vec<&str> = self.names.iter().map(String::as_str).collect();
            let d = super::meaning::decide(&names, &vec![cells.clone(); names.len()], opts.meaning);
            if d.report.read == ColumnMeaning::Utilisation {
                let th = threshold(opts.busy_threshold_percent, d.report.ratio);
                for x in s.iter_mut() {
                    x.v = busy(x.v, th);
                }
                r.busy_threshold_percent = Some(opts.busy_threshold_percent);
            }
            r.meaning = Some(d.report);
        }
        let (values, timestamps) = match (self.acc, typed.as_deref()) {
            (Acc::Samples(mut s), ty) => {
                // A typed table's types present (none picked: read as one series).
                let picked = ty.and_then(|ty| {
                    let mut present = vec![false; ty.table.len()];
                    for x in &s {
                        if let Some(&t) = ty.sub_type.get(x.col as usize) {
                            present[usize::from(t)] = true;
                        }
                    }
                    pick(ty, &present).map(|p| (ty, p))
                });
                match picked {
                    Some((ty, (order, pos))) => {
                        let col_type: Vec<u8> =
                            ty.sub_type.iter().map(|&t| pos[usize::from(t)]).collect();
                        let dups = sort_and_collapse(&mut s, self.sorted);
                        let h = hourly_typed(&s[..], dups, &col_type, order.len(), off, opts.gaps)?;
                        if let Some(tc) = &team_cols {
                            teams = tc.teams(
                                lay,
                                &s,
                                &h.total.timeline,
                                Some((&col_type, order.len())),
                                &opts.team,
                            );
                        }
                        let total = emit(ty, &order, h, true);
                        total.fill_report(r);
                        (total.values, Some(total.starts))
                    }
                    None => {
                        let ncols = self.names.len().max(1);
                        let h = hourly(&mut s, self.sorted, ncols, off, opts.gaps)?;
                        if let Some(tc) = &team_cols {
                            teams = tc.teams(lay, &s, &h.timeline, None, &opts.team);
                        }
                        h.fill_report(r);
                        (h.values, Some(h.starts))
                    }
                }
            }
            (Acc::Jobs(j), Some(ty)) => {
                r.unsorted = !self.sorted;
                let mut present = vec![false; ty.table.len()];
                for &t in &ty.job_types {
                    present[usize::from(t)] = true;
                }
                let h = match pick(ty, &present) {
                    Some((order, pos)) => {
                        let jt: Vec<u8> =
                            ty.job_types.iter().map(|&t| pos[usize::from(t)]).collect();
                        let h = jobs_typed(&j, &jt, order.len(), off)?;
                        emit(ty, &order, h, true)
                    }
                    None => jobs(&j, off)?,
                };
                h.fill_report(r);
                (h.values, Some(h.starts))
            }
            (Acc::Rows { ms, vals }, Some(ty)) => {
                let width = ty.sub_type.len().max(1);
                let mut present = vec![false; ty.table.len()];
                for row in vals.chunks_exact(width) {
                    for (c, v) in row.iter().enumerate() {
                        if !v.is_nan() {
                            present[usize::from(ty.sub_type[c])] = true;
                        }
                    }
                }
                // At most MAX_TYPES columns' types (checked when the header was read).
                let (order, pos) = pick(ty, &present).unwrap_or_default();
                let col_type: Vec<u8> = ty.sub_type.iter().map(|&t| pos[usize::from(t)]).collect();
                if lay.ts.is_some() {
                    let perm: Option<Vec<u32>> = (!self.sorted).then(|| {
                        let mut p: Vec<u32> = (0..ms.len() as u32).collect();
                        p.sort_by_key(|&i| ms[i as usize]);
                        p
                    });
                    let table = RowTable {
                        ms: &ms,
                        vals: &vals,
                        width,
                        order: perm.as_deref(),
                    };
                    let dups = table.duplicates();
                    let h = hourly_typed(&table, dups, &col_type, order.len(), off, opts.gaps)?;
                    let total = emit(ty, &order, h, true);
                    total.fill_report(r);
                    (total.values, Some(total.starts))
                } else {
                    let h = rows_typed(&vals, width, &col_type, order.len())?;
                    let total = emit(ty, &order, h, false);
                    (total.values, None)
                }
            }
            (Acc::Rows { .. }, None) => (Vec::new(), None),
            (Acc::Plain(v), _) => {
                if v.len() > MAX_HOURS {
                    return Err(IngestError::TooManyHours {
                        hours: v.len() as u64,
                        max_hours: MAX_HOURS,
                    });
                }
                (v, None)
            }
            (Acc::Jobs(j), None) => {
                r.unsorted = !self.sorted;
                let h = jobs(&j, off)?;
                h.fill_report(r);
                (h.values, Some(h.starts))
            }
        };
        if values.is_empty() {
            return Err(IngestError::NoUsableRows(Box::new(self.report)));
        }
        self.report.hours = values.len();
        Ok(Parsed {
            teams,
            series: UsageSeries {
                values,
                timestamps,
                utc_offset_minutes: off,
                offset_changes: zone.changes,
            },
            report: self.report,
            types,
        })
    }
}

impl TeamCols {
    /// The teams of a long table's series (`samples` as resampled, `col_type`: each series'
    /// place in `Parsed::types` and how many types, typed).
    fn teams(
        &self,
        lay: &Layout,
        samples: &[Sample],
        tl: &super::resample::Timeline,
        col_type: Option<(&[u8], usize)>,
        choice: &super::TeamChoice,
    ) -> Option<super::Teams> {
        let choices: Vec<TeamSource> = self
            .cols
            .iter()
            .map(|&c| TeamSource::Column(lay.name(c)))
            .collect();
        let k = pick(choice, &choices, Some(0))?;
        let n = self.cols.len();
        let table = self.tables.get(k)?;
        let ntypes = col_type.map_or(0, |c| c.1);
        let mut groups = Groups::new(table.len(), ntypes);
        let group_of: Vec<u32> = self
            .of_series
            .chunks(n.max(1))
            .enumerate()
            .map(|(i, teams)| {
                let team = teams.get(k).copied().unwrap_or(u32::MAX);
                match col_type {
                    Some((ct, _)) => groups.of(team, ct.get(i).copied().unwrap_or(u8::MAX)),
                    None => groups.of(team, 0),
                }
            })
            .collect();
        let mut entries = Vec::new();
        series_means(samples, tl, &group_of, &mut entries);
        let series = from_entries(&entries, tl, &groups.list, ntypes, table);
        Some(teams_of(choices[k].clone(), choices, series))
    }
}

/// Drive a [`Parser`] over a text in slices: `while !s.step(64 * 1024) { yield }`.
pub struct Stepper<'a> {
    text: &'a str,
    pos: usize,
    parser: Parser,
    options: ParseOptions,
}

impl<'a> Stepper<'a> {
    pub fn new(text: &'a str, options: &ParseOptions) -> Self {
        let mut parser = Parser::new(options.clone());
        let mut pos = 0;
        if text.len() > options.max_input_bytes {
            // Fail at once without looking at the text.
            parser.fail_too_large(text.len());
            pos = text.len();
        }
        Self {
            text,
            pos,
            parser,
            options: options.clone(),
        }
    }

    /// Parse about `max_bytes` more (up to the next line end). `true` when all is fed.
    pub fn step(&mut self, max_bytes: usize) -> bool {
        if self.pos >= self.text.len() {
            return true;
        }
        let mut end = self
            .pos
            .saturating_add(max_bytes.max(1))
            .min(self.text.len());
        if end < self.text.len() {
            match self.text.as_bytes()[end..]
                .iter()
                .take(MAX_LINE_BYTES)
                .position(|&b| b == b'\n')
            {
                Some(i) => end += i + 1,
                None => {
                    while !self.text.is_char_boundary(end) {
                        end += 1;
                    }
                }
            }
        }
        self.parser.feed(&self.text[self.pos..end]);
        self.pos = end;
        if self.pos >= self.text.len() && !self.parser.has_failed() {
            self.parser.flush();
            if let Some(order) = self.parser.rereading_order() {
                // Later dates fixed the order of day and month: read again from the start.
                self.parser = Parser::with_order(self.options.clone(), order);
                self.pos = 0;
                return false;
            }
        }
        self.pos >= self.text.len() || self.parser.has_failed()
    }

    /// Fraction of the text fed, 0.0 ..= 1.0.
    pub fn progress(&self) -> f64 {
        if self.text.is_empty() {
            1.0
        } else {
            self.pos as f64 / self.text.len() as f64
        }
    }

    pub fn finish(self) -> ParseResult {
        self.parser.finish()
    }
}

impl Parser {
    pub(crate) fn fail_too_large(&mut self, bytes: usize) {
        self.bytes_fed = bytes;
        self.phase = Phase::Failed(IngestError::TooLarge {
            bytes,
            max_bytes: self.opts.max_input_bytes,
        });
    }
}

#[cfg(test)]
mod value_tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_cell_read_from_its_bytes_reads_as_its_text() {
        for cell in [
            "56.5",
            "128",
            "0",
            "-1",
            "+2.5",
            "1e3",
            " 7 ",
            "\"9\"",
            ".5",
            "5.",
            "",
            "１２",
            "1,5",
            "nan",
            "9007199254740993",
            "123456789012345678901",
        ] {
            let t = format!("x,{cell},y");
            let r = (2, 2 + cell.len());
            assert_eq!(value_at(&t, r), value(cell), "{cell:?}");
        }
    }

    proptest! {
        #[test]
        fn value_at_equals_value(
            cell in "([0-9+\\-.eE ,\"]|１|\u{a0}|NaN|inf){0,24}|\\PC{0,12}",
            pre in "[a-z,]{0,3}",
        ) {
            let t = format!("{pre}{cell},");
            let r = (pre.len(), pre.len() + cell.len());
            prop_assert_eq!(value_at(&t, r), value(&cell));
        }
    }
}

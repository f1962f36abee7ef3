//! A streaming reader of Prometheus HTTP API responses: fed in slices of any size (split
//! anywhere), it checks the JSON exactly as [`super::json`] does (the same errors at the
//! same lines, the same string and number rules) but builds no tree: the values that
//! matter (`status`, `data.result[i].metric`, `values`, `value`) go to a
//! [`Doc`] as they are read, everything else is only checked. Memory: the series being
//! read and the per-step sums, never the text.
//!
//! Samples of the usual form `[1793538000,"37"]` (with or without whitespace) that lie
//! whole in one slice take a fast path; anything else goes through the byte-by-byte
//! machine. Both give the same result (`tests/fuzz_ingest.rs`: slices of any size equal the
//! whole text and the tree reader).

use super::json::{number_field, row_column, Rows};
use super::number::parse_f64;
use super::prometheus::{finish_doc, Doc, Elem, Slot, Which};
use super::{excerpt, IngestError, ParseOptions, ParseResult};

/// Deepest nesting accepted (as [`super::json`]).
const MAX_DEPTH: usize = 64;

/// What a container is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Root,
    Data,
    Result(Which),
    Series(Which),
    Metric(Which),
    Values(Which),
    Pair,
    /// JSON rows: the root array, and a row object in it (or after the root object).
    RootArr,
    Row,
    Skip,
}

struct Frame {
    obj: bool,
    ctx: Ctx,
    /// The slot it fills in its parent.
    own: Slot,
    /// Elements (arrays) begun so far.
    n: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    RootStart,
    /// The byte-order mark: bytes matched.
    Bom(u8),
    Value,
    ObjFirst,
    ObjKey,
    Colon,
    ObjNext,
    ArrFirst,
    ArrNext,
    Str,
    Num,
    Word,
    Trailing,
    Failed,
}

/// Inside a string: an escape in progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Esc {
    None,
    Backslash,
    /// `\u` + `n` of 4 bytes read, value `v`; `line` of the `u`; `low_of`: the high
    /// surrogate this is the low half of (0: none).
    Hex {
        n: u8,
        v: u32,
        line: usize,
        low_of: u32,
    },
    /// A high surrogate was read: is `\u` next?
    High(u32),
    HighBackslash(u32),
}

/// A finished scalar.
#[derive(Debug, Clone, PartialEq)]
enum Val {
    Num(f64),
    Str(String),
    Other,
}

impl Val {
    fn elem(&self) -> Elem<'_> {
        match self {
            Val::Num(x) => Elem::Num(*x),
            Val::Str(s) => Elem::Str(s),
            Val::Other => Elem::Other,
        }
    }
}

/// The text of a sample from its first byte up to the first `]` (at most 41 chars), for
/// its excerpt in the report, collected as slices arrive.
struct Capture {
    text: String,
    chars: u8,
    done: bool,
    /// The sample was judged (`target`: where its excerpt goes, if rejected and listed).
    decided: bool,
    target: Option<(Which, usize)>,
}

impl Capture {
    fn fill(&mut self, s: &str) {
        if self.done {
            return;
        }
        for c in s.chars() {
            self.text.push(c);
            self.chars += 1;
            if c == ']' || self.chars > 40 {
                self.done = true;
                return;
            }
        }
    }

    /// As [`excerpt`] of the text up to the `]`.
    fn excerpt(&self) -> String {
        if self.chars > 40 {
            let mut s: String = self.text.chars().take(39).collect();
            s.push('…');
            s
        } else {
            excerpt(&self.text)
        }
    }
}

/// The streaming reader (see the module doc).
pub(crate) struct PromStream {
    doc: Doc,
    /// The document read as JSON rows (the answer to one of the page's SQL queries).
    rows: Rows,
    opts: ParseOptions,
    stack: Vec<Frame>,
    st: St,
    /// The slot of the value starting or in progress.
    slot: Slot,
    key_mode: bool,
    cap: bool,
    esc: Esc,
    tok: Vec<u8>,
    tok_line: usize,
    word: &'static [u8],
    word_at: usize,
    key: String,
    line: usize,
    err_line: Option<usize>,
    root_done: bool,
    last_newline: bool,
    any: bool,
    pair_line: usize,
    ts: Val,
    val: Val,
    caps: Vec<Capture>,
}

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

fn num_byte(c: u8) -> bool {
    matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
}

fn hex(c: u8) -> Option<u32> {
    (c as char).to_digit(16)
}

/// A string without escapes or a number, whole in `chunk` from `j`.
fn fast_elem<'a>(chunk: &'a str, j: &mut usize) -> Option<Elem<'a>> {
    let b = chunk.as_bytes();
    let c = *b.get(*j)?;
    if c == b'"' {
        let mut k = *j + 1;
        while k < b.len() && b[k] != b'"' && b[k] != b'\\' && b[k] >= 0x20 {
            k += 1;
        }
        if b.get(k) != Some(&b'"') {
            return None;
        }
        let s = &chunk[*j + 1..k];
        *j = k + 1;
        Some(Elem::Str(s))
    } else if c == b'-' || c.is_ascii_digit() {
        let mut k = *j;
        while k < b.len() && num_byte(b[k]) {
            k += 1;
        }
        if k >= b.len() {
            return None;
        }
        let v = parse_f64(&chunk[*j..k]).filter(|v| v.is_finite())?;
        *j = k;
        Some(Elem::Num(v))
    } else {
        None
    }
}

impl PromStream {
    pub fn new(opts: &ParseOptions) -> Self {
        Self {
            doc: Doc::new(opts),
            rows: Rows::default(),
            opts: opts.clone(),
            stack: Vec::new(),
            st: St::RootStart,
            slot: Slot::Root,
            key_mode: false,
            cap: false,
            esc: Esc::None,
            tok: Vec::new(),
            tok_line: 1,
            word: b"",
            word_at: 0,
            key: String::new(),
            line: 1,
            err_line: None,
            root_done: false,
            last_newline: false,
            any: false,
            pair_line: 0,
            ts: Val::Other,
            val: Val::Other,
            caps: Vec::new(),
        }
    }

    fn fail(&mut self, line: usize) {
        self.err_line = Some(line);
        self.st = St::Failed;
        self.caps.clear();
        self.stack.clear();
    }

    /// Skip whitespace from `i`, counting lines.
    fn ws(&mut self, b: &[u8], mut i: usize) -> usize {
        while i < b.len() && is_ws(b[i]) {
            self.line += usize::from(b[i] == b'\n');
            i += 1;
        }
        i
    }

    pub fn feed(&mut self, chunk: &str) {
        if chunk.is_empty() || self.st == St::Failed {
            return;
        }
        self.any = true;
        self.last_newline = chunk.ends_with('\n');
        if !self.caps.is_empty() {
            for c in &mut self.caps {
                c.fill(chunk);
            }
            self.resolve_caps();
        }
        let b = chunk.as_bytes();
        let mut i = 0;
        while i < b.len() {
            match self.st {
                St::Failed => return,
                St::RootStart => {
                    i = self.ws(b, i);
                    if i < b.len() {
                        if b[i] == 0xEF {
                            self.st = St::Bom(1);
                            i += 1;
                        } else {
                            self.st = St::Value;
                        }
                    }
                }
                St::Bom(k) => {
                    const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
                    if b[i] != BOM[usize::from(k)] {
                        self.fail(self.line);
                        return;
                    }
                    i += 1;
                    self.st = if k == 2 { St::Value } else { St::Bom(k + 1) };
                }
                St::Value => {
                    i = self.ws(b, i);
                    if i < b.len() {
                        i = self.begin_value(chunk, i);
                    }
                }
                St::ObjFirst | St::ObjKey => {
                    i = self.ws(b, i);
                    if i < b.len() {
                        match b[i] {
                            b'}' if self.st == St::ObjFirst => {
                                i += 1;
                                self.close();
                            }
                            b'"' => {
                                i += 1;
                                self.key_mode = true;
                                self.cap = self.stack.last().is_some_and(|f| f.ctx != Ctx::Skip);
                                self.tok.clear();
                                self.st = St::Str;
                            }
                            _ => {
                                self.fail(self.line);
                                return;
                            }
                        }
                    }
                }
                St::Colon => {
                    i = self.ws(b, i);
                    if i < b.len() {
                        if b[i] != b':' || self.stack.len() > MAX_DEPTH {
                            self.fail(self.line);
                            return;
                        }
                        i += 1;
                        self.st = St::Value;
                    }
                }
                St::ObjNext | St::ArrNext => {
                    i = self.ws(b, i);
                    if i < b.len() {
                        let obj = self.st == St::ObjNext;
                        match b[i] {
                            b',' => {
                                i += 1;
                                if obj {
                                    self.st = St::ObjKey;
                                } else {
                                    self.slot = self.elem_slot();
                                    self.st = St::Value;
                                }
                            }
                            b'}' if obj => {
                                i += 1;
                                self.close();
                            }
                            b']' if !obj => {
                                i += 1;
                                self.close();
                            }
                            _ => {
                                self.fail(self.line);
                                return;
                            }
                        }
                    }
                }
                St::ArrFirst => {
                    i = self.ws(b, i);
                    if i < b.len() {
                        if b[i] == b']' {
                            i += 1;
                            self.close();
                        } else {
                            self.slot = self.elem_slot();
                            self.st = St::Value;
                        }
                    }
                }
                St::Str => i = self.string(b, i),
                St::Num => {
                    let mut j = i;
                    while j < b.len() && num_byte(b[j]) {
                        j += 1;
                    }
                    self.tok.extend_from_slice(&b[i..j]);
                    i = j;
                    if i < b.len() {
                        self.end_number();
                    }
                }
                St::Word => {
                    if b[i] != self.word[self.word_at] {
                        self.fail(self.line);
                        return;
                    }
                    i += 1;
                    self.word_at += 1;
                    if self.word_at == self.word.len() {
                        self.scalar_done(Val::Other);
                    }
                }
                St::Trailing => {
                    i = self.ws(b, i);
                    if i < b.len() {
                        // Newline-delimited rows: another object after a root row object.
                        if b[i] == b'{' && self.rows.more_objects() {
                            self.root_done = false;
                            self.slot = Slot::RowElem;
                            self.st = St::Value;
                            continue;
                        }
                        self.fail(self.line);
                        return;
                    }
                }
            }
        }
    }

    /// The slot of the next element of the innermost array.
    fn elem_slot(&mut self) -> Slot {
        let Some(f) = self.stack.last_mut() else {
            return Slot::Skip;
        };
        let n = f.n;
        f.n += 1;
        match f.ctx {
            Ctx::Result(w) => {
                if self.doc.collector(w).is_some_and(|c| c.begin_series()) {
                    Slot::Series(w)
                } else {
                    Slot::Skip
                }
            }
            Ctx::Values(w) => Slot::Sample(w),
            Ctx::Pair => Slot::PairElem(n.min(2) as u8),
            Ctx::RootArr => Slot::RowElem,
            _ => Slot::Skip,
        }
    }

    fn push(&mut self, obj: bool, ctx: Ctx) {
        self.stack.push(Frame {
            obj,
            ctx,
            own: self.slot,
            n: 0,
        });
        self.st = if obj { St::ObjFirst } else { St::ArrFirst };
    }

    /// The innermost container's `Which` (series, metric and values are inside one).
    fn which(&self) -> Which {
        match self.stack.last().map(|f| f.ctx) {
            Some(Ctx::Series(w) | Ctx::Metric(w) | Ctx::Values(w) | Ctx::Result(w)) => w,
            _ => Which::Root,
        }
    }

    /// A value starts at `i` (not whitespace); returns where reading goes on.
    fn begin_value(&mut self, chunk: &str, i: usize) -> usize {
        let b = chunk.as_bytes();
        if self.stack.len() > MAX_DEPTH {
            self.fail(self.line);
            return b.len();
        }
        let c = b[i];
        let slot = self.slot;
        if let Slot::Sample(w) = slot {
            if c == b'[' {
                if let Some(end) = self.fast_pair(chunk, i, w) {
                    return end;
                }
            }
            self.pair_line = self.line;
            self.start_capture(chunk, i);
        }
        if let Slot::Result(w) = slot {
            self.doc.result(w, c == b'[');
        }
        if slot == Slot::RowElem && c != b'{' {
            self.rows.not_object();
        }
        match c {
            b'{' => {
                let ctx = match slot {
                    Slot::Root => {
                        self.doc.root_is_object();
                        self.rows.begin_row();
                        Ctx::Root
                    }
                    Slot::RowElem => {
                        self.rows.begin_row();
                        Ctx::Row
                    }
                    Slot::Data => {
                        self.doc.data_is_object();
                        Ctx::Data
                    }
                    Slot::Series(w) => Ctx::Series(w),
                    Slot::Metric => Ctx::Metric(self.which()),
                    _ => Ctx::Skip,
                };
                self.push(true, ctx);
            }
            b'[' => {
                let ctx = match slot {
                    Slot::Root => {
                        self.rows.root_array();
                        Ctx::RootArr
                    }
                    Slot::Result(w) => Ctx::Result(w),
                    Slot::Values => {
                        let w = self.which();
                        if let Some(c) = self.doc.collector(w) {
                            c.values_array();
                        }
                        Ctx::Values(w)
                    }
                    Slot::Vector(_) => {
                        self.pair_line = self.line;
                        self.start_capture(chunk, i);
                        self.ts = Val::Other;
                        self.val = Val::Other;
                        Ctx::Pair
                    }
                    Slot::Sample(_) => {
                        self.ts = Val::Other;
                        self.val = Val::Other;
                        Ctx::Pair
                    }
                    _ => Ctx::Skip,
                };
                self.push(false, ctx);
            }
            b'"' => {
                self.key_mode = false;
                self.cap = matches!(
                    slot,
                    Slot::Status
                        | Slot::Error
                        | Slot::ErrorType
                        | Slot::Label
                        | Slot::PairElem(0 | 1)
                        | Slot::RowField(_)
                );
                self.tok.clear();
                self.st = St::Str;
            }
            b'-' | b'0'..=b'9' => {
                self.tok.clear();
                self.tok_line = self.line;
                self.st = St::Num;
                return i;
            }
            b't' | b'f' | b'n' => {
                self.word = match c {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                self.word_at = 0;
                self.st = St::Word;
                return i;
            }
            _ => {
                self.fail(self.line);
                return b.len();
            }
        }
        i + 1
    }

    fn start_capture(&mut self, chunk: &str, i: usize) {
        let mut c = Capture {
            text: String::new(),
            chars: 0,
            done: false,
            decided: false,
            target: None,
        };
        c.fill(&chunk[i..]);
        self.caps.push(c);
    }

    /// Set the excerpts of captures both complete and judged, and drop them.
    fn resolve_caps(&mut self) {
        let mut k = 0;
        while k < self.caps.len() {
            if self.caps[k].done && self.caps[k].decided {
                let c = self.caps.remove(k);
                if let Some((w, i)) = c.target {
                    let ex = c.excerpt();
                    if let Some(col) = self.doc.collector(w) {
                        col.set_excerpt(i, ex);
                    }
                }
            } else {
                k += 1;
            }
        }
    }

    /// The newest capture (its sample) was judged.
    fn decide(&mut self, w: Which, reject: Option<usize>) {
        if let Some(c) = self.caps.last_mut() {
            c.decided = true;
            c.target = reject.map(|i| (w, i));
        }
        self.resolve_caps();
    }

    /// `[time, "value"]` whole in this slice, in the usual form: read at once.
    fn fast_pair(&mut self, chunk: &str, i: usize, w: Which) -> Option<usize> {
        let b = chunk.as_bytes();
        let mut j = i + 1;
        let mut nl = 0usize;
        let skip = |j: &mut usize, nl: &mut usize| {
            while *j < b.len() && is_ws(b[*j]) {
                *nl += usize::from(b[*j] == b'\n');
                *j += 1;
            }
        };
        skip(&mut j, &mut nl);
        let ts = fast_elem(chunk, &mut j)?;
        skip(&mut j, &mut nl);
        if b.get(j) != Some(&b',') {
            return None;
        }
        j += 1;
        skip(&mut j, &mut nl);
        let val = fast_elem(chunk, &mut j)?;
        skip(&mut j, &mut nl);
        if b.get(j) != Some(&b']') {
            return None;
        }
        let end = j + 1;
        let line = self.line;
        let c = self.doc.collector(w)?;
        if let Some(r) = c.sample(line, 2, ts, val) {
            let close = chunk[i..].find(']').map_or(end, |k| i + k + 1);
            c.set_excerpt(r, excerpt(&chunk[i..close]));
        }
        self.line += nl;
        self.st = St::ArrNext;
        Some(end)
    }

    fn string(&mut self, b: &[u8], mut i: usize) -> usize {
        while i < b.len() {
            match self.esc {
                Esc::None => {
                    let mut j = i;
                    while j < b.len() && b[j] != b'"' && b[j] != b'\\' && b[j] >= 0x20 {
                        j += 1;
                    }
                    if self.cap {
                        self.tok.extend_from_slice(&b[i..j]);
                    }
                    i = j;
                    if i == b.len() {
                        break;
                    }
                    match b[i] {
                        b'"' => {
                            self.end_string();
                            return i + 1;
                        }
                        b'\\' => {
                            self.esc = Esc::Backslash;
                            i += 1;
                        }
                        _ => {
                            self.fail(self.line);
                            return b.len();
                        }
                    }
                }
                Esc::Backslash => {
                    let e = b[i];
                    i += 1;
                    let out = match e {
                        b'"' => b'"',
                        b'\\' => b'\\',
                        b'/' => b'/',
                        b'b' => 8,
                        b'f' => 12,
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        b'u' => {
                            self.esc = Esc::Hex {
                                n: 0,
                                v: 0,
                                line: self.line,
                                low_of: 0,
                            };
                            continue;
                        }
                        _ => {
                            self.fail(self.line + usize::from(e == b'\n'));
                            return b.len();
                        }
                    };
                    if self.cap {
                        self.tok.push(out);
                    }
                    self.esc = Esc::None;
                }
                Esc::Hex { n, v, line, low_of } => {
                    let c = b[i];
                    let v = match hex(c) {
                        Some(d) if c.is_ascii() => v * 16 + d,
                        _ if n == 0 && c == b'+' => v,
                        _ => {
                            self.fail(line);
                            return b.len();
                        }
                    };
                    i += 1;
                    if n < 3 {
                        self.esc = Esc::Hex {
                            n: n + 1,
                            v,
                            line,
                            low_of,
                        };
                        continue;
                    }
                    self.esc = Esc::None;
                    if low_of != 0 {
                        if (0xDC00..0xE000).contains(&v) {
                            self.push_char(0x10000 + ((low_of - 0xD800) << 10) + (v - 0xDC00));
                        } else {
                            self.push_char(0xFFFD);
                        }
                    } else if (0xD800..0xDC00).contains(&v) {
                        self.esc = Esc::High(v);
                    } else {
                        self.push_char(v);
                    }
                }
                Esc::High(hi) => {
                    if b[i] == b'\\' {
                        self.esc = Esc::HighBackslash(hi);
                        i += 1;
                    } else {
                        self.push_char(0xFFFD);
                        self.esc = Esc::None;
                    }
                }
                Esc::HighBackslash(hi) => {
                    if b[i] == b'u' {
                        self.esc = Esc::Hex {
                            n: 0,
                            v: 0,
                            line: self.line,
                            low_of: hi,
                        };
                        i += 1;
                    } else {
                        self.push_char(0xFFFD);
                        self.esc = Esc::Backslash;
                    }
                }
            }
        }
        b.len()
    }

    fn push_char(&mut self, cp: u32) {
        if self.cap {
            let c = char::from_u32(cp).unwrap_or('\u{FFFD}');
            let mut buf = [0u8; 4];
            self.tok
                .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }

    fn tok_string(&mut self) -> String {
        String::from_utf8(std::mem::take(&mut self.tok))
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    fn end_string(&mut self) {
        self.esc = Esc::None;
        if self.key_mode {
            self.key_mode = false;
            let ctx = self.stack.last().map_or(Ctx::Skip, |f| f.ctx);
            if ctx == Ctx::Skip {
                self.slot = Slot::Skip;
            } else {
                let key = self.tok_string();
                let row_field = || row_column(&key).map_or(Slot::Skip, Slot::RowField);
                self.slot = match ctx {
                    Ctx::Root => {
                        self.rows.prometheus_key(&key);
                        match self.doc.root_key(&key) {
                            Slot::Skip => row_field(),
                            s => s,
                        }
                    }
                    Ctx::Row => row_field(),
                    Ctx::Data => self.doc.data_key(&key),
                    Ctx::Series(w) => match self.doc.collector(w) {
                        Some(c) => c.series_key(w, &key),
                        None => Slot::Skip,
                    },
                    Ctx::Metric(_) => Slot::Label,
                    _ => Slot::Skip,
                };
                self.key = key;
            }
            self.st = St::Colon;
        } else {
            let v = if self.cap {
                Val::Str(self.tok_string())
            } else {
                Val::Other
            };
            self.scalar_done(v);
        }
    }

    fn end_number(&mut self) {
        let v = std::str::from_utf8(&self.tok)
            .ok()
            .and_then(parse_f64)
            .filter(|v| v.is_finite());
        match v {
            Some(v) => self.scalar_done(Val::Num(v)),
            None => self.fail(self.tok_line),
        }
    }

    fn scalar_done(&mut self, v: Val) {
        match self.slot {
            Slot::Status | Slot::Error | Slot::ErrorType => {
                if let Val::Str(s) = &v {
                    self.doc.root_string(self.slot, s);
                }
            }
            Slot::Label => self.label(match &v {
                Val::Str(s) => Some(s.as_str()),
                _ => None,
            }),
            Slot::PairElem(k) => self.pair_elem(k, v),
            Slot::RowField(c) => self.rows.field(
                c,
                match v {
                    Val::Str(s) => Some(s),
                    Val::Num(x) => Some(number_field(x)),
                    Val::Other => None,
                },
            ),
            Slot::Sample(w) => self.bad_sample(w),
            Slot::Series(w) => {
                if let Some(c) = self.doc.collector(w) {
                    c.end_series();
                }
            }
            _ => {}
        }
        self.after_value();
    }

    fn label(&mut self, v: Option<&str>) {
        let w = self.which();
        let k = std::mem::take(&mut self.key);
        if let Some(c) = self.doc.collector(w) {
            c.label(k, v);
        }
    }

    fn pair_elem(&mut self, k: u8, v: Val) {
        match k {
            0 => self.ts = v,
            1 => self.val = v,
            _ => {}
        }
    }

    fn bad_sample(&mut self, w: Which) {
        let line = self.pair_line;
        let r = self
            .doc
            .collector(w)
            .and_then(|c| c.sample(line, usize::MAX, Elem::Other, Elem::Other));
        self.decide(w, r);
    }

    fn after_value(&mut self) {
        self.st = match self.stack.last() {
            None => {
                self.root_done = true;
                St::Trailing
            }
            Some(f) if f.obj => St::ObjNext,
            Some(_) => St::ArrNext,
        };
    }

    fn close(&mut self) {
        let Some(f) = self.stack.pop() else {
            return;
        };
        match (f.own, f.ctx) {
            (Slot::Root, Ctx::Root) | (Slot::RowElem, Ctx::Row) => self.rows.end_row(),
            (Slot::Series(w), _) => {
                if let Some(c) = self.doc.collector(w) {
                    c.end_series();
                }
            }
            (Slot::Sample(w), Ctx::Pair) => {
                let (ts, val) = (
                    std::mem::replace(&mut self.ts, Val::Other),
                    std::mem::replace(&mut self.val, Val::Other),
                );
                let line = self.pair_line;
                let r = self
                    .doc
                    .collector(w)
                    .and_then(|c| c.sample(line, f.n, ts.elem(), val.elem()));
                self.decide(w, r);
            }
            (Slot::Sample(w), _) => self.bad_sample(w),
            (Slot::Vector(w), Ctx::Pair) => {
                let (ts, val) = (
                    std::mem::replace(&mut self.ts, Val::Other),
                    std::mem::replace(&mut self.val, Val::Other),
                );
                let ex = self.caps.pop().map(|c| c.excerpt()).unwrap_or_default();
                let line = self.pair_line;
                if let Some(c) = self.doc.collector(w) {
                    c.vector(line, f.n, ts.elem(), val.elem(), ex);
                }
            }
            (Slot::Label, _) => self.label(None),
            (Slot::PairElem(k), _) => self.pair_elem(k, Val::Other),
            _ => {}
        }
        self.slot = f.own;
        self.after_value();
    }

    /// All was fed: the result.
    pub fn finish(mut self) -> ParseResult {
        if self.st == St::Num {
            self.end_number();
        }
        if let Some(line) = self.err_line {
            return Err(IngestError::InvalidJson { line });
        }
        if !self.root_done {
            return Err(IngestError::InvalidJson { line: self.line });
        }
        let lines = if self.any {
            self.line - 1 + usize::from(!self.last_newline)
        } else {
            0
        };
        finish_doc(self.doc, self.rows, &self.opts, lines)
    }
}

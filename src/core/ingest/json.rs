//! A small, strict JSON reader (no serde_json): bounded nesting, no panics.
//! Array elements keep their byte offset so problems can be reported by line.

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum JsonValue {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    /// Elements with their byte offsets.
    Arr(Vec<(usize, JsonValue)>),
    /// Members with the byte offset of each value.
    Obj(Vec<(String, usize, JsonValue)>),
}

impl JsonValue {
    #[cfg(test)]
    pub fn get(&self, key: &str) -> Option<&JsonValue> {
        match self {
            JsonValue::Obj(kv) => kv.iter().find(|(k, _, _)| k == key).map(|(_, _, v)| v),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            JsonValue::Str(s) => Some(s),
            _ => None,
        }
    }
}

const MAX_DEPTH: usize = 64;

/// Byte offset of the first problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct JsonError {
    pub at: usize,
}

#[cfg(test)]
pub(crate) fn parse(text: &str) -> Result<JsonValue, JsonError> {
    let mut v = parse_values(text, |_| false)?;
    Ok(v.swap_remove(0))
}

/// One JSON value, or (newline-delimited JSON) further objects after it when `more(first)`
/// allows: each later value must begin with `{`. The values in order, at least one.
pub(crate) fn parse_values(
    text: &str,
    more: impl Fn(&JsonValue) -> bool,
) -> Result<Vec<JsonValue>, JsonError> {
    let mut p = P {
        b: text.as_bytes(),
        i: 0,
    };
    p.ws();
    if p.b[p.i..].starts_with("\u{FEFF}".as_bytes()) {
        p.i += 3;
        p.ws();
    }
    let mut out = vec![p.value(0)?];
    p.ws();
    let allowed = more(&out[0]);
    while p.i != p.b.len() {
        if !allowed || p.peek() != Some(b'{') {
            return Err(JsonError { at: p.i });
        }
        out.push(p.value(0)?);
        p.ws();
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// JSON rows: the answer to one of the page's SQL queries as BigQuery writes it
// (`bq query --format=json`: an array of objects; the console's JSON download: one object
// a line), numbers often as strings. Read by the Prometheus readers' walk (the streaming
// one and the tree), collected here, and handed to the table reader as the CSV the same
// answer downloads as, so both read alike.

/// The columns of an answer ([`crate::core::query::ANSWER_HEADER`], then the rates
/// answer's [`crate::core::query::RATES_HEADER`] columns not already there).
pub(crate) const ROW_COLUMNS: [&str; 7] = [
    "hour_utc",
    "gpu_type",
    "team",
    "gpu_hours",
    "pricing",
    "cost",
    "currency",
];
const HOUR: usize = 0;
const TYPE: usize = 1;
const GPU_HOURS: usize = 3;
const PRICING: usize = 4;
const COST: usize = 5;
/// Characters kept of a field (an answer's fields are short).
const MAX_FIELD_CHARS: usize = 200;

/// The answer column a key names.
pub(crate) fn row_column(key: &str) -> Option<u8> {
    ROW_COLUMNS.iter().position(|c| *c == key).map(|i| i as u8)
}

/// A JSON scalar as a row field: a string as it is, a number in its shortest exact
/// decimal, `null` / `true` / `false` as no value.
pub(crate) fn number_field(x: f64) -> String {
    format!("{x}")
}

/// The rows of a JSON-rows answer, as they are met.
#[derive(Debug, Default)]
pub(crate) struct Rows {
    /// The document is not (or no longer) a candidate: the first row named no answer
    /// column, an array element was not an object, or the root object is a Prometheus one.
    dead: bool,
    /// The root value is an array (of rows) or a row object.
    started: bool,
    /// The root value is an array.
    array: bool,
    seen: [bool; 7],
    cur: [Option<String>; 7],
    set: [bool; 7],
    in_row: bool,
    /// The root object has a Prometheus key (`status`, `data`, `result`, …).
    prometheus_keys: bool,
    rows: Vec<[Option<String>; 7]>,
}

impl Rows {
    /// An object row begins.
    pub fn begin_row(&mut self) {
        self.started = true;
        self.in_row = true;
        self.cur = Default::default();
        self.set = [false; 7];
    }

    /// A scalar member of the row (the first of each key counts).
    pub fn field(&mut self, col: u8, v: Option<String>) {
        let c = usize::from(col);
        if !self.in_row || self.dead || c >= ROW_COLUMNS.len() || self.set[c] {
            return;
        }
        self.set[c] = true;
        self.cur[c] = v.map(|s| {
            if s.chars().count() > MAX_FIELD_CHARS {
                s.chars().take(MAX_FIELD_CHARS).collect()
            } else {
                s
            }
        });
    }

    /// A key of the root object that a Prometheus response has.
    pub fn prometheus_key(&mut self, key: &str) {
        if matches!(key, "status" | "data" | "result" | "error" | "errorType") {
            self.prometheus_keys = true;
        }
    }

    pub fn end_row(&mut self) {
        if !self.in_row {
            return;
        }
        self.in_row = false;
        if self.dead {
            return;
        }
        if self.rows.is_empty() && !self.set.iter().any(|&b| b) {
            self.dead = true;
            return;
        }
        for (s, &b) in self.seen.iter_mut().zip(&self.set) {
            *s |= b;
        }
        self.rows.push(std::mem::take(&mut self.cur));
    }

    /// The root is an array: its elements are rows.
    pub fn root_array(&mut self) {
        self.started = true;
        self.array = true;
    }

    /// An element of the root array that is not an object.
    pub fn not_object(&mut self) {
        self.dead = true;
        self.rows = Vec::new();
    }

    /// After the first root value: may objects follow (newline-delimited rows)? Only after
    /// a root object that is a row.
    pub fn more_objects(&self) -> bool {
        !self.array && !self.dead && !self.prometheus_keys && !self.rows.is_empty()
    }

    /// A root value of the tree reader (the document's root, or a further object), walked
    /// as the streaming reader meets it.
    pub fn value(&mut self, v: &JsonValue, first: bool) {
        match v {
            JsonValue::Obj(kv) => self.object(kv, first),
            JsonValue::Arr(items) => {
                self.root_array();
                for (_, it) in items {
                    match it {
                        JsonValue::Obj(kv) => self.object(kv, false),
                        _ => self.not_object(),
                    }
                }
            }
            _ => {}
        }
    }

    fn object(&mut self, kv: &[(String, usize, JsonValue)], root: bool) {
        self.begin_row();
        for (k, _, v) in kv {
            if root {
                self.prometheus_key(k);
            }
            if let Some(c) = row_column(k) {
                match v {
                    JsonValue::Str(s) => self.field(c, Some(s.clone())),
                    JsonValue::Num(x) => self.field(c, Some(number_field(*x))),
                    JsonValue::Null | JsonValue::Bool(_) => self.field(c, None),
                    _ => {}
                }
            }
        }
        self.end_row();
    }

    /// The rows make an answer: the hourly one (`hour_utc`, `gpu_hours`) or the rates.
    fn is_answer(&self) -> bool {
        let s = &self.seen;
        self.started
            && !self.dead
            && !self.prometheus_keys
            && !self.rows.is_empty()
            && ((s[HOUR] && s[GPU_HOURS]) || (s[TYPE] && s[PRICING] && s[GPU_HOURS] && s[COST]))
    }

    /// The answer read as its CSV (header: the columns met, in answer order) by the table
    /// reader; `None` when the document is not a JSON-rows answer. `lines`: the JSON text's.
    pub fn read(self, opts: &super::ParseOptions, lines: usize) -> Option<super::ParseResult> {
        if !self.is_answer() {
            return None;
        }
        // The columns met, in the order of the answer's header (the hourly one, or else the
        // rates one: `gpu_type, pricing, gpu_hours, cost, currency`).
        let order: [usize; 7] = if self.seen[HOUR] {
            [0, 1, 2, 3, 4, 5, 6]
        } else {
            [1, 4, 3, 5, 6, 0, 2]
        };
        let cols: Vec<usize> = order.into_iter().filter(|&c| self.seen[c]).collect();
        let mut csv = String::new();
        let head: Vec<&str> = cols.iter().map(|&c| ROW_COLUMNS[c]).collect();
        csv.push_str(&head.join(","));
        csv.push('\n');
        for r in &self.rows {
            for (k, &c) in cols.iter().enumerate() {
                if k > 0 {
                    csv.push(',');
                }
                if let Some(v) = &r[c] {
                    csv_field(&mut csv, v);
                }
            }
            csv.push('\n');
        }
        let inner = super::ParseOptions {
            format: None,
            ..opts.clone()
        };
        let set = |r: &mut super::ParseReport| {
            r.lines = lines;
            if r.query_answer != Some(super::QueryAnswer::Rates) {
                r.query_answer = Some(super::QueryAnswer::JsonRows);
            }
        };
        Some(match super::parse(&csv, &inner) {
            Ok(mut p) => {
                set(&mut p.report);
                Ok(p)
            }
            Err(super::IngestError::NoUsableRows(mut r)) => {
                set(&mut r);
                Err(super::IngestError::NoUsableRows(r))
            }
            Err(e) => Err(e),
        })
    }
}

/// A CSV field, quoted when it holds a comma, a quote, a line end or edge spaces.
fn csv_field(out: &mut String, v: &str) {
    let quote = v.contains([',', '"', '\n', '\r']) || v.trim() != v;
    if quote {
        out.push('"');
        out.push_str(&v.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(v);
    }
}

struct P<'a> {
    b: &'a [u8],
    i: usize,
}

impl P<'_> {
    fn err<T>(&self) -> Result<T, JsonError> {
        Err(JsonError {
            at: self.i.min(self.b.len()),
        })
    }

    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// White space, then `b` if it comes next (taken: `true`).
    fn eat(&mut self, b: u8) -> bool {
        self.ws();
        let next = self.peek() == Some(b);
        if next {
            self.i += 1;
        }
        next
    }

    /// After a member or an item: `,` (another follows: `false`) or the container's `end`
    /// (`true`); anything else is an error.
    fn ends(&mut self, end: u8) -> Result<bool, JsonError> {
        if self.eat(b',') {
            return Ok(false);
        }
        if self.peek() == Some(end) {
            self.i += 1;
            return Ok(true);
        }
        self.err()
    }

    fn value(&mut self, depth: usize) -> Result<JsonValue, JsonError> {
        if depth > MAX_DEPTH {
            return self.err();
        }
        self.ws();
        match self.peek() {
            Some(b'{') => {
                self.i += 1;
                let mut kv = Vec::new();
                if self.eat(b'}') {
                    return Ok(JsonValue::Obj(kv));
                }
                loop {
                    self.ws();
                    if self.peek() != Some(b'"') {
                        return self.err();
                    }
                    let k = self.string()?;
                    if !self.eat(b':') {
                        return self.err();
                    }
                    let mut at = self.i;
                    while at < self.b.len() && matches!(self.b[at], b' ' | b'\t' | b'\n' | b'\r') {
                        at += 1;
                    }
                    let v = self.value(depth + 1)?;
                    kv.push((k, at, v));
                    if self.ends(b'}')? {
                        return Ok(JsonValue::Obj(kv));
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Ok(JsonValue::Arr(items));
                }
                loop {
                    self.ws();
                    let at = self.i;
                    let v = self.value(depth + 1)?;
                    items.push((at, v));
                    if self.ends(b']')? {
                        return Ok(JsonValue::Arr(items));
                    }
                }
            }
            Some(b'"') => self.string().map(JsonValue::Str),
            Some(b't') => self.word(b"true", JsonValue::Bool(true)),
            Some(b'f') => self.word(b"false", JsonValue::Bool(false)),
            Some(b'n') => self.word(b"null", JsonValue::Null),
            Some(c) if c == b'-' || c.is_ascii_digit() => self.number(),
            _ => self.err(),
        }
    }

    fn word(&mut self, w: &[u8], v: JsonValue) -> Result<JsonValue, JsonError> {
        if self.b[self.i..].starts_with(w) {
            self.i += w.len();
            Ok(v)
        } else {
            self.err()
        }
    }

    fn number(&mut self) -> Result<JsonValue, JsonError> {
        let start = self.i;
        while self.i < self.b.len()
            && matches!(
                self.b[self.i],
                b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'
            )
        {
            self.i += 1;
        }
        let s = std::str::from_utf8(&self.b[start..self.i]).map_err(|_| JsonError { at: start })?;
        match super::number::parse_f64(s) {
            Some(v) if v.is_finite() => Ok(JsonValue::Num(v)),
            _ => Err(JsonError { at: start }),
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let h = self
            .b
            .get(self.i..self.i + 4)
            .ok_or(JsonError { at: self.i })?;
        let s = std::str::from_utf8(h).map_err(|_| JsonError { at: self.i })?;
        let v = u32::from_str_radix(s, 16).map_err(|_| JsonError { at: self.i })?;
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.i += 1; // opening quote
        let mut out = String::new();
        let mut run = self.i;
        loop {
            let Some(c) = self.peek() else {
                return self.err();
            };
            match c {
                b'"' => {
                    out.push_str(
                        std::str::from_utf8(&self.b[run..self.i])
                            .map_err(|_| JsonError { at: run })?,
                    );
                    self.i += 1;
                    return Ok(out);
                }
                b'\\' => {
                    out.push_str(
                        std::str::from_utf8(&self.b[run..self.i])
                            .map_err(|_| JsonError { at: run })?,
                    );
                    self.i += 1;
                    let Some(e) = self.peek() else {
                        return self.err();
                    };
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let mut cp = self.hex4()?;
                            if (0xD800..0xDC00).contains(&cp)
                                && self.b[self.i..].starts_with(b"\\u")
                            {
                                self.i += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                                }
                            }
                            out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                        }
                        _ => return self.err(),
                    }
                    run = self.i;
                }
                0..=0x1F => return self.err(),
                _ => self.i += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_values() {
        let v =
            parse(r#" {"a": [1, -2.5e1, "x\"\u00e9\ud83d\ude00", true, null], "b": {}} "#).unwrap();
        let JsonValue::Arr(a) = v.get("a").unwrap() else {
            panic!()
        };
        assert_eq!(a[1].1, JsonValue::Num(-25.0));
        assert_eq!(a[2].1, JsonValue::Str("x\"é😀".into()));
        assert_eq!(v.get("b"), Some(&JsonValue::Obj(vec![])));
    }

    #[test]
    fn errors_not_panics() {
        for s in [
            "",
            "{",
            "[1,",
            "{\"a\" 1}",
            "\"abc",
            "[1e999]",
            "tru",
            "{\"a\":1}x",
            "\"\\u12\"",
            "[\"\\ud800\\u\"]",
        ] {
            assert!(parse(s).is_err(), "{s}");
        }
        let deep = "[".repeat(10_000);
        assert!(parse(&deep).is_err());
    }
}

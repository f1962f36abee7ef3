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

pub(crate) fn parse(text: &str) -> Result<JsonValue, JsonError> {
    let mut p = P {
        b: text.as_bytes(),
        i: 0,
    };
    p.ws();
    if p.b[p.i..].starts_with("\u{FEFF}".as_bytes()) {
        p.i += 3;
        p.ws();
    }
    let v = p.value(0)?;
    p.ws();
    if p.i != p.b.len() {
        return Err(JsonError { at: p.i });
    }
    Ok(v)
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

    fn value(&mut self, depth: usize) -> Result<JsonValue, JsonError> {
        if depth > MAX_DEPTH {
            return self.err();
        }
        self.ws();
        match self.peek() {
            Some(b'{') => {
                self.i += 1;
                let mut kv = Vec::new();
                self.ws();
                if self.peek() == Some(b'}') {
                    self.i += 1;
                    return Ok(JsonValue::Obj(kv));
                }
                loop {
                    self.ws();
                    if self.peek() != Some(b'"') {
                        return self.err();
                    }
                    let k = self.string()?;
                    self.ws();
                    if self.peek() != Some(b':') {
                        return self.err();
                    }
                    self.i += 1;
                    let mut at = self.i;
                    while at < self.b.len() && matches!(self.b[at], b' ' | b'\t' | b'\n' | b'\r') {
                        at += 1;
                    }
                    let v = self.value(depth + 1)?;
                    kv.push((k, at, v));
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(JsonValue::Obj(kv));
                        }
                        _ => return self.err(),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.peek() == Some(b']') {
                    self.i += 1;
                    return Ok(JsonValue::Arr(items));
                }
                loop {
                    self.ws();
                    let at = self.i;
                    let v = self.value(depth + 1)?;
                    items.push((at, v));
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(JsonValue::Arr(items));
                        }
                        _ => return self.err(),
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

//! Splitting a line into field byte ranges (reused buffer, no allocation per line).

use super::number::fast_trim_inlined;
use super::{Delimiter, ParseReport, RejectReason};

/// More fields than this on one line: the line is rejected (bounded memory).
pub(crate) const MAX_FIELDS: usize = 256;

impl Delimiter {
    fn bytes(self) -> &'static [u8] {
        match self {
            Delimiter::Comma => b",",
            Delimiter::Tab => b"\t",
            Delimiter::Semicolon => b";",
            Delimiter::Pipe => b"|",
            Delimiter::FullWidthComma => "，".as_bytes(),
            Delimiter::Whitespace | Delimiter::None => b"",
        }
    }
}

/// A comment line (`#` or `//` first).
pub(crate) fn is_comment(t: &str) -> bool {
    let b = t.as_bytes();
    b.first() == Some(&b'#') || (b.len() >= 2 && b[0] == b'/' && b[1] == b'/')
}

impl ParseReport {
    /// Line `no` of a table (the parser's rows, `sacct`'s): its trimmed text, with its fields
    /// split into `fields`; `None` where it holds no record: too long or with too many fields
    /// (rejected), blank, a comment or the header line written again (skipped, counted in
    /// `skipped`). `header`: the header line, and whether it was met already.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn record<'a>(
        &mut self,
        no: usize,
        l: &'a str,
        overflow: bool,
        header: (Option<&str>, &mut bool),
        delim: Delimiter,
        no_quotes: bool,
        fields: &mut Vec<(usize, usize)>,
        skipped: &mut usize,
    ) -> Option<&'a str> {
        if overflow {
            self.reject(no, RejectReason::LineTooLong, l);
            return None;
        }
        let t = fast_trim_inlined(l);
        if t.is_empty() {
            return None;
        }
        if is_comment(t) {
            *skipped += 1;
            return None;
        }
        let (header_line, header_seen) = header;
        if header_line == Some(t) {
            if *header_seen {
                *skipped += 1;
            }
            *header_seen = true;
            return None;
        }
        if !split_fields_with(t, delim, no_quotes, fields) {
            self.reject(no, RejectReason::TooManyColumns, t);
            return None;
        }
        Some(t)
    }
}

/// Split `line` into trimmed field ranges (outer quotes removed). A `"` opens a quoted
/// field only at the start of a field (after a delimiter, `,` `;` tab `|` `，`, or at the
/// start of the line, spaces aside): a delimiter or line break inside it does not split,
/// and `""` inside it stays as written (unescaped only where a cell is kept as a name).
/// A `"` elsewhere (`5"`, `12" monitor`) is a plain character. Returns `false`
/// when the line has more than [`MAX_FIELDS`] fields (`out` then holds the first ones).
/// Ranges always lie on char boundaries: splitting happens only at ASCII bytes or
/// at whole delimiter sequences.
pub(crate) fn split_fields(line: &str, delim: Delimiter, out: &mut Vec<(usize, usize)>) -> bool {
    split_fields_with(line, delim, false, out)
}

/// [`split_fields`], told whether `line` is already known to hold no `"` (the parser
/// knows it for most lines; this spares looking for one).
pub(crate) fn split_fields_with(
    line: &str,
    delim: Delimiter,
    no_quotes: bool,
    out: &mut Vec<(usize, usize)>,
) -> bool {
    out.clear();
    let b = line.as_bytes();
    match delim {
        Delimiter::None => {
            out.push(trim_range(b, 0, b.len()));
            true
        }
        Delimiter::Whitespace => {
            let mut i = 0;
            while i < b.len() {
                while i < b.len() && is_space_at(b, i) > 0 {
                    i += is_space_at(b, i);
                }
                if i >= b.len() {
                    break;
                }
                let start = i;
                while i < b.len() && is_space_at(b, i) == 0 {
                    i += 1;
                }
                if out.len() >= MAX_FIELDS {
                    return false;
                }
                out.push(trim_range(b, start, i));
            }
            true
        }
        _ if no_quotes || !b.contains(&b'"') => {
            // No quotes (most lines): every delimiter splits.
            let d = delim.bytes();
            let mut start = 0;
            let mut i = 0;
            while i < b.len() {
                if b[i] == d[0] && (d.len() == 1 || b[i..].starts_with(d)) {
                    if out.len() >= MAX_FIELDS {
                        return false;
                    }
                    out.push(trim_range(b, start, i));
                    i += d.len();
                    start = i;
                } else {
                    i += 1;
                }
            }
            if out.len() >= MAX_FIELDS {
                return false;
            }
            out.push(trim_range(b, start, b.len()));
            true
        }
        _ => {
            let d = delim.bytes();
            let mut start = 0;
            let mut i = 0;
            // At the start of a field: a `"` here opens a quoted field (the same rule as
            // the parser's record reading: after a candidate delimiter or at the start).
            let mut field_start = true;
            while i < b.len() {
                let c = b[i];
                if c == d[0] && (d.len() == 1 || b[i..].starts_with(d)) {
                    if out.len() >= MAX_FIELDS {
                        return false;
                    }
                    out.push(trim_range(b, start, i));
                    i += d.len();
                    start = i;
                    field_start = true;
                    continue;
                }
                match c {
                    b'"' if field_start => {
                        i = quoted_end(b, i + 1);
                        field_start = false;
                    }
                    b',' | b';' | b'|' | b'\t' => {
                        field_start = true;
                        i += 1;
                    }
                    0xEF if b[i..].starts_with("，".as_bytes()) => {
                        field_start = true;
                        i += 3;
                    }
                    0xEF if b[i..].starts_with("\u{FEFF}".as_bytes()) => i += 3,
                    b' ' => i += 1,
                    _ => {
                        field_start = false;
                        i += 1;
                    }
                }
            }
            if out.len() >= MAX_FIELDS {
                return false;
            }
            out.push(trim_range(b, start, b.len()));
            true
        }
    }
}

/// Just past the `"` closing a quoted field whose text starts at `i` (`""` is an
/// escaped quote), or the end of the line when it never closes.
fn quoted_end(b: &[u8], mut i: usize) -> usize {
    while let Some(k) = b[i..].iter().position(|&c| c == b'"') {
        i += k + 1;
        if b.get(i) != Some(&b'"') {
            return i;
        }
        i += 1;
    }
    b.len()
}

/// Width in bytes of the whitespace separator at `i` (space, tab, ideographic space), or 0.
fn is_space_at(b: &[u8], i: usize) -> usize {
    match b[i] {
        b' ' | b'\t' => 1,
        0xE3 if b[i..].starts_with("\u{3000}".as_bytes()) => 3,
        _ => 0,
    }
}

#[inline(always)]
fn trim_range(b: &[u8], mut s: usize, mut e: usize) -> (usize, usize) {
    while s < e && (b[s] == b' ' || b[s] == b'\t') {
        s += 1;
    }
    while e > s && (b[e - 1] == b' ' || b[e - 1] == b'\t') {
        e -= 1;
    }
    if e - s >= 2 && b[s] == b'"' && b[e - 1] == b'"' {
        s += 1;
        e -= 1;
    }
    (s, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(line: &str, d: Delimiter) -> Vec<&str> {
        let mut v = Vec::new();
        assert!(split_fields(line, d, &mut v));
        v.iter().map(|&(a, b)| &line[a..b]).collect()
    }

    #[test]
    fn delimiters() {
        assert_eq!(split("a, b ,c", Delimiter::Comma), ["a", "b", "c"]);
        assert_eq!(
            split("\"1,234\",\"x\"\"y\"", Delimiter::Comma),
            ["1,234", "x\"\"y"]
        );
        assert_eq!(split("a;b;", Delimiter::Semicolon), ["a", "b", ""]);
        assert_eq!(
            split("时间，GPU数", Delimiter::FullWidthComma),
            ["时间", "GPU数"]
        );
        assert_eq!(
            split("  2026-11-01 13:00\t 12  ", Delimiter::Whitespace),
            ["2026-11-01", "13:00", "12"]
        );
        assert_eq!(split("a\u{3000}b", Delimiter::Whitespace), ["a", "b"]);
        assert_eq!(split(" 12 ", Delimiter::None), ["12"]);
    }

    #[test]
    fn quotes_open_only_at_the_start_of_a_field() {
        let d = Delimiter::Comma;
        assert_eq!(split("a, \"b, c\" ,\"d\"", d), ["a", "b, c", "d"]);
        assert_eq!(
            split("\"say \"\"hi, you\"\"\",\"two\nlines\"", d),
            ["say \"\"hi, you\"\"", "two\nlines"]
        );
        assert_eq!(split("\"\",x,\"\"\"\"", d), ["", "x", "\"\""]);
        // An inch mark is a character: the delimiter after it still splits.
        assert_eq!(split("5\",12\" monitor,x", d), ["5\"", "12\" monitor", "x"]);
        // After the closing quote, text up to the delimiter belongs to the field.
        assert_eq!(split("\"a\"b,c", d), ["\"a\"b", "c"]);
        // Never closed: the rest of the line.
        assert_eq!(split("1,\"open, still", d), ["1", "\"open, still"]);
        // Any candidate delimiter before a quote opens it (as when records are read).
        assert_eq!(split("a;\"x,y\",1", d), ["a;\"x,y\"", "1"]);
        assert_eq!(split("\"a;b\";2", Delimiter::Semicolon), ["a;b", "2"]);
        assert_eq!(split("\"a\tb\"\t2", Delimiter::Tab), ["a\tb", "2"]);
        assert_eq!(
            split("\"时间，x\"，\"1\"", Delimiter::FullWidthComma),
            ["时间，x", "1"]
        );
    }

    #[test]
    fn too_many_fields() {
        let line = ",".repeat(1000);
        let mut v = Vec::new();
        assert!(!split_fields(&line, Delimiter::Comma, &mut v));
        assert_eq!(v.len(), MAX_FIELDS);
    }
}

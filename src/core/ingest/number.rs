//! Numeric cells: an ASCII fast path, then full-width digits, thousands separators,
//! decimal commas and a trailing `%`. Never allocates, never panics.

/// Largest value accepted in a cell (GPUs busy). Larger is almost certainly a
/// misread column (an epoch, an ID) and would risk overflowing sums.
pub(crate) const MAX_VALUE: f64 = 1e9;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumError {
    Empty,
    NotANumber,
    NotFinite,
}

/// `str::trim` with a fast path for the common case of ASCII ends.
pub(crate) fn fast_trim(s: &str) -> &str {
    fast_trim_inlined(s)
}

/// [`fast_trim`] inlined where it runs for every line or cell of a file (one copy per hot
/// loop; the other callers share one, for the page's size: opt-level "z").
#[inline(always)]
pub(crate) fn fast_trim_inlined(s: &str) -> &str {
    let b = s.as_bytes();
    let mut a = 0;
    let mut e = b.len();
    while a < e && b[a].is_ascii_whitespace() {
        a += 1;
    }
    while e > a && b[e - 1].is_ascii_whitespace() {
        e -= 1;
    }
    // Cuts happened only at ASCII bytes, so both ends are char boundaries.
    let t = &s[a..e];
    match (t.as_bytes().first(), t.as_bytes().last()) {
        (Some(f), Some(l)) if f.is_ascii() && l.is_ascii() => t,
        _ => t.trim(),
    }
}

/// Trim ASCII and Unicode whitespace plus one pair of surrounding quotes.
pub(crate) fn trim_cell(s: &str) -> &str {
    let t = fast_trim(s);
    let b = t.as_bytes();
    if b.len() >= 2 && b[0] == b'"' && b[b.len() - 1] == b'"' {
        fast_trim(&t[1..t.len() - 1])
    } else {
        t
    }
}

/// Parse a numeric cell: `12`, `12.5`, `-3`, `1e3`, `+5`, `1,234`, `1 234`, `1.234,5`,
/// `12,5`, `45 %`, `４５`, `１，２３４`. `NaN`, `inf`, words and units are rejected.
pub(crate) fn parse_number(cell: &str) -> Result<f64, NumError> {
    let s = trim_cell(cell);
    if s.is_empty() {
        return Err(NumError::Empty);
    }
    let b = s.as_bytes();
    if let Some(v) = simple_decimal(b) {
        return Ok(v);
    }
    if b.iter()
        .all(|&c| c.is_ascii_digit() || matches!(c, b'.' | b'-' | b'+' | b'e' | b'E'))
        && b.iter().any(u8::is_ascii_digit)
    {
        // `simple_decimal` declined above, so straight to the full grammar.
        if let Some(v) = exact(b) {
            return if v.is_finite() {
                Ok(v)
            } else {
                Err(NumError::NotFinite)
            };
        }
    }
    slow_path(s)
}

use crate::core::decimal::exact;
pub(crate) use crate::core::decimal::{parse_f64, simple_decimal, simple_decimal_inlined};

fn slow_path(s: &str) -> Result<f64, NumError> {
    let mut buf = [0u8; 64];
    let mut n = 0usize;
    for ch in s.chars() {
        let c: u8 = match ch {
            '0'..='9' | '.' | ',' | '-' | '+' | 'e' | 'E' | '%' => ch as u8,
            '\u{FF10}'..='\u{FF19}' => b'0' + (ch as u32 - 0xFF10) as u8,
            '\u{FF0E}' | '\u{3002}' => b'.',
            '\u{FF0C}' | '\u{3001}' => b',',
            '\u{FF0D}' | '\u{2212}' | '\u{2013}' => b'-',
            '\u{FF0B}' => b'+',
            '\u{FF05}' => b'%',
            // Thousands separators that are not ambiguous: spaces, apostrophes, underscores.
            ' ' | '\u{A0}' | '\u{202F}' | '\u{2009}' | '\u{3000}' | '\'' | '_' => continue,
            'n' | 'N' | 'i' | 'I' => return nan_word(s),
            _ => return Err(NumError::NotANumber),
        };
        if n >= buf.len() {
            return Err(NumError::NotANumber);
        }
        buf[n] = c;
        n += 1;
    }
    // A trailing percent sign (nvidia-smi "45 %", formatted Grafana exports).
    if n > 0 && buf[n - 1] == b'%' {
        n -= 1;
    }
    let digits = &mut buf[..n];
    if digits.contains(&b'%') || !digits.iter().any(u8::is_ascii_digit) {
        return Err(NumError::NotANumber);
    }
    let commas = digits.iter().filter(|&&c| c == b',').count();
    let dots = digits.iter().filter(|&&c| c == b'.').count();
    let mut out = [0u8; 64];
    let mut m = 0usize;
    // Which separator is the decimal point (if any); the other one is dropped.
    let (decimal, thousands): (Option<u8>, Option<u8>) = if commas > 0 && dots > 0 {
        let last_comma = digits.iter().rposition(|&c| c == b',').unwrap_or(0);
        let last_dot = digits.iter().rposition(|&c| c == b'.').unwrap_or(0);
        if last_comma > last_dot {
            if commas > 1 {
                return Err(NumError::NotANumber);
            }
            (Some(b','), Some(b'.'))
        } else {
            if dots > 1 {
                return Err(NumError::NotANumber);
            }
            (Some(b'.'), Some(b','))
        }
    } else if commas > 0 {
        if commas == 1 && !groups_of_three(digits, b',') {
            (Some(b','), None)
        } else if groups_of_three(digits, b',') {
            (None, Some(b','))
        } else {
            return Err(NumError::NotANumber);
        }
    } else if dots > 1 {
        if groups_of_three(digits, b'.') {
            (None, Some(b'.'))
        } else {
            return Err(NumError::NotANumber);
        }
    } else {
        (Some(b'.'), None)
    };
    for &c in digits.iter() {
        if Some(c) == thousands {
            continue;
        }
        out[m] = if Some(c) == decimal { b'.' } else { c };
        m += 1;
    }
    let text = std::str::from_utf8(&out[..m]).map_err(|_| NumError::NotANumber)?;
    match parse_f64(text) {
        Some(v) if v.is_finite() => Ok(v),
        Some(_) => Err(NumError::NotFinite),
        None => Err(NumError::NotANumber),
    }
}

/// `NaN`, `inf`, `-Infinity` and friends are "not finite"; other words are "not a number".
fn nan_word(s: &str) -> Result<f64, NumError> {
    let t = s.trim_start_matches(['+', '-']);
    if t.eq_ignore_ascii_case("nan")
        || t.eq_ignore_ascii_case("inf")
        || t.eq_ignore_ascii_case("infinity")
    {
        Err(NumError::NotFinite)
    } else {
        Err(NumError::NotANumber)
    }
}

/// True when every `sep`-separated group after the first is exactly 3 digits and the
/// first group is 1..=3 digits (after an optional sign): `1,234,567`.
fn groups_of_three(digits: &[u8], sep: u8) -> bool {
    let body = match digits.first() {
        Some(b'-') | Some(b'+') => &digits[1..],
        _ => digits,
    };
    let mut first = true;
    for group in body.split(|&c| c == sep) {
        let ok_digits = group.iter().all(u8::is_ascii_digit);
        if first {
            if !ok_digits || group.is_empty() || group.len() > 3 {
                return false;
            }
            first = false;
        } else if !ok_digits || group.len() != 3 {
            return false;
        }
    }
    !first
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_decimal_is_str_parse_bit_for_bit() {
        for (text, want) in [
            ("45.3", 45.3),
            ("-0.1", -0.1),
            ("+7", 7.0),
            ("0.30", 0.3),
            ("123456789012345", 123456789012345.0),
        ] {
            assert_eq!(
                simple_decimal(text.as_bytes()).map(f64::to_bits),
                Some(f64::to_bits(want)),
                "{text}"
            );
        }
        assert_eq!(
            simple_decimal(b"-0").map(f64::to_bits),
            Some((-0.0f64).to_bits())
        );
        // Left to str::parse (or rejected there): too many digits, exponents, odd shapes.
        for text in [
            "9007199254740993",
            "0.12345678901234567890",
            "1e3",
            "5.",
            ".5",
            ".",
            "",
            "-",
            "1.2.3",
            "1,5",
            "--1",
        ] {
            assert_eq!(simple_decimal(text.as_bytes()), None, "{text}");
        }
        let mut seed = 99u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        for _ in 0..200_000 {
            let int_digits = 1 + next() % 9;
            let frac_digits = next() % 8;
            let mut t = String::new();
            if next() % 4 == 0 {
                t.push('-');
            }
            for _ in 0..int_digits {
                t.push(char::from(b'0' + (next() % 10) as u8));
            }
            if frac_digits > 0 {
                t.push('.');
                for _ in 0..frac_digits {
                    t.push(char::from(b'0' + (next() % 10) as u8));
                }
            }
            let fast = simple_decimal(t.as_bytes());
            let std = t.parse::<f64>().ok();
            if int_digits + frac_digits <= 15 {
                assert_eq!(fast.map(f64::to_bits), std.map(f64::to_bits), "{t}");
            } else if let Some(f) = fast {
                assert_eq!(Some(f.to_bits()), std.map(f64::to_bits), "{t}");
            }
            assert_eq!(
                parse_number(&t).ok().map(f64::to_bits),
                std.map(f64::to_bits),
                "{t}"
            );
            assert_eq!(
                parse_f64(&t).map(f64::to_bits),
                std.map(f64::to_bits),
                "{t}"
            );
        }
        // Shapes only str::parse reads: parse_f64 hands them on unchanged.
        for text in [
            "1e3",
            "5.",
            ".5",
            "1234567890123456.7",
            "-0.0000000000000001",
        ] {
            assert_eq!(
                parse_f64(text).map(f64::to_bits),
                text.parse::<f64>().ok().map(f64::to_bits),
                "{text}"
            );
        }
    }

    #[test]
    fn plain_and_signed() {
        assert_eq!(parse_number("12"), Ok(12.0));
        assert_eq!(parse_number(" 12.5 "), Ok(12.5));
        assert_eq!(parse_number("-3"), Ok(-3.0));
        assert_eq!(parse_number("+5"), Ok(5.0));
        assert_eq!(parse_number("1e3"), Ok(1000.0));
        assert_eq!(parse_number("\"7\""), Ok(7.0));
    }

    #[test]
    fn shapes_the_fast_path_declines_go_straight_to_the_full_grammar() {
        // Each is refused by `simple_decimal` and read by `exact`: same bits as str::parse.
        for text in [
            "1e3",
            "1E-2",
            "-2.5e+1",
            ".5",
            "5.",
            "-0.0e0",
            "9007199254740993",
            "12345678901234567890.5",
            "0.30000000000000000000000000000000001",
            "1e-300",
        ] {
            assert_eq!(simple_decimal(text.as_bytes()), None, "{text}");
            let want: f64 = text.parse().unwrap();
            assert_eq!(
                parse_number(text).map(f64::to_bits),
                Ok(want.to_bits()),
                "{text}"
            );
        }
        assert_eq!(parse_number("1e400"), Err(NumError::NotFinite));
        assert_eq!(parse_number("-1e400"), Err(NumError::NotFinite));
    }

    #[test]
    fn separators() {
        assert_eq!(parse_number("1,234"), Ok(1234.0));
        assert_eq!(parse_number("1,234,567.5"), Ok(1234567.5));
        assert_eq!(parse_number("1.234.567"), Ok(1234567.0));
        assert_eq!(parse_number("1.234,5"), Ok(1234.5));
        assert_eq!(parse_number("12,5"), Ok(12.5));
        assert_eq!(parse_number("1 234"), Ok(1234.0));
        assert_eq!(parse_number("1\u{A0}234"), Ok(1234.0));
        assert_eq!(parse_number("1'234"), Ok(1234.0));
        assert_eq!(parse_number("1,2,3"), Err(NumError::NotANumber));
    }

    #[test]
    fn full_width() {
        assert_eq!(parse_number("１２"), Ok(12.0));
        assert_eq!(parse_number("１，２３４"), Ok(1234.0));
        assert_eq!(parse_number("３．５"), Ok(3.5));
        assert_eq!(parse_number("－２"), Ok(-2.0));
    }

    #[test]
    fn percent_and_words() {
        assert_eq!(parse_number("45 %"), Ok(45.0));
        assert_eq!(parse_number("45%"), Ok(45.0));
        assert_eq!(parse_number("NaN"), Err(NumError::NotFinite));
        assert_eq!(parse_number("-inf"), Err(NumError::NotFinite));
        assert_eq!(parse_number("1e999"), Err(NumError::NotFinite));
        assert_eq!(parse_number("null"), Err(NumError::NotANumber));
        assert_eq!(parse_number("[N/A]"), Err(NumError::NotANumber));
        assert_eq!(parse_number("12 GPUs"), Err(NumError::NotANumber));
        assert_eq!(parse_number(""), Err(NumError::Empty));
        assert_eq!(parse_number("%"), Err(NumError::NotANumber));
        assert_eq!(parse_number("-"), Err(NumError::NotANumber));
        assert_eq!(parse_number("5%%"), Err(NumError::NotANumber));
    }
}

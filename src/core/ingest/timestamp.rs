//! Timestamp cells → UTC unix milliseconds. ASCII fast path; Chinese dates
//! (`2026年11月1日 13:00`) and full-width digits are normalised into a stack buffer.

use super::TimestampStyle;

/// Accepted range: 1990-01-01 .. 2100-01-01 (UTC). Outside is almost surely a misread.
pub(crate) const MIN_MS: i64 = 631_152_000_000;
pub(crate) const MAX_MS: i64 = 4_102_444_800_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TsError {
    Bad,
    OutOfRange,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ts {
    pub ms: i64,
    pub style: TimestampStyle,
    /// Only a date (no time of day): daily data.
    pub date_only: bool,
    /// No explicit offset: interpreted in the planning time zone.
    pub naive: bool,
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
pub(crate) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// (year, month, day) of a day number since 1970-01-01.
pub(crate) fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    }
}

/// A number that is a plausible Unix time: seconds (≤ 11 integer digits),
/// milliseconds, microseconds or nanoseconds — decided by magnitude.
pub(crate) fn parse_epoch(cell: &str) -> Result<Ts, TsError> {
    let s = cell.trim().trim_matches('"').trim();
    let b = s.as_bytes();
    if b.is_empty() || !b[0].is_ascii_digit() {
        return Err(TsError::Bad);
    }
    if !b.iter().all(|&c| c.is_ascii_digit() || c == b'.')
        || b.iter().filter(|&&c| c == b'.').count() > 1
    {
        return Err(TsError::Bad);
    }
    let v = super::number::parse_f64(s).ok_or(TsError::Bad)?;
    if !v.is_finite() {
        return Err(TsError::Bad);
    }
    let (ms, style) = if v >= 1e17 {
        (v / 1e6, TimestampStyle::EpochMillis)
    } else if v >= 1e14 {
        (v / 1e3, TimestampStyle::EpochMillis)
    } else if v >= 1e11 {
        (v, TimestampStyle::EpochMillis)
    } else {
        (v * 1e3, TimestampStyle::EpochSeconds)
    };
    let ms = ms.floor();
    if !(MIN_MS as f64..MAX_MS as f64).contains(&ms) {
        return Err(TsError::OutOfRange);
    }
    Ok(Ts {
        ms: ms as i64,
        style,
        date_only: false,
        naive: false,
    })
}

/// A time of day alone (`13:00`, `13:00:00`, `13:00:00.5`, `13时`): milliseconds since midnight.
pub(crate) fn parse_time_of_day(cell: &str) -> Option<i64> {
    let mut buf = [0u8; 48];
    let (b, _) = normalise(cell, &mut buf)?;
    let b = trim_bytes(b);
    let mut p = 0;
    let (ms, _) = parse_time(b, &mut p)?;
    if p != b.len() || !b.contains(&b':') {
        return None;
    }
    Some(ms)
}

/// Parse a date-time cell. Naive local times are shifted by `utc_offset_minutes`.
#[inline]
pub(crate) fn parse_datetime(cell: &str, utc_offset_minutes: i32) -> Result<Ts, TsError> {
    let mut buf = [0u8; 48];
    let (b, chinese) = normalise(cell, &mut buf).ok_or(TsError::Bad)?;
    let b = trim_bytes(b);
    parse_ascii(b, chinese, utc_offset_minutes)
}

fn trim_bytes(mut b: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = b {
        if first.is_ascii_whitespace() || *first == b'"' {
            b = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = b {
        if last.is_ascii_whitespace() || *last == b'"' || *last == b':' {
            b = rest;
        } else {
            break;
        }
    }
    b
}

/// Returns the ASCII bytes to parse and whether Chinese date markers were seen.
/// ASCII input is borrowed as is; anything else is mapped into `buf`.
fn normalise<'a>(cell: &'a str, buf: &'a mut [u8; 48]) -> Option<(&'a [u8], bool)> {
    if cell.is_ascii() {
        return if cell.len() <= 64 {
            Some((cell.as_bytes(), false))
        } else {
            None
        };
    }
    let mut n = 0;
    let mut chinese = false;
    for ch in cell.chars() {
        let c = match ch {
            c if c.is_ascii() => c as u8,
            '\u{FF01}'..='\u{FF5E}' => (ch as u32 - 0xFEE0) as u8,
            '\u{3000}' | '\u{A0}' => b' ',
            '年' | '月' => {
                chinese = true;
                b'-'
            }
            '日' | '号' | '號' => {
                chinese = true;
                b' '
            }
            '时' | '時' | '点' | '點' | '分' => b':',
            '秒' => continue,
            _ => return None,
        };
        if n >= buf.len() {
            return None;
        }
        buf[n] = c;
        n += 1;
    }
    Some((&buf[..n], chinese))
}

#[inline]
fn digits(b: &[u8], p: &mut usize, min: usize, max: usize) -> Option<i64> {
    let start = *p;
    let mut v: i64 = 0;
    while *p < b.len() && *p - start < max && b[*p].is_ascii_digit() {
        v = v * 10 + i64::from(b[*p] - b'0');
        *p += 1;
    }
    if *p - start < min {
        None
    } else {
        Some(v)
    }
}

/// `H[H][:MM[:SS[.fff]]]` → (ms since midnight, had minutes).
fn parse_time(b: &[u8], p: &mut usize) -> Option<(i64, bool)> {
    let h = digits(b, p, 1, 2)?;
    let mut mi = 0;
    let mut s = 0;
    let mut frac_ms = 0;
    let mut had_min = false;
    if *p < b.len() && b[*p] == b':' && b.get(*p + 1).is_some_and(u8::is_ascii_digit) {
        *p += 1;
        mi = digits(b, p, 2, 2)?;
        had_min = true;
        if *p < b.len() && b[*p] == b':' && b.get(*p + 1).is_some_and(u8::is_ascii_digit) {
            *p += 1;
            s = digits(b, p, 2, 2)?;
            if *p < b.len()
                && (b[*p] == b'.' || b[*p] == b',')
                && b.get(*p + 1).is_some_and(u8::is_ascii_digit)
            {
                *p += 1;
                let start = *p;
                while *p < b.len() && b[*p].is_ascii_digit() {
                    if *p - start < 3 {
                        frac_ms = frac_ms * 10 + i64::from(b[*p] - b'0');
                    }
                    *p += 1;
                }
                let n = (*p - start).min(3);
                for _ in n..3 {
                    frac_ms *= 10;
                }
            }
        }
    }
    if h > 24 || mi > 59 || s > 60 || (h == 24 && (mi > 0 || s > 0 || frac_ms > 0)) {
        return None;
    }
    let s = s.min(59);
    Some((((h * 60 + mi) * 60 + s) * 1000 + frac_ms, had_min))
}

fn parse_ascii(b: &[u8], chinese: bool, utc_offset_minutes: i32) -> Result<Ts, TsError> {
    let mut p = 0;
    let y = digits(b, &mut p, 4, 4).ok_or(TsError::Bad)?;
    let sep = *b.get(p).ok_or(TsError::Bad)?;
    if !matches!(sep, b'-' | b'/' | b'.') {
        return Err(TsError::Bad);
    }
    p += 1;
    let m = digits(b, &mut p, 1, 2).ok_or(TsError::Bad)?;
    if b.get(p) != Some(&sep) {
        return Err(TsError::Bad);
    }
    p += 1;
    let d = digits(b, &mut p, 1, 2).ok_or(TsError::Bad)?;
    if !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return Err(TsError::Bad);
    }
    let mut style = if chinese {
        TimestampStyle::ChineseLocal
    } else if sep == b'-' {
        TimestampStyle::IsoLocal
    } else {
        TimestampStyle::SlashLocal
    };
    let day_ms = days_from_civil(y, m, d) * 86_400_000;
    // Separator between date and time: 'T', spaces or '_'.
    let mut q = p;
    if q < b.len() && matches!(b[q], b'T' | b't' | b'_') {
        q += 1;
    } else {
        while q < b.len() && b[q] == b' ' {
            q += 1;
        }
    }
    let mut time_ms = 0;
    let mut date_only = true;
    if q < b.len() && q > p && b[q].is_ascii_digit() {
        p = q;
        let (t, _) = parse_time(b, &mut p).ok_or(TsError::Bad)?;
        time_ms = t;
        date_only = false;
    }
    while p < b.len() && b[p] == b' ' {
        p += 1;
    }
    // Zone designator.
    let mut offset_ms: Option<i64> = None;
    if p < b.len() {
        let rest = &b[p..];
        let mut r = 0;
        if rest[0] == b'Z' || rest[0] == b'z' {
            offset_ms = Some(0);
            r = 1;
        } else if rest.len() >= 3
            && (rest[..3].eq_ignore_ascii_case(b"UTC") || rest[..3].eq_ignore_ascii_case(b"GMT"))
        {
            offset_ms = Some(0);
            r = 3;
        }
        if r < rest.len() && (rest[r] == b'+' || rest[r] == b'-') {
            let neg = rest[r] == b'-';
            r += 1;
            let hh = digits(rest, &mut r, 1, 2).ok_or(TsError::Bad)?;
            let mut mm = 0;
            if r < rest.len() && rest[r] == b':' {
                r += 1;
            }
            if r < rest.len() {
                mm = digits(rest, &mut r, 2, 2).ok_or(TsError::Bad)?;
            }
            if hh > 18 || mm > 59 {
                return Err(TsError::Bad);
            }
            let o = (hh * 60 + mm) * 60_000;
            offset_ms = Some(if neg { -o } else { o });
        }
        if r != rest.len() || offset_ms.is_none() {
            return Err(TsError::Bad);
        }
    }
    let local = day_ms + time_ms;
    let ms = match offset_ms {
        Some(o) => {
            style = TimestampStyle::IsoWithOffset;
            local - o
        }
        None => local - i64::from(utc_offset_minutes) * 60_000,
    };
    if date_only && offset_ms.is_none() {
        style = TimestampStyle::DateOnly;
    }
    if !(MIN_MS..MAX_MS).contains(&ms) {
        return Err(TsError::OutOfRange);
    }
    Ok(Ts {
        ms,
        style,
        date_only,
        naive: offset_ms.is_none(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: i64 = 1_793_538_000_000; // 2026-11-01T13:00:00Z

    #[test]
    fn civil_round_trip() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(
            days_from_civil(2026, 11, 1) * 86_400_000 + 13 * 3_600_000,
            T
        );
        for z in [-1000, 0, 59, 20_000, 40_000] {
            let (y, m, d) = civil_from_days(z);
            assert_eq!(days_from_civil(y, m, d), z);
        }
    }

    #[test]
    fn iso_variants() {
        let p = |s: &str| parse_datetime(s, 0).map(|t| t.ms);
        assert_eq!(p("2026-11-01T13:00:00Z"), Ok(T));
        assert_eq!(p("2026-11-01T21:00:00+08:00"), Ok(T));
        assert_eq!(p("2026-11-01T21:00:00+0800"), Ok(T));
        assert_eq!(p("2026-11-01T08:00:00-05"), Ok(T));
        assert_eq!(p("2026-11-01 13:00"), Ok(T));
        assert_eq!(p("2026-11-01 13:00:00"), Ok(T));
        assert_eq!(p("2026-11-01T13:00:00.250Z"), Ok(T + 250));
        assert_eq!(p("2026/11/01 13:00"), Ok(T));
        assert_eq!(p("2026/11/01 13:00:00.123"), Ok(T + 123));
        assert_eq!(p("2026-11-01 13:00:00 UTC"), Ok(T));
        assert_eq!(p("2026年11月1日 13:00"), Ok(T));
        assert_eq!(p("2026年11月01日13时"), Ok(T));
        assert_eq!(p("２０２６年１１月１日　１３：００"), Ok(T));
        assert_eq!(p("2026-11-01"), Ok(T - 13 * 3_600_000));
        assert_eq!(
            parse_datetime("2026-11-01 13:00", 480).map(|t| t.ms),
            Ok(T - 8 * 3_600_000)
        );
        assert_eq!(
            parse_datetime("2026-11-01T13:00Z", 480).map(|t| t.ms),
            Ok(T)
        );
    }

    #[test]
    fn rejects() {
        for s in [
            "",
            "12",
            "2026-13-01",
            "2026-02-30 10:00",
            "2026-11-01 25:00",
            "hello",
            "2026-11-01 13:00 +99",
            "2026-11-01x",
        ] {
            assert!(parse_datetime(s, 0).is_err(), "{s}");
        }
        assert_eq!(parse_datetime("1900-01-01", 0), Err(TsError::OutOfRange));
    }

    #[test]
    fn epochs() {
        assert_eq!(
            parse_epoch("1793538000").map(|t| (t.ms, t.style)),
            Ok((T, TimestampStyle::EpochSeconds))
        );
        assert_eq!(
            parse_epoch("1793538000000").map(|t| (t.ms, t.style)),
            Ok((T, TimestampStyle::EpochMillis))
        );
        assert_eq!(parse_epoch("1793538000.5").map(|t| t.ms), Ok(T + 500));
        assert_eq!(parse_epoch("12"), Err(TsError::OutOfRange));
        assert_eq!(parse_epoch("-5"), Err(TsError::Bad));
    }

    #[test]
    fn time_of_day() {
        assert_eq!(parse_time_of_day("13:05"), Some((13 * 60 + 5) * 60_000));
        assert_eq!(parse_time_of_day("13时"), None);
        assert_eq!(parse_time_of_day("13"), None);
        assert_eq!(parse_time_of_day("13:00:01"), Some(13 * 3_600_000 + 1000));
    }
}

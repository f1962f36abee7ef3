//! Timestamp cells → UTC unix milliseconds. ASCII fast path; Chinese dates
//! (`2026年11月1日 13:00`, `上午`/`下午`) and full-width digits are normalised into a stack
//! buffer.
//!
//! Date forms: `2026-10-05`, `2026/10/5`, `2026.10.05`, `2026年10月5日`; `10/5/2026` and
//! `5/10/2026` (the order of day and month is decided for the whole file, [`DateOrder`]);
//! `05.10.2026` (always day first); two-digit years `10/5/26`; month names `05-Oct-2026`,
//! `5 Oct 2026`, `Oct 5, 2026` (a leading weekday `Mon,` is skipped). Times `H:mm[:ss[.fff]]`,
//! 24-hour or with `AM`/`PM` (`12:15 AM`, `下午 1:00`), then `Z`, `UTC` or an offset.
//! Excel serial day numbers are read by [`parse_excel`].

use super::{DateOrder, TimestampStyle};
use crate::core::zone::Zone;

/// Accepted range: 1990-01-01 .. 2100-01-01 (UTC). Outside is almost surely a misread.
pub(crate) const MIN_MS: i64 = 631_152_000_000;
pub(crate) const MAX_MS: i64 = 4_102_444_800_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TsError {
    Bad,
    OutOfRange,
    /// A day/month date valid only in the other order (`13/10/2026` read month first).
    WrongOrder,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ts {
    pub ms: i64,
    pub style: TimestampStyle,
    /// Only a date (no time of day): daily data.
    pub date_only: bool,
    /// No explicit offset: interpreted in the planning time zone.
    pub naive: bool,
    /// A numeric offset written in the cell (`+08:00`, `-0500`, `+00:00`); not `Z`/`UTC`.
    pub offset_minutes: Option<i32>,
    /// A day/month date that fixes the order (one of the two fields is above 12).
    pub order_hint: Option<DateOrder>,
    /// The time was written with `AM`/`PM`.
    pub twelve_hour: bool,
}

use crate::core::calendar::{days_from_civil, days_in_month};

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
        offset_minutes: None,
        order_hint: None,
        twelve_hour: false,
    })
}

/// Excel's serial day numbers that fall in the accepted range (1990-01-01 ..= 2099-12-31).
pub(crate) const EXCEL_MIN: f64 = 32_874.0;
pub(crate) const EXCEL_MAX: f64 = 73_051.0;
/// Excel day 0 is 1899-12-30; day 25 569 is 1970-01-01.
const EXCEL_UNIX_DAY: f64 = 25_569.0;

/// An Excel serial date-time (days since 1899-12-30, the fraction is the time of day),
/// local time in `zone`.
pub(crate) fn parse_excel(cell: &str, zone: &Zone) -> Result<Ts, TsError> {
    let s = cell.trim().trim_matches('"').trim();
    let b = s.as_bytes();
    if b.is_empty()
        || !b.iter().all(|&c| c.is_ascii_digit() || c == b'.')
        || b.iter().filter(|&&c| c == b'.').count() > 1
    {
        return Err(TsError::Bad);
    }
    let v = super::number::parse_f64(s).ok_or(TsError::Bad)?;
    if !(EXCEL_MIN..EXCEL_MAX).contains(&v) {
        return Err(TsError::OutOfRange);
    }
    let local = ((v - EXCEL_UNIX_DAY) * 86_400_000.0).round() as i64;
    let ms = zone.utc_ms_from_local(local);
    if !(MIN_MS..MAX_MS).contains(&ms) {
        return Err(TsError::OutOfRange);
    }
    Ok(Ts {
        ms,
        style: TimestampStyle::ExcelSerial,
        date_only: false,
        naive: true,
        offset_minutes: None,
        order_hint: None,
        twelve_hour: false,
    })
}

/// A cell that is a plain number in Excel's serial-date range (detection).
pub(crate) fn is_excel_serial(cell: &str) -> bool {
    parse_excel(cell, &Zone::default()).is_ok()
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

/// Parse a date-time cell. Naive local times are read in `zone`; `a/b/yyyy` dates in `order`.
#[inline]
pub(crate) fn parse_datetime(cell: &str, zone: &Zone, order: DateOrder) -> Result<Ts, TsError> {
    let mut buf = [0u8; 48];
    let (b, chinese) = normalise(cell, &mut buf).ok_or(TsError::Bad)?;
    let b = trim_bytes(b);
    parse_ascii(b, chinese, zone, order)
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
            // 上午 / 下午 (morning / afternoon) → `AM` / `PM`.
            '上' => b'A',
            '下' => b'P',
            '午' => b'M',
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

/// `(a, b)` of a cell starting with a day/month date `a/b/yyyy` or `a-b-yyyy` (either order
/// possible), for deciding the order of a file.
pub(crate) fn day_month_fields(cell: &str) -> Option<(i64, i64)> {
    let b = cell.trim().trim_matches('"').as_bytes();
    let mut p = 0;
    let a = digits(b, &mut p, 1, 2)?;
    let sep = *b.get(p)?;
    if !matches!(sep, b'/' | b'-') {
        return None;
    }
    p += 1;
    let m = digits(b, &mut p, 1, 2)?;
    if b.get(p) != Some(&sep) {
        return None;
    }
    p += 1;
    let y_start = p;
    digits(b, &mut p, 2, 4)?;
    if p - y_start == 3 || b.get(p).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    Some((a, m))
}

/// Dates seen that read only one way: how many fix each order of day and month.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct OrderEvidence {
    month_first: usize,
    day_first: usize,
}

impl OrderEvidence {
    pub(crate) fn add(&mut self, order: DateOrder) {
        match order {
            DateOrder::MonthFirst => self.month_first += 1,
            DateOrder::DayFirst => self.day_first += 1,
        }
    }

    /// Dates that read only in `order`.
    pub(crate) fn of(&self, order: DateOrder) -> usize {
        match order {
            DateOrder::MonthFirst => self.month_first,
            DateOrder::DayFirst => self.day_first,
        }
    }

    /// The order the dates fix, when more of them fix one than the other.
    pub(crate) fn decided(&self) -> Option<DateOrder> {
        match self.month_first.cmp(&self.day_first) {
            std::cmp::Ordering::Greater => Some(DateOrder::MonthFirst),
            std::cmp::Ordering::Less => Some(DateOrder::DayFirst),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// The order a day/month pair fixes, if any.
pub(crate) fn order_of(a: i64, b: i64) -> Option<DateOrder> {
    match (a > 12, b > 12) {
        (true, false) => Some(DateOrder::DayFirst),
        (false, true) => Some(DateOrder::MonthFirst),
        _ => None,
    }
}

const MONTHS: [&[u8]; 12] = [
    b"january",
    b"february",
    b"march",
    b"april",
    b"may",
    b"june",
    b"july",
    b"august",
    b"september",
    b"october",
    b"november",
    b"december",
];

/// Some month's three-letter abbreviation appears in an ASCII-lower-cased text.
pub(crate) fn mentions_month(lower: &str) -> bool {
    lower
        .as_bytes()
        .windows(3)
        .any(|w| MONTHS.iter().any(|m| &m[..3] == w))
}

/// A month name or its abbreviation (`Oct`, `Sept`, `October`; any case) at `p`.
fn month_name(b: &[u8], p: &mut usize) -> Option<i64> {
    let start = *p;
    while *p < b.len() && b[*p].is_ascii_alphabetic() {
        *p += 1;
    }
    let w = &b[start..*p];
    if w.len() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|m| {
            w.len() <= m.len() && m.iter().zip(w).all(|(x, y)| *x == y.to_ascii_lowercase())
                || (w.eq_ignore_ascii_case(b"sept")) && m.starts_with(b"sep")
        })
        .map(|i| i as i64 + 1)
}

/// A year of four digits, or two (`26` → 2026, `95` → 1995).
fn year(b: &[u8], p: &mut usize) -> Option<i64> {
    let start = *p;
    let y = digits(b, p, 2, 4)?;
    match *p - start {
        4 => Some(y),
        2 => Some(if y < 70 { 2000 + y } else { 1900 + y }),
        _ => None,
    }
}

fn skip_spaces(b: &[u8], p: &mut usize) {
    while *p < b.len() && b[*p] == b' ' {
        *p += 1;
    }
}

/// The date part: (year, month, day, style, order hint). `p` ends after it.
fn parse_date(
    b: &[u8],
    p: &mut usize,
    chinese: bool,
    order: DateOrder,
) -> Result<(i64, i64, i64, TimestampStyle, Option<DateOrder>), TsError> {
    let first = *b.first().ok_or(TsError::Bad)?;
    if first.is_ascii_alphabetic() {
        // `Mon, 05 Oct 2026` (a weekday first) or `Oct 5, 2026`.
        let save = *p;
        if month_name(b, p).is_none() {
            // A weekday name: skip it, an optional comma and spaces.
            if *p - save < 3 {
                return Err(TsError::Bad);
            }
            if b.get(*p) == Some(&b',') {
                *p += 1;
            }
            skip_spaces(b, p);
            if b.get(*p).is_some_and(u8::is_ascii_alphabetic) {
                let m = month_name(b, p).ok_or(TsError::Bad)?;
                return month_first_named(b, p, m);
            }
            return day_then_month_name(b, p);
        }
        *p = save;
        let m = month_name(b, p).ok_or(TsError::Bad)?;
        return month_first_named(b, p, m);
    }
    let start = *p;
    let a = digits(b, p, 1, 4).ok_or(TsError::Bad)?;
    if *p - start == 4 {
        // yyyy-mm-dd, yyyy/mm/dd, yyyy.mm.dd
        let sep = *b.get(*p).ok_or(TsError::Bad)?;
        if !matches!(sep, b'-' | b'/' | b'.') {
            return Err(TsError::Bad);
        }
        *p += 1;
        let m = digits(b, p, 1, 2).ok_or(TsError::Bad)?;
        if b.get(*p) != Some(&sep) {
            return Err(TsError::Bad);
        }
        *p += 1;
        let d = digits(b, p, 1, 2).ok_or(TsError::Bad)?;
        let style = if chinese {
            TimestampStyle::ChineseLocal
        } else if sep == b'-' {
            TimestampStyle::IsoLocal
        } else {
            TimestampStyle::SlashLocal
        };
        return Ok((a, m, d, style, None));
    }
    if *p - start > 2 {
        return Err(TsError::Bad);
    }
    let sep = *b.get(*p).ok_or(TsError::Bad)?;
    if !matches!(sep, b'-' | b'/' | b'.' | b' ') {
        return Err(TsError::Bad);
    }
    *p += 1;
    if b.get(*p).is_some_and(u8::is_ascii_alphabetic) {
        // 05-Oct-2026, 5 Oct 2026, 5/Oct/2026
        let m = month_name(b, p).ok_or(TsError::Bad)?;
        if b.get(*p) == Some(&sep) || (sep == b' ' && b.get(*p) == Some(&b' ')) {
            *p += 1;
        } else {
            return Err(TsError::Bad);
        }
        let y = year(b, p).ok_or(TsError::Bad)?;
        return Ok((y, m, a, TimestampStyle::MonthName, None));
    }
    if sep == b' ' {
        return Err(TsError::Bad);
    }
    let c = digits(b, p, 1, 2).ok_or(TsError::Bad)?;
    if b.get(*p) != Some(&sep) {
        return Err(TsError::Bad);
    }
    *p += 1;
    let y = year(b, p).ok_or(TsError::Bad)?;
    if sep == b'.' {
        // 05.10.2026: day first wherever dots are written.
        return Ok((y, c, a, TimestampStyle::DayFirst, order_of(a, c)));
    }
    let hint = order_of(a, c);
    if hint.is_some_and(|h| h != order) {
        return Err(TsError::WrongOrder);
    }
    Ok(match order {
        DateOrder::MonthFirst => (y, a, c, TimestampStyle::MonthFirst, hint),
        DateOrder::DayFirst => (y, c, a, TimestampStyle::DayFirst, hint),
    })
}

/// After a month name: ` 5, 2026` / ` 5 2026` / `-5-2026`.
fn month_first_named(
    b: &[u8],
    p: &mut usize,
    m: i64,
) -> Result<(i64, i64, i64, TimestampStyle, Option<DateOrder>), TsError> {
    if !matches!(b.get(*p), Some(b' ' | b'-' | b'/')) {
        return Err(TsError::Bad);
    }
    *p += 1;
    let d = digits(b, p, 1, 2).ok_or(TsError::Bad)?;
    if b.get(*p) == Some(&b',') {
        *p += 1;
    }
    if !matches!(b.get(*p), Some(b' ' | b'-' | b'/')) {
        return Err(TsError::Bad);
    }
    skip_spaces(b, p);
    if matches!(b.get(*p), Some(b'-' | b'/')) {
        *p += 1;
    }
    let y = year(b, p).ok_or(TsError::Bad)?;
    Ok((y, m, d, TimestampStyle::MonthName, None))
}

/// After a weekday: `05 Oct 2026`.
fn day_then_month_name(
    b: &[u8],
    p: &mut usize,
) -> Result<(i64, i64, i64, TimestampStyle, Option<DateOrder>), TsError> {
    let d = digits(b, p, 1, 2).ok_or(TsError::Bad)?;
    if !matches!(b.get(*p), Some(b' ' | b'-')) {
        return Err(TsError::Bad);
    }
    *p += 1;
    let m = month_name(b, p).ok_or(TsError::Bad)?;
    if !matches!(b.get(*p), Some(b' ' | b'-')) {
        return Err(TsError::Bad);
    }
    *p += 1;
    let y = year(b, p).ok_or(TsError::Bad)?;
    Ok((y, m, d, TimestampStyle::MonthName, None))
}

/// `AM`/`PM` (`am`, `a.m.`) at `p`: `Some(true)` for PM.
fn meridiem(b: &[u8], p: &mut usize) -> Option<bool> {
    let c = b.get(*p)?.to_ascii_uppercase();
    if c != b'A' && c != b'P' {
        return None;
    }
    let mut q = *p + 1;
    if b.get(q) == Some(&b'.') {
        q += 1;
    }
    if !b.get(q).is_some_and(|x| x.eq_ignore_ascii_case(&b'M')) {
        return None;
    }
    q += 1;
    if b.get(q) == Some(&b'.') {
        q += 1;
    }
    if b.get(q).is_some_and(u8::is_ascii_alphanumeric) {
        return None;
    }
    *p = q;
    Some(c == b'P')
}

/// A 12-hour clock time → 24-hour milliseconds since midnight.
fn to_24h(ms: i64, pm: bool) -> Option<i64> {
    let h = ms / 3_600_000;
    if !(1..=12).contains(&h) && h != 0 {
        return None;
    }
    let h12 = h % 12;
    Some(ms - h * 3_600_000 + (h12 + if pm { 12 } else { 0 }) * 3_600_000)
}

fn parse_ascii(b: &[u8], chinese: bool, zone: &Zone, order: DateOrder) -> Result<Ts, TsError> {
    let mut p = 0;
    let (y, m, d, mut style, order_hint) = parse_date(b, &mut p, chinese, order)?;
    if !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return Err(TsError::Bad);
    }
    let day_ms = days_from_civil(y, m, d) * 86_400_000;
    // Separator between date and time: 'T', '_', or spaces (after an optional comma).
    let mut q = p;
    if q < b.len() && matches!(b[q], b'T' | b't' | b'_') {
        q += 1;
    } else {
        if q < b.len() && b[q] == b',' {
            q += 1;
        }
        while q < b.len() && b[q] == b' ' {
            q += 1;
        }
    }
    // 上午 / 下午 before the time (normalised to AM / PM).
    let mut pm_before = None;
    if q > p {
        let mut r = q;
        if let Some(pm) = meridiem(b, &mut r) {
            pm_before = Some(pm);
            while r < b.len() && b[r] == b' ' {
                r += 1;
            }
            q = r;
        }
    }
    let mut time_ms = 0;
    let mut date_only = true;
    let mut twelve_hour = false;
    if q < b.len() && q > p && b[q].is_ascii_digit() {
        p = q;
        let (t, _) = parse_time(b, &mut p).ok_or(TsError::Bad)?;
        time_ms = t;
        date_only = false;
        let mut r = p;
        while r < b.len() && b[r] == b' ' {
            r += 1;
        }
        let pm = match pm_before {
            Some(pm) => Some(pm),
            None => {
                let got = meridiem(b, &mut r);
                if got.is_some() {
                    p = r;
                }
                got
            }
        };
        if let Some(pm) = pm {
            time_ms = to_24h(time_ms, pm).ok_or(TsError::Bad)?;
            twelve_hour = true;
        }
    } else if pm_before.is_some() {
        return Err(TsError::Bad);
    }
    while p < b.len() && b[p] == b' ' {
        p += 1;
    }
    // Zone designator.
    let mut offset_ms: Option<i64> = None;
    let mut numeric_offset = None;
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
            numeric_offset = Some((if neg { -(hh * 60 + mm) } else { hh * 60 + mm }) as i32);
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
        None => zone.utc_ms_from_local(local),
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
        offset_minutes: numeric_offset,
        order_hint,
        twelve_hour,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::calendar::civil_from_days;

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
        let p = |s: &str| parse_datetime(s, &Zone::fixed(0), DateOrder::MonthFirst).map(|t| t.ms);
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
        let bj = Zone::fixed(480);
        assert_eq!(
            parse_datetime("2026-11-01 13:00", &bj, DateOrder::MonthFirst).map(|t| t.ms),
            Ok(T - 8 * 3_600_000)
        );
        assert_eq!(
            parse_datetime("2026-11-01T13:00Z", &bj, DateOrder::MonthFirst).map(|t| t.ms),
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
            assert!(
                parse_datetime(s, &Zone::fixed(0), DateOrder::MonthFirst).is_err(),
                "{s}"
            );
        }
        assert_eq!(
            parse_datetime("1900-01-01", &Zone::fixed(0), DateOrder::MonthFirst),
            Err(TsError::OutOfRange)
        );
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

    /// 2026-10-05 00:15 UTC.
    const OCT5: i64 = 1_791_158_400_000 + 15 * 60_000;

    fn read(s: &str, order: DateOrder) -> Result<Ts, TsError> {
        parse_datetime(s, &Zone::fixed(0), order)
    }

    #[test]
    fn spreadsheet_forms() {
        use DateOrder::*;
        let ok = |s: &str, order, style| {
            let t = read(s, order).unwrap_or_else(|e| panic!("{s}: {e:?}"));
            assert_eq!((t.ms, t.style), (OCT5, style), "{s}");
        };
        // US Excel: month first, 12-hour and 24-hour clocks, 2-digit years.
        ok("10/5/2026 12:15 AM", MonthFirst, TimestampStyle::MonthFirst);
        ok(
            "10/5/2026 12:15:00 am",
            MonthFirst,
            TimestampStyle::MonthFirst,
        );
        ok("10/05/2026 0:15", MonthFirst, TimestampStyle::MonthFirst);
        ok("10/5/26 12:15 AM", MonthFirst, TimestampStyle::MonthFirst);
        // Day first: slashes (by the file's order), dots (always), dashes.
        ok("5/10/2026 0:15", DayFirst, TimestampStyle::DayFirst);
        ok("05/10/2026 00:15", DayFirst, TimestampStyle::DayFirst);
        ok("05.10.2026 00:15", MonthFirst, TimestampStyle::DayFirst);
        ok("05-10-2026 00:15", DayFirst, TimestampStyle::DayFirst);
        // Month names.
        ok("05-Oct-2026 00:15", MonthFirst, TimestampStyle::MonthName);
        ok("5 Oct 2026 00:15", DayFirst, TimestampStyle::MonthName);
        ok("5-OCT-26 12:15 AM", MonthFirst, TimestampStyle::MonthName);
        ok(
            "Oct 5, 2026 12:15 AM",
            MonthFirst,
            TimestampStyle::MonthName,
        );
        ok(
            "October 5 2026 00:15",
            MonthFirst,
            TimestampStyle::MonthName,
        );
        ok(
            "Mon, 05 Oct 2026 00:15:00 GMT",
            MonthFirst,
            TimestampStyle::IsoWithOffset,
        );
        // Chinese Excel with 上午/下午.
        ok(
            "2026/10/5 上午 12:15",
            MonthFirst,
            TimestampStyle::SlashLocal,
        );
        assert_eq!(
            read("2026/10/5 下午 1:15", MonthFirst).map(|t| t.ms),
            Ok(OCT5 + 13 * 3_600_000)
        );
        // PM and noon/midnight.
        assert_eq!(
            read("10/5/2026 12:15 PM", MonthFirst).map(|t| t.ms),
            Ok(OCT5 + 12 * 3_600_000)
        );
        assert_eq!(
            read("10/5/2026 11:15 PM", MonthFirst).map(|t| (t.ms, t.twelve_hour)),
            Ok((OCT5 + 23 * 3_600_000, true))
        );
        for bad in [
            "10/5/2026 13:15 PM",
            "10/5/2026 PM",
            "10/5/2026 12:15 XM",
            "Foo 5, 2026",
        ] {
            assert!(read(bad, MonthFirst).is_err(), "{bad}");
        }
    }

    #[test]
    fn day_and_month_order() {
        use DateOrder::*;
        // Read both ways: the order given decides.
        assert_eq!(
            read("10/5/2026", MonthFirst).map(|t| t.order_hint),
            Ok(None)
        );
        // A field above 12 fixes the order: hinted when it agrees, refused when not.
        assert_eq!(
            read("10/13/2026", MonthFirst).map(|t| t.order_hint),
            Ok(Some(MonthFirst))
        );
        assert_eq!(read("13/10/2026", MonthFirst), Err(TsError::WrongOrder));
        assert_eq!(read("10/13/2026", DayFirst), Err(TsError::WrongOrder));
        assert_eq!(day_month_fields("13/10/2026 00:00"), Some((13, 10)));
        assert_eq!(day_month_fields("2026/10/13"), None);
        assert_eq!(day_month_fields("1/2/345"), None);
        assert_eq!(order_of(13, 10), Some(DayFirst));
        assert_eq!(order_of(10, 13), Some(MonthFirst));
        assert_eq!(order_of(10, 5), None);
    }

    #[test]
    fn offsets_are_reported() {
        let t = read("2026-10-05T08:15:00+08:00", DateOrder::MonthFirst).unwrap();
        assert_eq!((t.ms, t.offset_minutes), (OCT5, Some(480)));
        let z = read("2026-10-05T00:15:00Z", DateOrder::MonthFirst).unwrap();
        assert_eq!((z.ms, z.offset_minutes), (OCT5, None));
        let n = read("2026-10-04T19:15:00-05:00", DateOrder::MonthFirst).unwrap();
        assert_eq!((n.ms, n.offset_minutes), (OCT5, Some(-300)));
    }

    #[test]
    fn excel_serials() {
        // 46300 = 2026-10-05; .0104166… = 00:15.
        let t = parse_excel("46300.010416666664", &Zone::fixed(0)).unwrap();
        assert_eq!((t.ms, t.style), (OCT5, TimestampStyle::ExcelSerial));
        assert_eq!(
            parse_excel("46300.5", &Zone::fixed(480)).map(|t| t.ms),
            Ok(OCT5 - 15 * 60_000 + 4 * 3_600_000)
        );
        assert!(is_excel_serial("46300"));
        assert!(!is_excel_serial("12"));
        assert!(!is_excel_serial("1793538000"));
        assert!(parse_excel("-46300", &Zone::fixed(0)).is_err());
    }

    #[test]
    fn naive_times_in_a_zone_with_daylight_saving() {
        // Los Angeles: PDT (-7) in July, PST (-8) in January.
        let la = Zone::with_changes(-480, vec![(1_772_964_000, -420), (1_793_523_600, -480)]);
        let jul = parse_datetime("2026-07-01 12:00", &la, DateOrder::MonthFirst).unwrap();
        assert_eq!(jul.ms, (1_782_864_000 + 19 * 3600) * 1000);
        let dec = parse_datetime("12/1/2026 12:00 PM", &la, DateOrder::MonthFirst).unwrap();
        assert_eq!(dec.ms, (1_796_083_200 + 20 * 3600) * 1000);
    }
}

//! The page's language and currency label, and locale-aware parsing and formatting of numbers
//! (pure, natively tested).

use crate::core::calendar::civil_from_days;
use crate::core::money::Money;
use crate::core::zone::Zone;

/// The page language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }

    /// Pick a language from a browser language tag list (`navigator.languages`).
    pub fn from_browser<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        for tag in tags {
            let tag = tag.to_ascii_lowercase();
            if tag.starts_with("zh") {
                return Lang::Zh;
            }
            if tag.starts_with("en") {
                return Lang::En;
            }
        }
        Lang::En
    }

    /// The BCP 47 tag for the `<html lang>` attribute.
    pub fn html_tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::Zh,
            Lang::Zh => Lang::En,
        }
    }
}

/// The currency label (no conversion ever happens).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Currency {
    #[default]
    Cny,
    Usd,
}

impl Currency {
    pub fn symbol(self) -> &'static str {
        match self {
            Currency::Cny => "¥",
            Currency::Usd => "$",
        }
    }
    pub fn code(self) -> &'static str {
        match self {
            Currency::Cny => "cny",
            Currency::Usd => "usd",
        }
    }
    pub fn from_code(code: &str) -> Option<Currency> {
        match code {
            "cny" => Some(Currency::Cny),
            "usd" => Some(Currency::Usd),
            _ => None,
        }
    }
}

/// Parse what a user typed into a number field: accepts full-width digits and
/// punctuation, thousands separators (`,` `，` `_` and spaces), a leading currency
/// sign (`¥ ￥ $`), a trailing `%`. Rejects NaN, infinity and anything else.
pub fn parse_number(text: &str) -> Option<f64> {
    let mut s = String::with_capacity(text.len());
    for c in text.trim().chars() {
        let c = match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            '．' | '。' => '.',
            '－' | '−' => '-',
            '＋' => '+',
            c => c,
        };
        match c {
            ',' | '，' | '_' | ' ' | '\u{a0}' | '\u{3000}' => s.push(','),
            '¥' | '￥' | '$' | '%' | '％' => {}
            c if c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E') => s.push(c),
            _ => return None,
        }
    }
    // Thousands separators only between groups of three digits of the integer part:
    // "9,000" and "1 234 567" read; "1,2,3" or "12,34" are not guessed at.
    if s.contains(',') {
        let int_end = s.find(['.', 'e', 'E']).unwrap_or(s.len());
        let (int_part, rest) = s.split_at(int_end);
        let digits = int_part.trim_start_matches(['-', '+']);
        let mut groups = digits.split(',');
        let first_ok = groups.next().is_some_and(|g| (1..=3).contains(&g.len()));
        if !first_ok || !groups.all(|g| g.len() == 3) || rest.contains(',') {
            return None;
        }
        s.retain(|c| c != ',');
    }
    if s.is_empty() {
        return None;
    }
    let v = crate::core::decimal::parse_f64(&s)?;
    v.is_finite().then_some(v)
}

/// Group an unsigned digit string in threes with `,`.
fn group(int_digits: &str) -> String {
    let n = int_digits.len();
    let mut out = String::with_capacity(n + n / 3);
    for (i, c) in int_digits.chars().enumerate() {
        if i > 0 && (n - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A UTC instant as local wall-clock time in `zone`, to the minute: `2026-11-03 08:00`.
pub fn local_minute(unix: i64, zone: &Zone) -> String {
    let t = zone.local_s(unix);
    let (y, m, d) = civil_from_days(t.div_euclid(86_400));
    let s = t.rem_euclid(86_400);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}", s / 3600, s % 3600 / 60)
}

/// Format `v` with exactly `decimals` decimals and thousands separators.
/// Both English and Chinese (zh-CN) use `,` grouping and `.` decimals.
pub fn number(v: f64, decimals: usize, _lang: Lang) -> String {
    if !v.is_finite() {
        return "—".to_string();
    }
    let s = format!("{:.*}", decimals, v.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s.as_str(), None),
    };
    let negative = v < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0');
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    out.push_str(&group(int));
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}

/// Format with up to `max_decimals`, dropping trailing zeros ("360", "486.22", "12.5").
pub fn number_trim(v: f64, max_decimals: usize, lang: Lang) -> String {
    let s = number(v, max_decimals, lang);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The plain machine-readable form for `data-value`: '.' decimal point, no grouping,
/// no unit, at most `max_decimals` decimals, trailing zeros dropped.
pub fn plain(v: f64, max_decimals: usize) -> String {
    if !v.is_finite() {
        return String::new();
    }
    let s = format!("{:.*}", max_decimals, v);
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

/// Money for people: currency sign, thousands separators, always two decimals.
/// "¥9,000.00", "-$1,234.50".
pub fn money(m: Money, currency: &str, lang: Lang) -> String {
    let body = number(m.to_f64().abs(), 2, lang);
    if m.is_negative() {
        format!("-{currency}{body}")
    } else {
        format!("{currency}{body}")
    }
}

/// Money without cents when the amount is whole ("¥9,000", "¥12.50").
pub fn money_short(m: Money, currency: &str, lang: Lang) -> String {
    if m.cents() % 100 == 0 {
        let body = number((m.cents() / 100).unsigned_abs() as f64, 0, lang);
        let sign = if m.is_negative() { "-" } else { "" };
        format!("{sign}{currency}{body}")
    } else {
        money(m, currency, lang)
    }
}

/// A fraction as a percentage: "49.3 %" in English, "49.3%" in Chinese.
pub fn percent(fraction: f64, decimals: usize, lang: Lang) -> String {
    let n = number_trim(fraction * 100.0, decimals, lang);
    match lang {
        Lang::En => format!("{n} %"),
        Lang::Zh => format!("{n}%"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_and_percent() {
        assert_eq!(
            money(Money::from_cents(900_000), "¥", Lang::Zh),
            "¥9,000.00"
        );
        assert_eq!(
            money(Money::from_cents(-123_450), "$", Lang::En),
            "-$1,234.50"
        );
        assert_eq!(money(Money::from_cents(5), "$", Lang::En), "$0.05");
        assert_eq!(
            money_short(Money::from_cents(900_000), "¥", Lang::En),
            "¥9,000"
        );
        assert_eq!(
            money_short(Money::from_cents(1_250), "¥", Lang::En),
            "¥12.50"
        );
        assert_eq!(money_short(Money::from_cents(-100), "$", Lang::En), "-$1");
        assert_eq!(percent(360.0 / 730.0, 1, Lang::En), "49.3 %");
        assert_eq!(percent(0.25, 1, Lang::Zh), "25%");
    }

    #[test]
    fn parses_what_people_type() {
        assert_eq!(parse_number("9000"), Some(9000.0));
        assert_eq!(parse_number(" 9,000.50 "), Some(9000.5));
        assert_eq!(parse_number("９，０００"), Some(9000.0));
        assert_eq!(parse_number("¥12.34"), Some(12.34));
        assert_eq!(parse_number("$2"), Some(2.0));
        assert_eq!(parse_number("1e3"), Some(1000.0));
        assert_eq!(parse_number("-5"), Some(-5.0));
        assert_eq!(parse_number("9000."), Some(9000.0));
        assert_eq!(parse_number("1 234 567.5"), Some(1_234_567.5));
        assert_eq!(parse_number("-12,345"), Some(-12_345.0));
        assert_eq!(parse_number("１２，３４５．６"), Some(12_345.6));
    }

    #[test]
    fn rejects_garbage_nan_and_infinity() {
        for bad in [
            "", "  ", "abc", "NaN", "nan", "inf", "-inf", "infinity", "1e999", "<script>", "1.2.3",
            "--1",
        ] {
            assert_eq!(parse_number(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn formats_with_grouping() {
        assert_eq!(number(1234567.891, 2, Lang::En), "1,234,567.89");
        assert_eq!(number(999.995, 2, Lang::Zh), "1,000.00");
        assert_eq!(number(-1234.5, 1, Lang::En), "-1,234.5");
        assert_eq!(number(-0.001, 2, Lang::En), "0.00");
        assert_eq!(number(0.0, 0, Lang::En), "0");
        assert_eq!(number(f64::NAN, 2, Lang::En), "—");
        assert_eq!(number_trim(360.0, 2, Lang::En), "360");
        assert_eq!(number_trim(486.2228, 2, Lang::En), "486.22");
        assert_eq!(number_trim(12345.5, 2, Lang::En), "12,345.5");
    }

    #[test]
    fn plain_is_machine_readable() {
        assert_eq!(plain(360.0, 2), "360");
        assert_eq!(plain(486.222852, 2), "486.22");
        assert_eq!(plain(49.31506849, 2), "49.32");
        assert_eq!(plain(1234567.0, 2), "1234567");
        assert_eq!(plain(-0.0001, 2), "0");
        assert_eq!(plain(f64::INFINITY, 2), "");
    }
}

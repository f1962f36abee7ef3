//! The URL codec: every query parameter name lives here, and nowhere else.
//! `decode` runs once at start; `encode` is written from one Effect with
//! `history.replaceState`. Pure, natively tested. Schema: `docs/url.md`.

use crate::core::plan::PlanInputs;
use crate::i18n::Lang;

/// The link format version this build writes.
pub const VERSION: u32 = 1;

/// Parameter names (stable forever: links in planning docs depend on them).
pub mod param {
    pub const VERSION: &str = "v";
    pub const LANG: &str = "lang";
    pub const MONTHLY_PRICE: &str = "monthly";
    pub const ON_DEMAND_PRICE: &str = "ondemand";
    pub const HOURS_PER_MONTH: &str = "hours";
}

/// Everything a link carries.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LinkState {
    pub inputs: PlanInputs,
    /// `None`: the link did not say; the page picks the browser's language.
    pub lang: Option<Lang>,
}

/// Something in a link that could not be used, named for the user.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkProblem {
    /// The link was made by a newer version of the planner.
    NewerVersion(u32),
    /// A parameter's value could not be read; its default was used.
    BadValue { param: &'static str, value: String },
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Shortest text that reads back as exactly the same f64.
fn num(v: f64) -> String {
    format!("{v}")
}

fn read_num(value: &str) -> Option<f64> {
    value.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Decode a query string (with or without the leading `?`). Unknown parameters are
/// ignored; unreadable values fall back to their defaults and are reported.
pub fn decode(query: &str) -> (LinkState, Vec<LinkProblem>) {
    let mut state = LinkState::default();
    let mut problems = Vec::new();
    let query = query.strip_prefix('?').unwrap_or(query);
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
        let key = percent_decode(key);
        let value = percent_decode(raw);
        let mut bad = |param: &'static str| {
            let mut shown: String = value.chars().take(40).collect();
            if value.chars().count() > 40 {
                shown.push('…');
            }
            problems.push(LinkProblem::BadValue {
                param,
                value: shown,
            });
        };
        match key.as_str() {
            param::VERSION => match value.trim().parse::<u32>() {
                Ok(v) if v > VERSION => problems.push(LinkProblem::NewerVersion(v)),
                Ok(_) => {}
                Err(_) => bad(param::VERSION),
            },
            param::LANG => match Lang::from_code(value.trim()) {
                Some(l) => state.lang = Some(l),
                None => bad(param::LANG),
            },
            param::MONTHLY_PRICE => match read_num(&value) {
                Some(v) => state.inputs.monthly_price = v,
                None => bad(param::MONTHLY_PRICE),
            },
            param::ON_DEMAND_PRICE => match read_num(&value) {
                Some(v) => state.inputs.on_demand_price = v,
                None => bad(param::ON_DEMAND_PRICE),
            },
            param::HOURS_PER_MONTH => match read_num(&value) {
                Some(v) => state.inputs.hours_per_month = v,
                None => bad(param::HOURS_PER_MONTH),
            },
            _ => {}
        }
    }
    (state, problems)
}

/// Encode the state as a query string starting with `?`.
pub fn encode(state: &LinkState, lang: Lang) -> String {
    let i = &state.inputs;
    format!(
        "?{}={}&{}={}&{}={}&{}={}&{}={}",
        param::VERSION,
        VERSION,
        param::LANG,
        lang.code(),
        param::MONTHLY_PRICE,
        num(i.monthly_price),
        param::ON_DEMAND_PRICE,
        num(i.on_demand_price),
        param::HOURS_PER_MONTH,
        num(i.hours_per_month),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_is_exact() {
        let state = LinkState {
            inputs: PlanInputs {
                monthly_price: 5999.99,
                on_demand_price: 12.34,
                hours_per_month: 744.0,
                ..PlanInputs::default()
            },
            lang: Some(Lang::Zh),
        };
        let q = encode(&state, Lang::Zh);
        assert_eq!(q, "?v=1&lang=zh&monthly=5999.99&ondemand=12.34&hours=744");
        let (back, problems) = decode(&q);
        assert_eq!(back, state);
        assert!(problems.is_empty());
    }

    #[test]
    fn unknown_parameters_are_ignored_and_missing_ones_default() {
        let (s, p) = decode("utm_source=doc&monthly=8000");
        assert_eq!(s.inputs.monthly_price, 8000.0);
        assert_eq!(
            s.inputs.on_demand_price,
            PlanInputs::default().on_demand_price
        );
        assert_eq!(s.lang, None);
        assert!(p.is_empty());
    }

    #[test]
    fn bad_values_fall_back_and_are_named() {
        let (s, p) = decode("?monthly=abc&ondemand=NaN&lang=fr&hours=1e999");
        assert_eq!(s.inputs, PlanInputs::default());
        assert_eq!(
            p,
            vec![
                LinkProblem::BadValue {
                    param: "monthly",
                    value: "abc".into()
                },
                LinkProblem::BadValue {
                    param: "ondemand",
                    value: "NaN".into()
                },
                LinkProblem::BadValue {
                    param: "lang",
                    value: "fr".into()
                },
                LinkProblem::BadValue {
                    param: "hours",
                    value: "1e999".into()
                },
            ]
        );
    }

    #[test]
    fn newer_version_is_reported() {
        let (_, p) = decode("?v=7&monthly=1");
        assert_eq!(p, vec![LinkProblem::NewerVersion(7)]);
    }

    #[test]
    fn percent_decoding_never_panics() {
        assert_eq!(percent_decode("a%20b"), "a b");
        assert_eq!(percent_decode("%"), "%");
        assert_eq!(percent_decode("%2"), "%2");
        assert_eq!(percent_decode("%zz"), "%zz");
        assert_eq!(percent_decode("%E4%B8%AD"), "中");
        let (s, _) = decode("monthly=%39%30%30%30");
        assert_eq!(s.inputs.monthly_price, 9000.0);
    }
}

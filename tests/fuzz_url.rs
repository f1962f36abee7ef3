//! Robustness of the link decoder on arbitrary and near-valid query strings: never panics,
//! every decoded number is finite, every reported problem is short (values are cut), and
//! the same query always decodes the same way.
//! Long run: `PROPTEST_CASES=20000 cargo test --release --test fuzz_url` (scripts/bench).
#![cfg(not(target_arch = "wasm32"))]

#[allow(dead_code)] // each suite uses part of it
#[path = "common/fuzz.rs"]
mod common;

use gpu_rent_planner::link::decode;
use proptest::prelude::*;

fn check(query: &str) -> Result<(), String> {
    let (state, problems) = decode(query);
    let dump = format!("{:?}", state.inputs);
    if let Some(bad) = common::non_finite_in(&dump) {
        return Err(format!("decoded inputs hold {bad}"));
    }
    for p in &problems {
        let shown = format!("{p:?}");
        if shown.chars().count() > 400 {
            return Err(format!(
                "a problem of {} chars: {}",
                shown.chars().count(),
                &shown[..200]
            ));
        }
    }
    // Bounded: at most one problem per parameter in the query (plus one for the version).
    if problems.len() > query.split('&').count() + 1 {
        return Err(format!(
            "{} problems for {} parameters",
            problems.len(),
            query.split('&').count()
        ));
    }
    let (again, problems_again) = decode(query);
    if again != state || problems_again != problems {
        return Err("decoding is not deterministic".into());
    }
    Ok(())
}

const PIECES: &[&str] = &[
    "?",
    "&",
    "=",
    "==",
    "%",
    "%2",
    "%25",
    "%ZZ",
    "%E4%B8",
    "%E4%B8%AD",
    "%00",
    "%FF",
    "+",
    " ",
    "#",
    "v",
    "v=1",
    "v=2",
    "v=999",
    "v=4294967296",
    "v=-1",
    "lang",
    "lang=zh",
    "lang=en",
    "lang=xx",
    "monthly",
    "ondemand",
    "hours",
    "spot",
    "gpus",
    "used",
    "h",
    "hist",
    "history",
    "data",
    "q",
    "1",
    "0",
    "-0",
    "-5",
    "9000",
    "1e308",
    "1e999",
    "NaN",
    "inf",
    "-inf",
    "Infinity",
    "0x10",
    "1_000",
    "９０００",
    "¥",
    ",",
    ".",
    "..",
    "e",
    "abc",
    "<script>",
    "%3Cscript%3E",
    "\u{0}",
    "😀",
    "AAAA",
    "eJw",
    "____",
    "-_",
    "A-Za-z0-9",
    "=====",
    "~",
    "true",
    "false",
];

fn config(default_cases: u32) -> ProptestConfig {
    common::config(default_cases, "tests/regressions/fuzz_url.txt")
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn arbitrary_strings(query in prop::collection::vec(any::<char>(), 0..300).prop_map(String::from_iter)) {
        if let Err(e) = check(&query) { prop_assert!(false, "{e}\nquery: {query:?}"); }
    }

    #[test]
    fn near_valid_links(query in prop::collection::vec(prop::sample::select(PIECES), 0..60).prop_map(|v| v.concat())) {
        if let Err(e) = check(&query) { prop_assert!(false, "{e}\nquery: {query:?}"); }
    }

    #[test]
    fn every_number_a_parameter_can_hold(
        key in prop::sample::select(&["monthly", "ondemand", "hours", "v", "lang"][..]),
        v in any::<f64>(),
        junk in prop::sample::select(PIECES),
    ) {
        for q in [format!("?{key}={v}"), format!("?{key}={v:e}{junk}"), format!("{key}={junk}{v}&{key}={v}")] {
            if let Err(e) = check(&q) { prop_assert!(false, "{e}\nquery: {q:?}"); }
        }
    }
}

/// Past failures and hostile links, kept as plain cases.
#[test]
fn regression_links() {
    let long = format!("?v=1&monthly={}", "9".repeat(100_000));
    let many = "&monthly=1".repeat(10_000);
    for q in [
        "",
        "?",
        "&&&",
        "=",
        "?=",
        "?v",
        "?v=",
        "?v=999",
        "?%",
        "?%%%",
        "?monthly=%E4%B8",
        "?monthly=%",
        "?monthly=1e999",
        "?monthly=-1e999",
        "?monthly=NaN",
        "?lang=%00",
        long.as_str(),
        many.as_str(),
        "?v=1&monthly=7300&ondem",
        "?monthly=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    ] {
        check(q).unwrap_or_else(|e| panic!("{e}: {}", &q[..q.len().min(80)]));
    }
}

// ---- the first-stage module (issue 21): its reader against the page's ------------------

use gpu_rent_planner::core::ingest::DateOrder;
use gpu_rent_planner::core::series::UsageSeries;
use gpu_rent_planner::core::zone::{Zone, ZoneChoice};
use gpu_rent_planner::link::{encode_with_history, LinkHistory, LinkState};
use gpu_rent_planner::page::pipeline::{headline_for_query, read_link_series, read_text};
use gpu_rent_planner::state::UsageMode;

/// The zone a link names, as the browser would resolve it: fixed offsets, and one named
/// zone with daylight saving (Europe/Berlin's 2026 changes) for `tz=Europe/Berlin`.
fn zone_of(tz: &ZoneChoice) -> Zone {
    match tz {
        ZoneChoice::Offset(m) => Zone::fixed(*m),
        ZoneChoice::Named(_) => {
            Zone::with_changes(60, vec![(1_774_746_000, 120), (1_792_890_000, 60)])
        }
        ZoneChoice::Auto => Zone::fixed(0),
    }
}

/// Both readers on one query: the page's (text) and the first stage's. Where the first stage
/// answers, its headline is the page's, exactly.
fn same_headline(query: &str) -> Result<bool, String> {
    let page = headline_for_query(
        query,
        &["en-US"],
        zone_of,
        DateOrder::MonthFirst,
        &read_text,
    );
    let first = headline_for_query(
        query,
        &["en-US"],
        zone_of,
        DateOrder::MonthFirst,
        &read_link_series,
    );
    match (page, first) {
        (_, None) => Ok(false),
        (Some(p), Some(f)) if p == f => Ok(true),
        (p, f) => Err(format!("page {p:?}\nfirst stage {f:?}")),
    }
}

fn history_link() -> impl Strategy<Value = String> {
    (
        1usize..1500,
        0i64..200_000,
        prop::collection::vec(0u32..64_000, 1..50),
        prop::sample::select(&[0i32, 480, -300, 330, 545, -720, 840][..]),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop::sample::select(
            &[
                "",
                "&rule=waterline",
                "&q=10",
                "&lookback=all",
                "&lookback=7",
                "&gpus=3&used=100",
                "&monthly=4000&ondemand=7",
                "&hours=744",
            ][..],
        ),
    )
        .prop_map(
            |(hours, start_h, pattern, offset, stamped, histogram, named, extra)| {
                let values: Vec<f64> = (0..hours)
                    .map(|h| f64::from(pattern[h % pattern.len()]) / 1000.0)
                    .collect();
                let mut series = UsageSeries::from_values(values);
                if stamped && !histogram {
                    let t0 = 1_735_689_600 + start_h * 3600;
                    series.timestamps = Some((0..hours as i64).map(|h| t0 + h * 3600).collect());
                }
                let tz = if named {
                    ZoneChoice::Named("Europe/Berlin".into())
                } else {
                    ZoneChoice::Offset(offset)
                };
                let state = LinkState {
                    mode: UsageMode::Data,
                    tz: Some(tz),
                    history: Some(LinkHistory::one(series, histogram)),
                    ..LinkState::default()
                };
                format!("{}{extra}", encode_with_history(&state))
            },
        )
}

proptest! {
    #![proptest_config(config(300))]

    /// Links the page makes (a history, hourly, in a named or fixed zone, with options): the
    /// first stage answers, and with the page's headline.
    #[test]
    fn first_stage_headline_is_the_page_s(query in history_link()) {
        match same_headline(&query) {
            Ok(answered) => prop_assert!(answered, "the first stage declined a page-made link: {query}"),
            Err(e) => prop_assert!(false, "{e}\nquery: {query}"),
        }
    }

    /// A page-made link damaged by someone else (a character changed, cut short, doubled
    /// parameters): the first stage never panics and never differs from the page.
    #[test]
    fn first_stage_on_edited_links(query in history_link(), at in any::<prop::sample::Index>(), with in prop::sample::select(PIECES), cut in any::<bool>()) {
        let i = at.index(query.len());
        let i = (0..=i).rev().find(|&k| query.is_char_boundary(k)).unwrap_or(0);
        let edited = if cut { query[..i].to_string() } else { format!("{}{with}{}", &query[..i], &query[i..]) };
        if let Err(e) = same_headline(&edited) { prop_assert!(false, "{e}\nquery: {edited:?}"); }
    }

    /// Any text: the first stage never panics and never differs from the page.
    #[test]
    fn first_stage_on_damaged_links(query in prop::collection::vec(prop::sample::select(PIECES), 0..60).prop_map(|v| v.concat())) {
        if let Err(e) = same_headline(&query) { prop_assert!(false, "{e}\nquery: {query:?}"); }
    }
}

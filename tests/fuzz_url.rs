//! Robustness of the link decoder on arbitrary and near-valid query strings: never panics,
//! every decoded number is finite, every reported problem is short (values are cut), and
//! the same query always decodes the same way.
//! Long run: `PROPTEST_CASES=20000 cargo test --release --test fuzz_url` (scripts/bench).
#![cfg(not(target_arch = "wasm32"))]

#[allow(dead_code)] // each suite uses part of it
#[path = "common/fuzz.rs"]
mod common;

use gpu_rent_planner::url::decode;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

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
    ProptestConfig {
        cases: common::cases(default_cases),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "tests/regressions/fuzz_url.txt",
        ))),
        ..ProptestConfig::default()
    }
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

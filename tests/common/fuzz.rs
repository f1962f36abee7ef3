//! Shared by the tests/fuzz_*.rs suites (included with `#[path]`; a subdirectory, so not a test target).

use proptest::test_runner::{Config as ProptestConfig, FileFailurePersistence};

/// A suite's proptest configuration: [`cases`]`(default)` cases, failing inputs kept in the
/// file `regressions` (e.g. `tests/regressions/fuzz_url.txt`).
pub fn config(default: u32, regressions: &'static str) -> ProptestConfig {
    ProptestConfig {
        cases: cases(default),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(regressions))),
        ..ProptestConfig::default()
    }
}

/// Case count: `PROPTEST_CASES` when set (long runs from `scripts/bench`), else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A NaN or an infinity printed anywhere in a `Debug` dump (f64 prints `NaN`, `inf`, `-inf`).
pub fn non_finite_in(debug: &str) -> Option<String> {
    debug
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '.'))
        .find(|t| matches!(*t, "NaN" | "inf" | "-inf"))
        .map(|t| {
            let at = debug.find(t).unwrap_or(0);
            let from = debug[..at]
                .char_indices()
                .rev()
                .nth(80)
                .map_or(0, |(i, _)| i);
            format!("{t} near: …{}", &debug[from..at + t.len()])
        })
}

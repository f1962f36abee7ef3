//! The corpus of real exports (tests/corpus/, sources in its README.md): each file's reading
//! is pinned — the format, what the columns were read as (and whether the page asks), the
//! GPU types, the hours, the waterline and N* of the default plan, the plausibility
//! warnings — or the refusal. No file may give a plan without a correct reading, a visible
//! question or a warning: every file is listed here, and `CORPUS_PRINT=1` prints the table
//! (the issue note's "after").
#![cfg(not(target_arch = "wasm32"))]

use gpu_rent_planner::core::ingest::{parse, ColumnMeaning, ParseOptions, Parsed, Warning};
use gpu_rent_planner::core::plan::{plan_with_history, PlanInputs};
use gpu_rent_planner::core::profile::profile;

/// What a file reads as: `Ok(summary)` or `Err(refusal)`.
fn reading(p: &Parsed) -> String {
    let r = &p.report;
    let meaning = match &r.meaning {
        Some(m) => format!(
            "{}{}",
            match m.read {
                ColumnMeaning::Utilisation if m.ratio => "utilisation ratio",
                ColumnMeaning::Utilisation => "utilisation",
                ColumnMeaning::Counts => "counts",
                ColumnMeaning::Sum => "sum",
                ColumnMeaning::Auto => "auto",
            },
            if m.ask { " (asks)" } else { "" }
        ),
        None => match &r.prometheus {
            Some(pr) => format!("{:?}", pr.reading),
            None => "-".into(),
        },
    };
    let types: Vec<&str> = p.types.iter().map(|t| t.key.as_str()).collect();
    let inputs = PlanInputs::default();
    let (wl, n) = match profile(&p.series, &inputs.profile_settings()) {
        Ok(prof) => {
            let out = plan_with_history(&inputs, Some(&prof));
            (
                out.waterline
                    .as_ref()
                    .map_or("error".into(), |w| format!("{:.2}", w.overall)),
                out.commitment
                    .as_ref()
                    .map_or("error".into(), |c| c.n_star.to_string()),
            )
        }
        Err(_) => ("no plan".into(), "no plan".into()),
    };
    let warnings: Vec<&str> = r
        .warnings
        .iter()
        .map(|w| match w {
            Warning::MoreThanGpus { .. } => "more-than-gpus",
            Warning::PercentAsCounts { .. } => "percent-as-counts",
            Warning::UtilisationAsCounts { .. } => "utilisation-as-counts",
            Warning::Jump { .. } => "jump",
        })
        .collect();
    let (lo, hi) = p
        .series
        .values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    format!(
        "{:?} | {meaning} | {} | {} h | {lo:.2}–{hi:.2} | waterline {wl} | N* {n} | {}",
        r.format,
        if types.is_empty() {
            "-".into()
        } else {
            types.join(" ")
        },
        p.series.values.len(),
        if warnings.is_empty() {
            "-".into()
        } else {
            warnings.join(" ")
        }
    )
}

/// Every file of the corpus and its pinned reading (tests/corpus/pinned.in, checked against
/// the "correct reading" column of tests/corpus/README.md: a plan only where the reading is
/// right, "(asks)" where the page takes the more plausible reading and asks, a warning, or
/// a refusal).
const PINNED: &[(&str, &str)] = &include!("corpus/pinned.in");

fn read(name: &str) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");
    match parse(
        &std::fs::read_to_string(format!("{dir}/{name}")).expect(name),
        &ParseOptions::default(),
    ) {
        Ok(p) => reading(&p),
        Err(e) => format!("refused: {e:?}"),
    }
}

#[test]
fn every_file_of_the_corpus_reads_as_pinned() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| !n.ends_with(".md") && !n.ends_with(".in"))
        .collect();
    files.sort();
    assert!(files.len() >= 25, "{} files", files.len());
    if std::env::var("CORPUS_PRINT").is_ok() {
        for f in &files {
            println!("    (\"{f}\", \"{}\"),", read(f).replace('"', "\\\""));
        }
    }
    let pinned: Vec<&str> = PINNED.iter().map(|(f, _)| *f).collect();
    assert_eq!(
        files, pinned,
        "every file of tests/corpus is pinned, in order"
    );
    let mut wrong = Vec::new();
    for (f, want) in PINNED {
        let got = read(f);
        if got != *want {
            wrong.push(format!("{f}\n  want {want}\n  got  {got}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

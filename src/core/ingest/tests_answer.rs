//! The answers to the page's queries (`core::query`, issue 38), as each engine exports them:
//! read as GPU-hours per hour, type and team, and recognised as such.

use super::*;

fn read(text: &str) -> Parsed {
    parse(text, &ParseOptions::default()).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

/// The same three hours written by each engine's export (every hour of the window for each
/// type, 0 where nothing ran: the queries write the hours without usage, so that the reader
/// sees hourly samples and zeros, never a gap or a coarser sample held over two hours): every field quoted (Athena's
/// download, with Trino's millisecond timestamps), plain CSV (DuckDB, BigQuery),
/// tab-separated (the MySQL client, Unix seconds): one history, told apart in the report.
#[test]
fn each_export_reads_to_the_same_hours() {
    let athena = "\"hour_utc\",\"gpu_type\",\"gpu_hours\"\n\"2026-11-02T10:00:00Z\",\"A100 40GB\",\"0.5\"\n\"2026-11-02T10:00:00Z\",\"H100 80GB\",\"0.25\"\n\"2026-11-02T11:00:00Z\",\"A100 40GB\",\"0\"\n\"2026-11-02T11:00:00Z\",\"H100 80GB\",\"0\"\n\"2026-11-02T12:00:00Z\",\"H100 80GB\",\"0\"\n\"2026-11-02T12:00:00Z\",\"A100 40GB\",\"0.75\"\n";
    let duck = "hour_utc,gpu_type,gpu_hours\n2026-11-02T10:00:00Z,A100 40GB,0.5\n2026-11-02T10:00:00Z,H100 80GB,0.25\n2026-11-02T11:00:00Z,A100 40GB,0\n2026-11-02T11:00:00Z,H100 80GB,0\n2026-11-02T12:00:00Z,A100 40GB,0.75\n2026-11-02T12:00:00Z,H100 80GB,0\n";
    let mysql = "hour_utc\tgpu_type\tgpu_hours\n1793613600\tA100 40GB\t0.5000\n1793613600\tH100 80GB\t0.2500\n1793617200\tA100 40GB\t0.0000\n1793617200\tH100 80GB\t0.0000\n1793620800\tA100 40GB\t0.7500\n1793620800\tH100 80GB\t0.0000\n";
    let mut seen = Vec::new();
    for (text, kind) in [
        (athena, QueryAnswer::CsvQuoted),
        (duck, QueryAnswer::Csv),
        (mysql, QueryAnswer::Tsv),
    ] {
        let p = read(text);
        assert_eq!(p.report.query_answer, Some(kind), "{text}");
        // Below one GPU everywhere, and still GPU counts, never a utilisation ratio.
        assert_eq!(p.report.busy_threshold_percent, None);
        assert_eq!(
            p.series.timestamps.as_ref().map(|t| t[0]),
            Some(1_793_613_600)
        );
        let types: Vec<(String, Vec<f64>)> = p
            .types
            .iter()
            .map(|t| (t.key.clone(), t.series.values.clone()))
            .collect();
        seen.push((p.series.values.clone(), types));
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]), "{seen:?}");
    assert_eq!(seen[0].0, vec![0.75, 0.0, 0.75]);
    assert_eq!(seen[0].1[1].1, vec![0.25, 0.0, 0.0]);
}

/// With teams: the team column is the teams' source; an ordinary table with other headers
/// is not called an answer.
#[test]
fn teams_and_look_alikes() {
    let p = read("hour_utc,gpu_type,team,gpu_hours\n2026-11-02T10:00:00Z,a100,ml,3\n2026-11-02T10:00:00Z,a100,infra,1.5\n2026-11-02T11:00:00Z,h100,ml,2\n2026-11-02T11:00:00Z,a100,ml,0\n2026-11-02T11:00:00Z,a100,infra,0\n2026-11-02T10:00:00Z,h100,ml,0\n");
    assert_eq!(p.report.query_answer, Some(QueryAnswer::Csv));
    assert_eq!(p.series.values, vec![4.5, 2.0]);
    let teams = p.teams.expect("teams");
    let mut names: Vec<_> = teams
        .teams
        .iter()
        .map(|t| (t.name.clone(), t.values.clone()))
        .collect();
    names.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        names,
        vec![
            ("infra".into(), vec![1.5, 0.0]),
            ("ml".into(), vec![3.0, 2.0])
        ]
    );
    for other in [
        "time,gpu_type,gpu_hours\n2026-11-02T10:00:00Z,a100,3\n",
        "hour_utc,gpu_hours\n2026-11-02T10:00:00Z,3\n",
        "hour_utc,gpu_type,gpu_hours,cost\n2026-11-02T10:00:00Z,a100,3,9\n",
    ] {
        if let Ok(p) = parse(other, &ParseOptions::default()) {
            assert_eq!(p.report.query_answer, None, "{other}");
        }
    }
}

//! Per-GPU utilisation tables (one column per GPU), the column-meaning choice and the
//! plausibility guard, against hand-computed examples (docs/formats.md, docs/formulas.md § 23).

use super::test_feed::ok;
use super::*;

/// A Grafana CSV header cell for a DCGM series, quoted as Grafana writes it.
fn dcgm(gpu: u32, model: &str) -> String {
    format!(
        "\"DCGM_FI_DEV_GPU_UTIL{{Hostname=\"\"node-1\"\", UUID=\"\"GPU-0a{gpu}\"\", gpu=\"\"{gpu}\"\", modelName=\"\"{model}\"\"}}\""
    )
}

const A100: &str = "NVIDIA A100-SXM4-80GB";
const H100: &str = "NVIDIA H100 80GB HBM3";

/// The formulas § 23 example: three GPUs, threshold 10 %, four samples in hour 10 and one
/// in hour 11. Busy per sample: 2 (87, 10 at the threshold), 1, 3, 0 (an empty cell is not
/// busy) → hour 10 = 6 / 4 = 1.5; hour 11 = 3.
fn example(models: [&str; 3]) -> String {
    format!(
        "\"Time\",{},{},{}\n\
         2026-11-02 10:00:00,87,3,10\n\
         2026-11-02 10:15:00,100,9.9,0\n\
         2026-11-02 10:30:00,50,50,50\n\
         2026-11-02 10:45:00,0,0,\n\
         2026-11-02 11:00:00,95,95,95\n",
        dcgm(0, models[0]),
        dcgm(1, models[1]),
        dcgm(2, models[2])
    )
}

#[test]
fn dcgm_utilisation_columns_count_gpus_at_or_above_the_threshold() {
    let p = ok(&example([A100, A100, A100]), &ParseOptions::default());
    assert_eq!(p.series.values, vec![1.5, 3.0]);
    let m = p.report.meaning.as_ref().expect("meaning");
    assert_eq!(m.read, ColumnMeaning::Utilisation);
    assert_eq!(m.why, MeaningWhy::Metric("DCGM_FI_DEV_GPU_UTIL".into()));
    assert!(!m.ask);
    assert_eq!((m.gpu_columns, m.columns), (3, 3));
    assert_eq!(p.report.busy_threshold_percent, Some(10.0));
    // One type, named by modelName.
    assert_eq!(p.types.len(), 1);
    assert_eq!(p.types[0].key, "a100");
    assert_eq!(
        p.report.type_source,
        Some(TypeSource::Label("modelName".into()))
    );
    assert!(p.report.warnings.is_empty(), "{:?}", p.report.warnings);
    assert!(!p.report.needs_check());
    // The threshold moves the count: at 50 %, hour 10 = (1 + 1 + 3 + 0) / 4 = 1.25.
    let o = ParseOptions {
        busy_threshold_percent: 50.0,
        ..ParseOptions::default()
    };
    assert_eq!(
        ok(&example([A100, A100, A100]), &o).series.values,
        vec![1.25, 3.0]
    );
}

#[test]
fn models_in_the_headers_make_a_mixed_fleet() {
    let p = ok(&example([A100, A100, H100]), &ParseOptions::default());
    let keys: Vec<&str> = p.types.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(keys, ["a100", "h100"]);
    // A100 (GPUs 0, 1): 1, 1, 2, 0 → 1.0; then 2. H100 (GPU 2): 1, 0, 1, 0 → 0.5; then 1.
    assert_eq!(p.types[0].series.values, vec![1.0, 2.0]);
    assert_eq!(p.types[1].series.values, vec![0.5, 1.0]);
    assert_eq!(p.series.values, vec![1.5, 3.0]);
}

#[test]
fn the_issue_file_is_no_longer_366_gpus() {
    // Ten GPUs of one node, 1 to 10 busy: never more than ten GPUs busy.
    let mut text = String::from("\"Time\"");
    for g in 0..10 {
        text.push(',');
        text.push_str(&dcgm(g, A100));
    }
    text.push('\n');
    for h in 0..48 {
        for m in (0..60).step_by(5) {
            text.push_str(&format!(
                "2026-11-{:02} {:02}:{m:02}:00",
                2 + h / 24,
                h % 24
            ));
            let busy = 1 + (h * 7) % 10;
            for g in 0..10 {
                text.push_str(if g < busy { ",73" } else { ",2" });
            }
            text.push('\n');
        }
    }
    let p = ok(&text, &ParseOptions::default());
    assert_eq!(p.series.values.len(), 48);
    assert_eq!(p.series.values[0], 1.0);
    assert_eq!(p.series.values[1], 8.0);
    assert!(p.series.values.iter().all(|&v| (1.0..=10.0).contains(&v)));
    assert!(p.report.warnings.is_empty());
    // Read as counts (the user's choice), the guard names the figure and the GPUs.
    let o = ParseOptions {
        meaning: ColumnMeaning::Counts,
        ..ParseOptions::default()
    };
    let c = ok(&text, &o);
    assert!(c.series.values[0] > 10.0);
    match &c.report.warnings[..] {
        [Warning::MoreThanGpus {
            busy,
            gpus: 10,
            series: false,
            ..
        }, Warning::UtilisationAsCounts { max, .. }] => {
            assert_eq!(*busy, c.series.values.iter().copied().fold(0.0, f64::max));
            assert_eq!(*max, 73.0);
        }
        w => panic!("{w:?}"),
    }
    assert!(c.report.needs_check());
}

#[test]
fn gpu_names_take_the_plausible_reading_and_ask() {
    let text = "Time,GPU 0,GPU 1,GPU 2\n\
                2026-11-02 10:00:00,87,3,10\n\
                2026-11-02 10:30:00,50,50,50\n";
    let p = ok(text, &ParseOptions::default());
    let m = p.report.meaning.as_ref().unwrap();
    assert_eq!(
        (m.read, m.why.clone(), m.ask),
        (ColumnMeaning::Utilisation, MeaningWhy::GpuNames, true)
    );
    // (2 + 3) / 2 GPUs busy.
    assert_eq!(p.series.values, vec![2.5]);
    assert!(p.report.needs_check());
    // Confirmed as utilisation: no more asking.
    let o = ParseOptions {
        meaning: ColumnMeaning::Utilisation,
        ..ParseOptions::default()
    };
    let c = ok(text, &o);
    assert_eq!(c.series.values, vec![2.5]);
    assert!(!c.report.needs_check());
    // The other reading, counts per column: (100 + 150) / 2 = 125, more than 3 GPUs.
    let o = ParseOptions {
        meaning: ColumnMeaning::Counts,
        ..ParseOptions::default()
    };
    let c = ok(text, &o);
    assert_eq!(c.series.values, vec![125.0]);
    assert!(matches!(
        c.report.warnings[..],
        [Warning::MoreThanGpus { gpus: 3, .. }]
    ));
    // Busy flags per GPU (0 or 1) are counts, to confirm.
    let flags = ok(
        "Time,GPU 0,GPU 1\n2026-11-02 10:00:00,1,0\n2026-11-02 11:00:00,1,1\n",
        &ParseOptions::default(),
    );
    assert_eq!(flags.series.values, vec![1.0, 2.0]);
    assert!(flags.report.meaning.as_ref().unwrap().ask);
    assert!(flags.report.warnings.is_empty());
}

#[test]
fn a_ratio_metric_is_scaled() {
    let text = "Time,\"DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"\"0\"\"}\",\"DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"\"1\"\"}\"\n\
                2026-11-02 10:00:00,0.35,0.05\n\
                2026-11-02 10:30:00,0.1,0.099\n";
    let p = ok(text, &ParseOptions::default());
    assert!(p.report.meaning.as_ref().unwrap().ratio);
    // At 10 %: 1 then 1 → 1.0.
    assert_eq!(p.series.values, vec![1.0]);
}

#[test]
fn percent_cells_are_utilisation_and_a_single_percent_column_warns() {
    let text = "Time,node-1,node-2\n2026-11-02 10:00:00,45%,3%\n2026-11-02 11:00:00,100 %,80 %\n";
    let p = ok(text, &ParseOptions::default());
    assert_eq!(p.report.meaning.as_ref().unwrap().why, MeaningWhy::Percent);
    assert_eq!(p.series.values, vec![1.0, 2.0]);
    let one = ok(
        "Time,gpus\n2026-11-02 10:00:00,45%\n2026-11-02 11:00:00,40%\n",
        &ParseOptions::default(),
    );
    assert_eq!(one.series.values, vec![45.0, 40.0]);
    assert_eq!(
        one.report.warnings,
        vec![Warning::PercentAsCounts {
            column: "gpus".into(),
            example: "45%".into()
        }]
    );
}

#[test]
fn a_utilisation_like_count_column_warns() {
    let text = "Time,gpu_util\n2026-11-02 10:00:00,37.5\n2026-11-02 11:00:00,41.25\n";
    let p = ok(text, &ParseOptions::default());
    assert_eq!(p.series.values, vec![37.5, 41.25]);
    assert_eq!(
        p.report.warnings,
        vec![Warning::UtilisationAsCounts {
            column: "gpu_util".into(),
            max: 41.25
        }]
    );
}

#[test]
fn a_jump_of_orders_of_magnitude_warns() {
    let text = "time,gpus\n2026-11-02 10:00,3\n2026-11-02 11:00,4\n2026-11-02 12:00,4000\n2026-11-02 13:00,5\n";
    let p = ok(text, &ParseOptions::default());
    assert_eq!(
        p.report.warnings,
        vec![Warning::Jump {
            at: Some(1_793_613_600 + 7200),
            index: 2,
            from: 4.0,
            to: 4000.0
        }]
    );
    // 0 → 500 → 0 is a start and an end, not a jump; 1 → 99 is below a factor of 100.
    let fine = ok("time,gpus\n2026-11-02 10:00,0\n2026-11-02 11:00,500\n2026-11-02 12:00,0\n2026-11-02 13:00,1\n2026-11-02 14:00,99\n", &ParseOptions::default());
    assert!(
        fine.report.warnings.is_empty(),
        "{:?}",
        fine.report.warnings
    );
}

#[test]
fn teams_and_types_are_counts_without_warnings() {
    for text in [
        "time,team_a,team_b\n2026-11-02 10:00,3,4.5\n2026-11-02 11:00,5,2\n",
        "time,A100,H100\n2026-11-02 10:00,3,4\n2026-11-02 11:00,5,2\n",
        "time,gpus\n2026-11-02 10:00,3\n2026-11-02 11:00,5\n",
    ] {
        let p = ok(text, &ParseOptions::default());
        let m = p.report.meaning.as_ref().unwrap();
        assert_eq!((m.read, m.ask), (ColumnMeaning::Counts, false), "{text}");
        assert!(p.report.warnings.is_empty(), "{text}");
        assert!(!p.report.needs_check());
    }
    // Sum: the typed table as one untyped series.
    let o = ParseOptions {
        meaning: ColumnMeaning::Sum,
        ..ParseOptions::default()
    };
    let p = ok(
        "time,A100,H100\n2026-11-02 10:00,3,4\n2026-11-02 11:00,5,2\n",
        &o,
    );
    assert!(p.types.is_empty());
    assert_eq!(p.series.values, vec![7.0, 7.0]);
}

#[test]
fn prometheus_values_of_per_gpu_series_above_their_count_warn() {
    // DCGM utilisation without a metric name, read as values: 87 + 100 "GPUs" from 2 GPUs.
    let text = r#"{"status":"success","data":{"resultType":"matrix","result":[
 {"metric":{"gpu":"0","UUID":"GPU-0a","modelName":"NVIDIA A100-SXM4-80GB"},"values":[[1793613600,"87"]]},
 {"metric":{"gpu":"1","UUID":"GPU-1b","modelName":"NVIDIA A100-SXM4-80GB"},"values":[[1793613600,"100"]]}]}}"#;
    let p = ok(text, &ParseOptions::default());
    assert_eq!(p.report.prometheus.as_ref().unwrap().per_gpu_series, 2);
    assert!(matches!(
        p.report.warnings[..],
        [Warning::MoreThanGpus {
            gpus: 2,
            series: true,
            ..
        }]
    ));
}

#[test]
fn a_namespace_named_notebooks_is_a_series_and_notes_are_free_text() {
    let p = ok(
        "time,ml,notebooks,notes\n2026-11-02 10:00,3,2,ok\n2026-11-02 11:00,4,1,retry\n",
        &ParseOptions::default(),
    );
    let names: Vec<&str> = p.report.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["ml", "notebooks"]);
    assert_eq!(p.series.values, vec![5.0, 5.0]);
}

#[test]
fn a_series_without_a_value_in_the_first_lines_is_kept() {
    let mut text = String::from("time,a,b,late\n");
    for h in 0..120 {
        let late = if h >= 110 { "7" } else { "" };
        text.push_str(&format!(
            "2026-11-{:02} {:02}:00,1,2,{late}\n",
            2 + h / 24,
            h % 24
        ));
    }
    let p = ok(&text, &ParseOptions::default());
    assert_eq!(p.report.columns.len(), 3);
    assert_eq!(p.series.values[0], 3.0);
    assert_eq!(p.series.values[119], 10.0);
}

#[test]
fn no_warning_and_no_question_on_the_pages_samples_and_benches() {
    use crate::core::examples::{self, Example};
    let t0 = 1_793_538_000;
    let mut texts: Vec<(String, String)> = Example::ALL
        .iter()
        .map(|&e| (e.key().to_string(), examples::csv(e, t0, 480)))
        .collect();
    let bursty = examples::series(Example::BurstyLab, t0, 0);
    texts.push((
        "dcgm".into(),
        crate::core::prom_samples::dcgm_from_series(&bursty, 12, "NVIDIA A100-SXM4-80GB"),
    ));
    texts.push((
        "k8s".into(),
        crate::core::prom_samples::requests_from_series(&bursty),
    ));
    texts.push(("slurm".into(), crate::core::slurm_sample::sacct(t0, 480)));
    texts.push(("cur".into(), crate::core::cur_samples::sample(t0, 0)));
    texts.push((
        "fleet-wide".into(),
        examples::generate_fleet_wide_csv(3 * 1440),
    ));
    texts.push((
        "fleet-long".into(),
        examples::generate_fleet_long_csv(3 * 1440),
    ));
    texts.push(("minutely".into(), examples::generate_minutely_csv(3 * 1440)));
    for (name, text) in texts {
        let p = ok(&text, &ParseOptions::default());
        assert!(
            p.report.warnings.is_empty(),
            "{name}: {:?}",
            p.report.warnings
        );
        assert!(!p.report.needs_check(), "{name}: {:?}", p.report.meaning);
    }
}

//! What a Prometheus answer was read as (DCGM utilisation, Kubernetes GPU requests, or
//! plain values): the report's lines, as pure functions of (language, report), natively
//! tested. The component places them (`parse_report.rs`).

use crate::core::ingest::{LeftOutReason, PromReading, PromReport};
use crate::format::number_trim;
use crate::i18n::{pick, Lang};
use crate::present::ReportLine as PromLine;

/// The stable key of a reading (`data-value`, the reading choice's option values).
pub fn reading_key(r: PromReading) -> &'static str {
    match r {
        PromReading::Values => "values",
        PromReading::BusyPercent => "busy-percent",
        PromReading::BusyRatio => "busy-ratio",
        PromReading::Requests => "requests",
    }
}

/// The readings the user can choose, in the order of the choice.
pub const READINGS: [PromReading; 4] = [
    PromReading::Values,
    PromReading::BusyPercent,
    PromReading::BusyRatio,
    PromReading::Requests,
];

/// A reading's name in the choice.
pub fn reading_name(l: Lang, r: PromReading) -> &'static str {
    match r {
        PromReading::Values => pick(
            l,
            "values are GPUs (averaged per hour, series summed)",
            "数值即 GPU 数（按小时平均，各序列相加）",
        ),
        PromReading::BusyPercent => pick(
            l,
            "GPU utilisation in % (DCGM_FI_DEV_GPU_UTIL): count busy GPUs",
            "GPU 利用率 %（DCGM_FI_DEV_GPU_UTIL）：统计忙碌 GPU",
        ),
        PromReading::BusyRatio => pick(
            l,
            "GPU activity ratio 0–1 (DCGM_FI_PROF_GR_ENGINE_ACTIVE): count busy GPUs",
            "GPU 活跃比例 0–1（DCGM_FI_PROF_GR_ENGINE_ACTIVE）：统计忙碌 GPU",
        ),
        PromReading::Requests => pick(
            l,
            "Kubernetes GPU requests (kube-state-metrics): sum per step",
            "Kubernetes GPU 申请量（kube-state-metrics）：每步相加",
        ),
    }
}

/// `labels` and the counts per type: "A100 4, H100 4".
fn per_type(l: Lang, labels: &[String], counts: &[usize]) -> String {
    let sep = pick(l, ", ", "，");
    labels
        .iter()
        .zip(counts)
        .map(|(t, n)| format!("{t} {n}"))
        .collect::<Vec<_>>()
        .join(sep)
}

/// The report's Prometheus lines. `type_labels` are the parsed types' labels, in the order
/// of `p.series_per_type`; `threshold` is the busy threshold in percent that was applied.
pub fn lines(l: Lang, p: &PromReport, type_labels: &[String], threshold: f64) -> Vec<PromLine> {
    let mut out = Vec::new();
    let how = if p.by_name {
        pick(l, " (from the metric name)", "（由指标名判断）")
    } else {
        pick(l, " (as you chose)", "（按您的选择）")
    };
    let metric = if p.metric.is_empty() {
        String::new()
    } else {
        format!("{}: ", p.metric)
    };
    let t = number_trim(threshold, 2, l);
    let reading = match (p.reading, l) {
        (PromReading::Values, Lang::En) => {
            format!("{metric}each value is GPUs; a series is averaged per hour and the series are summed{how}")
        }
        (PromReading::Values, Lang::Zh) => {
            format!("{metric}每个数值即 GPU 数；每条序列按小时平均，各序列相加{how}")
        }
        (PromReading::BusyPercent, Lang::En) => format!(
            "{metric}GPU utilisation in percent, one series per GPU; a GPU is busy at a step when at or above {t} %{how}"
        ),
        (PromReading::BusyPercent, Lang::Zh) => format!(
            "{metric}GPU 利用率（%），每块 GPU 一条序列；某一步利用率不低于 {t}% 即视为忙碌{how}"
        ),
        (PromReading::BusyRatio, Lang::En) => format!(
            "{metric}GPU activity as a ratio 0–1, one series per GPU; a GPU is busy at a step when at or above {} ({t} %){how}",
            number_trim(threshold / 100.0, 2, l)
        ),
        (PromReading::BusyRatio, Lang::Zh) => format!(
            "{metric}GPU 活跃比例 0–1，每块 GPU 一条序列；某一步不低于 {}（{t}%）即视为忙碌{how}",
            number_trim(threshold / 100.0, 2, l)
        ),
        (PromReading::Requests, Lang::En) => format!(
            "{metric}GPUs requested by pods (nvidia_com_gpu), summed at each step{how}"
        ),
        (PromReading::Requests, Lang::Zh) => {
            format!("{metric}各 Pod 申请的 GPU（nvidia_com_gpu），每一步相加{how}")
        }
    };
    out.push(PromLine {
        term: pick(l, "Prometheus reading", "Prometheus 读取方式"),
        text: reading,
        testid: "prom-reading",
        value: reading_key(p.reading).to_string(),
        warn: false,
    });

    let typed = if p.series_per_type.is_empty() || type_labels.is_empty() {
        String::new()
    } else {
        match l {
            Lang::En => format!(" ({})", per_type(l, type_labels, &p.series_per_type)),
            Lang::Zh => format!("（{}）", per_type(l, type_labels, &p.series_per_type)),
        }
    };
    let (term, what) = match p.reading {
        PromReading::BusyPercent | PromReading::BusyRatio => (
            pick(l, "GPUs seen", "发现的 GPU"),
            match l {
                Lang::En => format!(
                    "{} GPU{}{typed}, over {} steps",
                    p.series,
                    if p.series == 1 { "" } else { "s" },
                    p.steps
                ),
                Lang::Zh => format!("{} 块 GPU{typed}，共 {} 个时间步", p.series, p.steps),
            },
        ),
        PromReading::Requests => (
            pick(l, "Pod containers", "Pod 容器"),
            match l {
                Lang::En => format!(
                    "{} container series requesting GPUs{typed}, over {} steps",
                    p.series, p.steps
                ),
                Lang::Zh => format!(
                    "{} 条申请 GPU 的容器序列{typed}，共 {} 个时间步",
                    p.series, p.steps
                ),
            },
        ),
        PromReading::Values => (
            pick(l, "Series", "序列"),
            match l {
                Lang::En => format!("{} series{typed}", p.series),
                Lang::Zh => format!("{} 条序列{typed}", p.series),
            },
        ),
    };
    out.push(PromLine {
        term,
        text: what,
        testid: "prom-series",
        value: p.series.to_string(),
        warn: false,
    });

    if p.reading == PromReading::Requests {
        out.push(PromLine {
            term: pick(l, "Requests are not use", "申请量不等于使用量"),
            text: pick(
                l,
                "A GPU requested by a pod counts even when it sits idle. That is the right measure for what must be rented: a requested GPU cannot be given to anyone else.",
                "被 Pod 申请的 GPU 即使空闲也计入。这正是需要租用多少的合适口径：已申请的 GPU 无法再分给别人。",
            )
            .to_string(),
            testid: "prom-requests-note",
            value: String::new(),
            warn: false,
        });
    }
    if p.absent > 0 {
        out.push(PromLine {
            term: pick(l, "Missing samples", "缺失的采样"),
            text: match l {
                Lang::En => format!(
                    "{} (GPU, step) pairs had no sample where other GPUs had one; counted as not busy",
                    p.absent
                ),
                Lang::Zh => format!(
                    "有 {} 个（GPU，时间步）在其他 GPU 有采样时没有采样；按不忙碌计",
                    p.absent
                ),
            },
            testid: "prom-absent",
            value: p.absent.to_string(),
            warn: false,
        });
    }
    if p.unaligned {
        out.push(PromLine {
            term: pick(l, "Steps", "时间步"),
            text: pick(
                l,
                "The series share almost no time steps: these look like raw samples at each series' own times, not a query_range at one step, so counts per step undercount. Export with query_range and a step (e.g. step=60).",
                "各序列几乎没有共同的时间步：这像是各序列各自时刻的原始采样，而不是按统一步长的 query_range，因此每步计数会偏少。请用 query_range 并指定步长导出（例如 step=60）。",
            )
            .to_string(),
            testid: "prom-unaligned",
            value: String::new(),
            warn: true,
        });
    }
    if p.left_out_count > 0 {
        let listed = p
            .left_out
            .iter()
            .map(|x| {
                let why = match x.reason {
                    LeftOutReason::OtherMetric => pick(l, "another metric", "其他指标"),
                    LeftOutReason::OtherResource => {
                        pick(l, "not nvidia_com_gpu", "不是 nvidia_com_gpu")
                    }
                };
                match l {
                    Lang::En => format!("series {} {} ({why})", x.series, x.name),
                    Lang::Zh => format!("第 {} 条序列 {}（{why}）", x.series, x.name),
                }
            })
            .collect::<Vec<_>>()
            .join(pick(l, "; ", "；"));
        let more = p.left_out_count.saturating_sub(p.left_out.len());
        let more = match (more, l) {
            (0, _) => String::new(),
            (n, Lang::En) => format!("; and {n} more"),
            (n, Lang::Zh) => format!("；另有 {n} 条"),
        };
        out.push(PromLine {
            term: pick(l, "Series left out", "未计入的序列"),
            text: match l {
                Lang::En => format!("{}: {listed}{more}", p.left_out_count),
                Lang::Zh => format!("{} 条：{listed}{more}", p.left_out_count),
            },
            testid: "prom-left-out",
            value: p.left_out_count.to_string(),
            warn: false,
        });
    }
    if p.looks_like_dcgm && p.reading == PromReading::Values {
        out.push(PromLine {
            term: pick(l, "Utilisation?", "是利用率？"),
            text: pick(
                l,
                "These series carry the DCGM exporter's labels (UUID, modelName) but no metric name, so their values were read as GPUs. If they are utilisation, choose “GPU utilisation in %” under “Prometheus values” below.",
                "这些序列带有 DCGM 导出器的标签（UUID、modelName）但没有指标名，因此数值被当作 GPU 数。若它们是利用率，请在下方“Prometheus 数值”中选择“GPU 利用率 %”。",
            )
            .to_string(),
            testid: "prom-looks-dcgm",
            value: String::new(),
            warn: true,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ingest::LeftOut;

    fn report(reading: PromReading) -> PromReport {
        PromReport {
            reading,
            by_name: true,
            metric: "DCGM_FI_DEV_GPU_UTIL".into(),
            series: 8,
            series_per_type: vec![4, 4],
            steps: 43_200,
            absent: 0,
            unaligned: false,
            left_out: Vec::new(),
            left_out_count: 0,
            looks_like_dcgm: false,
            per_gpu_series: 0,
        }
    }

    fn types() -> Vec<String> {
        vec!["A100".into(), "H100".into()]
    }

    #[test]
    fn dcgm_report_names_metric_threshold_gpus_and_types() {
        let ls = lines(Lang::En, &report(PromReading::BusyPercent), &types(), 10.0);
        assert_eq!(ls.len(), 2);
        assert_eq!(ls[0].value, "busy-percent");
        assert_eq!(
            ls[0].text,
            "DCGM_FI_DEV_GPU_UTIL: GPU utilisation in percent, one series per GPU; a GPU is busy at a step when at or above 10 % (from the metric name)"
        );
        assert_eq!(ls[1].text, "8 GPUs (A100 4, H100 4), over 43200 steps");
        assert_eq!(ls[1].value, "8");
        let zh = lines(Lang::Zh, &report(PromReading::BusyPercent), &types(), 12.5);
        assert!(zh[0].text.contains("不低于 12.5%"), "{}", zh[0].text);
        assert_eq!(zh[1].text, "8 块 GPU（A100 4，H100 4），共 43200 个时间步");
    }

    #[test]
    fn ratio_threshold_is_shown_as_a_ratio_and_a_percent() {
        let mut r = report(PromReading::BusyRatio);
        r.metric = "DCGM_FI_PROF_GR_ENGINE_ACTIVE".into();
        r.by_name = false;
        let ls = lines(Lang::En, &r, &[], 15.0);
        assert!(
            ls[0]
                .text
                .contains("at or above 0.15 (15 %) (as you chose)"),
            "{}",
            ls[0].text
        );
        assert_eq!(ls[1].text, "8 GPUs, over 43200 steps");
    }

    #[test]
    fn kubernetes_report_says_requests_are_not_use() {
        let mut r = report(PromReading::Requests);
        r.metric = "kube_pod_container_resource_requests".into();
        r.series_per_type = Vec::new();
        r.series = 11;
        r.left_out = vec![LeftOut {
            series: 3,
            name: "kube_pod_container_resource_requests{resource=\"cpu\"}".into(),
            reason: LeftOutReason::OtherResource,
        }];
        r.left_out_count = 7;
        for l in [Lang::En, Lang::Zh] {
            let ls = lines(l, &r, &[], 10.0);
            let ids: Vec<_> = ls.iter().map(|x| x.testid).collect();
            assert_eq!(
                ids,
                [
                    "prom-reading",
                    "prom-series",
                    "prom-requests-note",
                    "prom-left-out"
                ]
            );
        }
        let ls = lines(Lang::En, &r, &[], 10.0);
        assert!(ls[2]
            .text
            .starts_with("A GPU requested by a pod counts even when it sits idle"));
        assert_eq!(
            ls[3].text,
            "7: series 3 kube_pod_container_resource_requests{resource=\"cpu\"} (not nvidia_com_gpu); and 6 more"
        );
        assert_eq!(
            ls[1].text,
            "11 container series requesting GPUs, over 43200 steps"
        );
    }

    #[test]
    fn warnings_for_unaligned_absent_and_unnamed_dcgm() {
        let mut r = report(PromReading::Values);
        r.metric.clear();
        r.unaligned = true;
        r.absent = 17;
        r.looks_like_dcgm = true;
        let ls = lines(Lang::En, &r, &types(), 10.0);
        let ids: Vec<_> = ls.iter().map(|x| x.testid).collect();
        assert_eq!(
            ids,
            [
                "prom-reading",
                "prom-series",
                "prom-absent",
                "prom-unaligned",
                "prom-looks-dcgm"
            ]
        );
        assert!(ls[0].text.starts_with("each value is GPUs"));
        assert!(ls[3].warn && ls[4].warn && !ls[2].warn);
        assert_eq!(ls[2].value, "17");
        // Not read as values: the hint is not shown.
        r.reading = PromReading::BusyPercent;
        assert!(lines(Lang::En, &r, &types(), 10.0)
            .iter()
            .all(|x| x.testid != "prom-looks-dcgm"));
    }

    #[test]
    fn every_reading_has_a_distinct_key_and_names_in_both_languages() {
        let keys: std::collections::HashSet<_> = READINGS.iter().map(|r| reading_key(*r)).collect();
        assert_eq!(keys.len(), READINGS.len());
        for r in READINGS {
            assert_ne!(reading_name(Lang::En, r), reading_name(Lang::Zh, r));
        }
        assert_eq!(number_trim(10.0, 2, Lang::En), "10");
        assert_eq!(number_trim(12.5, 2, Lang::En), "12.5");
        assert_eq!(number_trim(0.15, 2, Lang::En), "0.15");
    }
}

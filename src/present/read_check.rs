//! How the columns of a table were read (GPU counts, one GPU's utilisation each, series to
//! sum) and what the plausibility guard found: the parse report's "Columns hold" line, the
//! question when another reading is as plausible, and one text per warning, as pure
//! functions of (language, report), natively tested. The components place them
//! (`parse_report.rs`, `read_check.rs`).

use crate::core::ingest::{
    ColumnMeaning, MeaningReport, MeaningWhy, OrderSource, ParseReport, Warning,
};
use crate::core::zone::Zone;
use crate::format::{local_minute, number_trim};
use crate::i18n::{pick, Lang};
use crate::present::ReportLine;

/// The column meanings the user can choose, in the order of the choice.
pub const MEANINGS: [ColumnMeaning; 4] = [
    ColumnMeaning::Auto,
    ColumnMeaning::Counts,
    ColumnMeaning::Utilisation,
    ColumnMeaning::Sum,
];

/// The stable key of a meaning (`data-value`, the choice's option values).
pub fn meaning_key(m: ColumnMeaning) -> &'static str {
    match m {
        ColumnMeaning::Auto => "auto",
        ColumnMeaning::Counts => "counts",
        ColumnMeaning::Utilisation => "utilisation",
        ColumnMeaning::Sum => "sum",
    }
}

/// The meaning of a key (`Auto` for an unknown one).
pub fn meaning_of_key(key: &str) -> ColumnMeaning {
    MEANINGS
        .into_iter()
        .find(|m| meaning_key(*m) == key)
        .unwrap_or_default()
}

/// A meaning's name in the choice (and in the advice of a warning).
pub fn meaning_name(l: Lang, m: ColumnMeaning) -> &'static str {
    match m {
        ColumnMeaning::Auto => pick(l, "automatic", "自动"),
        ColumnMeaning::Counts => pick(l, "GPU counts per column", "每列是 GPU 数量"),
        ColumnMeaning::Utilisation => pick(
            l,
            "one GPU's utilisation per column",
            "每列是一块 GPU 的利用率",
        ),
        ColumnMeaning::Sum => pick(l, "one series per column, summed", "每列一条序列，相加"),
    }
}

/// Why the columns were read as they were, as a clause.
fn why_text(l: Lang, why: &MeaningWhy) -> String {
    let (en, zh) = match why {
        MeaningWhy::Metric(m) => {
            return match l {
                Lang::En => format!("the headers name {m}"),
                Lang::Zh => format!("表头写明 {m}"),
            }
        }
        MeaningWhy::Percent => (
            "the cells are written with %",
            "单元格带 %",
        ),
        MeaningWhy::HeaderWord => (
            "every header names a utilisation",
            "每列表头都写明利用率",
        ),
        MeaningWhy::LabelSets => (
            "each header is a Prometheus label set naming one GPU",
            "每列表头是指明一块 GPU 的 Prometheus 标签集",
        ),
        MeaningWhy::GpuNames => (
            "each header names one GPU",
            "每列表头指明一块 GPU",
        ),
        MeaningWhy::Default => (
            "nothing in the file says otherwise",
            "文件中没有其他说明",
        ),
        MeaningWhy::Choice => (
            "as you chose",
            "按您的选择",
        ),
        MeaningWhy::Measures => (
            "the columns measure one pool several ways (capacity, reserved, usage): the reserved (else used) column is read, never their sum",
            "各列是同一资源池的不同度量（容量、预留、使用）：读取预留列（否则读取使用列），绝不相加",
        ),
        MeaningWhy::SameNames => (
            "several columns share one name, so what they hold is not written",
            "多列同名，文件没有写明各列含义",
        ),
    };
    pick(l, en, zh).to_string()
}

/// "a GPU is busy at or above 10 %" (a ratio column: "… (0.1 as a ratio)").
fn busy_text(l: Lang, threshold: f64, ratio: bool) -> String {
    let t = number_trim(threshold, 2, l);
    let r = number_trim(threshold / 100.0, 4, l);
    match (l, ratio) {
        (Lang::En, false) => format!("a GPU is busy at or above {t} %"),
        (Lang::En, true) => format!("a GPU is busy at or above {t} % ({r} as a ratio)"),
        (Lang::Zh, false) => format!("利用率不低于 {t}% 的 GPU 视为忙碌"),
        (Lang::Zh, true) => format!("利用率不低于 {t}%（比例 {r}）的 GPU 视为忙碌"),
    }
}

/// The report's "Columns hold" line: what the columns were read as and why. `threshold`:
/// the busy threshold applied (percent).
pub fn meaning_line(l: Lang, m: &MeaningReport, threshold: f64) -> ReportLine {
    let why = why_text(l, &m.why);
    let n = m.columns;
    let text = match (m.read, l) {
        (ColumnMeaning::Utilisation, Lang::En) => format!(
            "{} ({n} GPU{}; {why}): {}",
            meaning_name(l, m.read),
            if n == 1 { "" } else { "s" },
            busy_text(l, threshold, m.ratio)
        ),
        (ColumnMeaning::Utilisation, Lang::Zh) => format!(
            "{}（{n} 块 GPU；{why}）：{}",
            meaning_name(l, m.read),
            busy_text(l, threshold, m.ratio)
        ),
        (read, Lang::En) => format!("{} ({why})", meaning_name(l, read)),
        (read, Lang::Zh) => format!("{}（{why}）", meaning_name(l, read)),
    };
    ReportLine {
        testid: "read-meaning",
        term: pick(l, "Columns hold", "各列含义"),
        text,
        value: meaning_key(m.read).to_string(),
        warn: m.ask,
    }
}

/// The report's "GPUs busy from" for utilisation columns: the busy GPUs counted over them.
pub fn busy_from(l: Lang, columns: usize) -> String {
    match l {
        Lang::En => format!("busy GPUs counted over the columns ({columns})"),
        Lang::Zh => format!("各列中忙碌的 GPU 数（{columns}）"),
    }
}

/// The question when another reading is as plausible: what was taken and why it is
/// ambiguous, and the other readings the user can take in one click.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ask {
    pub text: String,
    /// The reading taken (the "this is right" button sets it explicitly).
    pub taken: ColumnMeaning,
    pub alternatives: Vec<ColumnMeaning>,
}

/// "“GPU 0” … “GPU 9”" from the value columns' names (empty names: "column 2").
fn named_range(l: Lang, names: &[String]) -> String {
    let short = |s: &String| -> String {
        let s = if s.chars().count() > 40 {
            format!("{}…", s.chars().take(40).collect::<String>())
        } else {
            s.clone()
        };
        format!("“{s}”")
    };
    match names {
        [] => String::new(),
        [one] => short(one),
        [a, b] => format!("{} {} {}", short(a), pick(l, "and", "和"), short(b)),
        [a, .., z] => format!("{} … {}", short(a), short(z)),
    }
}

/// The question for a reading the core took as the more plausible one (`m.ask`); `None`
/// when it is sure. `names`: the value columns' names, in order; `used`: the one column
/// read, when one was.
pub fn ask(l: Lang, m: &MeaningReport, names: &[String], used: Option<&str>) -> Option<Ask> {
    if !m.ask {
        return None;
    }
    let cols = if m.why == MeaningWhy::SameNames {
        named_range(l, &names[..names.len().min(1)])
    } else {
        named_range(l, names)
    };
    let taken = meaning_name(l, m.read);
    let used = used.map_or_else(|| taken.to_string(), |u| named_range(l, &[u.to_string()]));
    let text = match (&m.why, m.read, l) {
        (MeaningWhy::Measures, _, Lang::En) => format!(
            "The columns {cols} measure one pool several ways (capacity, reserved, in use …), so they are not summed: {used} was read as the GPUs busy. If you plan on another column, choose it under “GPUs busy column”."
        ),
        (MeaningWhy::Measures, _, Lang::Zh) => format!(
            "{cols} 这些列是同一资源池的不同度量（容量、预留、使用中……），因此不相加：已按 {used} 读取忙碌 GPU。如果要按另一列规划，请在“GPU 用量列”中选择。"
        ),
        (MeaningWhy::SameNames, _, Lang::En) => format!(
            "Several columns are all named {cols}: the export lost what each holds, so they were read as {taken}. If each is one GPU's utilisation, or a series to sum, choose it here."
        ),
        (MeaningWhy::SameNames, _, Lang::Zh) => format!(
            "多个列都名为 {cols}：导出文件丢失了每列的含义，因此按“{taken}”读取。如果每列是一块 GPU 的利用率或需要相加的序列，请在此选择。"
        ),
        (MeaningWhy::Metric(metric), _, Lang::En) => format!(
            "Some columns name {metric} and others do not: all were read as {taken}. If some columns are GPU counts, choose another reading."
        ),
        (MeaningWhy::Metric(metric), _, Lang::Zh) => format!(
            "部分列写明 {metric}，其余没有：全部按“{taken}”读取。如果有些列是 GPU 数量，请选择其他读法。"
        ),
        (_, ColumnMeaning::Counts, Lang::En) => format!(
            "Columns named like {cols} hold only 0 and 1: busy flags, read as {taken} (1 = a GPU busy). They can also be per-GPU utilisation."
        ),
        (_, ColumnMeaning::Counts, Lang::Zh) => format!(
            "名称类似 {cols} 的列只有 0 和 1：按忙碌标记读取，即“{taken}”（1 = 一块 GPU 忙碌）。它们也可能是每块 GPU 的利用率。"
        ),
        (_, _, Lang::En) => format!(
            "Columns named like {cols} with values 0–100 can be GPU counts or per-GPU utilisation (or not usage at all, such as a temperature): read as {taken}."
        ),
        (_, _, Lang::Zh) => format!(
            "名称类似 {cols}、数值在 0–100 的列既可能是 GPU 数量，也可能是每块 GPU 的利用率（也可能根本不是用量，例如温度）：已按“{taken}”读取。"
        ),
    };
    // Columns measuring one pool are never summed nor utilisation: the choice is the column.
    let alternatives = if m.why == MeaningWhy::Measures {
        Vec::new()
    } else {
        MEANINGS
            .into_iter()
            .filter(|x| *x != ColumnMeaning::Auto && *x != m.read)
            .collect()
    };
    Some(Ask {
        text,
        taken: m.read,
        alternatives,
    })
}

/// The confirm button's text.
pub fn confirm_text(l: Lang) -> &'static str {
    pick(l, "This is right", "读取正确")
}

/// An alternative's button text: "Read as GPU counts per column".
pub fn alternative_text(l: Lang, m: ColumnMeaning) -> String {
    match l {
        Lang::En => format!("Read as {}", meaning_name(l, m)),
        Lang::Zh => format!("改为：{}", meaning_name(l, m)),
    }
}

/// A warning's stable kind (`data-kind`).
pub fn warning_kind(w: &Warning) -> &'static str {
    match w {
        Warning::MoreThanGpus { .. } => "more-than-gpus",
        Warning::PercentAsCounts { .. } => "percent-as-counts",
        Warning::UtilisationAsCounts { .. } => "utilisation-as-counts",
        Warning::Jump { .. } => "jump",
    }
}

/// The reading a warning advises, offered as a button beside it (`None`: no one reading
/// fixes it).
pub fn warning_fix(w: &Warning) -> Option<ColumnMeaning> {
    match w {
        Warning::MoreThanGpus { series: false, .. }
        | Warning::PercentAsCounts { .. }
        | Warning::UtilisationAsCounts { .. } => Some(ColumnMeaning::Utilisation),
        Warning::MoreThanGpus { series: true, .. } | Warning::Jump { .. } => None,
    }
}

/// A count of GPUs as the page writes it (at most two decimals).
fn gpus(l: Lang, v: f64) -> String {
    number_trim(v, 2, l)
}

/// One warning of the plausibility guard: the column or series, the figure, and what to
/// do. Times in the planning zone.
pub fn warning_text(l: Lang, w: &Warning, zone: &Zone) -> String {
    let util = meaning_name(l, ColumnMeaning::Utilisation);
    match w {
        Warning::MoreThanGpus {
            busy,
            at,
            gpus: n,
            series,
        } => {
            let busy = gpus(l, *busy);
            let when = match (at, l) {
                (Some(t), Lang::En) => format!("Hour {}", local_minute(*t, zone)),
                (Some(t), Lang::Zh) => format!("{} 这一小时", local_minute(*t, zone)),
                (None, Lang::En) => "The busiest row".to_string(),
                (None, Lang::Zh) => "最忙的一行".to_string(),
            };
            match (series, l) {
                (false, Lang::En) => format!(
                    "{when} has {busy} GPUs busy but the file has {n} per-GPU columns: the columns are probably utilisation, not counts. Choose “{util}”."
                ),
                (false, Lang::Zh) => format!(
                    "{when}有 {busy} 块 GPU 忙碌，但文件只有 {n} 个单块 GPU 的列：这些列很可能是利用率，而不是数量。请选择“{util}”。"
                ),
                (true, Lang::En) => format!(
                    "{when} has {busy} GPUs busy but the answer has {n} per-GPU series: the series are probably utilisation, not GPU counts. Choose a utilisation reading under “Prometheus values”."
                ),
                (true, Lang::Zh) => format!(
                    "{when}有 {busy} 块 GPU 忙碌，但查询结果只有 {n} 条单块 GPU 的序列：这些序列很可能是利用率，而不是 GPU 数量。请在“Prometheus 数值”中选择利用率读法。"
                ),
            }
        }
        Warning::PercentAsCounts { column, example } => match l {
            Lang::En => format!(
                "Column “{column}” is written in percent (e.g. {example}) but was read as GPU counts. Choose “{util}”."
            ),
            Lang::Zh => format!(
                "“{column}”列以百分比书写（例如 {example}），却被当作 GPU 数量读取。请选择“{util}”。"
            ),
        },
        Warning::UtilisationAsCounts { column, max } => {
            let max = number_trim(*max, 2, l);
            match l {
                Lang::En => format!(
                    "Column “{column}” looks like utilisation (its header names one, values at most {max}) but was read as GPU counts. If each column is one GPU, choose “{util}”."
                ),
                Lang::Zh => format!(
                    "“{column}”列看起来是利用率（表头写明利用率，最大 {max}），却被当作 GPU 数量读取。如果每列是一块 GPU，请选择“{util}”。"
                ),
            }
        }
        Warning::Jump {
            at,
            index,
            from,
            to,
        } => {
            let (a, b) = (gpus(l, *from), gpus(l, *to));
            let when = match (at, l) {
                (Some(t), _) => local_minute(*t, zone),
                (None, Lang::En) => format!("hour {}", index + 1),
                (None, Lang::Zh) => format!("第 {} 小时", index + 1),
            };
            match l {
                Lang::En => format!(
                    "GPUs busy jump from {a} to {b} at {when}, a hundredfold change from one hour to the next: a unit or a column misread? Check the column and what its values are (counts, % or a 0–1 ratio)."
                ),
                Lang::Zh => format!(
                    "忙碌 GPU 数在 {when} 从 {a} 跳到 {b}，相邻两小时相差百倍：是否读错了单位或列？请核对所用的列及其数值含义（数量、% 或 0–1 比例）。"
                ),
            }
        }
    }
}

/// What the headline's "Check how your file was read" says after its link: the first
/// warning's figure, else the reading to confirm; `None` when the reading needs no look
/// (`ParseReport::needs_check` is false).
pub fn headline_mark(l: Lang, r: &ParseReport, zone: &Zone) -> Option<String> {
    if !r.needs_check() {
        return None;
    }
    let more = r.warnings.len().saturating_sub(1);
    let first = r.warnings.first().map(|w| match w {
        Warning::MoreThanGpus { busy, gpus: n, .. } => match l {
            Lang::En => format!(
                "{} GPUs busy in an hour, but {n} GPU columns",
                gpus(l, *busy)
            ),
            Lang::Zh => format!(
                "某小时 {} 块 GPU 忙碌，但只有 {n} 个 GPU 列",
                gpus(l, *busy)
            ),
        },
        Warning::PercentAsCounts { column, example } => match l {
            Lang::En => format!("“{column}” is in percent ({example}) but read as GPUs"),
            Lang::Zh => format!("“{column}”是百分比（{example}），却按 GPU 数读取"),
        },
        Warning::UtilisationAsCounts { column, .. } => match l {
            Lang::En => format!("“{column}” looks like utilisation but was read as GPUs"),
            Lang::Zh => format!("“{column}”像是利用率，却按 GPU 数读取"),
        },
        Warning::Jump {
            at,
            index,
            from,
            to,
        } => {
            let when = at.map_or_else(|| (index + 1).to_string(), |t| local_minute(t, zone));
            match l {
                Lang::En => format!("{} → {} GPUs at {when}", gpus(l, *from), gpus(l, *to)),
                Lang::Zh => format!("{when} 从 {} 跳到 {} 块 GPU", gpus(l, *from), gpus(l, *to)),
            }
        }
    });
    let text = match (first, &r.meaning) {
        (Some(t), _) if more > 0 => match l {
            Lang::En => format!("{t} (and {more} more)"),
            Lang::Zh => format!("{t}（另有 {more} 项）"),
        },
        (Some(t), _) => t,
        (None, Some(m)) if m.ask => match l {
            Lang::En => format!(
                "columns read as {}: confirm or choose",
                meaning_name(l, m.read)
            ),
            Lang::Zh => format!("各列按“{}”读取：请确认或另选", meaning_name(l, m.read)),
        },
        _ if matches!(r.date_order, Some((_, OrderSource::Locale))) => pick(
            l,
            "day and month taken from your browser's locale",
            "日与月的顺序取自浏览器区域设置",
        )
        .to_string(),
        _ => String::new(),
    };
    Some(text)
}

/// The heading of the warnings' list.
pub fn warnings_heading(l: Lang) -> &'static str {
    pick(l, "Check how the file was read:", "请核对文件的读取方式：")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(read: ColumnMeaning, why: MeaningWhy, ask: bool) -> MeaningReport {
        MeaningReport {
            read,
            why,
            ask,
            ratio: false,
            gpu_columns: 10,
            columns: 10,
            percent: None,
            util_like: None,
        }
    }

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("GPU {i}")).collect()
    }

    #[test]
    fn keys_round_trip_and_unknown_is_auto() {
        for m in MEANINGS {
            assert_eq!(meaning_of_key(meaning_key(m)), m);
        }
        assert_eq!(meaning_of_key("nonsense"), ColumnMeaning::Auto);
    }

    #[test]
    fn utilisation_line_names_gpus_metric_and_threshold() {
        let m = report(
            ColumnMeaning::Utilisation,
            MeaningWhy::Metric("DCGM_FI_DEV_GPU_UTIL".into()),
            false,
        );
        let en = meaning_line(Lang::En, &m, 10.0);
        assert_eq!(
            en.text,
            "one GPU's utilisation per column (10 GPUs; the headers name DCGM_FI_DEV_GPU_UTIL): a GPU is busy at or above 10 %"
        );
        assert_eq!(
            (en.testid, en.term, en.value.as_str(), en.warn),
            ("read-meaning", "Columns hold", "utilisation", false)
        );
        let zh = meaning_line(Lang::Zh, &m, 10.0);
        assert_eq!(
            zh.text,
            "每列是一块 GPU 的利用率（10 块 GPU；表头写明 DCGM_FI_DEV_GPU_UTIL）：利用率不低于 10% 的 GPU 视为忙碌"
        );
        assert_eq!(zh.term, "各列含义");
    }

    #[test]
    fn ratio_line_gives_the_ratio_too() {
        let mut m = report(ColumnMeaning::Utilisation, MeaningWhy::Choice, false);
        m.ratio = true;
        m.columns = 1;
        assert_eq!(
            meaning_line(Lang::En, &m, 12.5).text,
            "one GPU's utilisation per column (1 GPU; as you chose): a GPU is busy at or above 12.5 % (0.125 as a ratio)"
        );
    }

    #[test]
    fn busy_from_counts_the_columns() {
        assert_eq!(
            busy_from(Lang::En, 8),
            "busy GPUs counted over the columns (8)"
        );
        assert_eq!(busy_from(Lang::Zh, 8), "各列中忙碌的 GPU 数（8）");
    }

    #[test]
    fn counts_and_sum_lines() {
        let c = meaning_line(
            Lang::En,
            &report(ColumnMeaning::Counts, MeaningWhy::Default, false),
            10.0,
        );
        assert_eq!(
            c.text,
            "GPU counts per column (nothing in the file says otherwise)"
        );
        assert_eq!(c.value, "counts");
        let s = meaning_line(
            Lang::Zh,
            &report(ColumnMeaning::Sum, MeaningWhy::Choice, false),
            10.0,
        );
        assert_eq!(s.text, "每列一条序列，相加（按您的选择）");
        assert_eq!(s.value, "sum");
    }

    #[test]
    fn every_why_has_a_text_in_both_languages() {
        for why in [
            MeaningWhy::Metric("X".into()),
            MeaningWhy::Percent,
            MeaningWhy::HeaderWord,
            MeaningWhy::LabelSets,
            MeaningWhy::GpuNames,
            MeaningWhy::Measures,
            MeaningWhy::SameNames,
            MeaningWhy::Default,
            MeaningWhy::Choice,
        ] {
            let en = why_text(Lang::En, &why);
            let zh = why_text(Lang::Zh, &why);
            assert!(!en.is_empty() && !zh.is_empty() && en != zh, "{why:?}");
        }
    }

    #[test]
    fn ask_for_gpu_names_read_as_utilisation() {
        let m = report(ColumnMeaning::Utilisation, MeaningWhy::GpuNames, true);
        let a = ask(Lang::En, &m, &names(10), None).expect("asks");
        assert_eq!(
            a.text,
            "Columns named like “GPU 0” … “GPU 9” with values 0–100 can be GPU counts or per-GPU utilisation (or not usage at all, such as a temperature): read as one GPU's utilisation per column."
        );
        assert_eq!(a.taken, ColumnMeaning::Utilisation);
        assert_eq!(
            a.alternatives,
            vec![ColumnMeaning::Counts, ColumnMeaning::Sum]
        );
        let zh = ask(Lang::Zh, &m, &names(2), None).expect("asks");
        assert_eq!(
            zh.text,
            "名称类似 “GPU 0” 和 “GPU 1”、数值在 0–100 的列既可能是 GPU 数量，也可能是每块 GPU 的利用率（也可能根本不是用量，例如温度）：已按“每列是一块 GPU 的利用率”读取。"
        );
        assert!(ask(
            Lang::En,
            &report(ColumnMeaning::Utilisation, MeaningWhy::GpuNames, false),
            &names(2),
            None
        )
        .is_none());
    }

    #[test]
    fn ask_for_busy_flags_and_partial_metric() {
        let flags = ask(
            Lang::En,
            &report(ColumnMeaning::Counts, MeaningWhy::GpuNames, true),
            &names(3),
            None,
        )
        .expect("asks");
        assert!(
            flags
                .text
                .starts_with("Columns named like “GPU 0” … “GPU 2” hold only 0 and 1"),
            "{}",
            flags.text
        );
        assert_eq!(
            flags.alternatives,
            vec![ColumnMeaning::Utilisation, ColumnMeaning::Sum]
        );
        let metric = ask(
            Lang::Zh,
            &report(
                ColumnMeaning::Utilisation,
                MeaningWhy::Metric("DCGM_FI_DEV_GPU_UTIL".into()),
                true,
            ),
            &names(3),
            None,
        )
        .expect("asks");
        assert!(
            metric.text.starts_with("部分列写明 DCGM_FI_DEV_GPU_UTIL"),
            "{}",
            metric.text
        );
    }

    #[test]
    fn ask_for_measures_names_the_column_and_offers_no_reading() {
        let cols: Vec<String> = ["capacity", "allocatable", "reserved", "usage", "util"]
            .map(String::from)
            .to_vec();
        let m = report(ColumnMeaning::Counts, MeaningWhy::Measures, true);
        let a = ask(Lang::En, &m, &cols, Some("reserved")).expect("asks");
        assert_eq!(
            a.text,
            "The columns “capacity” … “util” measure one pool several ways (capacity, reserved, in use …), so they are not summed: “reserved” was read as the GPUs busy. If you plan on another column, choose it under “GPUs busy column”."
        );
        assert!(a.alternatives.is_empty());
        let same = ask(
            Lang::Zh,
            &report(ColumnMeaning::Counts, MeaningWhy::SameNames, true),
            &["Value".to_string(), "Value".to_string()],
            None,
        )
        .expect("asks");
        assert!(
            same.text.starts_with("多个列都名为 “Value”："),
            "{}",
            same.text
        );
        assert_eq!(
            same.alternatives,
            vec![ColumnMeaning::Utilisation, ColumnMeaning::Sum]
        );
    }

    #[test]
    fn long_names_are_cut() {
        let long = vec!["x".repeat(100), "y".repeat(3)];
        let r = named_range(Lang::En, &long);
        assert_eq!(r, format!("“{}…” and “yyy”", "x".repeat(40)));
    }

    #[test]
    fn more_than_gpus_names_the_hour_and_the_figure() {
        let w = Warning::MoreThanGpus {
            busy: 114.0,
            at: Some(1_793_613_600), // 2026-11-02 10:00 UTC
            gpus: 10,
            series: false,
        };
        assert_eq!(warning_kind(&w), "more-than-gpus");
        let utc = Zone::fixed(0);
        assert_eq!(
            warning_text(Lang::En, &w, &utc),
            "Hour 2026-11-02 10:00 has 114 GPUs busy but the file has 10 per-GPU columns: the columns are probably utilisation, not counts. Choose “one GPU's utilisation per column”."
        );
        assert_eq!(
            warning_text(Lang::Zh, &w, &Zone::fixed(480)),
            "2026-11-02 18:00 这一小时有 114 块 GPU 忙碌，但文件只有 10 个单块 GPU 的列：这些列很可能是利用率，而不是数量。请选择“每列是一块 GPU 的利用率”。"
        );
        let rows = Warning::MoreThanGpus {
            busy: 12.5,
            at: None,
            gpus: 8,
            series: true,
        };
        let t = warning_text(Lang::En, &rows, &utc);
        assert!(
            t.starts_with("The busiest row has 12.5 GPUs busy but the answer has 8 per-GPU series"),
            "{t}"
        );
    }

    #[test]
    fn percent_utilisation_and_jump_warnings() {
        let utc = Zone::fixed(0);
        let p = Warning::PercentAsCounts {
            column: "GPU 0".into(),
            example: "45%".into(),
        };
        assert_eq!(warning_kind(&p), "percent-as-counts");
        assert_eq!(
            warning_text(Lang::En, &p, &utc),
            "Column “GPU 0” is written in percent (e.g. 45%) but was read as GPU counts. Choose “one GPU's utilisation per column”."
        );
        let u = Warning::UtilisationAsCounts {
            column: "gpu_util".into(),
            max: 97.25,
        };
        assert_eq!(warning_kind(&u), "utilisation-as-counts");
        assert_eq!(
            warning_text(Lang::En, &u, &utc),
            "Column “gpu_util” looks like utilisation (its header names one, values at most 97.25) but was read as GPU counts. If each column is one GPU, choose “one GPU's utilisation per column”."
        );
        assert!(warning_text(Lang::Zh, &u, &utc).contains("最大 97.25"));
        let j = Warning::Jump {
            at: None,
            index: 4,
            from: 2.0,
            to: 400.0,
        };
        assert_eq!(warning_kind(&j), "jump");
        assert!(
            warning_text(Lang::En, &j, &utc).starts_with("GPUs busy jump from 2 to 400 at hour 5")
        );
        let jt = Warning::Jump {
            at: Some(1_793_613_600),
            index: 4,
            from: 2.0,
            to: 400.0,
        };
        assert!(warning_text(Lang::Zh, &jt, &utc).contains("在 2026-11-02 10:00 从 2 跳到 400"));
    }

    #[test]
    fn the_headline_mark_names_the_first_figure() {
        let mut r =
            crate::core::ingest::parse("time,gpus\n2026-11-02 10:00,3\n", &Default::default())
                .unwrap()
                .report;
        let z = Zone::fixed(0);
        assert_eq!(headline_mark(Lang::En, &r, &z), None);
        r.warnings = vec![
            Warning::MoreThanGpus {
                busy: 114.0,
                at: Some(1_793_613_600),
                gpus: 10,
                series: false,
            },
            Warning::Jump {
                at: Some(1_793_613_600),
                index: 3,
                from: 4.0,
                to: 4000.0,
            },
        ];
        assert_eq!(
            headline_mark(Lang::En, &r, &z).as_deref(),
            Some("114 GPUs busy in an hour, but 10 GPU columns (and 1 more)")
        );
        assert_eq!(
            headline_mark(Lang::Zh, &r, &z).as_deref(),
            Some("某小时 114 块 GPU 忙碌，但只有 10 个 GPU 列（另有 1 项）")
        );
        r.warnings.remove(0);
        assert_eq!(
            headline_mark(Lang::En, &r, &z).as_deref(),
            Some("4 → 4,000 GPUs at 2026-11-02 10:00")
        );
    }
}

//! What was read from the pasted history: "read as …", rows, span, gaps, rejected lines.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::components::bill_report::BillReport;
use crate::components::read_check::{ReadCheck, ReadWarning};
use crate::components::slider_field::SliderField;
use crate::core::error::{non_negative, Field};
use crate::core::ingest::{
    ColumnChoice, ColumnMeaning, ColumnUse, DateOrder, Delimiter, Format, GapPolicy, IngestError,
    NotUsage, OrderSource, ParseReport, PromReading, QueryAnswer, RejectReason, TimeForm,
    TimestampStyle, TypeSource, TypedSeries, MAX_TYPES,
};
use crate::core::zone::{offset_label, Zone, ZoneChoice};
use crate::format::{local_minute, percent};
use crate::i18n::{pick, Lang};
use crate::page::context::{memo_of, use_ctx};
use crate::present::read_check;
use crate::present::slurm_read;
use crate::present::{prom_read, ReportLine};
use crate::state::ParseStatus;

/// The time forms the user can choose, with their stable keys.
const TIME_FORMS: [(&str, TimeForm); 5] = [
    ("auto", TimeForm::Auto),
    ("month-first", TimeForm::MonthFirst),
    ("day-first", TimeForm::DayFirst),
    ("excel", TimeForm::ExcelSerial),
    ("unix", TimeForm::Unix),
];

fn time_form_name(l: Lang, f: TimeForm) -> &'static str {
    match f {
        TimeForm::Auto => pick(l, "automatic", "自动"),
        TimeForm::MonthFirst => pick(
            l,
            "month first (10/5/2026 = 5 Oct)",
            "月在前（10/5/2026 = 10 月 5 日）",
        ),
        TimeForm::DayFirst => pick(
            l,
            "day first (5/10/2026 = 5 Oct)",
            "日在前（5/10/2026 = 10 月 5 日）",
        ),
        TimeForm::ExcelSerial => pick(
            l,
            "Excel serial numbers (46300.5)",
            "Excel 日期序列号（46300.5）",
        ),
        TimeForm::Unix => pick(l, "Unix time (seconds or ms)", "Unix 时间（秒或毫秒）"),
    }
}

/// The planning zone a report used, for display, and its key (`data-value`).
pub fn zone_text(l: Lang, r: &ParseReport, chosen: &ZoneChoice, dst: bool) -> (String, String) {
    let label = offset_label(r.utc_offset_minutes);
    if r.zone_from_data {
        let text = match l {
            Lang::En => format!("{label}, the timestamps' own offset (the team's clock)"),
            Lang::Zh => format!("{label}，取自时间戳自带的时区（团队的时钟）"),
        };
        return (text, r.utc_offset_minutes.to_string());
    }
    let dst_note = if dst {
        pick(l, ", daylight saving followed", "，已按夏令时调整")
    } else {
        ""
    };
    match chosen {
        ZoneChoice::Auto => {
            let name = crate::web::time_zones::browser_zone_name().unwrap_or_else(|| label.clone());
            let text = match l {
                Lang::En => format!(
                    "{name}{dst_note}: this browser's zone (the timestamps carry no offset)"
                ),
                Lang::Zh => format!("{name}{dst_note}：本浏览器的时区（时间戳未带时区）"),
            };
            (text, name)
        }
        ZoneChoice::Offset(m) => {
            let text = match l {
                Lang::En => format!("{}: chosen", offset_label(*m)),
                Lang::Zh => format!("{}：已选择", offset_label(*m)),
            };
            (text, m.to_string())
        }
        ZoneChoice::Named(n) => {
            let text = match l {
                Lang::En => format!("{n}{dst_note}: chosen"),
                Lang::Zh => format!("{n}{dst_note}：已选择"),
            };
            (text, n.clone())
        }
    }
}

/// The formats the user can force, with their stable keys.
const FORMATS: [(&str, Format); 8] = [
    ("values", Format::Values),
    ("table", Format::Table),
    ("grafana", Format::GrafanaCsv),
    ("prometheus", Format::PrometheusJson),
    ("nvidia-smi", Format::NvidiaSmi),
    ("jobs", Format::JobLog),
    ("slurm", Format::Slurm),
    ("aws-cur", Format::AwsCur),
];

/// The answer to one of the page's queries (issue 38), as its engine exported it.
fn answer_name(l: Lang, a: QueryAnswer) -> &'static str {
    match a {
        QueryAnswer::CsvQuoted => pick(
            l,
            "the answer to the page's query (Athena's CSV download)",
            "本页查询的结果（Athena 下载的 CSV）",
        ),
        QueryAnswer::Csv => pick(
            l,
            "the answer to the page's query (CSV: DuckDB, BigQuery)",
            "本页查询的结果（CSV：DuckDB、BigQuery）",
        ),
        QueryAnswer::Tsv => pick(
            l,
            "the answer to the page's query (MySQL / MariaDB client, tab-separated)",
            "本页查询的结果（MySQL / MariaDB 客户端，制表符分隔）",
        ),
        QueryAnswer::JsonRows => pick(
            l,
            "the answer to the page's query (BigQuery JSON)",
            "本页查询的结果（BigQuery JSON）",
        ),
        QueryAnswer::Prometheus => pick(
            l,
            "the answer to the page's PromQL (Prometheus / Thanos)",
            "本页 PromQL 的结果（Prometheus / Thanos）",
        ),
        QueryAnswer::Rates => pick(
            l,
            "the effective rates the page's query wrote",
            "本页查询得出的实际单价",
        ),
    }
}

fn answer_key(a: QueryAnswer) -> &'static str {
    match a {
        QueryAnswer::CsvQuoted => "athena-csv",
        QueryAnswer::Csv => "csv",
        QueryAnswer::Tsv => "mysql-tsv",
        QueryAnswer::JsonRows => "bigquery-json",
        QueryAnswer::Prometheus => "prometheus",
        QueryAnswer::Rates => "rates",
    }
}

fn format_name(l: Lang, f: Format) -> &'static str {
    match f {
        Format::Values => pick(
            l,
            "one number per line (consecutive hours)",
            "每行一个数字（连续小时）",
        ),
        Format::Table => pick(l, "table", "表格"),
        Format::GrafanaCsv => pick(l, "Grafana CSV export", "Grafana CSV 导出"),
        Format::PrometheusJson => pick(
            l,
            "Prometheus query_range JSON",
            "Prometheus query_range JSON",
        ),
        Format::NvidiaSmi => pick(l, "nvidia-smi log", "nvidia-smi 日志"),
        Format::JobLog => pick(
            l,
            "job log (start, end, GPUs)",
            "任务日志（开始、结束、GPU 数）",
        ),
        Format::Slurm => slurm_read::format_name(l),
        Format::AwsCur => crate::present::bill_read::format_name(l),
    }
}

fn delimiter_name(l: Lang, d: Delimiter) -> &'static str {
    match d {
        Delimiter::Comma => pick(l, "comma", "逗号"),
        Delimiter::Tab => pick(l, "tab", "制表符"),
        Delimiter::Semicolon => pick(l, "semicolon", "分号"),
        Delimiter::Pipe => pick(l, "pipe", "竖线"),
        Delimiter::FullWidthComma => pick(l, "full-width comma", "全角逗号"),
        Delimiter::Whitespace => pick(l, "spaces", "空格"),
        Delimiter::None => pick(l, "none", "无"),
    }
}

fn timestamp_name(l: Lang, s: TimestampStyle) -> &'static str {
    match s {
        TimestampStyle::IsoWithOffset => pick(l, "ISO 8601 with offset", "带时区的 ISO 8601"),
        TimestampStyle::IsoLocal => pick(l, "ISO local time", "ISO 本地时间"),
        TimestampStyle::SlashLocal => pick(l, "yyyy/mm/dd local time", "yyyy/mm/dd 本地时间"),
        TimestampStyle::ChineseLocal => pick(l, "年月日 local time", "年月日 本地时间"),
        TimestampStyle::DateOnly => pick(l, "dates only", "仅日期"),
        TimestampStyle::EpochSeconds => pick(l, "Unix seconds", "Unix 秒"),
        TimestampStyle::EpochMillis => pick(l, "Unix milliseconds", "Unix 毫秒"),
        TimestampStyle::MonthFirst => pick(l, "month/day/year local time", "月/日/年 本地时间"),
        TimestampStyle::DayFirst => pick(l, "day/month/year local time", "日/月/年 本地时间"),
        TimestampStyle::MonthName => pick(
            l,
            "day, month name, year local time",
            "日-英文月份-年 本地时间",
        ),
        TimestampStyle::ExcelSerial => pick(
            l,
            "Excel serial dates (days since 1899-12-30)",
            "Excel 日期序列号（自 1899-12-30 起的天数）",
        ),
    }
}

pub fn reason_text(l: Lang, r: RejectReason) -> &'static str {
    match r {
        RejectReason::NotANumber => pick(l, "not a number", "不是数字"),
        RejectReason::NotFinite => pick(l, "not a finite number", "不是有限数值"),
        RejectReason::Negative => pick(l, "negative value", "负数"),
        RejectReason::TooLarge => pick(l, "value too large", "数值过大"),
        RejectReason::MissingValue => pick(l, "missing value", "缺少数值"),
        RejectReason::TooFewColumns => pick(l, "too few columns", "列数不足"),
        RejectReason::TooManyColumns => pick(l, "too many columns", "列数过多"),
        RejectReason::BadTimestamp => pick(l, "unreadable timestamp", "无法识别的时间"),
        RejectReason::TimestampOutOfRange => pick(l, "timestamp out of range", "时间超出范围"),
        RejectReason::EndBeforeStart => pick(l, "end before start", "结束早于开始"),
        RejectReason::JobTooLong => pick(l, "job too long", "任务时长过长"),
        RejectReason::TooManySeries => pick(l, "too many series", "序列过多"),
        RejectReason::LineTooLong => pick(l, "line too long", "行过长"),
        RejectReason::BadSample => pick(l, "unusable sample", "无法使用的采样"),
    }
}

pub fn ingest_error_text(l: Lang, e: &IngestError) -> String {
    match (e, l) {
        (IngestError::Empty, _) => pick(l, "The history is empty: paste hourly GPU usage, drop a file or try an example.", "用量历史为空：请粘贴每小时 GPU 用量、拖入文件或试用示例。").to_string(),
        (IngestError::TooLarge { bytes, max_bytes }, Lang::En) => format!("The history is {:.1} MB; the planner reads up to {:.0} MB. Resample it to hourly first.", *bytes as f64 / 1048576.0, *max_bytes as f64 / 1048576.0),
        (IngestError::TooLarge { bytes, max_bytes }, Lang::Zh) => format!("用量历史有 {:.1} MB，最多可读取 {:.0} MB。请先按小时汇总。", *bytes as f64 / 1048576.0, *max_bytes as f64 / 1048576.0),
        (IngestError::Binary, _) => pick(l, "This is not text (binary data?). Export the history as CSV or plain numbers.", "这不是文本（可能是二进制文件）。请导出为 CSV 或纯数字。").to_string(),
        (IngestError::NoNumericColumn, _) => pick(l, "No column of numbers found.", "没有找到数字列。").to_string(),
        (IngestError::LayoutMismatch { format }, Lang::En) => format!("The text does not have the columns a {} needs.", format_name(l, *format)),
        (IngestError::LayoutMismatch { format }, Lang::Zh) => format!("文本缺少{}所需的列。", format_name(l, *format)),
        (IngestError::NoSuchColumn { index, available }, Lang::En) => format!("Column {} does not exist; there are {available}.", index + 1),
        (IngestError::NoSuchColumn { index, available }, Lang::Zh) => format!("第 {} 列不存在，共有 {available} 列。", index + 1),
        (IngestError::NoUsableRows(_), _) => pick(l, "No usable row: every line was rejected (see below).", "没有可用的行：所有行都被拒绝（见下方）。").to_string(),
        (IngestError::TooManyHours { hours, max_hours }, Lang::En) => format!("The history spans {hours} hours; at most {max_hours} are read."),
        (IngestError::TooManyHours { hours, max_hours }, Lang::Zh) => format!("用量历史跨度 {hours} 小时，最多读取 {max_hours} 小时。"),
        (IngestError::InvalidJson { line }, Lang::En) => format!("Malformed JSON at line {line}."),
        (IngestError::InvalidJson { line }, Lang::Zh) => format!("第 {line} 行 JSON 格式错误。"),
        (IngestError::NotPrometheus, _) => pick(l, "JSON, but not a Prometheus query response (no data.result).", "是 JSON，但不是 Prometheus 查询结果（没有 data.result）。").to_string(),
        (IngestError::PrometheusError { message }, Lang::En) => format!("Prometheus returned an error: {message}"),
        (IngestError::PrometheusError { message }, Lang::Zh) => format!("Prometheus 返回错误：{message}"),
        (IngestError::Unreadable { at }, Lang::En) => format!("The file could not be read on from byte {at} (moved, changed or deleted since it was picked?). Pick it again."),
        (IngestError::Unreadable { at }, Lang::Zh) => format!("文件从第 {at} 字节起无法继续读取（选择后被移动、修改或删除？）。请重新选择该文件。"),
        (IngestError::ReaderStopped { detail }, Lang::En) if detail.is_empty() => "The page's reader could not be loaded (offline before its first use?). Your text and file are kept: change an option or pick the file again to read it again, or reload the page.".to_string(),
        (IngestError::ReaderStopped { detail }, Lang::Zh) if detail.is_empty() => "页面的读取器未能加载（首次使用前已离线？）。你的文本和文件都已保留：修改任一选项或重新选择文件即可重新读取，也可以重新加载页面。".to_string(),
        (IngestError::ReaderStopped { detail }, Lang::En) => format!("The page's reader stopped before it answered ({detail}). Your text and file are kept: change an option or pick the file again to read it again, or reload the page."),
        (IngestError::ReaderStopped { detail }, Lang::Zh) => format!("页面的读取器在给出结果前停止了（{detail}）。你的文本和文件都已保留：修改任一选项或重新选择文件即可重新读取，也可以重新加载页面。"),
        (IngestError::MetricsScrape { metric }, Lang::En) => format!("This looks like a Prometheus /metrics scrape ({metric} …): one instant, not a history. Export a range with query_range instead: curl -G http://PROMETHEUS:9090/api/v1/query_range --data-urlencode 'query={metric}' -d start=… -d end=… -d step=60 (see Formats read)."),
        (IngestError::MetricsScrape { metric }, Lang::Zh) => format!("这看起来是 Prometheus /metrics 抓取结果（{metric} ……）：只有一个时刻，不是历史。请改用 query_range 导出一段时间：curl -G http://PROMETHEUS:9090/api/v1/query_range --data-urlencode 'query={metric}' -d start=… -d end=… -d step=60（见“支持的格式”）。"),
        (IngestError::Sacct(p), _) => slurm_read::error_text(l, p),
        (IngestError::NotUsage(NotUsage::Metric(m)), Lang::En) => format!("This file holds {m}: a GPU temperature, memory, power or clock reading, not GPU usage. Export the utilisation panel (DCGM_FI_DEV_GPU_UTIL) or a GPU count instead (see Formats read)."),
        (IngestError::NotUsage(NotUsage::Metric(m)), Lang::Zh) => format!("该文件是 {m}：GPU 温度、显存、功耗或频率，不是 GPU 用量。请改为导出利用率面板（DCGM_FI_DEV_GPU_UTIL）或 GPU 数量（见“支持的格式”）。"),
        (IngestError::NotUsage(NotUsage::NvidiaSmiDmon), _) => pick(l, "This is nvidia-smi dmon output (a live view of power, temperatures and sm %), not a usage log. Log utilisation with: nvidia-smi --query-gpu=timestamp,index,name,utilization.gpu --format=csv -l 60 > gpu.csv", "这是 nvidia-smi dmon 的输出（功耗、温度与 sm % 的实时视图），不是用量日志。请用以下命令记录利用率：nvidia-smi --query-gpu=timestamp,index,name,utilization.gpu --format=csv -l 60 > gpu.csv").to_string(),
        (IngestError::NotUsage(NotUsage::HeaderlessGpuLog), _) => pick(l, "This looks like an nvidia-smi log written without a header (noheader): a time, a GPU index, a model name and several numbers that cannot be told apart, so none is read as GPUs. Export it with its header: nvidia-smi --query-gpu=timestamp,index,name,utilization.gpu --format=csv -l 60", "这看起来是没有表头（noheader）的 nvidia-smi 日志：时间、GPU 编号、型号与几列无法区分的数字，因此不把任何一列当作 GPU 数。请带表头导出：nvidia-smi --query-gpu=timestamp,index,name,utilization.gpu --format=csv -l 60").to_string(),
        (IngestError::NotUsage(NotUsage::DcgmiDmon), _) => pick(l, "This is dcgmi dmon output: a live view without time, so it has no hours to plan on. Export DCGM_FI_DEV_GPU_UTIL from Prometheus (query_range) or log nvidia-smi --query-gpu=timestamp,index,name,utilization.gpu --format=csv -l 60.", "这是 dcgmi dmon 的输出：没有时间的实时视图，无法按小时规划。请从 Prometheus（query_range）导出 DCGM_FI_DEV_GPU_UTIL，或用 nvidia-smi --query-gpu=timestamp,index,name,utilization.gpu --format=csv -l 60 记录。").to_string(),
        (IngestError::Gzip | IngestError::OtherBill(_) | IngestError::NoGpuInstances(_), _) => {
            crate::present::bill_read::error_text(l, e).unwrap_or_default()
        }
    }
}

/// A line a source adds to the report (Prometheus, Slurm).
fn line_view(x: ReportLine) -> impl IntoView {
    view! { <div><dt>{x.term}</dt><dd data-testid=x.testid data-value=x.value class:warn=x.warn>{x.text}</dd></div> }
}

/// `planning`: the zone the series was planned in (the span is shown in it); `zone`: its
/// description and key for the report row.
fn report_view(
    l: Lang,
    r: &ParseReport,
    types: &[TypedSeries],
    planning: &Zone,
    zone: Option<(String, String)>,
) -> impl IntoView {
    let threshold = r.busy_threshold_percent.unwrap_or(10.0);
    let labels: Vec<String> = types.iter().map(|t| t.label.clone()).collect();
    let prom_lines = r
        .prometheus
        .as_ref()
        .map(|p| prom_read::lines(l, p, &labels, threshold))
        .unwrap_or_default();
    let type_source = r.type_source.as_ref().map(|s| match s {
        TypeSource::Column(c) if c.name.is_empty() => {
            format!("{} {}", pick(l, "column", "列"), c.field + 1)
        }
        TypeSource::Column(c) => format!("{} “{}”", pick(l, "column", "列"), c.name),
        TypeSource::Headers => pick(l, "the column headers", "各列表头").to_string(),
        TypeSource::Label(label) => format!("{} {label}", pick(l, "label", "标签")),
    });
    let type_rows: Vec<(String, String, String)> = types
        .iter()
        .map(|t| {
            let peak = crate::format::number_trim(t.peak, 2, l);
            let text = match l {
                Lang::En => format!(
                    "{} h, peak {peak} GPU{}, {} h without data",
                    t.hours,
                    if t.peak == 1.0 { "" } else { "s" },
                    t.gap_hours
                ),
                Lang::Zh => format!(
                    "{} 小时，峰值 {peak} 张，{} 小时无数据",
                    t.hours, t.gap_hours
                ),
            };
            (t.label.clone(), t.key.clone(), text)
        })
        .collect();
    let type_count = type_rows.len();
    let too_many = r.too_many_types.as_ref().map(|m| match l {
        Lang::En => format!(
            "{} GPU types found ({}{}): at most {} are planned per type, so the history was read as one series (all types summed).",
            m.found, m.labels.join(", "), if m.found > m.labels.len() { ", …" } else { "" }, MAX_TYPES
        ),
        Lang::Zh => format!(
            "发现 {} 种 GPU 型号（{}{}）：按型号规划最多 {} 种，因此历史按一条序列读取（各型号相加）。",
            m.found, m.labels.join("、"), if m.found > m.labels.len() { "……" } else { "" }, MAX_TYPES
        ),
    });
    let mut read_as = format_name(l, r.format).to_string();
    if let Some(a) = r.query_answer {
        read_as = answer_name(l, a).to_string();
    } else if r.format == Format::Table || r.format == Format::GrafanaCsv {
        read_as.push_str(&format!(
            ", {} {}",
            pick(l, "delimiter", "分隔符"),
            delimiter_name(l, r.delimiter)
        ));
        read_as.push_str(if r.has_header {
            pick(l, ", with header", "，有表头")
        } else {
            pick(l, ", no header", "，无表头")
        });
    }
    let column = |i: usize| {
        r.columns
            .get(i)
            .map(|c| {
                if c.name.is_empty() {
                    format!("{} {}", pick(l, "column", "列"), c.field + 1)
                } else {
                    c.name.clone()
                }
            })
            .unwrap_or_default()
    };
    let utilisation = r
        .meaning
        .as_ref()
        .filter(|m| m.read == ColumnMeaning::Utilisation);
    let used = match r.used {
        _ if utilisation.is_some() && r.type_source.is_none() => {
            read_check::busy_from(l, utilisation.map_or(0, |m| m.columns))
        }
        ColumnUse::One(i) => column(i),
        ColumnUse::Sum if r.type_source.is_some() => format!(
            "{} ({})",
            pick(l, "sum over the GPU types", "各 GPU 型号之和"),
            types.len()
        ),
        ColumnUse::Sum if r.format == Format::PrometheusJson => format!(
            "{} ({})",
            pick(l, "sum over the series", "各序列之和"),
            r.columns.len()
        ),
        ColumnUse::Sum => format!(
            "{} ({})",
            pick(l, "sum of all numeric columns", "所有数字列之和"),
            r.columns.len()
        ),
    };
    let span = r.span.map(|(a, b)| {
        format!(
            "{} → {}",
            local_minute(a, planning),
            local_minute(b, planning)
        )
    });
    let resolution = r.resolution_seconds.map(|s| match s {
        s if s % 3600 == 0 => format!("{} h", s / 3600),
        s if s % 60 == 0 => format!("{} min", s / 60),
        s => format!("{s} s"),
    });
    let gaps = if r.missing_hours == 0 {
        pick(l, "no gaps", "无缺口").to_string()
    } else {
        let how = match r.gap_policy {
            GapPolicy::Exclude => pick(l, "excluded", "已排除"),
            GapPolicy::Zero => pick(l, "counted as 0", "按 0 计"),
        };
        match l {
            Lang::En => format!(
                "{} missing hours in {} gaps ({how})",
                r.missing_hours,
                r.gaps.len().max(1)
            ),
            Lang::Zh => format!("缺失 {} 小时（{how}）", r.missing_hours),
        }
    };
    let slurm = r
        .slurm
        .as_ref()
        .map(|s| slurm_read::report_lines(l, s, planning))
        .unwrap_or_default();
    let rejected = r.rejected.clone();
    let not_listed = r.rejected_not_listed;
    let named = |c: &crate::core::ingest::ValueColumn| {
        if c.name.is_empty() {
            format!("{} {}", pick(l, "column", "列"), c.field + 1)
        } else {
            format!("“{}”", c.name)
        }
    };
    let time = match (&r.timestamp_column, r.timestamp_style, &r.unread_time) {
        (Some(c), Some(style), _) => {
            let mut t = format!("{} — {}", named(c), timestamp_name(l, style));
            if let Some(tc) = &r.time_column {
                t.push_str(&format!(" + {}", named(tc)));
            }
            if r.twelve_hour {
                t.push_str(pick(
                    l,
                    ", 12-hour clock (AM/PM)",
                    "，12 小时制（上午/下午）",
                ));
            }
            if let Some(e) = &r.time_example {
                t.push_str(&format!("{} {e}", pick(l, ", e.g.", "，例如")));
            }
            t
        }
        _ if r.format == Format::PrometheusJson => pick(
            l,
            "each sample's Unix time (UTC, as Prometheus writes it)",
            "每个采样自带的 Unix 时间（UTC，Prometheus 的写法）",
        )
        .to_string(),
        (_, _, Some(_)) => pick(
            l,
            "none read (see the warning above): each row was taken as one hour",
            "未读取（见上方提示）：每行按一小时计",
        )
        .to_string(),
        _ => pick(
            l,
            "no time column: each row was taken as one hour, in order",
            "没有时间列：按顺序每行计为一小时",
        )
        .to_string(),
    };
    let order = r.date_order.map(|(o, src)| {
        let which = match o {
            DateOrder::MonthFirst => pick(l, "month first (10/5/2026 = 5 October)", "月在前（10/5/2026 = 10 月 5 日）"),
            DateOrder::DayFirst => pick(l, "day first (5/10/2026 = 5 October)", "日在前（5/10/2026 = 10 月 5 日）"),
        };
        let why = match src {
            OrderSource::File => pick(l, ", decided by the file (a date has a field above 12)", "，由文件确定（有日期的某一项大于 12）"),
            OrderSource::Locale => pick(l, ": every date reads both ways, so your browser's locale decided. If this is wrong, choose under “Time as” below.", "：所有日期两种读法都成立，因此按浏览器的区域设置。如有误，请在下方“时间格式”中选择。"),
            OrderSource::Choice => pick(l, ", as you chose", "，按您的选择"),
        };
        let key = match o {
            DateOrder::MonthFirst => "month-first",
            DateOrder::DayFirst => "day-first",
        };
        (format!("{which}{why}"), key, src == OrderSource::Locale)
    });
    let meaning_line = r
        .meaning
        .as_ref()
        .map(|m| read_check::meaning_line(l, m, threshold));
    let value_names: Vec<String> = (0..r.columns.len()).map(column).collect();
    let used_name = match r.used {
        ColumnUse::One(i) => value_names.get(i).map(String::as_str),
        ColumnUse::Sum => None,
    };
    let ask = r
        .meaning
        .as_ref()
        .and_then(|m| read_check::ask(l, m, &value_names, used_name));
    let warnings: Vec<ReadWarning> = r
        .warnings
        .iter()
        .map(|w| ReadWarning {
            kind: read_check::warning_kind(w),
            text: read_check::warning_text(l, w, planning),
            fix: read_check::warning_fix(w),
        })
        .collect();
    let answer_key = r.query_answer.map(answer_key);
    let unread = r.unread_time.clone().map(|u| {
        let col = named(&u.column);
        match l {
            Lang::En => format!("Column {col} looks like time (e.g. {}) but was not read as time, so each row was taken as one hour. Choose its form under “Time as” below, or export the times as 2026-10-05 13:00.", u.example),
            Lang::Zh => format!("{col} 列看起来是时间（例如 {}），但未能识别为时间，因此每行按一小时计。请在下方“时间格式”中选择其格式，或将时间导出为 2026-10-05 13:00 的形式。", u.example),
        }
    });
    view! {
        <ReadCheck lang=l ask warnings />
        {unread.map(|u| view! { <p class="error" role="alert" data-testid="time-not-read">{u}</p> })}
        <dl class="report" data-testid="parse-report">
            <div><dt>{pick(l, "Read as", "识别为")}</dt><dd data-testid="read-as" data-answer=answer_key>{read_as}</dd></div>
            <div><dt>{pick(l, "Time", "时间")}</dt><dd data-testid="read-time">{time}</dd></div>
            {order.map(|(text, key, ask)| view! {
                <div><dt>{pick(l, "Day and month", "日与月")}</dt><dd data-testid="date-order" data-value=key class:warn=ask>{text}</dd></div>
            })}
            {zone.map(|(text, key)| view! {
                <div><dt>{pick(l, "Planning time zone", "规划时区")}</dt><dd data-testid="read-zone" data-value=key>{text}</dd></div>
            })}
            <div><dt>{pick(l, "GPUs busy from", "GPU 用量取自")}</dt><dd data-testid="read-column">{used}</dd></div>
            {meaning_line.map(line_view)}
            {prom_lines.into_iter().map(line_view).collect_view()}
            <div>
                <dt>{pick(l, "Rows read", "读取行数")}</dt>
                <dd data-testid="rows-read" data-value=r.rows_read.to_string()>{r.rows_read}</dd>
            </div>
            <div>
                <dt>{pick(l, "Hours", "小时数")}</dt>
                <dd data-testid="hours-read" data-value=r.hours.to_string()>
                    {r.hours} {resolution.map(|x| format!(" ({} {x})", pick(l, "samples every", "采样间隔")))}
                </dd>
            </div>
            {span.map(|s| view! { <div><dt>{pick(l, "Span", "时间范围")}</dt><dd>{s}</dd></div> })}
            <div><dt>{pick(l, "Gaps", "缺口")}</dt><dd data-testid="gaps">{gaps}</dd></div>
            {(r.duplicates > 0).then(|| view! {
                <div><dt>{pick(l, "Duplicate timestamps", "重复时间戳")}</dt><dd>{r.duplicates} {pick(l, " (averaged)", "（已取平均）")}</dd></div>
            })}
            {r.unsorted.then(|| view! { <div><dt>{pick(l, "Order", "顺序")}</dt><dd>{pick(l, "unsorted rows were sorted", "乱序行已排序")}</dd></div> })}
            <div>
                <dt>{pick(l, "Rejected lines", "被拒绝的行")}</dt>
                <dd data-testid="rows-rejected" data-value=r.rows_rejected.to_string()>{r.rows_rejected}</dd>
            </div>
            {slurm.into_iter().map(line_view).collect_view()}
            {type_source.map(|src| view! {
                <div><dt>{pick(l, "GPU types from", "GPU 型号取自")}</dt><dd data-testid="types-from">{src}</dd></div>
            })}
        </dl>
        {r.cur.as_ref().map(|c| view! { <BillReport cur=(**c).clone() lang=l /> })}
        {too_many.map(|t| view! { <p class="warning" role="status" data-testid="too-many-types">{t}</p> })}
        {(!type_rows.is_empty()).then(|| view! {
            <ul class="types" data-testid="types-found" data-value=type_count.to_string()>
                {type_rows.into_iter().map(|(label, key, text)| {
                    let shown = label.clone();
                    view! { <li data-type=label data-key=key><strong>{shown}</strong>": "{text}</li> }
                }).collect_view()}
            </ul>
            <p class="field-hint">{pick(l,
                "Each type is planned on its own usage and prices: see the fleet table, and choose a type above the prices to give it its own.",
                "每个型号按自己的用量与价格规划：见机群表；在价格上方选择型号即可填写它自己的价格。")}</p>
        })}
        {(!rejected.is_empty()).then(|| view! {
            <ul class="rejected" data-testid="rejected-lines">
                {rejected.into_iter().map(|x| {
                    let line = match l { Lang::En => format!("Line {}: ", x.line), Lang::Zh => format!("第 {} 行：", x.line) };
                    view! { <li>{line}{reason_text(l, x.reason)} " — " <code>{x.excerpt}</code></li> }
                }).collect_view()}
                {(not_listed > 0).then(|| view! {
                    <li>{match l { Lang::En => format!("… and {not_listed} more rejected lines"), Lang::Zh => format!("……另有 {not_listed} 行被拒绝") }}</li>
                })}
            </ul>
        })}
    }
}

/// What the busy threshold applies to, if anything (its slider shows only then).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ThresholdUse {
    None,
    NvidiaSmi,
    Dcgm,
    /// A table read as one GPU's utilisation per column.
    Table,
}

/// The parse status and report, with the "read as" corrections (column, gaps).
#[component]
pub fn ParseReportView() -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let state = ctx.state;
    let format = memo_of(state, |s| s.parse_options.format);
    let time_form = memo_of(state, |s| s.parse_options.time_form);
    let threshold = Signal::from(memo_of(state, |s| s.parse_options.busy_threshold_percent));
    let set_threshold =
        Callback::new(move |v: f64| state.update(|s| s.parse_options.busy_threshold_percent = v));
    let prom_choice = memo_of(state, |s| s.parse_options.prometheus);
    let meaning = memo_of(state, |s| s.parse_options.meaning);
    // What the parse read (format, Prometheus reading), for the controls that apply to it.
    let read = Memo::new(move |_| {
        ctx.parse_status.with(|p| match p {
            ParseStatus::Done(Ok(parsed)) => Some((
                parsed.report.format,
                parsed.report.prometheus.as_ref().map(|x| x.reading),
                parsed.report.meaning.as_ref().map(|m| m.read),
            )),
            _ => None,
        })
    });
    let is_prom = Memo::new(move |_| {
        format.get() == Some(Format::PrometheusJson)
            || read
                .get()
                .is_some_and(|(f, _, _)| f == Format::PrometheusJson)
    });
    let threshold_use = Memo::new(move |_| {
        let busy = |r: Option<PromReading>| {
            matches!(r, Some(PromReading::BusyPercent | PromReading::BusyRatio))
        };
        match (read.get(), format.get()) {
            (Some((Format::NvidiaSmi, _, _)), _) | (_, Some(Format::NvidiaSmi)) => {
                ThresholdUse::NvidiaSmi
            }
            (Some((Format::PrometheusJson, r, _)), _) if busy(r) || busy(prom_choice.get()) => {
                ThresholdUse::Dcgm
            }
            (Some((_, _, Some(ColumnMeaning::Utilisation))), _) => ThresholdUse::Table,
            (_, Some(Format::PrometheusJson)) if busy(prom_choice.get()) => ThresholdUse::Dcgm,
            _ => ThresholdUse::None,
        }
    });
    let has_meaning = Memo::new(move |_| {
        meaning.get() != ColumnMeaning::Auto || read.get().is_some_and(|(_, _, m)| m.is_some())
    });
    let columns = Memo::new(move |_| {
        ctx.parse_status.with(|p| match p {
            ParseStatus::Done(Ok(parsed)) => parsed.report.columns.clone(),
            _ => Vec::new(),
        })
    });
    view! {
        <div class="parse-status" id="parse-report" aria-live="polite">
            {move || {
                let l = lang.get();
                match ctx.parse_status.get() {
                    ParseStatus::Empty => view! { <p class="field-hint">{pick(l, "No history yet.", "尚无用量历史。")}</p> }.into_any(),
                    ParseStatus::Parsing(f) => view! {
                        <div>
                            <progress data-testid="parse-progress" max="1" value=f.to_string()></progress>
                            " " {pick(l, "Reading…", "读取中……")} " " {percent(f, 0, l)}
                        </div>
                    }.into_any(),
                    ParseStatus::Done(Ok(parsed)) => {
                        let zone = parsed.series.timestamps.is_some().then(|| {
                            state.with_untracked(|s| zone_text(l, &parsed.report, &s.tz, !parsed.series.offset_changes.is_empty()))
                        });
                        report_view(l, &parsed.report, &parsed.types, &parsed.series.zone(), zone).into_any()
                    }
                    ParseStatus::Done(Err(e)) => {
                        let report = match &e { IngestError::NoUsableRows(r) | IngestError::NoGpuInstances(r) => Some(r.clone()), _ => None };
                        view! {
                            <p class="error" role="alert" data-testid="usage-error">{ingest_error_text(l, &e)}</p>
                            {report.map(|r| report_view(l, &r, &[], &Zone::fixed(r.utc_offset_minutes), None))}
                        }.into_any()
                    }
                }
            }}
        </div>
        <div class="inline-controls">
            <label>
                {bilingual(lang, "GPUs busy column", "GPU 用量列")}
                <select data-testid="column-choice" on:change=move |ev| {
                    let v = event_target_value(&ev);
                    let choice = match v.as_str() {
                        "auto" => ColumnChoice::Auto,
                        "sum" => ColumnChoice::Sum,
                        n => n.parse::<usize>().map(ColumnChoice::One).unwrap_or_default(),
                    };
                    state.update(|s| s.parse_options.column = choice);
                }>
                    <option value="auto">{bilingual(lang, "automatic", "自动")}</option>
                    <option value="sum">{bilingual(lang, "sum of all", "全部求和")}</option>
                    {move || columns.get().into_iter().enumerate().map(|(i, c)| {
                        let name = if c.name.is_empty() { format!("{} {}", pick(lang.get(), "column", "列"), c.field + 1) } else { c.name };
                        view! { <option value=i.to_string()>{name}</option> }
                    }).collect_view()}
                </select>
            </label>
            <label class:hidden=move || !has_meaning.get()>
                {bilingual(lang, "Columns hold", "各列含义")}
                <select data-testid="column-meaning" on:change=move |ev| {
                    let m = read_check::meaning_of_key(&event_target_value(&ev));
                    state.update(|s| s.parse_options.meaning = m);
                }>
                    {read_check::MEANINGS.into_iter().map(|m| view! {
                        <option value=read_check::meaning_key(m) selected=move || meaning.get() == m>
                            {move || read_check::meaning_name(lang.get(), m)}
                        </option>
                    }).collect_view()}
                </select>
            </label>
            <label>
                {bilingual(lang, "Read as", "识别为")}
                <select data-testid="format-choice" on:change=move |ev| {
                    let key = event_target_value(&ev);
                    let format = FORMATS.iter().find(|(k, _)| *k == key).map(|(_, f)| *f);
                    state.update(|s| s.parse_options.format = format);
                }>
                    <option value="auto">{bilingual(lang, "automatic", "自动")}</option>
                    {FORMATS.iter().map(|(key, f)| {
                        let f = *f;
                        view! {
                            <option value=*key selected=move || format.get() == Some(f)>
                                {move || format_name(lang.get(), f)}
                            </option>
                        }
                    }).collect_view()}
                </select>
            </label>

            <label>
                {bilingual(lang, "Time as", "时间格式")}
                <select data-testid="time-form" on:change=move |ev| {
                    let key = event_target_value(&ev);
                    let form = TIME_FORMS.iter().find(|(k, _)| *k == key).map_or(TimeForm::Auto, |(_, f)| *f);
                    state.update(|s| s.parse_options.time_form = form);
                }>
                    {TIME_FORMS.iter().map(|(key, f)| {
                        let f = *f;
                        view! {
                            <option value=*key selected=move || time_form.get() == f>
                                {move || time_form_name(lang.get(), f)}
                            </option>
                        }
                    }).collect_view()}
                </select>
            </label>
            <label>
                {bilingual(lang, "Missing hours", "缺失小时")}
                <select data-testid="gap-policy" on:change=move |ev| {
                    let gaps = if event_target_value(&ev) == "zero" { GapPolicy::Zero } else { GapPolicy::Exclude };
                    state.update(|s| s.parse_options.gaps = gaps);
                }>
                    <option value="exclude">{bilingual(lang, "exclude", "排除")}</option>
                    <option value="zero">{bilingual(lang, "count as 0", "按 0 计")}</option>
                </select>
            </label>
        </div>
        <div class="inline-controls" class:hidden=move || !is_prom.get()>
            <label>
                {bilingual(lang, "Prometheus values", "Prometheus 数值")}
                <select data-testid="prom-reading-choice" on:change=move |ev| {
                    let key = event_target_value(&ev);
                    let reading = prom_read::READINGS.into_iter().find(|r| prom_read::reading_key(*r) == key);
                    state.update(|s| s.parse_options.prometheus = reading);
                }>
                    <option value="auto" selected=move || prom_choice.get().is_none()>{bilingual(lang, "by the metric name", "按指标名判断")}</option>
                    {prom_read::READINGS.into_iter().map(|r| view! {
                        <option value=prom_read::reading_key(r) selected=move || prom_choice.get() == Some(r)>
                            {move || prom_read::reading_name(lang.get(), r)}
                        </option>
                    }).collect_view()}
                </select>
            </label>
        </div>
        <div class:hidden=move || threshold_use.get() == ThresholdUse::None>
            <SliderField
                testid="busy-threshold"
                label=Signal::derive(move || match threshold_use.get() {
                    ThresholdUse::Dcgm => pick(lang.get(), "DCGM: a GPU is busy at or above (%)", "DCGM：利用率不低于该值视为忙碌（%）"),
                    ThresholdUse::Table => pick(lang.get(), "Utilisation tables: a GPU is busy at or above (%)", "利用率表格：利用率不低于该值视为忙碌（%）"),
                    _ => pick(lang.get(), "nvidia-smi: a GPU is busy above (%)", "nvidia-smi：利用率高于该值视为忙碌（%）"),
                }.to_string())
                hint=Signal::derive(move || match threshold_use.get() {
                    ThresholdUse::Dcgm => pick(lang.get(), "Utilisation threshold per GPU and step (a ratio metric: this ÷ 100)", "每块 GPU 每一步的利用率阈值（比例指标：该值 ÷ 100）"),
                    ThresholdUse::Table => pick(lang.get(), "Utilisation threshold per GPU column and sample (a 0–1 ratio column: this ÷ 100)", "每个 GPU 列每个采样的利用率阈值（0–1 比例列：该值 ÷ 100）"),
                    _ => pick(lang.get(), "Utilization threshold per sample", "每个采样的利用率阈值"),
                }.to_string())
                value=threshold
                on_commit=set_threshold
                field=Field::Threshold
                validate=|v| non_negative(Field::Threshold, v, 100.0)
                lang
                min=0.0
                max=100.0
                step=1.0
            />
        </div>
    }
}

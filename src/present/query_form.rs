//! The query writer's form (issue 38), pure: its template in each language, the choices
//! read back from its fields into a `QuerySpec`, what each engine shows, and every message in
//! both languages. Run in the query writer's worker (`query_worker`), so the main module
//! carries none of it (the panel there only moves field values and texts); natively tested.

use crate::core::ingest::rates::{RatesError, RatesReason};
use crate::core::query::{self, DuckSource, Engine, PromSource, QueryError, QuerySpec};
use crate::i18n::{pick, Lang};

/// The form's fields (test id = element id): the text inputs and selects whose `value` is a
/// choice, and the check box `query-rates` (value `true` / `false`).
pub const FIELDS: [&str; 11] = [
    "query-engine",
    "query-source",
    "query-prom",
    "query-start",
    "query-end",
    "query-path",
    "query-table",
    "query-threshold",
    "query-types",
    "query-team",
    "query-rates",
];

/// The form's template in language `l`: fields without values (the page sets them as
/// properties, so no user text ever enters this HTML).
pub fn template(l: Lang) -> String {
    let t = |en: &'static str, zh: &'static str| pick(l, en, zh);
    let input = |id: &str, kind: &str, label: &str, class: &str| {
        format!(
            r#"<label class="query-field {class}"><span>{label}</span><input type="{kind}" class="field-text" id="{id}" data-testid="{id}" spellcheck="false" autocomplete="off"></label>"#
        )
    };
    let engines: String = Engine::ALL
        .into_iter()
        .map(|e| {
            format!(
                r#"<option value="{}">{}</option>"#,
                e.id(),
                engine_name(l, e)
            )
        })
        .collect();
    [
        format!(r#"<p class="field-hint">{}</p><div class="query-form">"#, t(
            "Choose where the history lives: the page writes the query that adds it up by the hour. Run it there, then paste or drop its answer above: the page recognises it.",
            "选择历史数据所在的系统：页面会写出按小时汇总的查询。在那里运行后，把结果粘贴或拖到上方：页面会自动识别。")),
        format!(r#"<label class="query-field"><span>{}</span><select id="query-engine" data-testid="query-engine">{engines}</select></label>"#, t("Engine", "引擎")),
        input("query-start", "date", t("First day (UTC)", "开始日期（UTC）"), ""),
        input("query-end", "date", t("Last day (UTC, included)", "结束日期（UTC，含当天）"), ""),
        format!(r#"<label class="query-field for-duckdb"><span>{}</span><select id="query-source" data-testid="query-source"><option value="sacct">{}</option><option value="cur">{}</option><option value="cur2">{}</option></select></label>"#,
            t("Reads", "读取"), t("a sacct -P export", "sacct -P 导出"), t("CUR files (legacy columns)", "CUR 文件（旧版列名）"), t("CUR 2.0 files", "CUR 2.0 文件")),
        input("query-path", "text", t("File or glob", "文件或通配符"), "for-duckdb"),
        format!(r#"<label class="query-field for-table"><span><span class="for-athena">{}</span><span class="for-bigquery">{}</span><span class="for-slurmdbd">{}</span></span><input type="text" class="field-text" id="query-table" data-testid="query-table" spellcheck="false" autocomplete="off"></label>"#,
            t("CUR table (database.table)", "CUR 表（数据库.表）"), t("Billing export table (project.dataset.table)", "账单导出表（项目.数据集.表）"), t("Cluster name", "集群名")),
        format!(r#"<label class="query-field for-promql"><span>{}</span><select id="query-prom" data-testid="query-prom"><option value="dcgm">{}</option><option value="kube">{}</option></select></label>"#,
            t("Metric", "指标"), t("DCGM utilisation (busy GPUs)", "DCGM 利用率（忙碌 GPU）"), t("Kubernetes GPU requests", "Kubernetes GPU 申请量")),
        input("query-threshold", "number", t("Busy at or above (%)", "忙碌阈值（%）"), "for-dcgm"),
        input("query-types", "text", t("GPU models or EC2 instance types (comma-separated; empty: all)", "GPU 型号或 EC2 实例类型（逗号分隔；留空为全部）"), ""),
        input("query-team", "text", t("Group by team (tag key, label or Slurm field; empty: none)", "按团队分组（标签键、label 或 Slurm 字段；留空为不分组）"), ""),
        format!(r#"<label class="query-check for-bill"><input type="checkbox" id="query-rates" data-testid="query-rates">{}</label></div>"#,
            t("Effective rates per GPU model instead (to fill the prices)", "改为按 GPU 型号的实际单价（用于填入价格）")),
        format!(r#"<label class="query-field query-check for-bill"><span>{}</span><textarea class="field-text" rows="3" data-testid="query-rates-answer" spellcheck="false" placeholder="gpu_type,pricing,gpu_hours,cost,currency"></textarea></label>"#,
            t("The rates query's answer: paste it here to fill the prices (your history stays)", "单价查询的结果：粘贴到这里以填入价格（用量历史不变）")),
        r#"<p class="field-error hidden" role="alert" data-testid="query-error"></p><div class="snippet"><pre class="query-text" data-testid="query-text" tabindex="0" data-ready="false"></pre></div>"#.to_string(),
        format!(r#"<div class="inline-controls"><button type="button" data-testid="copy-query" disabled>{}</button><span class="field-hint" role="status" data-testid="query-copied"></span></div>"#,
            t("Copy the query", "复制查询")),
    ]
    .concat()
}

fn engine_name(l: Lang, e: Engine) -> &'static str {
    match e {
        Engine::Athena => pick(l, "Athena (CUR, legacy columns)", "Athena（CUR，旧版列名）"),
        Engine::AthenaCur2 => pick(l, "Athena (CUR 2.0)", "Athena（CUR 2.0）"),
        Engine::DuckDb => pick(l, "DuckDB (files)", "DuckDB（文件）"),
        Engine::BigQuery => pick(
            l,
            "BigQuery (GCP billing export)",
            "BigQuery（GCP 账单导出）",
        ),
        Engine::PromQl => pick(
            l,
            "Prometheus / Thanos (PromQL)",
            "Prometheus / Thanos（PromQL）",
        ),
        Engine::Slurmdbd => pick(
            l,
            "slurmdbd (MySQL / MariaDB)",
            "slurmdbd（MySQL / MariaDB）",
        ),
        Engine::Sacct => pick(l, "sacct command", "sacct 命令"),
    }
}

pub fn error_text(l: Lang, e: &QueryError) -> String {
    match (e, l) {
        (QueryError::BadWindow, Lang::En) => {
            "First and last day: dates, the last on or after the first.".into()
        }
        (QueryError::BadWindow, Lang::Zh) => "开始与结束日期：须为日期，且结束不早于开始。".into(),
        (QueryError::WindowTooLong, Lang::En) => "The window is longer than 10 years.".into(),
        (QueryError::WindowTooLong, Lang::Zh) => "时间窗口超过 10 年。".into(),
        (QueryError::BadTable(t), Lang::En) => {
            format!("Table or cluster name: \"{t}\" is not a name this engine accepts.")
        }
        (QueryError::BadTable(t), Lang::Zh) => format!("表名或集群名：“{t}”不是该引擎接受的名称。"),
        (QueryError::EmptyPath, Lang::En) => "File or glob: type the path DuckDB reads.".into(),
        (QueryError::EmptyPath, Lang::Zh) => "文件或通配符：请填写 DuckDB 读取的路径。".into(),
        (QueryError::BadTeam(t), Lang::En) => {
            format!("Group by team: \"{t}\" is not a field this engine groups by.")
        }
        (QueryError::BadTeam(t), Lang::Zh) => format!("按团队分组：“{t}”不是该引擎可分组的字段。"),
        (QueryError::UnknownType(t), Lang::En) => {
            format!("GPU types: \"{t}\" is not a GPU model this source knows.")
        }
        (QueryError::UnknownType(t), Lang::Zh) => {
            format!("GPU 型号：“{t}”不是该数据源已知的 GPU 型号。")
        }
        (QueryError::BadThreshold, Lang::En) => {
            "Busy threshold: a percentage from 0 to 100.".into()
        }
        (QueryError::BadThreshold, Lang::Zh) => "忙碌阈值：0 到 100 之间的百分数。".into(),
    }
}

pub fn rates_error(l: Lang, e: &RatesError) -> String {
    let why = match (&e.reason, l) {
        (RatesReason::NotRates, Lang::En) => "not the rates query's answer: its first line is gpu_type,pricing,gpu_hours,cost,currency".to_string(),
        (RatesReason::NotRates, Lang::Zh) => "不是单价查询的结果：其首行应为 gpu_type,pricing,gpu_hours,cost,currency".to_string(),
        (RatesReason::Empty, Lang::En) => "no rows".to_string(),
        (RatesReason::Empty, Lang::Zh) => "没有数据行".to_string(),
        (RatesReason::MissingCells, Lang::En) => "fewer than five cells".to_string(),
        (RatesReason::MissingCells, Lang::Zh) => "不足五个字段".to_string(),
        (RatesReason::UnknownPricing(p), Lang::En) => format!("pricing \"{p}\" is not on_demand, spot, reserved or savings_plan"),
        (RatesReason::UnknownPricing(p), Lang::Zh) => format!("计价方式“{p}”不是 on_demand、spot、reserved 或 savings_plan"),
        (RatesReason::BadNumber(c), Lang::En) => format!("\"{c}\" is not a number of GPU-hours or a cost"),
        (RatesReason::BadNumber(c), Lang::Zh) => format!("“{c}”不是 GPU 小时数或金额"),
        (RatesReason::BadType(c), Lang::En) => format!("\"{c}\" names no GPU model"),
        (RatesReason::BadType(c), Lang::Zh) => format!("“{c}”不是 GPU 型号"),
    };
    match l {
        Lang::En => format!("Rates, line {}: {why}.", e.line),
        Lang::Zh => format!("单价第 {} 行：{why}。", e.line),
    }
}

/// The form's choices (`value(id)` of each of [`FIELDS`]) as a spec, and the attributes that
/// say what the form shows (`data-engine`, `data-source`, `data-prom`, `data-bill`); a day
/// that is not a date is a bad window.
pub fn spec_of(
    value: impl Fn(&str) -> String,
) -> (
    Result<QuerySpec, QueryError>,
    [(&'static str, &'static str); 4],
) {
    let engine = Engine::from_id(&value("query-engine")).unwrap_or(Engine::DuckDb);
    let duck_source = match value("query-source").as_str() {
        "cur" => DuckSource::Cur,
        "cur2" => DuckSource::Cur2,
        _ => DuckSource::Sacct,
    };
    let prom = match value("query-prom").as_str() {
        "kube" => PromSource::KubeRequests,
        _ => PromSource::Dcgm,
    };
    let bill = query::reads_bill(engine, duck_source);
    let attrs = [
        ("data-engine", engine.id()),
        (
            "data-source",
            if duck_source == DuckSource::Sacct {
                "sacct"
            } else {
                "cur"
            },
        ),
        (
            "data-prom",
            if prom == PromSource::Dcgm {
                "dcgm"
            } else {
                "kube"
            },
        ),
        ("data-bill", if bill { "true" } else { "false" }),
    ];
    let day = |id| query::parse_day(&value(id));
    let (Some(start), Some(last)) = (day("query-start"), day("query-end")) else {
        return (Err(QueryError::BadWindow), attrs);
    };
    let team = value("query-team").trim().to_string();
    let spec = QuerySpec {
        engine,
        start,
        end: last + 86_400,
        types: value("query-types")
            .split([',', '，'])
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        // Empty: the default (the field shows only for DCGM); not a number: said.
        busy_threshold_percent: match value("query-threshold").trim() {
            "" => QuerySpec::default().busy_threshold_percent,
            t => t.parse().unwrap_or(f64::NAN),
        },
        team: (!team.is_empty()).then_some(team),
        path: value("query-path"),
        duck_source,
        table: value("query-table"),
        prom,
        rates: bill && value("query-rates") == "true",
    };
    (Ok(spec), attrs)
}

/// The query's text or the message that says why not, in language `l`.
pub fn answer(
    l: Lang,
    value: impl Fn(&str) -> String,
) -> (Result<String, String>, [(&'static str, &'static str); 4]) {
    let (spec, attrs) = spec_of(value);
    let text = spec
        .and_then(|s| query::write(&s))
        .map_err(|e| error_text(l, &e));
    (text, attrs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A form's fields as (test id, value) pairs.
    type Fields<'a> = &'a [(&'a str, &'a str)];

    fn fields<'a>(pairs: Fields<'a>) -> impl Fn(&str) -> String + 'a {
        move |id| {
            pairs
                .iter()
                .find(|(k, _)| *k == id)
                .map(|(_, v)| v.to_string())
                .unwrap_or_default()
        }
    }

    #[test]
    fn choices_to_spec() {
        let f = [
            ("query-engine", "slurmdbd"),
            ("query-start", "2026-11-01"),
            ("query-end", "2026-11-07"),
            ("query-table", "gpu"),
            ("query-threshold", "12.5"),
            ("query-types", "A100 80GB， h100,"),
            ("query-team", " account "),
            ("query-rates", "true"),
        ];
        let (spec, attrs) = spec_of(fields(&f));
        let spec = spec.unwrap();
        assert_eq!(spec.engine, Engine::Slurmdbd);
        assert_eq!(
            (spec.start, spec.end),
            (1_793_491_200, 1_793_491_200 + 7 * 86_400)
        );
        assert_eq!(spec.types, vec!["A100 80GB".to_string(), "h100".into()]);
        assert_eq!(spec.team.as_deref(), Some("account"));
        assert_eq!(spec.busy_threshold_percent, 12.5);
        // Not a bill: no rates query whatever the box says.
        assert!(!spec.rates);
        assert_eq!(attrs[0], ("data-engine", "slurmdbd"));
        assert_eq!(attrs[3], ("data-bill", "false"));
        let (spec, attrs) = spec_of(fields(&[
            ("query-engine", "duckdb"),
            ("query-source", "cur2"),
            ("query-rates", "true"),
            ("query-start", "2026-11-01"),
            ("query-end", "2026-11-01"),
        ]));
        assert!(spec.unwrap().rates);
        assert_eq!(
            (attrs[1], attrs[3]),
            (("data-source", "cur"), ("data-bill", "true"))
        );
    }

    #[test]
    fn messages_name_the_field() {
        let wrong: [(Lang, Fields, &str); 3] = [
            (
                Lang::En,
                &[
                    ("query-engine", "sacct"),
                    ("query-start", "2026-11-05"),
                    ("query-end", "2026-11-01"),
                ],
                "First and last day: dates, the last on or after the first.",
            ),
            (
                Lang::Zh,
                &[("query-engine", "sacct"), ("query-start", "x")],
                "开始与结束日期：须为日期，且结束不早于开始。",
            ),
            (
                Lang::En,
                &[
                    ("query-engine", "promql"),
                    ("query-start", "2026-11-01"),
                    ("query-end", "2026-11-01"),
                    ("query-threshold", "150"),
                ],
                "Busy threshold: a percentage from 0 to 100.",
            ),
        ];
        for (l, f, message) in wrong {
            assert_eq!(answer(l, fields(f)).0, Err(message.into()), "{f:?}");
        }
        let (text, _) = answer(
            Lang::En,
            fields(&[
                ("query-engine", "sacct"),
                ("query-start", "2026-11-01"),
                ("query-end", "2026-11-01"),
                ("query-path", "sacct.txt"),
            ]),
        );
        assert!(text.unwrap().contains("sacct -a -X -P"));
        let e = RatesError {
            line: 3,
            reason: RatesReason::UnknownPricing("lease".into()),
        };
        assert_eq!(
            rates_error(Lang::En, &e),
            "Rates, line 3: pricing \"lease\" is not on_demand, spot, reserved or savings_plan."
        );
    }

    /// The template names every field once, in both languages, and carries no value.
    #[test]
    fn the_template() {
        for l in [Lang::En, Lang::Zh] {
            let t = template(l);
            for id in FIELDS {
                assert_eq!(
                    t.matches(&format!("data-testid=\"{id}\"")).count(),
                    1,
                    "{id}"
                );
            }
            for id in [
                "query-text",
                "query-error",
                "copy-query",
                "query-copied",
                "query-rates-answer",
            ] {
                assert!(t.contains(&format!("data-testid=\"{id}\"")), "{id}");
            }
            // Inputs carry no value (the page sets them as properties).
            for tag in t.split("<input").skip(1) {
                assert!(!tag[..tag.find('>').unwrap()].contains("value="), "{tag}");
            }
        }
    }
}

//! "Too big for the browser? Let your database add it up" (issue 38): the user's choices
//! (engine, window, GPU types, team, path or table) become the query for the engine that
//! holds the history; the page reads its answer like any other file.
//!
//! The choices are a tool's, not the plan's: they are not in the link. The text is written by
//! `core::query` in the readers' worker (`reader_client::write_query`), so the main module
//! carries no writer. The form is a static template in the page's language, put in when the
//! panel is first opened, whose fields are read back on each input (one listener for all):
//! written with `view!`, its dozen fields cost the main module 12.6 KB gzip (measured), which
//! a first visit does not need. What each engine shows is CSS on the form's `data-engine`,
//! `data-source`, `data-prom` and `data-bill` (style/fields.css). No user text ever enters
//! the template: values are set as properties.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::components::bilingual;
use crate::components::bill_report::BillReport;
use crate::context::use_ctx;
use crate::core::ingest::rates::{RatesError, RatesReason};
use crate::core::query::{self, DuckSource, Engine, PromSource, QueryError, QuerySpec};
use crate::i18n::{pick, Lang};
use crate::reader_wire::RatesResult;
use crate::state::ParseStatus;

/// The form's fields that hold text (test id = element id), in template order.
const TEXT_FIELDS: [&str; 8] = [
    "query-start",
    "query-end",
    "query-path",
    "query-table",
    "query-threshold",
    "query-types",
    "query-team",
    "query-engine",
];
const SELECTS: [&str; 2] = ["query-source", "query-prom"];

fn template(l: Lang) -> String {
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
        input("query-types", "text", t("GPU types (comma-separated; empty: all)", "GPU 型号（逗号分隔；留空为全部）"), ""),
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

fn error_text(l: Lang, e: &QueryError) -> String {
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
        (QueryError::Unavailable(d), Lang::En) => {
            format!("The query writer could not be loaded ({d}). Reload the page to try again.")
        }
        (QueryError::Unavailable(d), Lang::Zh) => {
            format!("无法加载查询生成器（{d}）。请刷新页面重试。")
        }
    }
}

fn rates_error(l: Lang, e: &RatesError) -> String {
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

fn find(root: &web_sys::Element, id: &str) -> Option<web_sys::Element> {
    root.query_selector(&format!("[data-testid={id}]"))
        .ok()
        .flatten()
}

/// A field's value (inputs and selects alike).
fn get(root: &web_sys::Element, id: &str) -> String {
    find(root, id)
        .and_then(|e| js_sys::Reflect::get(&e, &"value".into()).ok())
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

fn set(root: &web_sys::Element, id: &str, value: &str) {
    if let Some(e) = find(root, id) {
        let _ = js_sys::Reflect::set(&e, &"value".into(), &value.into());
    }
}

fn checked(root: &web_sys::Element) -> bool {
    find(root, "query-rates")
        .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
        .is_some_and(|e| e.checked())
}

/// The form's choices as a spec; a day that is not a date is a bad window.
fn spec_of(root: &web_sys::Element) -> Result<QuerySpec, QueryError> {
    let engine = Engine::from_id(&get(root, "query-engine")).unwrap_or(Engine::DuckDb);
    let duck_source = match get(root, "query-source").as_str() {
        "cur" => DuckSource::Cur,
        "cur2" => DuckSource::Cur2,
        _ => DuckSource::Sacct,
    };
    let prom = match get(root, "query-prom").as_str() {
        "kube" => PromSource::KubeRequests,
        _ => PromSource::Dcgm,
    };
    let bill = matches!(
        engine,
        Engine::Athena | Engine::AthenaCur2 | Engine::BigQuery
    ) || (engine == Engine::DuckDb && duck_source != DuckSource::Sacct);
    for (name, value) in [
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
    ] {
        let _ = root.set_attribute(name, value);
    }
    let day = |id| query::parse_day(&get(root, id));
    let (Some(start), Some(last)) = (day("query-start"), day("query-end")) else {
        return Err(QueryError::BadWindow);
    };
    let team = get(root, "query-team").trim().to_string();
    Ok(QuerySpec {
        engine,
        start,
        end: last + 86_400,
        types: get(root, "query-types")
            .split([',', '，'])
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        busy_threshold_percent: get(root, "query-threshold")
            .trim()
            .parse()
            .unwrap_or(f64::NAN),
        team: (!team.is_empty()).then_some(team),
        path: get(root, "query-path"),
        duck_source,
        table: get(root, "query-table"),
        prom,
        rates: bill && checked(root),
    })
}

/// Show the written text (or why not) in the form.
fn show(root: &web_sys::Element, l: Lang, answer: &Result<String, QueryError>) {
    let (text, error) = match answer {
        Ok(t) => (t.as_str(), String::new()),
        Err(e) => ("", error_text(l, e)),
    };
    if let Some(pre) = find(root, "query-text") {
        pre.set_text_content(Some(text));
        let _ = pre.set_attribute("data-ready", if answer.is_ok() { "true" } else { "false" });
    }
    if let Some(p) = find(root, "query-error") {
        p.set_text_content(Some(&error));
        let _ = p.class_list().toggle_with_force("hidden", error.is_empty());
    }
    if let Some(b) = find(root, "copy-query") {
        let _ = b.toggle_attribute_with_force("disabled", answer.is_err());
    }
    if let Some(s) = find(root, "query-copied") {
        s.set_text_content(None);
    }
}

/// The panel: closed at first; its form is put in when first opened and stays.
#[component]
pub fn QueryWriter() -> impl IntoView {
    let ctx = use_ctx();
    let (lang, state, parse_status) = (ctx.lang, ctx.state, ctx.parse_status);
    let body: NodeRef<leptos::html::Div> = NodeRef::new();
    let opened = RwSignal::new(false);
    let update = move || {
        let Some(root) = body.get_untracked() else {
            return;
        };
        let root: web_sys::Element = root.into();
        match spec_of(&root) {
            Ok(spec) => crate::reader_client::write_query(&spec, move |answer| {
                show(&root, lang.get_untracked(), &answer)
            }),
            Err(e) => show(&root, lang.get_untracked(), &Err(e)),
        }
    };
    // The template in the page's language (again when it changes, the values kept).
    Effect::new(move |_| {
        let l = lang.get();
        if !opened.get() {
            return;
        }
        let Some(root) = body.get_untracked() else {
            return;
        };
        let root: web_sys::Element = root.into();
        let first = root.child_element_count() == 0;
        let mut values: Vec<String> = TEXT_FIELDS
            .iter()
            .chain(&SELECTS)
            .map(|id| get(&root, id))
            .collect();
        let rates = checked(&root);
        if first {
            // The loaded history's days, else the last 30 whole days (UTC).
            let span = parse_status.with_untracked(|s| match s {
                ParseStatus::Done(Ok(p)) => p.report.span,
                _ => None,
            });
            let (a, b) = span.unwrap_or_else(|| {
                let today = (js_sys::Date::now() / 1000.0) as i64 / 86_400 * 86_400;
                (today - 30 * 86_400, today - 86_400)
            });
            let threshold = state.with_untracked(|s| s.parse_options.busy_threshold_percent);
            values = vec![
                query::day_text(a),
                query::day_text(b),
                "sacct.txt".into(),
                String::new(),
                threshold.to_string(),
                String::new(),
                String::new(),
                Engine::DuckDb.id().into(),
                "sacct".into(),
                "dcgm".into(),
            ];
        }
        root.set_inner_html(&template(l));
        for (id, v) in TEXT_FIELDS.iter().chain(&SELECTS).zip(&values) {
            set(&root, id, v);
        }
        if let Some(e) =
            find(&root, "query-rates").and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
        {
            e.set_checked(rates);
        }
        update();
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        if target.is_none_or(|t| t.get_attribute("data-testid").as_deref() != Some("copy-query")) {
            return;
        }
        let Some(root) = body.get_untracked() else {
            return;
        };
        let root: web_sys::Element = root.into();
        let text = find(&root, "query-text")
            .and_then(|p| p.text_content())
            .unwrap_or_default();
        wasm_bindgen_futures::spawn_local(async move {
            let ok = crate::browser::copy_text(&text).await;
            let l = lang.get_untracked();
            if let Some(s) = find(&root, "query-copied") {
                s.set_text_content(Some(if ok {
                    pick(l, "Copied.", "已复制。")
                } else {
                    pick(
                        l,
                        "Copying was refused: select the text and copy it.",
                        "复制被拒绝：请选中文本后手动复制。",
                    )
                }));
            }
        });
    };
    let rates: RwSignal<Option<Option<RatesResult>>> = RwSignal::new(None);
    let on_input = move |ev: web_sys::Event| {
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok());
        match target
            .filter(|t| t.get_attribute("data-testid").as_deref() == Some("query-rates-answer"))
        {
            Some(t) => crate::reader_client::read_rates(&t.value(), move |r| rates.set(Some(r))),
            None => update(),
        }
    };
    view! {
        <details class="query-writer" data-testid="query-writer"
            on:toggle=move |ev| {
                let open = ev.target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|d| d.has_attribute("open"));
                if open && !opened.get_untracked() { opened.set(true); }
            }>
            <summary data-testid="query-writer-open">
                {bilingual(lang, "Too big for the browser? Let your database add it up", "数据太大，浏览器装不下？让数据库先汇总")}
            </summary>
            <div class="query-body" node_ref=body
                on:input=on_input
                on:change=move |_| update()
                on:click=on_click></div>
            {move || rates.get().map(|r| {
                let l = lang.get();
                match r {
                    Some(Ok(cur)) => view! { <BillReport cur lang=l /> }.into_any(),
                    Some(Err(e)) => view! { <p class="field-error" role="alert" data-testid="query-rates-error">{rates_error(l, &e)}</p> }.into_any(),
                    None => view! { <p class="field-error" role="alert" data-testid="query-rates-error">{error_text(l, &QueryError::Unavailable(String::new()))}</p> }.into_any(),
                }
            })}
        </details>
    }
}

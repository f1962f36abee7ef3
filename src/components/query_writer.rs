//! "Too big for the browser? Let your database add it up" (issue 38): the user's choices
//! (engine, window, GPU types, team, path or table) become the query for the engine that
//! holds the history; the page reads its answer like any other file.
//!
//! The choices are a tool's, not the plan's: they are not in the link. The text is written by
//! `core::query` in the readers' worker (`reader_client::write_query`), so the main module
//! carries no writer; the form mounts the first time the panel is opened.

use leptos::prelude::*;

use crate::components::bilingual;
use crate::context::use_ctx;
use crate::core::query::{self, DuckSource, Engine, PromSource, QueryError, QuerySpec};
use crate::i18n::{pick, Lang};
use crate::state::ParseStatus;

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

/// What the table field names for an engine (`None`: no table).
fn table_label(l: Lang, e: Engine) -> Option<&'static str> {
    match e {
        Engine::Athena | Engine::AthenaCur2 => {
            Some(pick(l, "CUR table (database.table)", "CUR 表（数据库.表）"))
        }
        Engine::BigQuery => Some(pick(
            l,
            "Billing export table (project.dataset.table)",
            "账单导出表（项目.数据集.表）",
        )),
        Engine::Slurmdbd => Some(pick(l, "Cluster name", "集群名")),
        _ => None,
    }
}

fn is_bill(e: Engine, source: DuckSource) -> bool {
    matches!(e, Engine::Athena | Engine::AthenaCur2 | Engine::BigQuery)
        || (e == Engine::DuckDb && source != DuckSource::Sacct)
}

fn error_text(l: Lang, e: &QueryError) -> String {
    match (e, l) {
        (QueryError::BadWindow, Lang::En) => {
            "The last day must be on or after the first day.".into()
        }
        (QueryError::BadWindow, Lang::Zh) => "结束日期不能早于开始日期。".into(),
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

/// The panel: closed at first; its form mounts when first opened and stays.
#[component]
pub fn QueryWriter() -> impl IntoView {
    let lang = use_ctx().lang;
    let opened = RwSignal::new(false);
    view! {
        <details class="query-writer" data-testid="query-writer"
            on:toggle=move |ev| {
                use wasm_bindgen::JsCast;
                let open = ev.target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|d| d.has_attribute("open"));
                if open { opened.set(true); }
            }>
            <summary data-testid="query-writer-open">
                {bilingual(lang, "Too big for the browser? Let your database add it up", "数据太大，浏览器装不下？让数据库先汇总")}
            </summary>
            {move || opened.get().then(|| view! { <QueryForm /> })}
        </details>
    }
}

/// A labelled text input bound to `value`.
fn text_input(
    lang: Signal<Lang>,
    id: &'static str,
    label: (&'static str, &'static str),
    value: RwSignal<String>,
    kind: &'static str,
) -> impl IntoView {
    view! {
        <label class="query-field">
            <span>{bilingual(lang, label.0, label.1)}</span>
            <input type=kind class="field-text" data-testid=id spellcheck="false" autocomplete="off"
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev)) />
        </label>
    }
}

#[component]
fn QueryForm() -> impl IntoView {
    let ctx = use_ctx();
    let (lang, state) = (ctx.lang, ctx.state);
    // The window: the loaded history's days, else the last 30 whole days (UTC).
    let span = ctx.parse_status.with_untracked(|s| match s {
        ParseStatus::Done(Ok(p)) => p.report.span,
        _ => None,
    });
    let (first, last) = span.unwrap_or_else(|| {
        let today = (js_sys::Date::now() / 1000.0) as i64 / 86_400 * 86_400;
        (today - 30 * 86_400, today - 86_400)
    });
    let engine = RwSignal::new(Engine::DuckDb);
    let start = RwSignal::new(query::day_text(first));
    let end = RwSignal::new(query::day_text(last));
    let path = RwSignal::new("sacct.txt".to_string());
    let table = RwSignal::new(String::new());
    let types = RwSignal::new(String::new());
    let team = RwSignal::new(String::new());
    let source = RwSignal::new(DuckSource::Sacct);
    let prom = RwSignal::new(PromSource::Dcgm);
    let rates = RwSignal::new(false);
    let threshold = RwSignal::new(
        state
            .with_untracked(|s| s.parse_options.busy_threshold_percent)
            .to_string(),
    );
    // The choices as a spec; a day that is not a date is said here (the writer checks the rest).
    let spec = Memo::new(move |_| {
        let day = |s: RwSignal<String>| query::parse_day(&s.get());
        let (Some(a), Some(b)) = (day(start), day(end)) else {
            return Err(QueryError::BadWindow);
        };
        let e = engine.get();
        Ok(QuerySpec {
            engine: e,
            start: a,
            end: b + 86_400,
            types: types.with(|t| {
                t.split([',', '，'])
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect()
            }),
            busy_threshold_percent: threshold.with(|t| t.trim().parse().unwrap_or(f64::NAN)),
            team: team.with(|t| Some(t.trim().to_string()).filter(|t| !t.is_empty())),
            path: path.get(),
            duck_source: source.get(),
            table: table.get(),
            prom: prom.get(),
            rates: rates.get() && is_bill(e, source.get()),
        })
    });
    let text: RwSignal<Option<Result<String, QueryError>>> = RwSignal::new(None);
    Effect::new(move |_| match spec.get() {
        Ok(spec) => crate::reader_client::write_query(&spec, move |answer| text.set(Some(answer))),
        Err(e) => text.set(Some(Err(e))),
    });
    let query_text = move || {
        text.with(|t| {
            t.as_ref()
                .and_then(|t| t.as_ref().ok())
                .cloned()
                .unwrap_or_default()
        })
    };
    let copied = RwSignal::new(None::<bool>);
    let copy = move |_| {
        let t = query_text();
        wasm_bindgen_futures::spawn_local(async move {
            copied.set(Some(crate::browser::copy_text(&t).await));
        });
    };
    let shown = move |on: fn(Engine, DuckSource) -> bool| move || !on(engine.get(), source.get());
    view! {
        <p class="field-hint">
            {bilingual(lang,
                "Choose where the history lives: the page writes the query that adds it up by the hour. Run it there, then paste or drop its answer above: the page recognises it.",
                "选择历史数据所在的系统：页面会写出按小时汇总的查询。在那里运行后，把结果粘贴或拖到上方：页面会自动识别。")}
        </p>
        <div class="query-form">
            <label class="query-field">
                <span>{bilingual(lang, "Engine", "引擎")}</span>
                <select data-testid="query-engine" on:change=move |ev| {
                    if let Some(e) = Engine::from_id(&event_target_value(&ev)) { engine.set(e); copied.set(None); }
                }>
                    {Engine::ALL.into_iter().map(|e| view! {
                        <option value=e.id() selected=move || engine.get() == e>{move || engine_name(lang.get(), e)}</option>
                    }).collect_view()}
                </select>
            </label>
            {text_input(lang.into(), "query-start", ("First day (UTC)", "开始日期（UTC）"), start, "date")}
            {text_input(lang.into(), "query-end", ("Last day (UTC, included)", "结束日期（UTC，含当天）"), end, "date")}
            <div class="query-field-group" class:hidden=shown(|e, _| e == Engine::DuckDb)>
                <label class="query-field">
                    <span>{bilingual(lang, "Reads", "读取")}</span>
                    <select data-testid="query-source" on:change=move |ev| {
                        source.set(match event_target_value(&ev).as_str() {
                            "cur" => DuckSource::Cur,
                            "cur2" => DuckSource::Cur2,
                            _ => DuckSource::Sacct,
                        })
                    }>
                        <option value="sacct">{bilingual(lang, "a sacct -P export", "sacct -P 导出")}</option>
                        <option value="cur">{bilingual(lang, "CUR files (legacy columns)", "CUR 文件（旧版列名）")}</option>
                        <option value="cur2">{bilingual(lang, "CUR 2.0 files", "CUR 2.0 文件")}</option>
                    </select>
                </label>
                {text_input(lang.into(), "query-path", ("File or glob", "文件或通配符"), path, "text")}
            </div>
            <label class="query-field" class:hidden=move || table_label(Lang::En, engine.get()).is_none()>
                <span>{move || table_label(lang.get(), engine.get()).unwrap_or_default()}</span>
                <input type="text" class="field-text" data-testid="query-table" spellcheck="false" autocomplete="off"
                    prop:value=move || table.get()
                    on:input=move |ev| table.set(event_target_value(&ev)) />
            </label>
            <label class="query-field" class:hidden=shown(|e, _| e == Engine::PromQl)>
                <span>{bilingual(lang, "Metric", "指标")}</span>
                <select data-testid="query-prom" on:change=move |ev| {
                    prom.set(if event_target_value(&ev) == "kube" { PromSource::KubeRequests } else { PromSource::Dcgm })
                }>
                    <option value="dcgm">{bilingual(lang, "DCGM utilisation (busy GPUs)", "DCGM 利用率（忙碌 GPU）")}</option>
                    <option value="kube">{bilingual(lang, "Kubernetes GPU requests", "Kubernetes GPU 申请量")}</option>
                </select>
            </label>
            <div class="query-field-group" class:hidden=move || !(engine.get() == Engine::PromQl && prom.get() == PromSource::Dcgm)>
                {text_input(lang.into(), "query-threshold", ("Busy at or above (%)", "忙碌阈值（%）"), threshold, "number")}
            </div>
            {text_input(lang.into(), "query-types", ("GPU types (comma-separated; empty: all)", "GPU 型号（逗号分隔；留空为全部）"), types, "text")}
            {text_input(lang.into(), "query-team", ("Group by team (tag key, label or Slurm field; empty: none)", "按团队分组（标签键、label 或 Slurm 字段；留空为不分组）"), team, "text")}
            <label class="query-check" class:hidden=shown(is_bill)>
                <input type="checkbox" data-testid="query-rates"
                    prop:checked=move || rates.get()
                    on:change=move |ev| rates.set(event_target_checked(&ev)) />
                {bilingual(lang, "Effective rates per GPU model instead (to fill the prices)", "改为按 GPU 型号的实际单价（用于填入价格）")}
            </label>
        </div>
        <p class="field-error" role="alert" data-testid="query-error"
            class:hidden=move || text.with(|t| !matches!(t, Some(Err(_))))>
            {move || text.with(|t| match t { Some(Err(e)) => error_text(lang.get(), e), _ => String::new() })}
        </p>
        <div class="snippet">
            <pre class="query-text" data-testid="query-text" tabindex="0"
                data-ready=move || text.with(|t| if matches!(t, Some(Ok(_))) { "true" } else { "false" })>{query_text}</pre>
        </div>
        <div class="inline-controls">
            <button type="button" data-testid="copy-query" on:click=copy
                disabled=move || text.with(|t| !matches!(t, Some(Ok(_))))>
                {bilingual(lang, "Copy the query", "复制查询")}
            </button>
            <span class="field-hint" role="status" data-testid="query-copied">
                {move || match copied.get() {
                    Some(true) => pick(lang.get(), "Copied.", "已复制。"),
                    Some(false) => pick(lang.get(), "Copying was refused: select the text and copy it.", "复制被拒绝：请选中文本后手动复制。"),
                    None => "",
                }}
            </span>
        </div>
    }
}

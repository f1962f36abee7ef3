//! "Too big for the browser? Let your database add it up" (issue 38): the user's choices
//! (engine, window, GPU types, team, path or table) become the query for the engine that
//! holds the history; the page reads its answer like any other file.
//!
//! The choices are a tool's, not the plan's: they are not in the link. Everything but the DOM
//! is in the query writer's worker (`query_client`, fetched when the panel is first opened):
//! the form's template in the page's language (`present::query_form`), the reading of the
//! choices, the queries (`core::query`), every message and the rates reader. This side puts
//! the template in, sends the fields' values on each input (one listener for all) and shows
//! what comes back: written with `view!` and the writers here, the panel cost the main module
//! 12.6 KB gzip (measured). What each engine shows is CSS on the form's `data-engine`,
//! `data-source`, `data-prom` and `data-bill` (style/fields.css). No user text ever enters
//! the template: values are set as properties.

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use crate::components::bilingual;
use crate::components::bill_report::BillReport;
use crate::core::ingest::CurReport;
use crate::i18n::{pick, Lang};
use crate::page::context::use_ctx;
use crate::state::ParseStatus;
use crate::workers::query_client::{ask, Kind};
use crate::workers::reader_wire::field;

/// Said when the query writer's worker could not be reached.
const UNAVAILABLE: (&str, &str) = (
    "The query writer could not be loaded. Reload the page to try again.",
    "无法加载查询生成器。请刷新页面重试。",
);

fn find(root: &web_sys::Element, id: &str) -> Option<web_sys::Element> {
    root.query_selector(&format!("[data-testid={id}]"))
        .ok()
        .flatten()
}

fn prop(v: &JsValue, name: &str) -> Option<JsValue> {
    js_sys::Reflect::get(v, &name.into())
        .ok()
        .filter(|v| !v.is_undefined())
}

/// Every field of the form as `[id, value]` (a check box: `true` / `false`).
fn values(root: &web_sys::Element) -> js_sys::Array {
    let out = js_sys::Array::new();
    let Ok(list) = root.query_selector_all("input[data-testid], select[data-testid]") else {
        return out;
    };
    for i in 0..list.length() {
        let Some(e) = list
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        else {
            continue;
        };
        let id = e.get_attribute("data-testid").unwrap_or_default();
        let value = match e.dyn_ref::<web_sys::HtmlInputElement>() {
            Some(i) if i.type_() == "checkbox" => i.checked().to_string().into(),
            _ => prop(&e, "value").unwrap_or_default(),
        };
        out.push(&js_sys::Array::of2(&id.into(), &value));
    }
    out
}

/// Put `values` (`[id, value]` pairs) back into the form's fields.
fn restore(root: &web_sys::Element, values: &js_sys::Array) {
    for pair in values.iter() {
        let pair: js_sys::Array = pair.unchecked_into();
        let (Some(id), value) = (pair.get(0).as_string(), pair.get(1)) else {
            continue;
        };
        if let Some(e) = find(root, &id) {
            match e.dyn_ref::<web_sys::HtmlInputElement>() {
                Some(i) if i.type_() == "checkbox" => {
                    i.set_checked(value.as_string().as_deref() == Some("true"))
                }
                _ => {
                    let _ = js_sys::Reflect::set(&e, &"value".into(), &value);
                }
            }
        }
    }
}

/// Show the worker's answer to the form's values (`None`: no worker).
fn show(root: &web_sys::Element, l: Lang, answer: Option<JsValue>) {
    let (text, error) = match &answer {
        Some(a) => (
            prop(a, field::TEXT_OUT).and_then(|t| t.as_string()),
            prop(a, field::ERROR)
                .and_then(|t| t.as_string())
                .unwrap_or_default(),
        ),
        None => (None, pick(l, UNAVAILABLE.0, UNAVAILABLE.1).to_string()),
    };
    if let Some(attrs) = answer.as_ref().and_then(|a| prop(a, field::ATTRS)) {
        for pair in js_sys::Array::from(&attrs).iter() {
            let pair: js_sys::Array = pair.unchecked_into();
            if let (Some(k), Some(v)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
                let _ = root.set_attribute(&k, &v);
            }
        }
    }
    if let Some(pre) = find(root, "query-text") {
        pre.set_text_content(Some(text.as_deref().unwrap_or_default()));
        let _ = pre.set_attribute("data-ready", if text.is_some() { "true" } else { "false" });
    }
    if let Some(p) = find(root, "query-error") {
        p.set_text_content(Some(&error));
        let _ = p.class_list().toggle_with_force("hidden", error.is_empty());
    }
    if let Some(b) = find(root, "copy-query") {
        let _ = b.toggle_attribute_with_force("disabled", text.is_none());
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
    let root = move || body.get_untracked().map(web_sys::Element::from);
    let update = move || {
        let Some(r) = root() else {
            return;
        };
        ask(
            Kind::Query,
            lang.get_untracked(),
            &[(field::FIELDS, values(&r).into())],
            move |a| show(&r, lang.get_untracked(), a),
        );
    };
    // The template in the page's language (again when it changes, the values kept).
    Effect::new(move |_| {
        let l = lang.get();
        if !opened.get() {
            return;
        }
        let Some(r) = root() else {
            return;
        };
        let kept = if r.child_element_count() > 0 {
            values(&r)
        } else {
            // The loaded history's days, else the last 30 whole days (UTC); the page's
            // busy threshold.
            let span = parse_status.with_untracked(|s| match s {
                ParseStatus::Done(Ok(p)) => p.report.span,
                _ => None,
            });
            let (a, b) = span.unwrap_or_else(|| {
                let today = (js_sys::Date::now() / 1000.0) as i64 / 86_400 * 86_400;
                (today - 30 * 86_400, today - 86_400)
            });
            let threshold = state.with_untracked(|s| s.parse_options.busy_threshold_percent);
            let day = crate::core::query::day_text;
            [
                ("query-engine", "duckdb".to_string()),
                ("query-start", day(a)),
                ("query-end", day(b)),
                ("query-path", "sacct.txt".into()),
                ("query-threshold", threshold.to_string()),
            ]
            .iter()
            .map(|(k, v)| JsValue::from(js_sys::Array::of2(&(*k).into(), &v.as_str().into())))
            .collect()
        };
        ask(Kind::Form, l, &[(field::FORM, JsValue::TRUE)], move |a| {
            let html = a
                .as_ref()
                .and_then(|a| prop(a, field::FORM_HTML))
                .and_then(|h| h.as_string());
            match html {
                Some(html) => {
                    r.set_inner_html(&html);
                    restore(&r, &kept);
                    update();
                }
                None => {
                    r.set_inner_html(r#"<pre data-testid="query-text" data-ready="false"></pre><p class="field-error" role="alert" data-testid="query-error"></p>"#);
                    show(&r, l, None);
                }
            }
        });
    });
    let rates: RwSignal<Option<Option<Result<CurReport, String>>>> = RwSignal::new(None);
    let on_input = move |ev: web_sys::Event| {
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok());
        match target
            .filter(|t| t.get_attribute("data-testid").as_deref() == Some("query-rates-answer"))
        {
            Some(t) => ask(
                Kind::Rates,
                lang.get_untracked(),
                &[(field::RATES, t.value().into())],
                move |a| {
                    let bytes = a.as_ref().and_then(|a| prop(a, field::RATES_ANSWER));
                    rates.set(Some(bytes.and_then(|b| {
                        crate::workers::reader_wire::decode_rates(
                            &js_sys::Uint8Array::new(&b).to_vec(),
                        )
                    })))
                },
            ),
            None => update(),
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        if target.is_none_or(|t| t.get_attribute("data-testid").as_deref() != Some("copy-query")) {
            return;
        }
        let Some(r) = root() else {
            return;
        };
        let text = find(&r, "query-text")
            .and_then(|p| p.text_content())
            .unwrap_or_default();
        wasm_bindgen_futures::spawn_local(async move {
            let ok = crate::web::browser::copy_text(&text).await;
            let l = lang.get_untracked();
            if let Some(s) = find(&r, "query-copied") {
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
                    Some(Err(e)) => view! { <p class="field-error" role="alert" data-testid="query-rates-error">{e}</p> }.into_any(),
                    None => view! { <p class="field-error" role="alert" data-testid="query-rates-error">{pick(l, UNAVAILABLE.0, UNAVAILABLE.1)}</p> }.into_any(),
                }
            })}
        </details>
    }
}

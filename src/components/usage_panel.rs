//! Usage: sliders (GPUs × hours) or a history (paste / drop / file / example), lookback,
//! waterline settings.

use leptos::prelude::*;

use crate::components::bilingual;
use wasm_bindgen::JsCast;

use crate::components::input_fields::InputFields;
use crate::components::parse_report::ParseReportView;
use crate::components::query_writer::QueryWriter;
use crate::core::examples::{self, Example};
use crate::core::profile::{Lookback, LOOKBACK_CHOICES};
use crate::core::prom_samples::PromSample;
use crate::core::zone::{offset_label, ZoneChoice};
use crate::i18n::{pick, Lang};
use crate::inputs::Group;
use crate::page::context::{memo_of, use_ctx, HistoryFile, Part};
use crate::state::UsageMode;

fn sample_name(l: Lang, s: Example) -> &'static str {
    match s {
        Example::SteadyPretraining => pick(l, "Steady pre-training cluster", "稳定的预训练集群"),
        Example::BurstyLab => pick(l, "Bursty research lab", "波动的研究实验室"),
        Example::RecentDrop => pick(l, "Usage dropped last week", "上周用量下降的团队"),
    }
}

fn prom_sample_name(l: Lang, s: PromSample) -> &'static str {
    match s {
        PromSample::Dcgm => pick(
            l,
            "DCGM utilisation (12 GPUs, Prometheus)",
            "DCGM 利用率（12 块 GPU，Prometheus）",
        ),
        PromSample::Kubernetes => pick(
            l,
            "Kubernetes GPU requests (Prometheus)",
            "Kubernetes GPU 申请量（Prometheus）",
        ),
    }
}

fn lookback_name(l: Lang, lb: Lookback) -> String {
    match (lb, l) {
        (Lookback::Days(d), Lang::En) => format!("last {d} days"),
        (Lookback::Days(d), Lang::Zh) => format!("最近 {d} 天"),
        (Lookback::All, _) => pick(l, "all history", "全部历史").to_string(),
    }
}

fn lookback_key(lb: Lookback) -> String {
    match lb {
        Lookback::Days(d) => d.to_string(),
        Lookback::All => "all".to_string(),
    }
}

/// Above this size the textarea shows a preview: Chromium lays out a multi-megabyte
/// textarea on every frame (measured: a 12 MB paste read in 31 s shown, 1.9 s previewed).
/// The full text is kept in the state and read; only the display is shortened.
pub const PREVIEW_ABOVE_BYTES: usize = 512 * 1024;
const PREVIEW_LINES: usize = 100;

/// The first lines of a large text, for display.
fn preview(text: &str) -> String {
    let mut end = text.len();
    for (count, (i, _)) in text.match_indices('\n').enumerate() {
        if count + 1 == PREVIEW_LINES {
            end = i;
            break;
        }
    }
    format!("{}\n…", &text[..end])
}

/// Put a history into the state, and into the textarea (a preview when large). A text
/// replaces a file read from disk.
fn set_history(
    text: String,
    usage_text: RwSignal<String>,
    usage_file: RwSignal<Option<HistoryFile>, LocalStorage>,
    textarea: NodeRef<leptos::html::Textarea>,
    from_textarea: bool,
) {
    let big = text.len() > PREVIEW_ABOVE_BYTES;
    if let Some(el) = textarea.get_untracked() {
        if big {
            el.set_value(&preview(&text));
        } else if !from_textarea {
            el.set_value(&text);
        }
    }
    if usage_file.with_untracked(Option::is_some) {
        usage_file.set(None);
    }
    usage_text.set(text);
}

/// The text box's value after an input event (through `browser::js_text`: a 12 MB paste).
fn box_text(ev: &web_sys::Event) -> String {
    ev.target()
        .and_then(|t| js_sys::Reflect::get(&t, &wasm_bindgen::JsValue::from_str("value")).ok())
        .and_then(|v| crate::web::browser::js_text(&v))
        .unwrap_or_else(|| event_target_value(ev))
}

/// Bytes of a large file read for the box's preview.
const PREVIEW_READ_BYTES: f64 = 64.0 * 1024.0;

/// Read a dropped or picked file into the history: as text into the box when it is small,
/// else from disk in slices (`HistoryFile`; the box previews its first lines).
fn read_file(
    file: web_sys::File,
    usage_text: RwSignal<String>,
    usage_file: RwSignal<Option<HistoryFile>, LocalStorage>,
    textarea: NodeRef<leptos::html::Textarea>,
) {
    leptos::task::spawn_local(async move {
        let size = file.size();
        if size <= PREVIEW_ABOVE_BYTES as f64 {
            if let Ok(v) = wasm_bindgen_futures::JsFuture::from(file.text()).await {
                if let Some(text) = crate::web::browser::js_text(&v) {
                    set_history(text, usage_text, usage_file, textarea, false);
                }
            }
            return;
        }
        let mut head = Vec::new();
        crate::web::browser::read_blob(&file, 0.0, PREVIEW_READ_BYTES.min(size), &mut head).await;
        let head = String::from_utf8_lossy(&head);
        // Whole lines only (the read may end inside one).
        let head = head.rfind('\n').map_or(&*head, |i| &head[..i]);
        let preview = preview(head);
        if let Some(el) = textarea.get_untracked() {
            el.set_value(&preview);
        }
        usage_text.set(String::new());
        usage_file.set(Some(HistoryFile {
            name: file.name().chars().take(200).collect(),
            size,
            preview,
            file,
        }));
    });
}

/// Fixed offsets offered besides whole hours (minutes east of UTC).
const PART_HOUR_OFFSETS: [i32; 10] = [-570, -210, 210, 270, 330, 345, 390, 570, 630, 765];

/// The zone picker's options `(key, label)`: automatic, the browser's zone, common named
/// zones, the chosen one if not among them, then fixed offsets west to east.
fn zone_options(chosen: ZoneChoice) -> Vec<(String, String)> {
    let mut out = vec![("auto".to_string(), String::new())];
    let mut names: Vec<String> = Vec::new();
    if let Some(own) = crate::web::time_zones::browser_zone_name() {
        names.push(own);
    }
    for n in crate::web::time_zones::NAMED_ZONES {
        if !names.iter().any(|x| x == n) {
            names.push(n.to_string());
        }
    }
    if let ZoneChoice::Named(n) = &chosen {
        if !names.contains(n) {
            names.push(n.clone());
        }
    }
    out.extend(names.into_iter().map(|n| (n.clone(), n)));
    let mut offsets: Vec<i32> = (-12..=14).map(|h| h * 60).collect();
    offsets.extend(PART_HOUR_OFFSETS);
    if let ZoneChoice::Offset(m) = chosen {
        if !offsets.contains(&m) {
            offsets.push(m);
        }
    }
    offsets.sort_unstable();
    out.extend(
        offsets
            .into_iter()
            .map(|m| (m.to_string(), offset_label(m))),
    );
    out
}

#[component]
pub fn UsagePanel() -> impl IntoView {
    let ctx = use_ctx();
    let state = ctx.state;
    let lang = ctx.lang;
    let usage_text = ctx.usage_text;
    let usage_file = ctx.usage_file;
    let mode = memo_of(state, |s| s.mode);
    let mode = move || mode.get();
    let lookback = memo_of(state, |s| s.inputs.lookback);
    // § 22 the trend over the lookback, beside the history's report.
    let trend = Part::of(|p| &p.growth);
    let day_start = memo_of(state, |s| s.inputs.day_start_hour);
    let tz = memo_of(state, |s| s.tz.clone());
    let day_end = memo_of(state, |s| s.inputs.day_end_hour);
    let textarea: NodeRef<leptos::html::Textarea> = NodeRef::new();
    // A history that was there before the box (a link's or the autosaved one): show it.
    textarea.on_load(move |el| {
        usage_text.with_untracked(|t| {
            if t.len() > PREVIEW_ABOVE_BYTES {
                el.set_value(&preview(t));
            } else if !t.is_empty() {
                el.set_value(t);
            }
        })
    });
    let big = Memo::new(move |_| {
        usage_file.with(Option::is_some) || usage_text.with(|t| t.len() > PREVIEW_ABOVE_BYTES)
    });
    let dragging = RwSignal::new(false);

    // A sample's text for the 30 days ending at the start of the current hour, in the
    // user's time zone, put into the box.
    let load_text = move |text: &dyn Fn(i64, i32) -> String| {
        let now = (js_sys::Date::now() / 1000.0) as i64;
        let start = now - now.rem_euclid(3600) - 30 * 24 * 3600;
        let offset =
            state.with_untracked(|st| crate::web::time_zones::resolve(&st.tz).offset_at(now));
        set_history(text(start, offset), usage_text, usage_file, textarea, false);
        state.update(|st| st.mode = UsageMode::Data);
    };
    let load_sample = move |s: Example| load_text(&|start, offset| examples::csv(s, start, offset));
    let load_prom = move |s: PromSample| load_text(&|start, offset| s.json(start, offset));
    // The example bill: an AWS Cost and Usage Report of the bursty lab's hours.
    let load_bill = move |_| load_text(&crate::core::cur_samples::sample);

    view! {
        <section class="card" aria-labelledby="usage-heading">
            <h2 id="usage-heading">{bilingual(lang, "Usage", "用量")}</h2>
            <fieldset class="mode-switch">
                <legend>{bilingual(lang, "Usage from", "用量来源")}</legend>
                <label>
                    <input type="radio" name="usage-mode" data-testid="mode-sliders"
                        prop:checked=move || mode() == UsageMode::Sliders
                        on:change=move |_| state.update(|s| s.mode = UsageMode::Sliders) />
                    {bilingual(lang, "Sliders (no data)", "滑块（无数据）")}
                </label>
                <label>
                    <input type="radio" name="usage-mode" data-testid="mode-data"
                        prop:checked=move || mode() == UsageMode::Data
                        on:change=move |_| state.update(|s| s.mode = UsageMode::Data) />
                    {bilingual(lang, "My usage history", "我的用量历史")}
                </label>
            </fieldset>
            <div class="usage-sliders" class:hidden=move || mode() != UsageMode::Sliders>
                <InputFields group_of=Group::Usage />
            </div>
            <div class="usage-data" class:hidden=move || mode() != UsageMode::Data>
                <label class="field-label" for="usage-data">
                    {bilingual(lang, "Hourly GPU usage (paste, drop a file, or pick one)", "每小时 GPU 用量（粘贴、拖入或选择文件）")}
                </label>
                <p class="field-hint" id="usage-data-hint">
                    {bilingual(lang, "CSV/TSV with or without timestamps (any date form spreadsheets write), one number per line, Grafana CSV, Prometheus query_range JSON (DCGM exporter, Kubernetes GPU requests), nvidia-smi logs, Slurm accounting (sacct -P), job logs (start,end,gpus), AWS Cost and Usage Reports (CSV). ", "支持带或不带时间戳的 CSV/TSV（表格软件写出的各种日期格式）、每行一个数字、Grafana CSV、Prometheus query_range JSON（DCGM exporter、Kubernetes GPU 申请量）、nvidia-smi 日志、Slurm 记账（sacct -P）、任务日志（开始,结束,GPU数）、AWS 成本和使用情况报告（CSV）。")}
                    <a href="docs/formats.html">{bilingual(lang, "Formats read", "支持的格式")}</a>
                </p>
                {move || big.get().then(|| {
                    let l = lang.get();
                    let file = usage_file.with(|f| f.as_ref().map(|f| (f.name.clone(), f.size)));
                    let note = match file {
                        Some((name, size)) => {
                            let mb = format!("{:.1}", size / 1_048_576.0);
                            match l {
                                Lang::En => format!("File {name} ({mb} MB) is read from disk in slices, never held whole: the box shows its first lines. "),
                                Lang::Zh => format!("文件 {name}（{mb} MB）从磁盘分段读取，不会整体载入内存：输入框只显示开头几行。"),
                            }
                        }
                        None => {
                            let (bytes, lines) = usage_text.with(|t| (t.len(), t.lines().count()));
                            let mb = format!("{:.1}", bytes as f64 / 1_048_576.0);
                            match l {
                                Lang::En => format!("Large history ({mb} MB, {lines} lines): the box shows the first {PREVIEW_LINES} lines; the whole text is kept and read. "),
                                Lang::Zh => format!("用量历史较大（{mb} MB，{lines} 行）：输入框只显示前 {PREVIEW_LINES} 行，完整内容已保留并读取。"),
                            }
                        }
                    };
                    view! {
                        <p class="field-hint" data-testid="usage-preview-note">
                            {note}
                            <button type="button" data-testid="usage-clear" on:click=move |_| set_history(String::new(), usage_text, usage_file, textarea, false)>
                                {pick(l, "Clear", "清空")}
                            </button>
                        </p>
                    }
                })}
                <textarea
                    id="usage-data"
                    data-testid="usage-data"
                    node_ref=textarea
                    class="usage-textarea"
                    class:dragging=move || dragging.get()
                    rows="8"
                    spellcheck="false"
                    aria-describedby="usage-data-hint"
                    placeholder="2026-11-01 00:00,3\n2026-11-01 01:00,2.5\n…"
                    prop:readOnly=move || big.get()
                    on:input=move |ev| set_history(box_text(&ev), usage_text, usage_file, textarea, true)
                    on:dragover=move |ev: web_sys::DragEvent| { ev.prevent_default(); dragging.set(true); }
                    on:dragleave=move |_| dragging.set(false)
                    on:drop=move |ev: web_sys::DragEvent| {
                        ev.prevent_default();
                        dragging.set(false);
                        if let Some(file) = ev.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
                            read_file(file, usage_text, usage_file, textarea);
                        }
                    }
                ></textarea>
                <div class="inline-controls">
                    <label class="file-pick">
                        {bilingual(lang, "Choose a file…", "选择文件……")}
                        <input type="file" data-testid="usage-file" accept=".csv,.tsv,.txt,.json,.log,.gz,text/*,application/json,application/gzip"
                            on:change=move |ev| {
                                let input: Option<web_sys::HtmlInputElement> = ev.target().and_then(|t| t.dyn_into().ok());
                                if let Some(file) = input.and_then(|i| i.files()).and_then(|f| f.get(0)) {
                                    read_file(file, usage_text, usage_file, textarea);
                                }
                            } />
                    </label>
                    <span class="field-hint">{bilingual(lang, "Try an example:", "试用示例：")}</span>
                    {Example::ALL.into_iter().map(|s| view! {
                        <button type="button" data-testid=format!("sample-{}", s.key()) on:click=move |_| load_sample(s)>
                            {move || sample_name(lang.get(), s)}
                        </button>
                    }).collect_view()}
                    {PromSample::ALL.into_iter().map(|s| view! {
                        <button type="button" data-testid=format!("sample-{}", s.key()) on:click=move |_| load_prom(s)>
                            {move || prom_sample_name(lang.get(), s)}
                        </button>
                    }).collect_view()}
                    <button type="button" data-testid="sample-slurm" on:click=move |_| load_text(&crate::core::slurm_sample::sacct)>
                        {move || pick(lang.get(), "Slurm cluster (sacct export)", "Slurm 集群（sacct 导出）")}
                    </button>
                    <button type="button" data-testid="sample-aws-cur" on:click=load_bill>
                        {bilingual(lang, "AWS bill (Cost and Usage Report)", "AWS 账单（成本和使用情况报告）")}
                    </button>
                </div>
                <QueryWriter />
                <ParseReportView />
                <div class="inline-controls">
                    <label>
                        {bilingual(lang, "Lookback", "回看窗口")}
                        <select data-testid="lookback" on:change=move |ev| {
                            let v = event_target_value(&ev);
                            let lb = if v == "all" { Some(Lookback::All) } else { v.parse().ok().map(Lookback::Days) };
                            if let Some(lb) = lb { state.update(|s| s.inputs.lookback = lb); }
                        }>
                            {LOOKBACK_CHOICES.into_iter().map(|lb| view! {
                                <option value=lookback_key(lb) selected=move || lookback.get() == lb>
                                    {move || lookback_name(lang.get(), lb)}
                                </option>
                            }).collect_view()}
                        </select>
                    </label>
                    <label>
                        {bilingual(lang, "Planning time zone", "规划时区")}
                        <select data-testid="time-zone" on:change=move |ev| {
                            if let Some(z) = ZoneChoice::from_key(&event_target_value(&ev)) {
                                state.update(|s| s.tz = z);
                            }
                        }>
                            {move || zone_options(tz.get()).into_iter().map(|(key, label)| {
                                let selected = tz.with_untracked(|t| t.key() == key);
                                let label = if key == "auto" {
                                    let l = lang.get();
                                    let own = crate::web::time_zones::browser_zone_name().unwrap_or_else(|| pick(l, "unknown", "未知").to_string());
                                    match l {
                                        Lang::En => format!("automatic: the file's offset, else {own}"),
                                        Lang::Zh => format!("自动：文件自带时区，否则 {own}"),
                                    }
                                } else {
                                    label
                                };
                                view! { <option value=key selected=selected>{label}</option> }
                            }).collect_view()}
                        </select>
                    </label>
                    <label>
                        {bilingual(lang, "Daytime from", "白天从")}
                        <select data-testid="day-start" on:change=move |ev| {
                            if let Ok(h) = event_target_value(&ev).parse::<u32>() { state.update(|s| s.inputs.day_start_hour = h); }
                        }>
                            {(0..24u32).map(|h| view! {
                                <option value=h.to_string() selected=move || day_start.get() == h>{format!("{h:02}:00")}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <label>
                        {bilingual(lang, "to", "到")}
                        <select data-testid="day-end" on:change=move |ev| {
                            if let Ok(h) = event_target_value(&ev).parse::<u32>() { state.update(|s| s.inputs.day_end_hour = h); }
                        }>
                            {(1..=24u32).map(|h| view! {
                                <option value=h.to_string() selected=move || day_end.get() == h>{format!("{h:02}:00")}</option>
                            }).collect_view()}
                        </select>
                    </label>
                </div>
                <p class="field-hint" data-testid="history-trend">{trend.text(|g| g.history_line.clone())}</p>
                <InputFields group_of=Group::Quantile />
            </div>
        </section>
    }
}

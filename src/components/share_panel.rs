//! Share: the permanent link (copy, length, shorter fallbacks when too long), Markdown
//! for planning docs, CSV of the sizing table and the review, the autosave's notices,
//! and the link in the print view. Needs `App`'s `ShareCtx`; renders nothing without it.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::core::profile::Lookback;
use crate::i18n::{pick, Lang};
use crate::link::{self, LinkState, PRACTICAL_LINK_CHARS};
use crate::page::context::{use_ctx, ShareCtx};
use crate::page::export;
use crate::state::ParseStatus;
use crate::state::AUTOSAVE_KEY;
use crate::web::browser;

/// A shorter link offered when the full one is too long.
#[derive(Clone, PartialEq)]
struct Fallback {
    histogram: bool,
    /// The hourly history without its teams (issue 37).
    no_teams: bool,
    link: String,
}

fn chars(lang: Lang, n: usize) -> String {
    match lang {
        Lang::En => format!("{n} characters"),
        Lang::Zh => format!("{n} 个字符"),
    }
}

/// Copy `text`; on success show `done` in `status`, else select `input` (if any) and ask
/// the user to copy by hand.
fn copy(
    text: String,
    status: RwSignal<Option<&'static str>>,
    done: (&'static str, &'static str),
    lang: Lang,
    input: Option<NodeRef<leptos::html::Input>>,
) {
    leptos::task::spawn_local(async move {
        if browser::copy_text(&text).await {
            status.set(Some(pick(lang, done.0, done.1)));
        } else {
            if let Some(el) = input.and_then(|i| i.get_untracked()) {
                let _ = el.focus();
                el.select();
            }
            status.set(Some(pick(
                lang,
                "Copying was refused: the link is selected, press Ctrl+C (⌘C).",
                "无法自动复制：链接已选中，请按 Ctrl+C（⌘C）。",
            )));
        }
    });
}

#[component]
pub fn SharePanel() -> impl IntoView {
    let Some(share) = use_context::<ShareCtx>() else {
        return ().into_any();
    };
    let ctx = use_ctx();
    let lang = ctx.lang;
    let base = browser::page_base();
    let field_base = base.clone();
    let link = Memo::new(move |_| share.query.with(|q| format!("{base}{q}")));
    let length = Memo::new(move |_| link.with(|l| l.chars().count()));
    let too_long = Memo::new(move |_| length.get() > PRACTICAL_LINK_CHARS);
    let link_status = RwSignal::new(None::<&'static str>);
    let md_status = RwSignal::new(None::<&'static str>);
    let input: NodeRef<leptos::html::Input> = NodeRef::new();
    // A new link invalidates "copied".
    Effect::new(move |_| {
        link.track();
        link_status.set(None);
    });
    // The field shows the link in the address bar (`ShareCtx::written`); Copy copies the
    // link itself.
    let written = share.written;

    // Shorter links, computed only when the full one is too long. The shorter histories are
    // deflated once per history and lookback (a year of a fleet takes milliseconds), not on
    // every keystroke; only the query around them follows the inputs.
    let lookback = Memo::new(move |_| ctx.state.with(|s| s.inputs.lookback));
    let fallback_data = Memo::new(move |_| {
        if !too_long.get() {
            return (None, None, None);
        }
        let lookback = lookback.get();
        ctx.parse_status.with(|p| {
            let ParseStatus::Done(Ok(parsed)) = p else {
                return (None, None, None);
            };
            let window = link::trim_history(&link::link_history(parsed), lookback);
            let shorter =
                (window.series.len() < parsed.series.len()).then(|| link::encode_history(&window));
            // A histogram is one series: a typed history's link keeps its types (docs/url.md).
            let histogram = window
                .types
                .is_empty()
                .then(|| link::encode_series(&window.series, true));
            // The teams take most of a long link: the window's hours without them.
            let no_teams = (!window.teams.is_empty()).then(|| {
                let mut plain = window.clone();
                plain.teams.clear();
                link::encode_history(&plain)
            });
            (shorter, histogram, no_teams)
        })
    });
    let fallbacks = Memo::new(move |_| {
        fallback_data.with(|(shorter, histogram, no_teams)| {
            if shorter.is_none() && histogram.is_none() && no_teams.is_none() {
                return Vec::new();
            }
            let base = browser::page_base();
            let state = ctx.state.get();
            let mut out = Vec::new();
            if let Some(data) = shorter {
                out.push(Fallback {
                    histogram: false,
                    no_teams: false,
                    link: format!("{base}{}", link::encode(&LinkState::of(&state), Some(data))),
                });
            }
            if let Some(data) = no_teams {
                out.push(Fallback {
                    histogram: false,
                    no_teams: true,
                    link: format!("{base}{}", link::encode(&LinkState::of(&state), Some(data))),
                });
            }
            if let Some(data) = histogram {
                let mut hist = LinkState::of(&state);
                hist.inputs.lookback = Lookback::All;
                out.push(Fallback {
                    histogram: true,
                    no_teams: false,
                    link: format!("{base}{}", link::encode(&hist, Some(data))),
                });
            }
            out
        })
    });

    let copy_link = move |_| {
        copy(
            link.get_untracked(),
            link_status,
            ("Link copied", "链接已复制"),
            lang.get_untracked(),
            Some(input),
        )
    };
    let page = crate::page::context::use_page().page;
    let copy_markdown = move |_| {
        let l = lang.get_untracked();
        let md = ctx.state.with_untracked(|s| {
            ctx.outputs.with_untracked(|o| {
                ctx.fleet.with_untracked(|f| {
                    page.with_untracked(|p| {
                        // The fleet table as the page shows it (the page memo's, in this language).
                        let fleet = match (f, &p.fleet) {
                            (Some(Ok(plan)), Ok(view)) => Some(export::FleetExport {
                                plan,
                                view,
                                selected: s
                                    .fleet
                                    .types
                                    .get(s.fleet.selected)
                                    .map_or("", |t| t.name.as_str()),
                                selected_index: s.fleet.selected,
                            }),
                            _ => None,
                        };
                        let mut md = export::markdown(
                            l,
                            &s.inputs,
                            o,
                            fleet,
                            ctx.currency.get_untracked(),
                            &link.get_untracked(),
                        );
                        if let Some(teams) = use_context::<crate::page::team_memos::TeamMemos>() {
                            teams.table.with_untracked(|t| {
                                if let Some(Ok(t)) = t {
                                    teams.shapley.with_untracked(|sh| {
                                        let sh = sh
                                            .as_ref()
                                            .filter(|_| !teams.shapley_pending.get_untracked())
                                            .and_then(|(r, _)| r.as_ref().as_ref().ok());
                                        md.push_str(&export::teams_markdown(
                                            l,
                                            ctx.currency.get_untracked(),
                                            t,
                                            sh,
                                        ));
                                    })
                                }
                            });
                        }
                        md
                    })
                })
            })
        });
        copy(
            md,
            md_status,
            ("Markdown copied", "Markdown 已复制"),
            l,
            None,
        );
    };
    let download_sizing = move |_| {
        if let Some(csv) = ctx
            .outputs
            .with_untracked(|o| o.sizing.as_ref().ok().map(export::sizing_csv))
        {
            browser::download_text("gpu-plan-sizing.csv", &csv);
        }
    };
    let download_terms = move |_| {
        if let Some(csv) = ctx
            .outputs
            .with_untracked(|o| o.terms.as_ref().ok().map(export::terms_csv))
        {
            browser::download_text("gpu-plan-terms.csv", &csv);
        }
    };
    let no_review = Memo::new(move |_| ctx.outputs.with(|o| !matches!(o.review, Ok(Some(_)))));
    let download_review = move |_| {
        if let Some(csv) = ctx.outputs.with_untracked(|o| match &o.review {
            Ok(Some(r)) => Some(export::review_csv(r)),
            _ => None,
        }) {
            browser::download_text("gpu-plan-monthly-review.csv", &csv);
        }
    };
    let has_fleet = Memo::new(move |_| ctx.fleet.with(|f| matches!(f, Some(Ok(_)))));
    let download_fleet = move |_| {
        if let Some(csv) = ctx.fleet.with_untracked(|f| match f {
            Some(Ok(plan)) => Some(export::fleet_csv(plan)),
            _ => None,
        }) {
            browser::download_text("gpu-plan-fleet.csv", &csv);
        }
    };
    let start_fresh = move |_| {
        share.autosave_stopped.set_value(true);
        browser::storage_remove(AUTOSAVE_KEY);
        browser::open_query("");
    };
    let open_last = move |_| {
        if let Some(q) = share.last_session.get_value() {
            share.autosave_stopped.set_value(true);
            browser::open_query(&q);
        }
    };

    view! {
        <section class="card share" aria-labelledby="share-heading">
            <h2 id="share-heading">{bilingual(lang, "Share this plan", "分享方案")}</h2>
            {share.restored.then(|| view! {
                <p class="notice-inline" role="status" data-testid="restored-notice">
                    {bilingual(lang, "Your last session was restored (saved in this browser only). ", "已恢复你上次的内容（只保存在本浏览器中）。")}
                    <button type="button" data-testid="start-fresh" on:click=start_fresh>
                        {bilingual(lang, "Start fresh", "重新开始")}
                    </button>
                </p>
            })}
            {share.last_session.with_value(Option::is_some).then(|| view! {
                <p class="notice-inline">
                    {bilingual(lang, "You opened a link; your own last session is still saved. ", "你打开的是一个链接；你自己上次的内容仍然保存着。")}
                    <button type="button" data-testid="open-last-session" on:click=open_last>
                        {bilingual(lang, "Open my last session", "打开我上次的内容")}
                    </button>
                </p>
            })}
            {share.histogram.then(|| view! {
                <p class="warning" data-testid="histogram-notice">
                    {bilingual(lang, "This link carries only the load-duration histogram of a usage history (the hours sorted by GPUs busy, times dropped): average, waterline, N* and peak are as planned; time bands, the recent-drop guard and the monthly review are not available.", "此链接只带有用量历史的负载持续分布（按用量排序的小时，不含时间）：平均值、水位、N* 与峰值与原方案相同；时段分析、近期下降保护和月度复盘不可用。")}
                </p>
            })}
            <label class="field-label" for="share-link">
                {bilingual(lang, "Permanent link to this plan (everything on the page, no server)", "本方案的永久链接（包含页面上的全部内容，无需服务器）")}
            </label>
            <div class="share-row">
                <input id="share-link" type="text" readonly class="share-link" data-testid="share-link"
                    node_ref=input prop:value=move || written.with(|q| format!("{field_base}{q}"))
                    on:focus=move |ev| {
                        use wasm_bindgen::JsCast;
                        if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) { i.select(); }
                    } />
                <button type="button" data-testid="copy-link" on:click=copy_link>
                    {bilingual(lang, "Copy link", "复制链接")}
                </button>
            </div>
            <p class="field-hint">
                <span data-testid="link-length" data-value=move || length.get().to_string()>
                    {move || format!("{} {}", pick(lang.get(), "Link length:", "链接长度："), chars(lang.get(), length.get()))}
                </span>
                " "
                <span class="copied" role="status" aria-live="polite" data-testid="link-copied">
                    {move || link_status.get()}
                </span>
            </p>
            {move || too_long.get().then(|| {
                let l = lang.get();
                view! {
                    <div class="warning" data-testid="link-too-long">
                        <p>{match l {
                            Lang::En => format!("This link is {} characters: too long to paste comfortably in chats and documents (practical limit {PRACTICAL_LINK_CHARS}). It still opens the whole plan; these are shorter:", length.get()),
                            Lang::Zh => format!("此链接有 {} 个字符，太长，不便粘贴到聊天或文档中（实用上限 {PRACTICAL_LINK_CHARS}）。它仍能打开完整方案；以下链接更短：", length.get()),
                        }}</p>
                        <ul>
                            {fallbacks.get().into_iter().map(|f| {
                                let n = f.link.chars().count();
                                let what = if f.no_teams {
                                    pick(l, "The hourly history of the lookback window without its teams: the same plan, no team table.",
                                        "只带回看窗口内的小时数据，不含团队：方案相同，没有团队表。")
                                } else if f.histogram {
                                    pick(l, "Only the load-duration histogram (hours sorted by GPUs busy): same N*, waterline and costs; no time bands, recent-drop guard or monthly review.",
                                        "只带负载持续分布（按用量排序的小时）：N*、水位与成本相同；没有时段分析、近期下降保护和月度复盘。")
                                } else {
                                    pick(l, "The hourly history of the lookback window only.", "只带回看窗口内的小时数据。")
                                };
                                let testid = if f.no_teams { "fallback-no-teams" } else if f.histogram { "fallback-histogram" } else { "fallback-window" };
                                let fits = n <= PRACTICAL_LINK_CHARS;
                                let status = RwSignal::new(None::<&'static str>);
                                let text = f.link.clone();
                                view! {
                                    <li data-testid=testid data-value=n.to_string()>
                                        {what} " " {chars(l, n)}
                                        {(!fits).then(|| pick(l, " (still long)", "（仍然较长）"))}
                                        " "
                                        <a href=f.link.clone()>{pick(l, "Open", "打开")}</a>
                                        " "
                                        <button type="button" on:click=move |_| copy(text.clone(), status, ("Link copied", "链接已复制"), l, None)>
                                            {pick(l, "Copy", "复制")}
                                        </button>
                                        " " <span role="status" aria-live="polite">{move || status.get()}</span>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    </div>
                }
            })}
            <div class="inline-controls share-actions">
                <button type="button" data-testid="copy-markdown" on:click=copy_markdown>
                    {bilingual(lang, "Copy as Markdown", "复制为 Markdown")}
                </button>
                <button type="button" data-testid="download-sizing-csv" on:click=download_sizing>
                    {bilingual(lang, "Download sizing table (CSV)", "下载配额规则表（CSV）")}
                </button>
                <button type="button" data-testid="download-terms-csv" on:click=download_terms>
                    {bilingual(lang, "Download term table (CSV)", "下载期限对比表（CSV）")}
                </button>
                <button type="button" data-testid="download-review-csv" on:click=download_review
                    prop:disabled=move || no_review.get()
                    title=move || no_review.get().then(|| pick(lang.get(), "No monthly review yet: paste a history or type months", "尚无月度复盘：请粘贴历史或填写月份"))>
                    {bilingual(lang, "Download monthly review (CSV)", "下载月度复盘（CSV）")}
                </button>
                <button type="button" data-testid="download-fleet-csv" on:click=download_fleet
                    class:hidden=move || !has_fleet.get()>
                    {bilingual(lang, "Download fleet table (CSV)", "下载机群表（CSV）")}
                </button>
                <span class="copied" role="status" aria-live="polite" data-testid="markdown-copied">
                    {move || md_status.get()}
                </span>
            </div>
            {move || share.autosave_off.get().then(|| view! {
                <p class="field-hint" data-testid="autosave-off">
                    {pick(lang.get(),
                        "Autosave is off: this browser does not let the page save (private mode, storage blocked or full). The link still holds everything.",
                        "自动保存已关闭：此浏览器不允许页面保存（隐私模式、存储被禁用或已满）。链接仍包含全部内容。")}
                </p>
            })}
            <p class="field-hint">
                {bilingual(lang, "Charts: use each chart's Download PNG. The page autosaves in this browser; a link always opens exactly what it carries.", "图表：请使用每张图的“下载 PNG”。页面会在本浏览器中自动保存；链接总是打开它所携带的内容。")}
            </p>
        </section>
        <p class="print-only print-link" data-testid="print-link">
            {bilingual(lang, "Open this plan: ", "打开此方案：")}
            // A working link in the PDF, printed whole (wrapped anywhere: style/share.css).
            <a href=move || link.get()>{move || link.get()}</a>
        </p>
    }
    .into_any()
}

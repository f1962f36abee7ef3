//! §§ 17–18 "Put it into practice": the plan as Volcano, KEDA and Slurm configuration (each
//! snippet with a Copy button that copies exactly its text), and the elastic pools in a
//! cheaper second region. The texts: `present::action`; this file places them and holds the
//! inputs. Free text from a link is shown as text only (text nodes and `value`, never markup).

use leptos::prelude::*;

use crate::components::what_if::{starts_open, WhatIfSummary};
use crate::inputs::ACTION_INPUTS;

use crate::components::bilingual;
use crate::components::card_body::CardBody;
use crate::components::figure::Figure;
use crate::components::how_computed::HowComputed;
use crate::components::input_fields::InputFields;
use crate::components::note::Note;
use crate::components::text_field::TextField;
use crate::components::when::When;
use crate::core::action::{DEFAULT_METRIC, DEFAULT_PROMETHEUS, DEFAULT_TARGET};
use crate::i18n::pick;
use crate::inputs::{by_testid, Group};
use crate::page::context::{error_of, is_ok, use_ctx, Part};
use crate::web::browser;

/// One snippet: its text in `<pre data-testid>` (exactly what Copy copies) and the button.
#[component]
fn Snippet(
    testid: &'static str,
    title: (&'static str, &'static str),
    text: Signal<String>,
) -> impl IntoView {
    let lang = use_ctx().lang;
    let status: RwSignal<Option<&'static str>> = RwSignal::new(None);
    let copy = move |_| {
        let t = text.get_untracked();
        let l = lang.get_untracked();
        leptos::task::spawn_local(async move {
            status.set(Some(if browser::copy_text(&t).await {
                pick(l, "Copied", "已复制")
            } else {
                pick(
                    l,
                    "Copying was refused: select the text and press Ctrl+C (⌘C).",
                    "无法自动复制：请选中文本后按 Ctrl+C（⌘C）。",
                )
            }));
        });
    };
    let heading_id = format!("{testid}-heading");
    view! {
        <div class="snippet">
            <h3 id=heading_id.clone()>{bilingual(lang, title.0, title.1)}</h3>
            <pre
                data-testid=testid
                tabindex="0"
                aria-labelledby=heading_id
            >{move || text.get()}</pre>
            <button type="button" data-testid=format!("copy-{testid}") on:click=copy>
                {bilingual(lang, "Copy", "复制")}
            </button>
            " "
            <span role="status" aria-live="polite">{move || status.get()}</span>
        </div>
    }
}

#[component]
pub fn ActionCard() -> impl IntoView {
    let lang = use_ctx().lang;
    let part = Part::of(|p| &p.action);
    let text_field = |id: &'static str, placeholder: &'static str| {
        by_testid(id).map(|spec| view! { <TextField spec placeholder /> })
    };

    view! {
        <section node_ref=part.view.node class="card" aria-labelledby="action-heading" data-testid="action-card">
            <details class="disclosure what-if" open=starts_open(&ACTION_INPUTS)>
            <WhatIfSummary heading_id="action-heading" title=("Put it into practice", "付诸实践")
                gist=part.text(|v| v.gist.clone()) />
            <p class="explainer">
                {bilingual(
                    lang,
                    "The plan as scheduler and autoscaler configuration: the committed GPUs as the guaranteed quota, elastic GPUs added when the queue exceeds them and released when idle.",
                    "把方案变成调度器与自动扩缩容配置：包月 GPU 作为保证配额，排队超出时加弹性 GPU，空闲后释放。",
                )}
            </p>
            <h3>{bilingual(lang, "The elastic region", "弹性区域")}</h3>
            <div class="split">
            <div class="split-in">
            <InputFields group_of=Group::Region />
            {text_field("alt-region-note", "")}
            {text_field("prometheus-address", DEFAULT_PROMETHEUS)}
            {text_field("queue-metric", DEFAULT_METRIC)}
            {text_field("target-name", DEFAULT_TARGET)}
            </div>
            <div class="split-out">
            <CardBody ok=is_ok(part) error=error_of(part)>
                <p class="explainer" data-testid="region-sentence">{part.text(|v| v.region_sentence.clone())}</p>
                <When when=part.flag(|v| !v.region_note.is_empty())>
                    <p class="explainer action-note">
                        {bilingual(lang, "Second region: ", "第二区域：")}
                        <span data-testid="region-note-shown">{part.text(|v| v.region_note.clone())}</span>
                    </p>
                </When>
                <dl class="figures">
                    <Figure testid="elastic-region" en="Elastic pool runs in" zh="弹性池所在区域"
                        shown=part.shown(|v| &v.elastic_region) />
                    <Figure testid="spot-region" en="Spot pool runs in" zh="竞价池所在区域"
                        shown=part.shown(|v| &v.spot_region) />
                    <Figure testid="home-elastic-price" en="Home on-demand price per GPU-hour" zh="本区域每卡时按需价格"
                        shown=part.shown(|v| &v.home_price) />
                    <Figure testid="alt-effective-price"
                        en="Second region per GPU-hour, transfer included" zh="第二区域每卡时价格（含流量）"
                        shown=part.shown(|v| &v.alt_effective_price) />
                    <Figure testid="alt-spot-effective-price"
                        en="Second region spot per useful GPU-hour, transfer included" zh="第二区域竞价每有效卡时（含流量）"
                        shown=part.shown(|v| &v.alt_spot_price) />
                    <Figure testid="region-saving" en="Monthly saving" zh="每月节省"
                        shown=part.shown(|v| &v.region_saving) />
                    <Figure testid="region-breakeven-gb"
                        en="Break-even data per GPU-hour (above it, home is cheaper)" zh="盈亏平衡数据量（每卡时，超过则本区域更便宜）"
                        shown=part.shown(|v| &v.region_breakeven_gb) />
                </dl>
                <HowComputed formula=part.text(|v| v.formula.clone()) anchor="region" />
                <h3>{bilingual(lang, "Configuration", "配置")}</h3>
                <dl class="figures">
                    <Figure testid="action-committed" en="Committed GPUs (guaranteed)" zh="包月 GPU（保证配额）"
                        shown=part.shown(|v| &v.committed) />
                    <Figure testid="action-elastic-max" en="Elastic GPUs at most" zh="弹性 GPU 上限"
                        shown=part.shown(|v| &v.elastic_max) />
                </dl>
                <p class="explainer" data-testid="auto-stop-rule">{part.text(|v| v.auto_stop.clone())}</p>
                <p class="explainer" data-testid="checkpoint-rule">{part.text(|v| v.checkpoint.clone())}</p>
            </CardBody>
            </div>
            </div>
            <When when=is_ok(part)>
                <Note class="explainer" testid="action-scope" when=part.flag(|v| !v.scope.is_empty())
                    text=part.text(|v| v.scope.clone()) />
                <div class="snippet-grid">
                <Snippet testid="snippet-volcano" title=("Volcano Queue", "Volcano 队列（Queue）")
                    text=part.text(|v| v.volcano.clone()) />
                <Snippet testid="snippet-keda" title=("KEDA ScaledObject", "KEDA ScaledObject")
                    text=part.text(|v| v.keda.clone()) />
                <Snippet testid="snippet-slurm" title=("Slurm", "Slurm")
                    text=part.text(|v| v.slurm.clone()) />
                </div>
                <HowComputed formula=part.text(|v| v.formula.clone()) anchor="action" />
            </When>
        </details>
        </section>
    }
}

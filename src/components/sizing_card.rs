//! § 6 Sizing rules side by side (average / waterline / cost-optimal / peak), the recent-drop
//! guard, and which N the plan commits to.
//! The texts: `present::sizing`; this file only places them.

use leptos::prelude::*;

use crate::components::value::Value;

use std::sync::Arc;

use crate::charts::{cost, load_duration};
use crate::components::chart_canvas::{ChartCanvas, ChartDraw, Layers};
use crate::components::rows::Rows;
use crate::page::chart_memos;

use crate::components::card_body::CardBody;
use crate::components::when::When;

use crate::components::bilingual;
use crate::components::column_heads::ColumnHeads;

use crate::core::plan::BaselineRule;
use crate::i18n::{pick, Lang};
use crate::page::context::{count_of, error_of, is_ok, memo_of, text_at, use_ctx, Part};
use crate::present::sizing::{GuardView, SizingView};

const BASELINE_RULES: [BaselineRule; 6] = [
    BaselineRule::CostOptimal,
    BaselineRule::Waterline,
    BaselineRule::Guarded,
    BaselineRule::Average,
    BaselineRule::Peak,
    BaselineRule::Custom,
];

fn baseline_name(l: Lang, r: BaselineRule) -> &'static str {
    match r {
        BaselineRule::Average => pick(l, "average", "平均值"),
        BaselineRule::Waterline => pick(l, "minimum stable waterline", "最低稳定水位"),
        BaselineRule::CostOptimal => pick(l, "cost-optimal N*", "成本最优 N*"),
        BaselineRule::Guarded => pick(
            l,
            "lower of last 3 days / 30 days N*",
            "最近 3 天与 30 天 N* 取低",
        ),
        BaselineRule::Peak => pick(l, "peak", "峰值"),
        BaselineRule::Custom => pick(l, "my own number", "自定义数量"),
    }
}

/// One text of the recent-drop guard (empty without one).
fn guard_part(v: &SizingView, part: fn(&GuardView) -> String) -> String {
    v.guard.as_ref().map(part).unwrap_or_default()
}

#[component]
pub fn SizingCard() -> impl IntoView {
    let ctx = use_ctx();
    let (lang, currency) = (ctx.lang, ctx.currency);
    let state = ctx.state;
    let ld = chart_memos::load_duration(ctx);
    let ld_summary = chart_memos::summary(ctx, ld, load_duration::summary);
    let cost_data = chart_memos::cost(ctx);
    let cost_summary = chart_memos::summary(ctx, cost_data, cost::summary);
    let rule = memo_of(state, |s| s.inputs.baseline_rule);
    let custom = memo_of(state, |s| s.inputs.custom_baseline_gpus);
    let view = Part::of(|p| &p.sizing);
    let cell = move |i: usize, part: fn(&SizingView, usize) -> String| {
        text_at(view, i, |v| v.rows.len(), part)
    };
    let rows = count_of(view, |v| v.rows.len());
    let has_guard = view.flag(|v| v.guard.is_some());
    let has_formula = view.flag(|v| v.formula.is_some());
    view! {
        <section node_ref=view.view.node class="card" aria-labelledby="sizing-heading">
            <h2 id="sizing-heading">{bilingual(lang, "How many GPUs to commit", "固定配额买多少")}</h2>
            <div class="inline-controls">
                <label>
                    {bilingual(lang, "The plan commits", "方案采用")}
                    <select data-testid="baseline-rule" on:change=move |ev| {
                        let key = event_target_value(&ev);
                        if let Some(r) = BASELINE_RULES.iter().find(|r| r.key() == key) {
                            state.update(|s| s.inputs.baseline_rule = *r);
                        }
                    }>
                        {BASELINE_RULES.into_iter().map(|r| view! {
                            <option value=r.key() selected=move || rule.get() == r>
                                {move || baseline_name(lang.get(), r)}
                            </option>
                        }).collect_view()}
                    </select>
                </label>
                <label class:hidden=move || rule.get() != BaselineRule::Custom>
                    {bilingual(lang, "GPUs", "GPU 数")}
                    <input type="number" min="0" step="1" data-testid="custom-baseline"
                        prop:value=move || custom.get().to_string()
                        on:input=move |ev| {
                            if let Ok(n) = event_target_value(&ev).trim().parse::<u32>() {
                                state.update(|s| s.inputs.custom_baseline_gpus = n);
                            }
                        } />
                </label>
            </div>
            <CardBody ok=is_ok(view) error=error_of(view)>
                <p>
                    {bilingual(lang, "Cost-optimal number of monthly GPUs N*: ", "成本最优的包月 GPU 数 N*：")}
                    <Value testid="optimal-n" shown=view.shown(|v| &v.optimal_n) strong=true />
                </p>
                <div class="table-wrap" tabindex="0">
                    <table class="sizing" data-testid="sizing-table">
                        <caption>{bilingual(lang, "Monthly cost of each sizing rule (rest on demand)", "各种配额规则的月度成本（其余按量）")}</caption>
                        <ColumnHeads labels=&[("Rule", "规则"), ("N", "N"), ("Monthly total", "月度总额"), ("Fixed", "固定"), ("Elastic", "弹性"), ("Elastic share", "弹性占比"), ("Fixed utilization", "固定利用率"), ("Coverage", "覆盖率"), ("Saving vs all on-demand", "比全部按量节省"), ("Saving vs buying the peak", "比按峰值包月节省")] />
                        <tbody>
                            <Rows count=rows row=Arc::new(move |i| view! {
                                <tr data-testid=cell(i, |v, i| v.rows[i].testid.clone())>
                                    <th scope="row">{cell(i, |v, i| v.rows[i].rule.to_string())}</th>
                                    <td data-testid=cell(i, |v, i| format!("{}-n", v.rows[i].testid))
                                        data-value=cell(i, |v, i| v.rows[i].n.value.clone())>
                                        {cell(i, |v, i| v.rows[i].n.text.clone())}
                                    </td>
                                    <td data-testid=cell(i, |v, i| format!("{}-total", v.rows[i].testid))
                                        data-value=cell(i, |v, i| v.rows[i].total.value.clone())>
                                        {cell(i, |v, i| v.rows[i].total.text.clone())}
                                    </td>
                                    <td>{cell(i, |v, i| v.rows[i].fixed.clone())}</td>
                                    <td>{cell(i, |v, i| v.rows[i].elastic.clone())}</td>
                                    <td>{cell(i, |v, i| v.rows[i].elastic_share.clone())}</td>
                                    <td>{cell(i, |v, i| v.rows[i].fixed_utilization.clone())}</td>
                                    <td>{cell(i, |v, i| v.rows[i].coverage.clone())}</td>
                                    <td>{cell(i, |v, i| v.rows[i].saving_vs_on_demand.clone())}</td>
                                    <td>{cell(i, |v, i| v.rows[i].saving_vs_peak.clone())}</td>
                                </tr>
                            }.into_any()) />
                        </tbody>
                    </table>
                </div>
                <p class="field-hint">{view.text(|v| v.extremes.clone())}</p>
                <When when=has_guard>
                    <p class=view.text(|v| guard_part(v, |g| g.class.to_string()))
                        data-testid="recent-drop-guard"
                        data-value=view.text(|v| guard_part(v, |g| g.recommended.clone()))>
                        {view.text(|v| guard_part(v, |g| g.text.clone()))}
                    </p>
                </When>
                <div class="split even">
                <div class="split-in">
                <h3>{bilingual(lang, "Load-duration curve", "负载持续曲线")}</h3>
                <ChartCanvas testid="chart-load-duration" summary=ld_summary lang currency draw=ChartDraw::layered(ld, Layers { frame: load_duration::frame, base: load_duration::draw_base, over: load_duration::draw_over, same_base: load_duration::same_base }) />
                </div>
                <div class="split-out">
                <h3>{bilingual(lang, "Monthly cost vs GPUs committed", "月度成本与包月 GPU 数")}</h3>
                <ChartCanvas testid="chart-cost" summary=cost_summary lang currency draw=ChartDraw::layered(cost_data, Layers { frame: cost::frame, base: cost::draw_base, over: cost::draw_over, same_base: cost::same_base }) />
                </div>
                </div>
                <details class="how">
                    <summary>{bilingual(lang, "How is this computed?", "怎么算的？")}</summary>
                    <p class="formula">
                        {"C(N) = N·P + r·E(N)·H/T, E(N) = Σ max(0, u_t − N);  N* = #{k : O(k)·H/T > H*}"}
                    </p>
                    <When when=has_formula>
                        <p class="formula" data-testid="sizing-formula">
                            {view.text(|v| v.formula.clone().unwrap_or_default())}
                        </p>
                    </When>
                    <a href="docs/formulas.html#sizing">{bilingual(lang, "Formula", "公式")}</a>
                </details>
            </CardBody>
        </section>
    }
}

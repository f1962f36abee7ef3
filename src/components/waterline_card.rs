//! § 5 Minimum stable waterline per time band (weekday day / night / weekend).
//! The texts: `present::waterline`; this file only places them.

use leptos::prelude::*;

use crate::components::value::Value;

use crate::charts::usage as chart;
use crate::components::chart_canvas::{ChartCanvas, ChartDraw, Layers};
use crate::components::how_computed::HowComputed;
use crate::i18n::pick;
use crate::page::chart_memos;

use std::sync::Arc;

use crate::components::rows::Rows;

use crate::components::card_body::CardBody;
use crate::components::when::When;

use crate::components::bilingual;
use crate::components::column_heads::ColumnHeads;
use crate::page::context::{count_of, error_of, is_ok, text_at, use_ctx, Part};
use crate::present::waterline::WaterlineView;

#[component]
pub fn WaterlineCard() -> impl IntoView {
    let ctx = use_ctx();
    let (lang, currency) = (ctx.lang, ctx.currency);
    let (data, stacked) = chart_memos::usage(ctx);
    let summary = chart_memos::summary(ctx, data, chart::summary);
    let has_chart = Memo::new(move |_| data.with(Option::is_some));
    let view = Part::of(|p| &p.waterline);
    let at = move |i: usize, part: fn(&WaterlineView, usize) -> String| {
        text_at(view, i, |v| v.bands.len(), part)
    };
    let has_bands = view.flag(|v| v.has_bands);
    let rows = count_of(view, |v| v.bands.len());
    view! {
        <section node_ref=view.view.node class="card" aria-labelledby="waterline-heading">
            <h2 id="waterline-heading">{bilingual(lang, "Minimum stable waterline", "最低稳定水位")}</h2>
            <CardBody ok=is_ok(view) error=error_of(view)>
                <div class="split even">
                <div class="split-in">
                <p>
                    {bilingual(lang, "Waterline: ", "水位：")}
                    <Value testid="waterline" shown=view.shown(|v| &v.overall) strong=true />
                    {bilingual(lang, " GPUs busy → buy ", " 张 GPU 在用 → 固定配额买 ")}
                    <Value testid="waterline-buy" shown=view.shown(|v| &v.buy) strong=true />
                    {bilingual(lang, " monthly (never the average: ", " 张（不要按平均值：")}
                    <Value testid="average-usage" shown=view.shown(|v| &v.average) />
                    {bilingual(lang, ")", "）")}
                </p>
                <When when=has_bands>
                    <div class="table-wrap" tabindex="0">
                        <table data-testid="band-table">
                            <caption>{view.text(|v| v.caption.clone())}</caption>
                            <ColumnHeads labels=&[("Time band", "时间区间"), ("Hours", "小时数"), ("Average GPUs", "平均使用台数"), ("Stable minimum", "最低稳定使用台数")] />
                            <tbody>
                                <Rows count=rows row=Arc::new(move |i| view! {
                                    <tr data-testid=at(i, |v, i| v.band(i).map(|b| b.testid.clone()).unwrap_or_default())>
                                        <th scope="row">{at(i, |v, i| v.band(i).map(|b| b.name.clone()).unwrap_or_default())}</th>
                                        <td>{at(i, |v, i| v.band(i).map(|b| b.hours.clone()).unwrap_or_default())}</td>
                                        <td
                                            data-testid=at(i, |v, i| v.band(i).map(|b| format!("{}-average", b.testid)).unwrap_or_default())
                                            data-value=at(i, |v, i| v.band(i).map(|b| b.average.value.clone()).unwrap_or_default())
                                        >
                                            {at(i, |v, i| v.band(i).map(|b| b.average.text.clone()).unwrap_or_default())}
                                        </td>
                                        <td
                                            data-testid=at(i, |v, i| v.band(i).map(|b| format!("{}-waterline", b.testid)).unwrap_or_default())
                                            data-value=at(i, |v, i| v.band(i).map(|b| b.waterline.value.clone()).unwrap_or_default())
                                        >
                                            {at(i, |v, i| v.band(i).map(|b| b.waterline.text.clone()).unwrap_or_default())}
                                        </td>
                                    </tr>
                                }.into_any()) />
                            </tbody>
                        </table>
                    </div>
                </When>
                <HowComputed formula=view.text(|v| v.formula.clone()) anchor="waterline" />
                </div>
                <div class="split-out" class:hidden=move || !has_chart.get()>
                    <h3>{move || if stacked.get() {
                        pick(lang.get(), "Usage over time, stacked by GPU type", "用量随时间变化（按 GPU 型号堆叠）")
                    } else {
                        pick(lang.get(), "Usage over time", "用量随时间变化")
                    }}</h3>
                    <ChartCanvas testid="chart-usage" summary lang currency draw=ChartDraw::layered(data, Layers { frame: chart::frame, base: chart::draw_base, over: chart::draw_over, same_base: chart::same_base }) />
                </div>
                </div>
            </CardBody>
        </section>
    }
}

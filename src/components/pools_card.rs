//! § 9 Three pools: N reserved + elastic hours split between spot and on-demand.
//! The texts: `present::pools`; this file only places them.

use leptos::prelude::*;

use crate::components::cell::Cell;

use crate::components::how_computed::HowComputed;

use crate::components::card_body::CardBody;

use crate::components::bilingual;
use crate::components::column_heads::ColumnHeads;

use crate::components::input_fields::InputFields;
use crate::inputs::Group;
use crate::page::context::{error_of, is_ok, use_ctx, Part};

#[component]
pub fn PoolsCard() -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let view = Part::of(|p| &p.pools);
    view! {
        <section node_ref=view.view.node class="card" aria-labelledby="pools-heading">
            <h2 id="pools-heading">{bilingual(lang, "Three pools: monthly + on-demand + spot", "三池组合：包月 + 按量 + 竞价")}</h2>
            <InputFields group_of=Group::Interruptible />
            <CardBody ok=is_ok(view) error=error_of(view)>
                <div class="table-wrap" tabindex="0">
                    <table data-testid="pools-table">
                        <caption>{bilingual(lang, "Monthly cost by pool", "各资源池月度成本")}</caption>
                        <ColumnHeads labels=&[("Pool", "资源池"), ("GPUs / GPU-hours", "GPU 数 / GPU 小时"), ("Per month", "每月"), ("Share", "占比")] />
                        <tbody>
                            <tr>
                                <th scope="row">{bilingual(lang, "Monthly (fixed baseline)", "包月（固定基线）")}</th>
                                <td>{view.text(|v| v.reserved.amount.clone())}</td>
                                <Cell testid="pool-reserved" shown=view.shown(|v| &v.reserved.cost) />
                                <td>{view.text(|v| v.reserved.share.clone())}</td>
                            </tr>
                            <tr>
                                <th scope="row">{bilingual(lang, "On-demand (elastic)", "按量（弹性）")}</th>
                                <td>{view.text(|v| v.on_demand.amount.clone())}</td>
                                <Cell testid="pool-on-demand" shown=view.shown(|v| &v.on_demand.cost) />
                                <td>{view.text(|v| v.on_demand.share.clone())}</td>
                            </tr>
                            <tr>
                                <th scope="row">{bilingual(lang, "Spot (interruptible)", "竞价（可中断）")}</th>
                                <td>{view.text(|v| v.spot.amount.clone())}</td>
                                <Cell testid="pool-spot" shown=view.shown(|v| &v.spot.cost) />
                                <td>{view.text(|v| v.spot.share.clone())}</td>
                            </tr>
                        </tbody>
                        <tfoot><tr>
                            <th scope="row">{bilingual(lang, "Total", "合计")}</th>
                            <td></td>
                            <td data-testid="pools-total" data-value=view.text(|v| v.total.value.clone())>
                                <strong>{view.text(|v| v.total.text.clone())}</strong>
                            </td>
                            <td>{view.text(|v| v.total_share.clone())}</td>
                        </tr></tfoot>
                    </table>
                </div>
                <p class="field-hint">
                    {bilingual(lang, "Spot instead of on-demand saves ", "用竞价代替按量节省 ")}
                    {view.text(|v| v.spot_saving.clone())}
                    {bilingual(lang, " a month.", " /月。")}
                </p>
                <HowComputed formula=view.text(|v| v.formula.clone()) formula_testid="pools-formula" anchor="pools" general="N·P + (1 − f)·E·r + f·E·s_eff;  E = elastic GPU-hours per month beyond N" />
            </CardBody>
        </section>
    }
}

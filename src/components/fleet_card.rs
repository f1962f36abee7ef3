//! § 16 The fleet table: one row per GPU type (waterline, N*, what the budget commits, the
//! monthly fixed, on-demand and spot spend, utilisation) and the fleet's total; selecting a
//! row shows that type in the other cards. Shown for two or more types.
//! The texts: `present::fleet`; this file only places them.

use std::sync::Arc;

use leptos::prelude::*;

use crate::components::bilingual;
use crate::components::card_body::CardBody;
use crate::components::cell::Cell;
use crate::components::column_heads::ColumnHeads;
use crate::components::how_computed::HowComputed;
use crate::components::rows::Rows;
use crate::components::when::When;
use crate::page::context::{count_of, error_of, is_ok, memo_of, shown_at, text_at, use_ctx, Part};
use crate::present::fleet::FleetView;
use crate::present::Shown;

#[component]
pub fn FleetCard() -> impl IntoView {
    let ctx = use_ctx();
    let (lang, state) = (ctx.lang, ctx.state);
    let active = memo_of(state, |s| crate::state::fleet::active(&s.fleet));
    let selected = memo_of(state, |s| s.fleet.selected);
    let view = Part::of(|p| &p.fleet);
    let cell = move |i: usize, part: fn(&FleetView, usize) -> String| {
        text_at(view, i, |v| v.rows.len(), part)
    };
    let shown = move |i: usize, part: fn(&FleetView, usize) -> &Shown| {
        shown_at(view, i, |v| v.rows.len(), part)
    };
    let rows = count_of(view, |v| v.rows.len());
    view! {
        <When when=active>
            <section node_ref=view.view.node class="card fleet" aria-labelledby="fleet-heading">
                <h2 id="fleet-heading">{bilingual(lang, "The fleet: every GPU type under one budget", "机群：所有 GPU 型号共用一份预算")}</h2>
                <CardBody ok=is_ok(view) error=error_of(view) error_testid="fleet-error">
                    <p data-testid="fleet-budget">{view.text(|v| v.budget.clone())}</p>
                    <div class="table-wrap" tabindex="0">
                        <table class="fleet-table" data-testid="fleet-table">
                            <caption>{bilingual(lang, "Per type, per month. Choose a type to see its own cards below.", "按型号、按月。选择一个型号，下方各卡片即显示该型号。")}</caption>
                            <ColumnHeads labels=&[("GPU type", "GPU 型号"), ("Waterline", "水位线"), ("N*", "N*"), ("Commit", "固定"), ("Fixed", "固定支出"), ("On demand", "按量"), ("Spot", "竞价"), ("Monthly", "每月合计"), ("Fixed GPUs busy", "固定卡利用率")] />
                            <tbody>
                                <Rows count=rows row=Arc::new(move |i| {
                                    let name = cell(i, |v, i| v.rows[i].name.clone());
                                    let is_selected = move || selected.get() == i;
                                    view! {
                                        <tr data-type=name class=move || if is_selected() { "selected" } else { "" }>
                                            <th scope="row">
                                                <button type="button" class="type-pick" data-testid="fleet-select"
                                                    aria-pressed=move || is_selected().to_string()
                                                    on:click=move |_| state.update(|s| crate::state::fleet::select(s, i))>
                                                    {name}
                                                </button>
                                            </th>
                                            <Cell testid="fleet-waterline" shown=shown(i, |v, i| &v.rows[i].waterline) />
                                            <Cell testid="fleet-optimal-n" shown=shown(i, |v, i| &v.rows[i].n_star) />
                                            <Cell testid="fleet-commit" shown=shown(i, |v, i| &v.rows[i].commit) />
                                            <Cell testid="fleet-fixed" shown=shown(i, |v, i| &v.rows[i].fixed) />
                                            <Cell testid="fleet-on-demand" shown=shown(i, |v, i| &v.rows[i].on_demand) />
                                            <Cell testid="fleet-spot" shown=shown(i, |v, i| &v.rows[i].spot) />
                                            <Cell testid="fleet-monthly" shown=shown(i, |v, i| &v.rows[i].monthly) />
                                            <Cell testid="fleet-utilization" shown=shown(i, |v, i| &v.rows[i].utilization) />
                                        </tr>
                                    }.into_any()
                                }) />
                            </tbody>
                            <tfoot><tr>
                                <th scope="row">{bilingual(lang, "Fleet", "机群合计")}</th>
                                <td></td><td></td><td></td>
                                <Cell testid="fleet-fixed-total" shown=view.shown(|v| &v.fixed) />
                                <Cell testid="fleet-on-demand-total" shown=view.shown(|v| &v.on_demand) />
                                <Cell testid="fleet-spot-total" shown=view.shown(|v| &v.spot) />
                                <td data-testid="fleet-monthly-total" data-value=view.text(|v| v.total.value.clone())><strong>{view.text(|v| v.total.text.clone())}</strong></td>
                                <td></td>
                            </tr></tfoot>
                        </table>
                    </div>
                    <p class="field-hint">{bilingual(
                        lang,
                        "Types are not interchangeable: a job on an H100 cannot move to a 4090, so each type is sized on its own usage and prices; they share only the fixed budget, which buys monthly GPUs where they save the most. Commit shows what the budget buys, beside the type's own rule in brackets when the budget buys fewer.",
                        "不同型号不能互相替代：H100 上的任务不能挪到 4090 上，所以每个型号按自己的用量与价格定规模，只共用固定预算；固定预算优先买节省最多的包月卡。「固定」列是预算实际买到的数量，预算不够时括号里是该型号自身规则给出的数量。",
                    )}</p>
                    <HowComputed formula=view.text(|v| v.formula.clone()) formula_testid="fleet-formula" anchor="fleet"
                        general="max Σ S_t(N_t) subject to Σ N_t·P_t ≤ F, 0 ≤ N_t ≤ N_rule,t;  S_t(N) = M_t(0) − M_t(N)" />
                </CardBody>
            </section>
        </When>
    }
}

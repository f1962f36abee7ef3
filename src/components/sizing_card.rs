//! § 6 Sizing rules side by side (average / waterline / cost-optimal / peak), the recent-drop
//! guard, and which N the plan commits to.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::context::{memo_of, use_ctx};
use crate::core::plan::BaselineRule;
use crate::core::sizing::SizingRule;
use crate::format::{money, number_trim, percent};
use crate::i18n::{error_message, pick, Lang};

fn rule_name(l: Lang, r: SizingRule) -> &'static str {
    match r {
        SizingRule::Average => pick(l, "Average", "按平均值"),
        SizingRule::Waterline => pick(l, "Minimum stable waterline", "最低稳定水位"),
        SizingRule::CostOptimal => pick(l, "Cost-optimal N*", "成本最优 N*"),
        SizingRule::Peak => pick(l, "Peak", "按峰值"),
    }
}

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

#[component]
pub fn SizingCard() -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let state = ctx.state;
    let rule = memo_of(state, |s| s.inputs.baseline_rule);
    let custom = memo_of(state, |s| s.inputs.custom_baseline_gpus);
    view! {
        <section class="card" aria-labelledby="sizing-heading">
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
            {move || {
                let l = lang.get();
                let cur = ctx.currency.get();
                let (sizing, commitment, guard) = ctx.outputs.with(|o| (o.sizing.clone(), o.commitment.clone(), o.recent_drop_guard.clone()));
                let n_star = commitment.as_ref().map(|c| c.n_star).ok();
                match sizing {
                    Err(e) => view! { <p class="error" role="alert">{error_message(l, &e)}</p> }.into_any(),
                    Ok(table) => view! {
                        <p>
                            {pick(l, "Cost-optimal number of monthly GPUs N*: ", "成本最优的包月 GPU 数 N*：")}
                            <strong data-testid="optimal-n" data-value=n_star.map(|n| n.to_string()).unwrap_or_default()>
                                {n_star.map(|n| n.to_string()).unwrap_or_else(|| "—".into())}
                            </strong>
                        </p>
                        <div class="table-wrap" tabindex="0">
                            <table class="sizing" data-testid="sizing-table">
                                <caption>{pick(l, "Monthly cost of each sizing rule (rest on demand)", "各种配额规则的月度成本（其余按量）")}</caption>
                                <thead><tr>
                                    <th scope="col">{pick(l, "Rule", "规则")}</th>
                                    <th scope="col">"N"</th>
                                    <th scope="col">{pick(l, "Monthly total", "月度总额")}</th>
                                    <th scope="col">{pick(l, "Fixed", "固定")}</th>
                                    <th scope="col">{pick(l, "Elastic", "弹性")}</th>
                                    <th scope="col">{pick(l, "Elastic share", "弹性占比")}</th>
                                    <th scope="col">{pick(l, "Fixed utilization", "固定利用率")}</th>
                                    <th scope="col">{pick(l, "Coverage", "覆盖率")}</th>
                                    <th scope="col">{pick(l, "Saving vs all on-demand", "比全部按量节省")}</th>
                                    <th scope="col">{pick(l, "Saving vs buying the peak", "比按峰值包月节省")}</th>
                                </tr></thead>
                                <tbody>
                                    {table.rows.iter().map(|row| {
                                        let key = row.rule.key();
                                        view! {
                                            <tr data-testid=format!("sizing-{key}")>
                                                <th scope="row">{rule_name(l, row.rule)}</th>
                                                <td data-testid=format!("sizing-{key}-n") data-value=row.n.to_string()>{row.n}</td>
                                                <td data-testid=format!("sizing-{key}-total") data-value=row.total.to_plain_string()>{money(row.total, cur, l)}</td>
                                                <td>{money(row.fixed, cur, l)}</td>
                                                <td>{money(row.elastic, cur, l)}</td>
                                                <td>{percent(row.elastic_share, 1, l)}</td>
                                                <td>{row.fixed_utilization.map(|u| percent(u, 1, l)).unwrap_or_else(|| "—".into())}</td>
                                                <td>{row.coverage.map(|u| percent(u, 1, l)).unwrap_or_else(|| "—".into())}</td>
                                                <td>{money(row.saving_vs_on_demand, cur, l)}</td>
                                                <td>{money(row.saving_vs_peak, cur, l)}</td>
                                            </tr>
                                        }
                                    }).collect_view()}
                                </tbody>
                            </table>
                        </div>
                        <p class="field-hint">
                            {format!("{} {} · {} {}",
                                pick(l, "All on demand:", "全部按量："), money(table.all_on_demand, cur, l),
                                pick(l, "all monthly at the peak:", "按峰值全部包月："), money(table.all_peak, cur, l))}
                        </p>
                        {match guard {
                            Ok(Some(g)) => Some(view! {
                                <p class=if g.drop_detected { "warning" } else { "field-hint" } data-testid="recent-drop-guard" data-value=g.recommended.to_string()>
                                    {match l {
                                        Lang::En => format!("Recent-drop guard: N* over the last {} days = {}, over the last {} days = {} → the lower, {}, is safer{}.",
                                            g.recent_days, g.recent_n_star, g.long_days, g.long_n_star, g.recommended,
                                            if g.drop_detected { " (usage dropped recently)" } else { "" }),
                                        Lang::Zh => format!("近期下降保护：最近 {} 天的 N* = {}，最近 {} 天的 N* = {} → 取较低的 {}{}。",
                                            g.recent_days, g.recent_n_star, g.long_days, g.long_n_star, g.recommended,
                                            if g.drop_detected { "（近期用量下降）" } else { "" }),
                                    }}
                                </p>
                            }),
                            _ => None,
                        }}
                        <details class="how">
                            <summary>{pick(l, "How is this computed?", "怎么算的？")}</summary>
                            <p class="formula">
                                {"C(N) = N·P + r·E(N)·H/T, E(N) = Σ max(0, u_t − N);  N* = #{k : O(k)·H/T > H*}"}
                            </p>
                            {commitment.ok().and_then(|c| {
                                let row = c.rows.iter().find(|r| r.n == c.n_star)?.clone();
                                let (p, r) = ctx.state.with(|s| (s.inputs.monthly_price, s.inputs.on_demand_price));
                                Some(view! {
                                    <p class="formula" data-testid="sizing-formula">
                                        {format!(
                                            "H* = {} h;  N* = {}:  {} × {} + {} × {} GPU-h = {} + {} = {}",
                                            number_trim(c.breakeven_hours, 2, l),
                                            c.n_star,
                                            c.n_star,
                                            number_trim(p, 2, l),
                                            number_trim(r, 4, l),
                                            number_trim(row.elastic_gpu_hours, 2, l),
                                            money(row.fixed, cur, l),
                                            money(row.elastic, cur, l),
                                            money(row.total, cur, l),
                                        )}
                                    </p>
                                })
                            })}
                            <a href="docs/formulas.html#sizing">{pick(l, "Formula", "公式")}</a>
                        </details>
                    }.into_any(),
                }
            }}
        </section>
    }
}

//! § 21 "Who uses the GPUs": the team table (usage, baseline, the month's cost shared out,
//! the standalone and Shapley columns), the choice of what names a team and how the idle
//! committed cost is shared, and the teams' CSV. Shown when the history names teams.
//! The texts: `present::teams`; the memos: `team_memos`.

use std::sync::Arc;

use leptos::prelude::*;

use crate::charts::usage as chart;
use crate::components::bilingual;
use crate::components::chart_canvas::{ChartCanvas, ChartDraw, Layers};
use crate::components::column_heads::ColumnHeads;
use crate::components::rows::Rows;
use crate::components::text_field::TextField;
use crate::core::ingest::TeamChoice;
use crate::core::teams::IdleSplit;
use crate::inputs::by_testid;
use crate::page::context::use_ctx;
use crate::page::team_memos::TeamMemos;
use crate::present::teams::{
    present, present_shapley, source_text, split_name, ShapleyView, TeamsView, SHOWN_TEAMS,
};
use crate::present::Shown;
use crate::web::browser;

#[component]
pub fn TeamsCard() -> impl IntoView {
    let ctx = use_ctx();
    let (state, lang, currency) = (ctx.state, ctx.lang, ctx.currency);
    let memos = expect_context::<TeamMemos>();
    let shown = Memo::new(move |_| memos.data.with(|d| d.is_some()));
    // The largest teams one per row, the rest summed, until "show all" (`SHOWN_TEAMS`).
    let show_all = RwSignal::new(false);
    let view = Memo::new(move |_| {
        let d = memos.data.get()?;
        let n = ctx
            .outputs
            .with(|o| o.baseline.as_ref().map_or(0, |b| b.gpus));
        let shown = if show_all.get() {
            usize::MAX
        } else {
            SHOWN_TEAMS
        };
        memos.table.with(|t| {
            t.as_ref().map(|t| {
                present(
                    lang.get(),
                    currency.get(),
                    t,
                    memos.plan_total.get(),
                    n,
                    &d.source,
                    &d.order,
                    shown,
                )
            })
        })
    });
    let shapley = Memo::new(move |_| {
        memos.shapley.with(|s| {
            s.as_ref().map(|(r, _)| match r.as_ref() {
                Ok(s) => Ok(present_shapley(lang.get(), currency.get(), s)),
                Err(e) => Err(crate::i18n::error_message(lang.get(), e)),
            })
        })
    });
    let pending = memos.shapley_pending;
    let shapley_ms = Memo::new(move |_| {
        memos.shapley.with(|s| {
            s.as_ref()
                .map(|(_, ms)| format!("{ms:.0}"))
                .unwrap_or_default()
        })
    });
    let ok = move || matches!(view.get(), Some(Ok(_)));
    let error = move || match view.get() {
        Some(Err(e)) => e,
        _ => String::new(),
    };
    let text = move |f: fn(&TeamsView) -> String| {
        move || {
            view.with(|v| {
                v.as_ref()
                    .and_then(|v| v.as_ref().ok())
                    .map(f)
                    .unwrap_or_default()
            })
        }
    };
    let rows = Memo::new(move |_| {
        view.with(|v| {
            v.as_ref()
                .and_then(|v| v.as_ref().ok())
                .map_or(0, |v| v.rows.len())
        })
    });
    let cell = move |i: usize, f: fn(&crate::present::teams::TeamRowView) -> &Shown| {
        Memo::new(move |_| {
            view.with(|v| {
                v.as_ref()
                    .and_then(|v| v.as_ref().ok())
                    .and_then(|v| v.rows.get(i))
                    .map(|r| f(r).clone())
                    .unwrap_or_default()
            })
        })
    };
    // Row i shows team `rows[i].index`: its Shapley values are at that index.
    let shapley_cell = move |i: usize, f: fn(&ShapleyView) -> &Vec<Shown>| {
        Memo::new(move |_| {
            let index = view.with(|v| {
                v.as_ref()
                    .and_then(|v| v.as_ref().ok())
                    .and_then(|v| v.rows.get(i))
                    .map(|r| r.index)
            });
            shapley.with(|s| match (s, index) {
                (Some(Ok(s)), Some(index)) => f(s).get(index).cloned().unwrap_or_default(),
                _ => Shown::new("…", ""),
            })
        })
    };
    let rest = Memo::new(move |_| {
        view.with(|v| {
            v.as_ref()
                .and_then(|v| v.as_ref().ok())
                .and_then(|v| v.rest.clone())
        })
    });
    let shapley_note = move || match shapley.get() {
        Some(Ok(s)) => s.note,
        Some(Err(e)) => e,
        None => bilingual_text(
            lang.get(),
            "Computing the fair shares…",
            "正在计算公平分摊…",
        ),
    };
    let source = Memo::new(move |_| {
        memos
            .data
            .with(|d| d.as_ref().map(|d| d.source.name().to_string()))
    });
    let choices = Memo::new(move |_| {
        memos.data.with(|d| {
            d.as_ref()
                .map(|d| {
                    d.choices
                        .iter()
                        .map(|c| (c.name().to_string(), source_text(lang.get(), c)))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let split = Memo::new(move |_| state.with(|s| s.inputs.idle_split));
    let type_name = Memo::new(move |_| {
        memos
            .data
            .with(|d| d.as_ref().and_then(|d| d.type_name.clone()))
    });
    let merged = Memo::new(move |_| memos.data.with(|d| d.as_ref().map_or(0, |d| d.merged)));
    let idle_row = Memo::new(move |_| {
        view.with(|v| {
            v.as_ref()
                .and_then(|v| v.as_ref().ok())
                .and_then(|v| v.idle_row.clone())
        })
    });
    let total = Memo::new(move |_| {
        view.with(|v| {
            v.as_ref()
                .and_then(|v| v.as_ref().ok())
                .map(|v| v.total_sum.clone())
                .unwrap_or_default()
        })
    });
    let download = move |_| {
        let csv = memos.table.with_untracked(|t| match t {
            Some(Ok(t)) => {
                // Only values computed for what is shown now.
                let s = (!memos.shapley_pending.get_untracked())
                    .then(|| {
                        memos.shapley.with_untracked(|s| {
                            s.as_ref()
                                .and_then(|(r, _)| r.as_ref().as_ref().ok().cloned())
                        })
                    })
                    .flatten();
                Some(crate::page::export::teams_csv(t, s.as_ref()))
            }
            _ => None,
        });
        if let Some(csv) = csv {
            browser::download_text("gpu-plan-teams.csv", &csv);
        }
    };
    let chart_summary = Signal::derive(move || {
        let n = ctx
            .outputs
            .with(|o| o.baseline.as_ref().map_or(0, |b| b.gpus));
        let teams = memos.data.with(|d| d.as_ref().map_or(0, |d| d.names.len()));
        match lang.get() {
            crate::format::Lang::En => format!("GPUs busy per hour over the plan's lookback, stacked by team ({teams} teams; the largest seven shown apart), with the {n} committed GPUs as a line."),
            crate::format::Lang::Zh => format!("方案回看期内每小时在用的 GPU，按团队堆叠（{teams} 个团队，最大的七个单独显示），横线为 {n} 张包月卡。"),
        }
    });
    // A fleet: every team over all the types (plain rows: it changes with the fleet's plan).
    let fleet_rows = Memo::new(move |_| {
        let total = ctx.fleet.with(|f| match f {
            Some(Ok(p)) => Some(p.total),
            _ => None,
        })?;
        let n = ctx.fleet.with(|f| match f {
            Some(Ok(p)) => p.rows.iter().map(|r| r.committed).sum(),
            _ => 0,
        });
        let source = memos.data.with(|d| d.as_ref().map(|d| d.source.clone()))?;
        memos.fleet.with(|t| {
            t.as_ref().and_then(|t| {
                let all: Vec<usize> = (0..t.as_ref().map_or(0, |t| t.rows.len())).collect();
                present(
                    lang.get(),
                    currency.get(),
                    t,
                    total,
                    n,
                    &source,
                    &all,
                    usize::MAX,
                )
                .ok()
            })
        })
    });
    let shares_field = by_testid("team-shares").map(|spec| view! { <TextField spec /> });

    view! {
        <section class="card teams" aria-labelledby="teams-heading" data-testid="teams-card" class:hidden=move || !shown.get()>
            <h2 id="teams-heading">{bilingual(lang, "Who uses the GPUs", "谁在用这些 GPU")}</h2>
            <div class="inline-controls">
                <label>
                    {bilingual(lang, "Team from", "团队来自")}
                    <select data-testid="team-source" on:change=move |ev| {
                        let v = event_target_value(&ev);
                        state.update(|s| s.parse_options.team = TeamChoice::Named(v));
                    }>
                        {move || choices.get().into_iter().map(|(name, label)| {
                            let selected = source.get().as_deref() == Some(name.as_str());
                            view! { <option value=name selected=selected>{label}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <label>
                    {bilingual(lang, "Idle committed cost", "闲置包月成本")}
                    <select data-testid="idle-split" on:change=move |ev| {
                        if let Some(s) = IdleSplit::from_key(&event_target_value(&ev)) {
                            state.update(|st| st.inputs.idle_split = s);
                        }
                    }>
                        {IdleSplit::ALL.into_iter().map(|s| view! {
                            <option value=s.key() selected=move || split.get() == s>
                                {move || split_name(lang.get(), s)}
                            </option>
                        }).collect_view()}
                    </select>
                </label>
            </div>
            <div class:hidden=move || split.get() != IdleSplit::Fixed>{shares_field}</div>
            {move || type_name.get().map(|t| view! {
                <p class="field-hint" data-testid="teams-type">{move || match lang.get() {
                    crate::format::Lang::En => format!("GPU type {t}: choose another type in the fleet table to see its teams."),
                    crate::format::Lang::Zh => format!("GPU 型号 {t}：在机群表中选择其他型号可查看其团队。"),
                }}</p>
            })}
            <p class="error" role="alert" data-testid="teams-error" class:hidden=ok>{error}</p>
            <div class:hidden=move || !ok()>
                <p data-testid="teams-summary">{text(|v| v.summary.clone())}</p>
                <p class="field-hint" data-testid="teams-basis">{text(|v| v.basis.clone())}</p>
                <div class="table-wrap" tabindex="0">
                    <table class="teams-table" data-testid="team-table" data-pending=move || pending.get().to_string() data-shapley-ms=move || shapley_ms.get()>
                        <caption>{bilingual(lang, "Per team: usage over the history read, costs per month", "按团队：用量按所读历史计，成本按月")}</caption>
                        <ColumnHeads labels=&[("Team", "团队"), ("GPU-hours", "卡时"), ("Share", "占比"), ("p50 / p95 / peak GPUs", "p50 / p95 / 峰值卡数"), ("Share in troughs", "低谷占比"), ("Share in peaks", "高峰占比"), ("Baseline GPU-hours", "基线卡时"), ("Committed used", "已用包月"), ("Idle share", "闲置分摊"), ("Elastic", "弹性"), ("Monthly total", "每月合计"), ("Standalone", "单独购买"), ("Shapley", "Shapley 分摊"), ("Pooling saves", "合池节省")] />
                        <tbody>
                            <Rows count=rows row=Arc::new(move |i| {
                                let name = Memo::new(move |_| view.with(|v| v.as_ref().and_then(|v| v.as_ref().ok()).and_then(|v| v.rows.get(i)).map(|r| r.name.clone()).unwrap_or_default()));
                                let td = move |testid: &'static str, label: (&'static str, &'static str), s: Memo<Shown>| view! {
                                    <td data-testid=testid data-label=move || crate::i18n::pick(lang.get(), label.0, label.1) data-value=move || s.get().value>{move || s.get().text}</td>
                                };
                                view! {
                                    <tr data-team=move || name.get()>
                                        <th scope="row">{move || name.get()}</th>
                                        {td("team-gpu-hours", ("GPU-hours", "卡时"), cell(i, |r| &r.gpu_hours))}
                                        {td("team-share", ("Share", "占比"), cell(i, |r| &r.share))}
                                        {td("team-levels", ("p50 / p95 / peak GPUs", "p50 / p95 / 峰值卡数"), cell(i, |r| &r.levels))}
                                        {td("team-trough-share", ("Share in troughs", "低谷占比"), cell(i, |r| &r.trough_share))}
                                        {td("team-peak-share", ("Share in peaks", "高峰占比"), cell(i, |r| &r.peak_share))}
                                        {td("team-baseline-hours", ("Baseline GPU-hours", "基线卡时"), cell(i, |r| &r.baseline_hours))}
                                        {td("team-committed-cost", ("Committed used", "已用包月"), cell(i, |r| &r.committed))}
                                        {td("team-idle-cost", ("Idle share", "闲置分摊"), cell(i, |r| &r.idle))}
                                        {td("team-elastic-cost", ("Elastic", "弹性"), cell(i, |r| &r.elastic))}
                                        {td("team-total", ("Monthly total", "每月合计"), cell(i, |r| &r.total))}
                                        {td("team-standalone", ("Standalone", "单独购买"), shapley_cell(i, |s| &s.standalone))}
                                        {td("team-shapley", ("Shapley", "Shapley 分摊"), shapley_cell(i, |s| &s.shapley))}
                                        {td("team-saving", ("Pooling saves", "合池节省"), shapley_cell(i, |s| &s.saving))}
                                    </tr>
                                }.into_any()
                            }) />
                            {move || rest.get().map(|(k, r)| view! {
                                <tr class="teams-rest" data-more=k.to_string()>
                                    <th scope="row">
                                        {r.name.clone()} " "
                                        <button type="button" data-testid="teams-show-all" on:click=move |_| show_all.set(true)>
                                            {bilingual(lang, "Show every team", "显示全部团队")}
                                        </button>
                                    </th>
                                    <td data-testid="team-rest-gpu-hours" data-label=move || crate::i18n::pick(lang.get(), "GPU-hours", "卡时") data-value=r.gpu_hours.value.clone()>{r.gpu_hours.text.clone()}</td>
                                    <td data-label=move || crate::i18n::pick(lang.get(), "Share", "占比")>{r.share.text.clone()}</td>
                                    <td></td>
                                    <td data-label=move || crate::i18n::pick(lang.get(), "Share in troughs", "低谷占比")>{r.trough_share.text.clone()}</td>
                                    <td data-label=move || crate::i18n::pick(lang.get(), "Share in peaks", "高峰占比")>{r.peak_share.text.clone()}</td>
                                    <td data-label=move || crate::i18n::pick(lang.get(), "Baseline GPU-hours", "基线卡时")>{r.baseline_hours.text.clone()}</td>
                                    <td data-label=move || crate::i18n::pick(lang.get(), "Committed used", "已用包月")>{r.committed.text.clone()}</td>
                                    <td data-label=move || crate::i18n::pick(lang.get(), "Idle share", "闲置分摊")>{r.idle.text.clone()}</td>
                                    <td data-label=move || crate::i18n::pick(lang.get(), "Elastic", "弹性")>{r.elastic.text.clone()}</td>
                                    <td data-testid="team-rest-total" data-label=move || crate::i18n::pick(lang.get(), "Monthly total", "每月合计") data-value=r.total.value.clone()>{r.total.text.clone()}</td>
                                    <td></td><td></td><td></td>
                                </tr>
                            })}
                            {move || idle_row.get().map(|s| view! {
                                <tr data-team="idle">
                                    <th scope="row">{bilingual(lang, "Idle committed GPUs", "闲置的包月卡")}</th>
                                    <td></td><td></td><td></td><td></td><td></td><td></td><td></td>
                                    <td data-testid="team-idle-cost" data-label=move || crate::i18n::pick(lang.get(), "Idle share", "闲置分摊") data-value=s.value.clone()>{s.text.clone()}</td>
                                    <td></td>
                                    <td data-testid="team-total" data-label=move || crate::i18n::pick(lang.get(), "Monthly total", "每月合计") data-value=s.value>{s.text}</td>
                                    <td></td><td></td><td></td>
                                </tr>
                            })}
                        </tbody>
                        <tfoot><tr>
                            <th scope="row">{bilingual(lang, "All teams", "全部团队")}</th>
                            <td></td><td></td><td></td><td></td><td></td><td></td><td></td><td></td><td></td>
                            <td data-testid="team-total-sum" data-label=move || crate::i18n::pick(lang.get(), "Monthly total", "每月合计") data-value=move || total.get().value><strong>{move || total.get().text}</strong></td>
                            <td colspan="3" class="team-check" data-testid="team-total-check">{text(|v| v.check.clone())}</td>
                        </tr></tfoot>
                    </table>
                </div>
                <ChartCanvas testid="chart-teams" summary=chart_summary lang currency
                    draw=ChartDraw::layered(memos.chart, Layers { frame: chart::frame, base: chart::draw_base, over: chart::draw_over, same_base: chart::same_base }) />
                <p class="field-hint" data-testid="team-shapley-note">{shapley_note}</p>
                {move || fleet_rows.get().map(|rows| view! {
                    <h3>{bilingual(lang, "All GPU types", "全部 GPU 型号")}</h3>
                    <div class="table-wrap" tabindex="0">
                        <table class="teams-fleet-table" data-testid="team-fleet-table">
                            <caption>{bilingual(lang, "Per team over every type, per month, at what the fleet's budget buys of each type (the fleet table).", "各团队在所有型号上的每月合计，按机群预算为每个型号实际购买的数量（见机群表）。")}</caption>
                            <ColumnHeads labels=&[("Team", "团队"), ("GPU-hours", "卡时"), ("Share", "占比"), ("Committed used", "已用包月"), ("Idle share", "闲置分摊"), ("Elastic", "弹性"), ("Monthly total", "每月合计")] />
                            <tbody>
                                {rows.rows.into_iter().map(|r| view! {
                                    <tr data-team=r.name.clone()>
                                        <th scope="row">{r.name.clone()}</th>
                                        <td data-testid="team-fleet-gpu-hours" data-value=r.gpu_hours.value>{r.gpu_hours.text}</td>
                                        <td data-testid="team-fleet-share" data-value=r.share.value>{r.share.text}</td>
                                        <td data-testid="team-fleet-committed-cost" data-value=r.committed.value>{r.committed.text}</td>
                                        <td data-testid="team-fleet-idle-cost" data-value=r.idle.value>{r.idle.text}</td>
                                        <td data-testid="team-fleet-elastic-cost" data-value=r.elastic.value>{r.elastic.text}</td>
                                        <td data-testid="team-fleet-total" data-value=r.total.value>{r.total.text}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                            <tfoot><tr>
                                <th scope="row">{bilingual(lang, "All teams", "全部团队")}</th>
                                <td></td><td></td><td></td>
                                <td data-testid="team-fleet-idle-row" data-value=rows.idle_row.as_ref().map(|s| s.value.clone()).unwrap_or_default()>{rows.idle_row.as_ref().map(|s| s.text.clone()).unwrap_or_default()}</td>
                                <td></td>
                                <td data-testid="team-fleet-total-sum" data-value=rows.total_sum.value.clone()><strong>{rows.total_sum.text.clone()}</strong></td>
                            </tr></tfoot>
                        </table>
                    </div>
                })}
                {move || (merged.get() > 0).then(|| view! {
                    <p class="field-hint" data-testid="teams-merged">{move || match lang.get() {
                        crate::format::Lang::En => format!("{} smaller teams are summed as “(other teams)”.", merged.get()),
                        crate::format::Lang::Zh => format!("较小的 {} 个团队合并为“（其他团队）”。", merged.get()),
                    }}</p>
                })}
                <p class="field-hint">{bilingual(
                    lang,
                    "Each hour's committed GPUs go to the teams busy in that hour, in proportion to their use; what no team used is the idle committed cost; the rest of each team's use is bought elastic at the plan's mix of spot and on demand. The Shapley column charges each team what it adds to the pool's cost on average; standalone is what it would pay alone.",
                    "每小时的包月卡按当时各团队的用量比例分给在用的团队；没有团队用到的是闲置包月成本；其余用量按方案的竞价与按量比例弹性购买。Shapley 列按每个团队平均给资源池带来的新增成本计费；单独购买是它自己买时的成本。",
                )}</p>
                <p class="formula" data-testid="teams-formula"><code>{text(|v| v.formula.clone())}</code>
                    " " <a href="docs/formulas.html#teams">{bilingual(lang, "formulas", "公式")}</a></p>
                <button type="button" data-testid="download-teams-csv" on:click=download>
                    {bilingual(lang, "Download the team table (CSV)", "下载团队表（CSV）")}
                </button>
            </div>
        </section>
    }
}

fn bilingual_text(l: crate::format::Lang, en: &'static str, zh: &'static str) -> String {
    crate::i18n::pick(l, en, zh).to_string()
}

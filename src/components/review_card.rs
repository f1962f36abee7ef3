//! § 14 Monthly review: per month fixed utilization, fixed and elastic spend, queue time and
//! flags, the recommended actions as sentences, editable thresholds, and a small form to
//! type months in (they replace the history's calendar months while there are any).
//!
//! The form keeps exactly what the user typed; a month is only used when every field of
//! every typed month is valid (all or nothing), so the review keeps showing the last
//! complete set while a field is being fixed.
//!
//! The review's texts: `present::review`; this file places them and holds the form.

use std::sync::Arc;

use leptos::prelude::*;

use crate::components::cell::Cell;

use crate::components::how_computed::HowComputed;

use crate::components::bilingual;
use crate::components::column_heads::ColumnHeads;

use crate::components::card_body::CardBody;
use crate::components::input_fields::InputFields;
use crate::components::rows::Rows;
use crate::components::when::When;
use crate::core::error::{non_negative, Field, Problem};
use crate::core::review::{ReviewMonthInput, MAX_QUEUE_HOURS, MAX_REVIEW_SPEND};
use crate::format::{number_trim, parse_number, plain};
use crate::i18n::{error_message, pick, Lang};
use crate::inputs::Group;
use crate::page::context::{count_of, error_of, is_ok, shown_at, text_at};
use crate::page::context::{use_ctx, Part};

/// One typed month as the user's text.
#[derive(Clone, Copy)]
struct Draft {
    id: u64,
    label: RwSignal<String>,
    utilization: RwSignal<String>,
    fixed: RwSignal<String>,
    elastic: RwSignal<String>,
    queue: RwSignal<String>,
}

/// The columns of the form, for messages and ids.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Column {
    Label,
    Utilization,
    FixedSpend,
    ElasticSpend,
    Queue,
}

impl Column {
    fn key(self) -> &'static str {
        match self {
            Column::Label => "label",
            Column::Utilization => "utilization",
            Column::FixedSpend => "fixed-spend",
            Column::ElasticSpend => "elastic-spend",
            Column::Queue => "queue",
        }
    }
    fn name(self, l: Lang) -> &'static str {
        match self {
            Column::Label => pick(l, "Month", "月份"),
            Column::Utilization => pick(l, "Fixed utilization (%)", "固定配额利用率（%）"),
            Column::FixedSpend => pick(l, "Fixed spend", "固定支出"),
            Column::ElasticSpend => pick(l, "Elastic spend", "弹性支出"),
            Column::Queue => pick(
                l,
                "Queue time (hours, optional)",
                "排队时间（小时，可不填）",
            ),
        }
    }
    /// Largest accepted value of a numeric column.
    fn max(self) -> f64 {
        match self {
            Column::Utilization => 100.0,
            Column::Queue => MAX_QUEUE_HOURS,
            _ => MAX_REVIEW_SPEND,
        }
    }
}

/// A message for a bad cell, naming the column.
fn cell_message(l: Lang, col: Column, p: &Problem) -> String {
    let name = col.name(l);
    let why = match (p, l) {
        (Problem::Empty, Lang::En) if col == Column::Label => "is required.".to_string(),
        (Problem::Empty, Lang::Zh) if col == Column::Label => "不能为空。".to_string(),
        (Problem::Empty, Lang::En) => "is required: type a number.".to_string(),
        (Problem::Empty, Lang::Zh) => "不能为空，请填写数字。".to_string(),
        (Problem::NotANumber, Lang::En) => "is not a number.".to_string(),
        (Problem::NotANumber, Lang::Zh) => "不是有效的数字。".to_string(),
        (Problem::MustBeNonNegative, Lang::En) => "must be 0 or more.".to_string(),
        (Problem::MustBeNonNegative, Lang::Zh) => "不能为负数。".to_string(),
        (Problem::TooLarge { max }, Lang::En) => {
            format!("must be at most {}.", number_trim(*max, 2, l))
        }
        (Problem::TooLarge { max }, Lang::Zh) => format!("不能超过 {}。", number_trim(*max, 2, l)),
        (other, _) => {
            return error_message(
                l,
                &crate::core::error::InputError::new(Field::UsageHistory, other.clone()),
            )
        }
    };
    match l {
        Lang::En => format!("{name} {why}"),
        Lang::Zh => format!("{name}{why}"),
    }
}

/// Parse one numeric cell. `Ok(None)` only for an empty optional cell.
fn parse_cell(col: Column, text: &str) -> Result<Option<f64>, Problem> {
    if text.trim().is_empty() {
        return if col == Column::Queue {
            Ok(None)
        } else {
            Err(Problem::Empty)
        };
    }
    let v = parse_number(text).ok_or(Problem::NotANumber)?;
    non_negative(Field::UsageHistory, v, col.max())
        .map(Some)
        .map_err(|e| e.problem)
}

fn check(col: Column, text: &str) -> Result<(), Problem> {
    match col {
        Column::Label => {
            if text.trim().is_empty() {
                Err(Problem::Empty)
            } else {
                Ok(())
            }
        }
        _ => parse_cell(col, text).map(|_| ()),
    }
}

impl Draft {
    fn new(id: u64, m: Option<&ReviewMonthInput>) -> Self {
        let num = |v: f64| plain(v, 6);
        Draft {
            id,
            label: RwSignal::new(m.map(|m| m.label.clone()).unwrap_or_default()),
            utilization: RwSignal::new(
                m.map(|m| num(m.fixed_utilization_percent))
                    .unwrap_or_default(),
            ),
            fixed: RwSignal::new(m.map(|m| num(m.fixed_spend)).unwrap_or_default()),
            elastic: RwSignal::new(m.map(|m| num(m.elastic_spend)).unwrap_or_default()),
            queue: RwSignal::new(m.and_then(|m| m.queue_hours).map(num).unwrap_or_default()),
        }
    }
    fn text(&self, col: Column) -> RwSignal<String> {
        match col {
            Column::Label => self.label,
            Column::Utilization => self.utilization,
            Column::FixedSpend => self.fixed,
            Column::ElasticSpend => self.elastic,
            Column::Queue => self.queue,
        }
    }
    /// The month, when every cell is valid.
    fn parse(&self) -> Option<ReviewMonthInput> {
        let label = self.label.get_untracked().trim().to_string();
        if label.is_empty() {
            return None;
        }
        let num = |col: Column| parse_cell(col, &self.text(col).get_untracked()).ok();
        Some(ReviewMonthInput {
            label,
            fixed_utilization_percent: num(Column::Utilization)??,
            fixed_spend: num(Column::FixedSpend)??,
            elastic_spend: num(Column::ElasticSpend)??,
            queue_hours: num(Column::Queue)?,
        })
    }
}

const COLUMNS: [Column; 5] = [
    Column::Label,
    Column::Utilization,
    Column::FixedSpend,
    Column::ElasticSpend,
    Column::Queue,
];

#[component]
pub fn ReviewCard() -> impl IntoView {
    let ctx = use_ctx();
    let state = ctx.state;
    let lang = ctx.lang;
    let _label = move |en: &'static str, zh: &'static str| {
        Signal::derive(move || pick(lang.get(), en, zh).to_string())
    };

    // The typed months: drafts (the user's text) and the last list written to the state.
    let next_id = StoredValue::new(0u64);
    let new_id = move || {
        next_id.update_value(|n| *n += 1);
        next_id.get_value()
    };
    let initial = state.with_untracked(|s| s.inputs.review_months.clone());
    let drafts: RwSignal<Vec<Draft>> = RwSignal::new(
        initial
            .iter()
            .map(|m| Draft::new(new_id(), Some(m)))
            .collect(),
    );
    let last_committed = StoredValue::new(initial);

    // Months set from elsewhere (a link, a reset) replace the drafts.
    Effect::new(move |_| {
        let months = state.with(|s| s.inputs.review_months.clone());
        if last_committed.with_value(|c| *c != months) {
            drafts.set(
                months
                    .iter()
                    .map(|m| Draft::new(new_id(), Some(m)))
                    .collect(),
            );
            last_committed.set_value(months);
        }
    });

    let all_valid = move || {
        drafts.with(|ds| {
            ds.iter().all(|d| {
                COLUMNS
                    .iter()
                    .all(|&c| d.text(c).with(|t| check(c, t).is_ok()))
            })
        })
    };
    let commit = move || {
        let parsed: Option<Vec<ReviewMonthInput>> =
            drafts.with_untracked(|ds| ds.iter().map(Draft::parse).collect());
        if let Some(months) = parsed {
            if state.with_untracked(|s| s.inputs.review_months != months) {
                last_committed.set_value(months.clone());
                state.update(|s| s.inputs.review_months = months);
            }
        }
    };
    let add_month = move |_| {
        let d = Draft::new(new_id(), None);
        drafts.update(|ds| ds.push(d));
    };

    let month_form = move |d: Draft| {
        let position = move || {
            drafts.with(|ds| {
                ds.iter()
                    .position(|x| x.id == d.id)
                    .map(|p| p + 1)
                    .unwrap_or(0)
            })
        };
        let cells = COLUMNS
            .iter()
            .map(|&col| {
                let text = d.text(col);
                let id = format!("review-month-{}-{}", d.id, col.key());
                let error_id = format!("{id}-error");
                let error = move || text.with(|t| check(col, t).err());
                view! {
                    <div class="month-cell" class:field-invalid=move || error().is_some()>
                        <label class="field-label" for=id.clone()>{move || col.name(lang.get())}</label>
                        <input
                            type="text"
                            id=id.clone()
                            data-testid=id.clone()
                            class="field-number"
                            class:month-label=col == Column::Label
                            inputmode=if col == Column::Label { "text" } else { "decimal" }
                            autocomplete="off"
                            spellcheck="false"
                            aria-describedby=error_id.clone()
                            aria-invalid=move || if error().is_some() { "true" } else { "false" }
                            prop:value=move || text.get()
                            on:input=move |ev| {
                                text.set(event_target_value(&ev));
                                commit();
                            }
                        />
                        <p class="field-error" id=error_id.clone() data-testid=error_id aria-live="polite">
                            {move || error().map(|p| cell_message(lang.get(), col, &p))}
                        </p>
                    </div>
                }
            })
            .collect_view();
        let remove = move |_| {
            drafts.update(|ds| ds.retain(|x| x.id != d.id));
            commit();
        };
        view! {
            <fieldset class="month-row">
                <legend>
                    {move || match lang.get() {
                        Lang::En => format!("Month {}", position()),
                        Lang::Zh => format!("第 {} 个月", position()),
                    }}
                </legend>
                {cells}
                <button
                    type="button"
                    class="month-remove"
                    data-testid=format!("review-month-{}-remove", d.id)
                    on:click=remove
                    aria-label=move || match lang.get() {
                        Lang::En => format!("Remove month {}", position()),
                        Lang::Zh => format!("删除第 {} 个月", position()),
                    }
                >
                    {bilingual(lang, "Remove", "删除")}
                </button>
            </fieldset>
        }
    };

    // The review as shown: one memo; every text and data-value below reads its own part.
    let review = Part::of(|p| &p.review);
    let rows = count_of(review, |v| v.rows.len());
    let actions = count_of(review, |v| v.actions.len());

    view! {
        <section node_ref=review.view.node class="card" aria-labelledby="review-heading">
            <h2 id="review-heading">{bilingual(lang, "Monthly review", "月度复盘")}</h2>
            <div class="field-grid">
                <InputFields group_of=Group::Review />
            </div>
            <CardBody ok=is_ok(review) error=error_of(review)>
                <When when=review.flag(|v| !v.has_months)>
                    <p class="explainer" data-testid="review-empty">
                        {bilingual(
                            lang,
                            "No months to review yet: load a usage history, or type months below.",
                            "还没有可复盘的月份：请导入用量历史，或在下方填写各月数据。",
                        )}
                    </p>
                </When>
                <When when=review.flag(|v| v.has_months)>
                    <p class="explainer" data-testid="review-source" data-value=review.text(|v| v.source_key.clone())>
                        {review.text(|v| v.source.clone())}
                        <strong data-testid="review-baseline" data-value=review.text(|v| v.baseline.value.clone())>
                            {review.text(|v| v.baseline.text.clone())}
                        </strong>
                    </p>
                    <div class="table-wrap" tabindex="0">
                        <table class="review-table">
                            <caption>{bilingual(lang, "Month by month", "逐月情况")}</caption>
                            <ColumnHeads labels=&[("Month", "月份"), ("Fixed utilization", "固定配额利用率"), ("Fixed spend", "固定支出"), ("Elastic spend", "弹性支出"), ("Queue time", "排队时间"), ("Flags", "标记")] />
                            <tbody>
                                <Rows count=rows row=Arc::new(move |i| view! {
                                    <tr>
                                        <th scope="row" data-testid=format!("review-row-{i}-label")>
                                            {text_at(review, i, |v| v.rows.len(), |v, i| v.row(i).map(|r| r.label.clone()).unwrap_or_default())}
                                        </th>
                                        <Cell testid=format!("review-row-{i}-utilization") shown=shown_at(review, i, |v| v.rows.len(), |v, i| &v.rows[i].utilization) />
                                        <Cell testid=format!("review-row-{i}-fixed-spend") shown=shown_at(review, i, |v| v.rows.len(), |v, i| &v.rows[i].fixed_spend) />
                                        <Cell testid=format!("review-row-{i}-elastic-spend") shown=shown_at(review, i, |v| v.rows.len(), |v, i| &v.rows[i].elastic_spend) />
                                        <Cell testid=format!("review-row-{i}-queue") shown=shown_at(review, i, |v| v.rows.len(), |v, i| &v.rows[i].queue) />
                                        <td
                                            data-testid=format!("review-row-{i}-flags")
                                            data-value=text_at(review, i, |v| v.rows.len(), |v, i| v.row(i).map(|r| r.flag_keys.clone()).unwrap_or_default())
                                        >
                                            <For
                                                each=move || review.with(|v| {
                                                    v.as_ref().ok().and_then(|v| v.row(i)).map(|r| r.badges.clone()).unwrap_or_default()
                                                })
                                                key=|b| *b
                                                let:badge
                                            >
                                                <span class=badge.class()>{bilingual(lang, badge.text().0, badge.text().1)}</span>
                                            </For>
                                        </td>
                                    </tr>
                                }.into_any()) />
                            </tbody>
                        </table>
                    </div>
                    <h3>{bilingual(lang, "Recommended actions", "建议操作")}</h3>
                    <ul class="actions" data-testid="review-actions">
                        <Rows count=actions row=Arc::new(move |i| view! {
                            <li
                                data-testid=text_at(review, i, |v| v.actions.len(), |v, i| v.action(i).map(|a| a.testid.to_string()).unwrap_or_default())
                                data-value=text_at(review, i, |v| v.actions.len(), |v, i| v.action(i).map(|a| a.value.clone()).unwrap_or_default())
                            >
                                {text_at(review, i, |v| v.actions.len(), |v, i| v.action(i).map(|a| a.text.clone()).unwrap_or_default())}
                            </li>
                        }.into_any()) />
                    </ul>
                    <HowComputed formula=review.text(|v| v.formula.clone()) anchor="review" />
                </When>
            </CardBody>
            <h3 id="review-months-heading">{bilingual(lang, "Type your months", "手动填写各月数据")}</h3>
            <p class="field-hint">
                {move || pick(
                    lang.get(),
                    "Typed months replace the history's months in the review. Spend in the page's currency.",
                    "填写的月份会替代用量历史中的月份参与复盘。金额使用本页的币种。",
                )}
            </p>
            <For each=move || drafts.get() key=|d| d.id children=month_form />
            <Show when=move || !all_valid()>
                <p class="warning" role="status" data-testid="review-months-status">
                    {move || pick(
                        lang.get(),
                        "⚠ Some typed months are incomplete or invalid: the review shows the last complete set until they are fixed.",
                        "⚠ 有月份未填完或有误：修正前，复盘显示上一组完整的数据。",
                    )}
                </p>
            </Show>
            <button type="button" data-testid="review-add-month" on:click=add_month>
                {bilingual(lang, "+ Add a month", "+ 添加一个月")}
            </button>
        </section>
    }
}

//! The GPU types of a fleet, above the prices: one button per type (the cards, prices and
//! sliders below are the pressed type's), add a type, and for the pressed one its name,
//! remove (a type with its own sliders) or merge into another (a type from the history).

use leptos::prelude::*;

use crate::components::bilingual;
use crate::components::when::When;
use crate::i18n::pick;
use crate::page::context::{memo_of, use_ctx};
use crate::state::fleet::{self, NameError, MAX_TYPES};
use crate::state::{Lang, UsageMode};

fn name_error(l: Lang, e: &NameError) -> String {
    match (l, e) {
        (Lang::En, NameError::Empty) => "A GPU type needs a name.".into(),
        (Lang::Zh, NameError::Empty) => "GPU 型号需要一个名称。".into(),
        (Lang::En, NameError::Taken(n)) => format!("Another type is already called “{n}”."),
        (Lang::Zh, NameError::Taken(n)) => format!("已有型号叫作“{n}”。"),
    }
}

#[component]
pub fn TypeBar() -> impl IntoView {
    let ctx = use_ctx();
    let (lang, state) = (ctx.lang, ctx.state);
    let names = memo_of(state, |s| {
        s.fleet
            .types
            .iter()
            .map(|t| t.name.clone())
            .collect::<Vec<_>>()
    });
    let selected = memo_of(state, |s| s.fleet.selected);
    let active = memo_of(state, |s| fleet::active(&s.fleet));
    // A type from the history: planned from its keys, merged rather than removed.
    let from_history = memo_of(state, |s| {
        s.mode == UsageMode::Data
            && s.fleet
                .types
                .get(s.fleet.selected)
                .is_some_and(|t| !t.keys.is_empty())
    });
    let can_add = memo_of(state, |s| {
        s.fleet.types.len() < MAX_TYPES
            && !(s.mode == UsageMode::Data && s.fleet.types.iter().any(|t| !t.keys.is_empty()))
    });
    let error = RwSignal::new(None::<NameError>);
    let current_name =
        Memo::new(move |_| names.with(|n| n.get(selected.get()).cloned().unwrap_or_default()));
    let rename = move |ev| {
        let typed = event_target_value(&ev);
        let mut result = Ok(());
        state.update(|s| {
            let k = s.fleet.selected;
            result = fleet::rename(s, k, &typed);
        });
        error.set(result.err());
    };
    view! {
        <div class="type-bar" role="group" aria-label=move || pick(lang.get(), "GPU types", "GPU 型号")>
            <When when=active>
                <span class="type-bar-label">{bilingual(lang, "GPU type:", "GPU 型号：")}</span>
                {move || names.get().into_iter().enumerate().map(|(k, name)| view! {
                    <button type="button" class="type-tab" data-testid="type-tab" data-type=name.clone()
                        aria-pressed=move || (selected.get() == k).to_string()
                        on:click=move |_| {
                            error.set(None);
                            state.update(|s| fleet::select(s, k));
                        }>
                        {name.clone()}
                    </button>
                }).collect_view()}
            </When>
            <When when=can_add>
                <button type="button" class="add-type" data-testid="add-type"
                    on:click=move |_| {
                        error.set(None);
                        state.update(|s| {
                            fleet::add_type(s);
                        });
                    }>
                    {bilingual(lang, "+ Add a GPU type", "+ 添加 GPU 型号")}
                </button>
            </When>
        </div>
        <When when=active>
            <div class="type-edit">
                <label>
                    {bilingual(lang, "Name of this type", "此型号名称")}
                    <input type="text" data-testid="type-name" maxlength="40"
                        prop:value=move || current_name.get()
                        aria-invalid=move || error.with(Option::is_some).to_string()
                        on:change=rename />
                </label>
                {move || error.get().map(|e| view! {
                    <p class="field-error" role="alert" data-testid="type-name-error">{name_error(lang.get(), &e)}</p>
                })}
                {move || (!from_history.get()).then(|| view! {
                    <button type="button" data-testid="remove-type"
                        on:click=move |_| {
                            error.set(None);
                            state.update(|s| {
                                let k = s.fleet.selected;
                                fleet::remove_type(s, k);
                            });
                        }>
                        {bilingual(lang, "Remove this type", "删除此型号")}
                    </button>
                })}
                {move || from_history.get().then(|| view! {
                    <label>
                        {bilingual(lang, "Same GPUs as", "与以下型号合并")}
                        <select data-testid="merge-type"
                            on:change=move |ev| {
                                if let Ok(into) = event_target_value(&ev).parse::<usize>() {
                                    state.update(|s| {
                                        let from = s.fleet.selected;
                                        fleet::merge(s, from, into);
                                    });
                                }
                            }>
                            <option value="" selected=true>{bilingual(lang, "(keep separate)", "（保持独立）")}</option>
                            {move || names.get().into_iter().enumerate()
                                .filter(|(k, _)| *k != selected.get())
                                .map(|(k, n)| view! { <option value=k.to_string()>{n}</option> })
                                .collect_view()}
                        </select>
                    </label>
                })}
                <p class="field-hint">{bilingual(
                    lang,
                    "The prices, usage and cards below are this type's. Each type is planned on its own prices and usage; the fleet shares the budget and every other setting.",
                    "下方的价格、用量与各卡片都属于此型号。每个型号按自己的价格与用量规划；预算和其他设置由整个机群共用。",
                )}</p>
            </div>
        </When>
    }
}

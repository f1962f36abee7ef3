//! A declared text input (`inputs::Value::Text`): the field keeps what is typed; the state
//! gets it cleaned and cut.

use leptos::prelude::*;

use crate::core::action::{clean_text, MAX_TEXT_CHARS};
use crate::inputs::InputSpec;
use crate::page::context::use_ctx;

/// A declared text input (`inputs::Value::Text`): the field keeps what is typed; the state
/// gets it cleaned and cut.
#[component]
pub fn TextField(
    spec: &'static InputSpec,
    /// What the snippet uses while the field is empty.
    #[prop(optional)]
    placeholder: &'static str,
) -> impl IntoView {
    let ctx = use_ctx();
    let (state, lang) = (ctx.state, ctx.lang);
    let stored = Memo::new(move |_| {
        state.with(|s| spec.text_value(&s.inputs).unwrap_or_default().to_string())
    });
    let text = RwSignal::new(stored.get_untracked());
    // A value set from elsewhere (a link, a preset) replaces the text unless it already reads
    // as that value.
    Effect::new(move |_| {
        let v = stored.get();
        if clean_text(&text.get_untracked(), MAX_TEXT_CHARS) != v {
            text.set(v);
        }
    });
    let on_input = move |ev| {
        let raw = event_target_value(&ev);
        text.set(raw.clone());
        state.update(|s| spec.commit_text(&mut s.inputs, &raw));
    };
    let hint_id = format!("{}-hint", spec.testid);
    view! {
        <div class="field">
            <label class="field-label" for=spec.testid>{move || spec.label(lang.get())}</label>
            <p class="field-hint" id=hint_id.clone()>{move || spec.hint_text(lang.get())}</p>
            <input
                type="text"
                autocomplete="off"
                spellcheck="false"
                class="field-text"
                maxlength=MAX_TEXT_CHARS.to_string()
                placeholder=placeholder
                id=spec.testid
                data-testid=spec.testid
                aria-describedby=hint_id
                prop:value=move || text.get()
                on:input=on_input
            />
        </div>
    }
}

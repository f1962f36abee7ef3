//! § 22 the growth per month: `auto` (the fitted trend) or a typed % per month. A text field,
//! since "auto" is one of its values: empty, `auto` or `自动` is automatic; a number is checked
//! by the declaration's validator; a bad text keeps what was typed and says why.

use leptos::prelude::*;

use crate::core::error::{InputError, Problem};
use crate::format::{parse_number, plain};
use crate::i18n::error_message;
use crate::inputs::{InputSpec, Value};
use crate::page::context::use_ctx;

/// What the field shows for a stored value.
fn shown(v: Option<f64>) -> String {
    v.map_or_else(|| "auto".to_string(), |v| plain(v, 6))
}

/// A typed text: `Ok(None)` automatic, `Ok(Some(v))` a valid % per month.
fn read(spec: &InputSpec, raw: &str) -> Result<Option<f64>, InputError> {
    let t = raw.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("auto") || t == "自动" {
        return Ok(None);
    }
    let v = parse_number(t).ok_or_else(|| InputError::new(spec.field, Problem::NotANumber))?;
    spec.validate(v).map(Some)
}

#[component]
pub fn GrowthField(spec: &'static InputSpec) -> impl IntoView {
    let Value::RealOrAuto { get, set, .. } = spec.value else {
        return ().into_any();
    };
    let ctx = use_ctx();
    let (state, lang) = (ctx.state, ctx.lang);
    let stored = Memo::new(move |_| state.with(|s| get(&s.inputs)));
    let text = RwSignal::new(shown(stored.get_untracked()));
    let error: RwSignal<Option<InputError>> = RwSignal::new(None);
    // A value set from elsewhere (a link, a type switch) replaces the text unless the text
    // already reads as it.
    Effect::new(move |_| {
        let v = stored.get();
        if read(spec, &text.get_untracked()).ok() != Some(v) {
            text.set(shown(v));
            error.set(None);
        }
    });
    let on_input = move |ev| {
        let raw = event_target_value(&ev);
        text.set(raw.clone());
        match read(spec, &raw) {
            Ok(v) => {
                error.set(None);
                crate::page::context::typed();
                state.update(|s| set(&mut s.inputs, v));
            }
            Err(e) => error.set(Some(e)),
        }
    };
    let id = spec.testid;
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    view! {
        <div class="field" class:field-invalid=move || error.with(Option::is_some)>
            <label class="field-label" for=id>{move || spec.label(lang.get())}</label>
            <p class="field-hint" id=hint_id.clone()>{move || spec.hint_text(lang.get())}</p>
            <input
                type="text"
                inputmode="decimal"
                autocomplete="off"
                spellcheck="false"
                class="field-number"
                id=id
                data-testid=id
                aria-describedby=format!("{hint_id} {error_id}")
                aria-invalid=move || if error.with(Option::is_some) { "true" } else { "false" }
                prop:value=move || text.get()
                on:input=on_input
            />
            <p class="field-error" id=error_id data-testid=format!("{id}-error") aria-live="polite">
                {move || error.get().map(|e| error_message(lang.get(), &e))}
            </p>
        </div>
    }
    .into_any()
}

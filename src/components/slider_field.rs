//! A slider paired with an exact number field. Typing wins: the field keeps exactly
//! what the user typed; a bad value shows a message next to the field and is not
//! committed, so every result keeps showing the last good value.

use leptos::prelude::*;

use crate::core::error::{Field, InputError, Problem};
use crate::format::{parse_number, plain};
use crate::i18n::{error_message, Lang};

#[component]
pub fn SliderField(
    /// `data-testid` and element id of the number field.
    testid: &'static str,
    #[prop(into)] label: Signal<String>,
    #[prop(into)] hint: Signal<String>,
    #[prop(into)] value: Signal<f64>,
    /// Called with every valid value (from the slider or the number field).
    on_commit: Callback<f64>,
    /// The engine field this input feeds (names it in messages).
    field: Field,
    /// The engine's validator for this field.
    validate: fn(f64) -> Result<f64, InputError>,
    #[prop(into)] lang: Signal<Lang>,
    min: f64,
    max: f64,
    step: f64,
) -> impl IntoView {
    let text = RwSignal::new(plain(value.get_untracked(), 6));
    let error: RwSignal<Option<InputError>> = RwSignal::new(None);

    // A value set from elsewhere (slider, preset, link) replaces the text unless the
    // text already reads as that value (so "9000." stays while typing).
    // Only a change of the value itself counts: other inputs changing must not overwrite
    // text the user is still fixing.
    Effect::new(move |previous: Option<f64>| {
        let v = value.get();
        if previous.is_some_and(|p| p != v) && parse_number(&text.get_untracked()) != Some(v) {
            text.set(plain(v, 6));
            error.set(None);
        }
        v
    });

    let on_text = move |ev| {
        let raw = event_target_value(&ev);
        text.set(raw.clone());
        match parse_number(&raw) {
            None => error.set(Some(InputError::new(field, Problem::NotANumber))),
            Some(v) => match validate(v) {
                Ok(v) => {
                    error.set(None);
                    on_commit.run(v);
                }
                Err(e) => error.set(Some(e)),
            },
        }
    };
    let on_slider = move |ev| {
        let raw = event_target_value(&ev);
        if let Some(v) = crate::core::decimal::parse_f64(&raw) {
            if let Ok(v) = validate(v) {
                text.set(plain(v, 6));
                error.set(None);
                on_commit.run(v);
            }
        }
    };

    let slider_id = format!("{testid}-slider");
    let hint_id = format!("{testid}-hint");
    let error_id = format!("{testid}-error");
    let describedby = format!("{hint_id} {error_id}");
    let slider_label = move || label.get();
    view! {
        <div class="field" class:field-invalid=move || error.with(Option::is_some)>
            <label class="field-label" for=testid>{move || label.get()}</label>
            <p class="field-hint" id=hint_id.clone()>{move || hint.get()}</p>
            <div class="field-row">
                <input
                    type="range"
                    class="field-slider"
                    id=slider_id
                    data-testid=format!("{testid}-slider")
                    aria-label=slider_label
                    aria-describedby=hint_id
                    min=min
                    max=max
                    step=step
                    prop:value=move || plain(value.get().clamp(min, max), 6)
                    on:input=on_slider
                />
                <input
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    spellcheck="false"
                    class="field-number"
                    id=testid
                    data-testid=testid
                    aria-describedby=describedby
                    aria-invalid=move || if error.with(Option::is_some) { "true" } else { "false" }
                    prop:value=move || text.get()
                    on:input=on_text
                />
            </div>
            <p class="field-error" id=error_id data-testid=format!("{testid}-error") aria-live="polite">
                {move || error.get().map(|e| error_message(lang.get(), &e))}
            </p>
        </div>
    }
}

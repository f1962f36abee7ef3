//! The field of one declared input (`inputs::INPUTS`): label, hint, range, step and
//! validator come from its declaration; the value is bound to the plan's state.

use leptos::prelude::*;

use crate::components::slider_field::SliderField;
use crate::inputs::InputSpec;
use crate::page::context::use_ctx;

#[component]
pub fn InputField(spec: &'static InputSpec) -> impl IntoView {
    let ctx = use_ctx();
    let (state, lang) = (ctx.state, ctx.lang);
    let Some(range) = spec.range else {
        return ().into_any();
    };
    let value = Memo::new(move |_| state.with(|s| spec.shown(&s.inputs)));
    let on_commit = Callback::new(move |v: f64| {
        crate::page::context::typed();
        state.update(|s| spec.commit(&mut s.inputs, v))
    });
    let label = Signal::derive(move || spec.label(lang.get()).to_string());
    // Only a hint that reads the inputs back subscribes to them; the others follow the language.
    let hint = Memo::new(move |_| match spec.hint_now {
        Some(_) => state.with(|s| spec.hint(lang.get(), &s.inputs)),
        None => spec.hint_text(lang.get()).to_string(),
    });
    view! {
        <SliderField
            testid=spec.testid
            label
            hint
            value
            on_commit
            field=spec.field
            validate=range.validate
            lang
            min=range.min
            max=range.max
            step=range.step
        />
    }
    .into_any()
}

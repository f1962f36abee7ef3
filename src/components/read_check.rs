//! The top of the parse report when the reading needs the user's look: the question when
//! another column meaning is as plausible (with one-click readings and "this is right"),
//! and the plausibility guard's warnings. The texts: `present::read_check`.

use leptos::prelude::*;

use crate::core::ingest::ColumnMeaning;
use crate::i18n::{pick, Lang};
use crate::page::context::use_ctx;
use crate::present::read_check::{
    alternative_text, confirm_text, meaning_key, warnings_heading, Ask,
};

/// One warning as the report lists it: its kind (`data-kind`), its text, and the reading
/// that fixes it, if one does.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadWarning {
    pub kind: &'static str,
    pub text: String,
    pub fix: Option<ColumnMeaning>,
}

/// A button that sets the column meaning.
fn meaning_button(testid: &'static str, m: ColumnMeaning, text: String) -> impl IntoView {
    let state = use_ctx().state;
    view! {
        <button
            type="button"
            data-testid=testid
            data-value=meaning_key(m)
            on:click=move |_| state.update(|s| s.parse_options.meaning = m)
        >
            {text}
        </button>
    }
}

#[component]
pub fn ReadCheck(lang: Lang, ask: Option<Ask>, warnings: Vec<ReadWarning>) -> impl IntoView {
    let l = lang;
    view! {
        {ask.map(|a| view! {
            <div class="warning read-ask" role="status" data-testid="meaning-ask" data-value=meaning_key(a.taken)>
                <p>{a.text}</p>
                <div class="read-actions" role="group" aria-label=pick(l, "How the columns are read", "各列的读取方式")>
                    {meaning_button("meaning-confirm", a.taken, confirm_text(l).to_string())}
                    {a.alternatives.into_iter().map(|m| meaning_button("meaning-alternative", m, alternative_text(l, m))).collect_view()}
                </div>
            </div>
        })}
        {(!warnings.is_empty()).then(|| view! {
            <div class="warning read-warnings" role="status">
                <p>{warnings_heading(l)}</p>
                <ul data-testid="read-warnings">
                    {warnings.into_iter().map(|w| view! {
                        <li data-testid="read-warning" data-kind=w.kind>
                            {w.text}
                            {w.fix.map(|m| view! { " " {meaning_button("warning-fix", m, alternative_text(l, m))} })}
                        </li>
                    }).collect_view()}
                </ul>
            </div>
        })}
    }
}

//! A part of a card shown only sometimes (a warning, a guard, a formula), driven by a
//! `Memo<bool>` so it is built only when the flag flips. One component for every such part
//! (its children are type-erased), unlike `<Show>`, whose code is generated per use.

use leptos::prelude::*;

#[component]
pub fn When(when: Memo<bool>, children: ChildrenFn) -> impl IntoView {
    move || when.get().then(|| children())
}

//! The fields of one group of declared inputs, in the table's order: a card places its
//! inputs with `<InputFields group=Group::…/>`, so a new input in that group is one entry
//! in `inputs::INPUTS` and nothing here or in the card.

use leptos::prelude::*;

use crate::components::input_field::InputField;
use crate::inputs::{group, Group};

#[component]
pub fn InputFields(group_of: Group) -> impl IntoView {
    group(group_of)
        .map(|spec| view! { <InputField spec /> })
        .collect_view()
}

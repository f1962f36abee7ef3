//! What the cards say, as pure functions of (language, currency, outputs): every sentence,
//! figure and formula of a card as text, natively tested. A card computes its presentation
//! in one memo and its view places the parts, each part read by its own closure, so a change
//! touches only the text and attributes that changed. No leptos or browser imports here.

pub mod effective;
pub mod review;
pub mod spot;

use crate::core::error::InputError;
use crate::i18n::error_message;
use crate::state::Lang;

/// A card's presentation, or the message of the input error that stops it.
pub type Presented<T> = Result<T, String>;

/// The message a card shows instead of its figures.
pub fn failed<T>(lang: Lang, err: &InputError) -> Presented<T> {
    Err(error_message(lang, err))
}

/// A figure as shown: its text and its machine value (`data-value`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Shown {
    pub text: String,
    pub value: String,
}

impl Shown {
    pub fn new(text: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            value: value.into(),
        }
    }
}

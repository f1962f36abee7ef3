//! The page's state as plain types: what the user chose (`AppState`, the link carries it),
//! the language, and how far the history text has been read. No leptos or browser here.

use crate::core::ingest::{IngestError, ParseOptions, Parsed};
use crate::core::plan::PlanInputs;
use crate::core::zone::ZoneChoice;

/// The page language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }

    /// Pick a language from a browser language tag list (`navigator.languages`).
    pub fn from_browser<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        for tag in tags {
            let tag = tag.to_ascii_lowercase();
            if tag.starts_with("zh") {
                return Lang::Zh;
            }
            if tag.starts_with("en") {
                return Lang::En;
            }
        }
        Lang::En
    }

    /// The BCP 47 tag for the `<html lang>` attribute.
    pub fn html_tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::Zh,
            Lang::Zh => Lang::En,
        }
    }
}

/// The currency label (no conversion ever happens).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Currency {
    #[default]
    Cny,
    Usd,
}

impl Currency {
    pub fn symbol(self) -> &'static str {
        match self {
            Currency::Cny => "¥",
            Currency::Usd => "$",
        }
    }
    pub fn code(self) -> &'static str {
        match self {
            Currency::Cny => "cny",
            Currency::Usd => "usd",
        }
    }
    pub fn from_code(code: &str) -> Option<Currency> {
        match code {
            "cny" => Some(Currency::Cny),
            "usd" => Some(Currency::Usd),
            _ => None,
        }
    }
}

/// Where the usage comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum UsageMode {
    /// GPUs × hours used per GPU per month, from sliders.
    #[default]
    Sliders,
    /// A pasted, dropped or picked history.
    Data,
}

/// Everything the user controls except the history text; the URL carries this.
#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    pub inputs: PlanInputs,
    pub lang: Lang,
    pub currency: Currency,
    pub mode: UsageMode,
    /// How the history text is read (format, column, gaps, time form…). Its zone fields are
    /// filled from `tz` when the text is read ([`read_options`]).
    pub parse_options: ParseOptions,
    /// The planning time zone.
    pub tz: ZoneChoice,
    /// The GPU types of a mixed fleet (none: one type, the page as it always was).
    pub fleet: Fleet,
}

/// One GPU type of a mixed fleet.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeRow {
    /// The name shown (unique in the fleet, at most 40 characters).
    pub name: String,
    /// The history's types it plans (`core::ingest::normalize_type` keys; several after a
    /// merge). Empty: the type's own sliders.
    pub keys: Vec<String>,
    /// The type's own values (`InputSpec::per_type`: prices, sliders, terms, custom N).
    /// Only those are read; for the selected type they live in `AppState::inputs`.
    pub inputs: PlanInputs,
}

/// The fleet: its types and which one the cards show. Fewer than two types: the one-type
/// page. `fleet.rs` keeps it consistent.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Fleet {
    pub types: Vec<TypeRow>,
    /// Index into `types` (0 when there are none).
    pub selected: usize,
}

impl AppState {
    pub fn new(inputs: PlanInputs, lang: Lang) -> Self {
        Self {
            inputs,
            lang,
            currency: Currency::default(),
            mode: UsageMode::default(),
            parse_options: ParseOptions::default(),
            tz: ZoneChoice::Auto,
            fleet: Fleet::default(),
        }
    }
}

/// Progress of reading the history text. (Held once, in one signal: the variant size gap is harmless.)
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Default)]
pub enum ParseStatus {
    /// No text.
    #[default]
    Empty,
    /// Reading a large paste: fraction done.
    Parsing(f64),
    Done(Result<Parsed, IngestError>),
}

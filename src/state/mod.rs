//! The page's state as plain types (the layer `state`, below the link codec and the
//! presentation that read it): what the user chose (`AppState`, the link carries it), the
//! language, how far the history text has been read, the mixed fleet's rules (`fleet`) and the
//! example prices (`presets`). No leptos or browser here.

pub mod fleet;
pub mod presets;

use crate::core::ingest::{IngestError, ParseOptions, Parsed};
use crate::core::plan::PlanInputs;
use crate::core::zone::ZoneChoice;

// The language and the currency label: plain types the lower layers use too (`format`).
pub use crate::format::{Currency, Lang};

/// localStorage key of the autosaved session: the same query string as the link.
pub const AUTOSAVE_KEY: &str = "gpu-rent-planner/v1/last";

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

//! What crosses between the page and its reader worker (issue 36), as plain Rust: the
//! reading options one way, the parse result the other, each as postcard bytes (one build
//! writes and reads both sides, so the encoding never has to outlive a build). The page
//! (`reader_client`) and the worker (`reader_worker`) hold the JavaScript side: a message is
//! an object `{ id, options, text | file }` to the worker, `{ id, progress }` or
//! `{ id, result }` back (see [`field`]).

use crate::core::ingest::{IngestError, ParseOptions, ParseResult};

/// The message fields, named once for both sides.
pub mod field {
    /// The read's number; a newer number cancels every older read.
    pub const ID: &str = "id";
    /// [`super::encode_options`]'s bytes.
    pub const OPTIONS: &str = "options";
    /// A pasted (or link-carried) text.
    pub const TEXT: &str = "text";
    /// A picked or dropped file (a `File`, cloned to the worker, read there slice by slice).
    pub const FILE: &str = "file";
    /// Worker → page: the fraction read so far.
    pub const PROGRESS: &str = "progress";
    /// Worker → page: [`super::encode_result`]'s bytes (transferred, not copied).
    pub const RESULT: &str = "result";
    /// Worker → page, once: the worker has started and reads messages.
    pub const READY: &str = "ready";
    /// The query writer's worker (issue 38, `query_worker`): every message carries a number
    /// [`QID`] (a newer one replaces the one waiting) and the page's language [`LANG`]
    /// (`Lang::code`). Page → worker: [`FORM`] (the form's template is wanted),
    /// [`FIELDS`] (the form's values, an array of `[id, value]`), or [`RATES`] (a bills'
    /// rates answer to read). Worker → page: [`FORM_HTML`], or [`TEXT_OUT`] / [`ERROR`]
    /// with [`ATTRS`] (`[name, value]` pairs for the form), or [`RATES_ANSWER`]
    /// ([`super::encode_rates`]'s bytes).
    pub const QID: &str = "qid";
    pub const LANG: &str = "lang";
    pub const FORM: &str = "form";
    pub const FORM_HTML: &str = "formHtml";
    pub const FIELDS: &str = "fields";
    pub const TEXT_OUT: &str = "queryText";
    pub const ERROR: &str = "error";
    pub const ATTRS: &str = "attrs";
    pub const RATES: &str = "rates";
    pub const RATES_ANSWER: &str = "ratesAnswer";
}

/// What a rates answer read gives: the bill report, or why not (in the page's language).
pub type RatesResult = Result<crate::core::ingest::CurReport, String>;

pub fn encode_rates(r: &RatesResult) -> Vec<u8> {
    postcard::to_allocvec(r).unwrap_or_default()
}

/// The rates back; bytes that are not one are `None`.
pub fn decode_rates(bytes: &[u8]) -> Option<RatesResult> {
    postcard::from_bytes(bytes).ok()
}

/// The options as bytes.
pub fn encode_options(options: &ParseOptions) -> Vec<u8> {
    postcard::to_allocvec(options).unwrap_or_default()
}

/// The options back (`None`: not this build's bytes).
pub fn decode_options(bytes: &[u8]) -> Option<ParseOptions> {
    postcard::from_bytes(bytes).ok()
}

/// A parse result as bytes.
pub fn encode_result(result: &ParseResult) -> Vec<u8> {
    postcard::to_allocvec(result).unwrap_or_default()
}

/// A parse result back; bytes that are not one become the reader's failure.
pub fn decode_result(bytes: &[u8]) -> ParseResult {
    postcard::from_bytes(bytes).unwrap_or_else(|e| {
        Err(IngestError::ReaderStopped {
            detail: format!("unreadable answer: {e}"),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ingest::{parse, ColumnChoice, ColumnMeaning, Format, GapPolicy};

    /// Every kind of result the readers give crosses unchanged: a plain table, a typed
    /// history with its report, a refusal with a report inside, a question about meaning.
    #[test]
    fn results_and_options_cross_unchanged() {
        let texts = [
            "time,gpus\n2026-11-02 10:00,3\n2026-11-02 11:00,4.5\n2026-11-02 13:00,x\n",
            "time,type,gpus\n2026-11-02 10:00,A100,3\n2026-11-02 10:00,H100,2\n2026-11-02 11:00,A100,1\n",
            "time,temperature\n2026-11-02 10:00,61\n",
            "Time,GPU 0,GPU 1\n2026-11-02 10:00,97%,3%\n2026-11-02 11:00,50%,0%\n",
            "",
            "not a history at all",
        ];
        let mut options = ParseOptions {
            column: ColumnChoice::One(0),
            gaps: GapPolicy::Zero,
            offset_changes: vec![(1_700_000_000, 60), (1_710_000_000, 120)],
            meaning: ColumnMeaning::Utilisation,
            format: Some(Format::Table),
            busy_threshold_percent: 12.5,
            ..Default::default()
        };
        assert_eq!(
            decode_options(&encode_options(&options)),
            Some(options.clone())
        );
        options = ParseOptions::default();
        for text in texts {
            let result = parse(text, &options);
            assert_eq!(decode_result(&encode_result(&result)), result, "{text}");
        }
        let stopped = Err(IngestError::ReaderStopped { detail: "x".into() });
        assert_eq!(decode_result(&encode_result(&stopped)), stopped);
    }

    /// Every file of the corpus of real exports (tests/corpus/) crosses unchanged, read or
    /// refused, with the options a page sends.
    #[test]
    fn the_corpus_crosses_unchanged() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
        let mut n = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md" || e == "in") {
                continue;
            }
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            for options in [
                ParseOptions::default(),
                ParseOptions {
                    meaning: ColumnMeaning::Counts,
                    utc_offset_minutes: 480,
                    ..Default::default()
                },
            ] {
                let result = parse(&text, &options);
                assert_eq!(
                    decode_result(&encode_result(&result)),
                    result,
                    "{}",
                    path.display()
                );
                n += 1;
            }
        }
        assert!(n >= 70, "{n} reads");
    }

    /// A rates answer crosses unchanged, read or refused; foreign bytes are `None`.
    #[test]
    fn rates_cross_unchanged() {
        let text = "gpu_type,pricing,gpu_hours,cost,currency\na100,spot,50,61.25,USD\n";
        let read: RatesResult =
            crate::core::ingest::rates::read_rates(text).map_err(|e| format!("{e:?}"));
        assert!(read.is_ok());
        assert_eq!(decode_rates(&encode_rates(&read)), Some(read));
        let refused: RatesResult = Err("Rates, line 1: no rows.".into());
        assert_eq!(decode_rates(&encode_rates(&refused)), Some(refused));
        assert_eq!(decode_rates(&[0xff, 0xff, 0xff]), None);
    }

    /// Bytes that are not an answer are said to be so, never a panic or a wrong history.
    #[test]
    fn foreign_bytes_are_a_failure() {
        for bytes in [&[][..], &[0xff; 3][..], &[0, 1, 2, 3, 4][..]] {
            assert!(matches!(
                decode_result(bytes),
                Err(IngestError::ReaderStopped { .. })
            ));
        }
        assert_eq!(decode_options(&[0xff, 0xff]), None);
    }
}

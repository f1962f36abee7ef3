//! What crosses between the page and its reader worker (issue 36), as plain Rust: the
//! reading options one way, the parse result the other, each as postcard bytes (one build
//! writes and reads both sides, so the encoding never has to outlive a build). The page
//! (`reader_client`) and the worker (`reader_worker`) hold the JavaScript side: a message is
//! an object `{ id, options, text | file }` to the worker, `{ id, progress }` or
//! `{ id, result }` back (see [`field`]).

use crate::core::ingest::{IngestError, ParseOptions, ParseResult};
use crate::core::query::{QueryError, QuerySpec};

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
    /// Page → worker: a query to write (issue 38), [`super::encode_query`]'s bytes, with its
    /// own number [`QID`] (a query never cancels a read, nor a read a query).
    pub const QUERY: &str = "query";
    pub const QID: &str = "qid";
    /// Worker → page: [`super::encode_query_answer`]'s bytes.
    pub const QUERY_ANSWER: &str = "queryAnswer";
    /// Page → worker: a bills' rates answer to read (text, with a [`QID`]); worker → page:
    /// [`super::encode_rates`]'s bytes.
    pub const RATES: &str = "rates";
    pub const RATES_ANSWER: &str = "ratesAnswer";
}

/// What a rates answer read gives.
pub type RatesResult =
    Result<crate::core::ingest::CurReport, crate::core::ingest::rates::RatesError>;

pub fn encode_rates(r: &RatesResult) -> Vec<u8> {
    postcard::to_allocvec(r).unwrap_or_default()
}

/// The rates back; bytes that are not one are `None`.
pub fn decode_rates(bytes: &[u8]) -> Option<RatesResult> {
    postcard::from_bytes(bytes).ok()
}

/// A query's choices as bytes.
pub fn encode_query(spec: &QuerySpec) -> Vec<u8> {
    postcard::to_allocvec(spec).unwrap_or_default()
}

/// The choices back (`None`: not this build's bytes).
pub fn decode_query(bytes: &[u8]) -> Option<QuerySpec> {
    postcard::from_bytes(bytes).ok()
}

/// The written query (or why not) as bytes.
pub fn encode_query_answer(answer: &Result<String, QueryError>) -> Vec<u8> {
    postcard::to_allocvec(answer).unwrap_or_default()
}

/// The written query back; bytes that are not one say so.
pub fn decode_query_answer(bytes: &[u8]) -> Result<String, QueryError> {
    postcard::from_bytes(bytes)
        .unwrap_or_else(|e| Err(QueryError::Unavailable(format!("unreadable answer: {e}"))))
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

    /// A query's choices and its text cross unchanged; foreign bytes are a failure.
    #[test]
    fn queries_cross_unchanged() {
        let spec = QuerySpec {
            engine: crate::core::query::Engine::Slurmdbd,
            start: 3600,
            end: 7200,
            types: vec!["a100".into(), "h100-94g".into()],
            team: Some("account".into()),
            path: "x'; --".into(),
            rates: true,
            ..Default::default()
        };
        assert_eq!(decode_query(&encode_query(&spec)), Some(spec));
        for answer in [
            Ok("SELECT 1;\n".to_string()),
            Err(QueryError::BadTeam("qos2".into())),
        ] {
            assert_eq!(decode_query_answer(&encode_query_answer(&answer)), answer);
        }
        assert!(matches!(
            decode_query_answer(&[0xff, 0xff, 0xff]),
            Err(QueryError::Unavailable(_))
        ));
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

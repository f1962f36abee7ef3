//! A text fed to the usage `Parser` in chunks, shared by the ingest unit tests
//! (src/core/ingest/test_feed.rs) and tests/fuzz_ingest.rs (both include it with `#[path]`; a
//! subdirectory, so not a test target). The includer has `Parser`, `ParseOptions` and
//! `ParseResult` in scope.

use super::{ParseOptions, ParseResult, Parser};

/// `text` fed to a [`Parser`] in chunks of the given sizes (in turn; each at least 1, its end
/// moved up to a char boundary): chunks end anywhere, between the quotes of `""` or inside
/// `\r\n`.
pub fn fed_in_chunks(text: &str, opts: &ParseOptions, sizes: &[usize]) -> ParseResult {
    let mut p = Parser::new(opts.clone());
    let mut i = 0;
    for &size in sizes.iter().cycle() {
        if i >= text.len() {
            break;
        }
        let mut e = (i + size.max(1)).min(text.len());
        while !text.is_char_boundary(e) {
            e += 1;
        }
        p.feed(&text[i..e]);
        i = e;
    }
    p.finish()
}

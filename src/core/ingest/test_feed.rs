//! Shared by the ingest tests: the default options, a reading that must succeed, and a text
//! fed to the readers in pieces, as the page feeds them (the `Parser` in chunks, the
//! `Stepper` and the `ByteStepper` in slices).

use super::*;

#[path = "../../../tests/common/feed.rs"]
mod feed;

/// The options the page starts with.
pub(super) fn opts() -> ParseOptions {
    ParseOptions::default()
}

/// The page's options with value column `i` chosen.
pub(super) fn one_column(i: usize) -> ParseOptions {
    ParseOptions {
        column: ColumnChoice::One(i),
        ..opts()
    }
}

/// The name of a column a reading found, if it found one.
pub(super) fn column_name(c: &Option<ValueColumn>) -> Option<&str> {
    c.as_ref().map(|c| c.name.as_str())
}

/// `text` read whole with `o`; panics (with the text) when it is refused.
pub(super) fn ok(text: &str, o: &ParseOptions) -> Parsed {
    match parse(text, o) {
        Ok(p) => p,
        Err(e) => panic!("parse failed: {e:?}\n{text}"),
    }
}

/// `text` fed to a [`Parser`] in chunks of `size` bytes ([`feed::fed_in_chunks`]).
pub(super) fn chunked(text: &str, o: &ParseOptions, size: usize) -> ParseResult {
    feed::fed_in_chunks(text, o, &[size])
}

/// `text` read by a [`Stepper`] in slices of `slice` bytes.
pub(super) fn stepped(text: &str, o: &ParseOptions, slice: usize) -> ParseResult {
    let mut s = Stepper::new(text, o);
    while !s.step(slice) {}
    s.finish()
}

/// `text`'s bytes read by a [`ByteStepper`], `slice` bytes wherever it asks.
pub(super) fn byte_stepped(text: &str, o: &ParseOptions, slice: usize) -> ParseResult {
    let b = text.as_bytes();
    let mut s = ByteStepper::new(b.len() as u64, o);
    while let Some(at) = s.wants() {
        let at = at as usize;
        s.feed(&b[at..(at + slice).min(b.len())]);
    }
    s.finish()
}

/// `text` read whole, then in [`chunked`] chunks of each size in `chunks`, [`stepped`] slices
/// of each size in `slices` and [`byte_stepped`] slices of each size in `bytes`: every
/// reading must equal the whole one, which is returned.
pub(super) fn same_every_way(
    text: &str,
    o: &ParseOptions,
    chunks: &[usize],
    slices: &[usize],
    bytes: &[usize],
) -> ParseResult {
    let one = parse(text, o);
    for &size in chunks {
        assert_eq!(chunked(text, o, size), one, "chunks of {size}\n{text}");
    }
    for &slice in slices {
        assert_eq!(stepped(text, o, slice), one, "Stepper slices of {slice}");
    }
    for &slice in bytes {
        assert_eq!(byte_stepped(text, o, slice), one, "bytes {slice}");
    }
    one
}

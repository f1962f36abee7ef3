//! Reading a history from bytes that arrive in slices (a `File` read piece by piece), so the
//! whole text is never held: [`ByteStepper`] decodes UTF-8 across slice boundaries and feeds
//! a [`Parser`]; the caller reads the bytes it asks for ([`ByteStepper::wants`]).
//!
//! ```ignore
//! let mut s = ByteStepper::new(file_size, &options);
//! while let Some(at) = s.wants() {
//!     let bytes = read(at, FILE_SLICE_BYTES).await;   // File.slice(at, at + n)
//!     s.feed(&bytes);                                  // may ask again from 0 (see below)
//!     set_progress(s.progress());
//! }
//! let result = s.finish();
//! ```
//!
//! The text is decoded as the browser's `File.text()` decodes it: UTF-8, a broken sequence
//! read as U+FFFD (so a binary file is refused as binary, exactly as when pasted). When the
//! first lines' dates read both ways and later ones fix the order of day and month, the
//! stepper asks for the file again from its first byte ([`Parser::rereading_order`]), as
//! [`super::Stepper`] reads a text twice.

use super::{ParseOptions, ParseResult, Parser};

/// Decodes UTF-8 that arrives in slices: a sequence cut by a slice boundary waits for the
/// next slice; an invalid sequence becomes U+FFFD.
#[derive(Debug, Default)]
pub struct Utf8Slices {
    /// The start of a sequence cut at the end of the last slice (at most 3 bytes).
    carry: Vec<u8>,
}

impl Utf8Slices {
    /// Decode `bytes` (after what was carried), calling `out` with text pieces in order.
    pub fn push(&mut self, bytes: &[u8], mut out: impl FnMut(&str)) {
        let mut rest = bytes;
        if !self.carry.is_empty() {
            // Complete the carried sequence with at most 3 more bytes.
            let take = rest.len().min(4 - self.carry.len());
            let mut joined = self.carry.clone();
            joined.extend_from_slice(&rest[..take]);
            match std::str::from_utf8(&joined) {
                Ok(s) => {
                    out(s);
                    self.carry.clear();
                    rest = &rest[take..];
                }
                Err(e) if e.valid_up_to() > 0 => {
                    // The carried sequence completed within the bytes taken.
                    let n = e.valid_up_to();
                    // SAFETY-free: from_utf8 said the first n bytes are valid.
                    out(std::str::from_utf8(&joined[..n]).unwrap_or("\u{FFFD}"));
                    let used = n - self.carry.len();
                    self.carry.clear();
                    rest = &rest[used..];
                }
                Err(e) => match e.error_len() {
                    // Still incomplete: all of `rest` (under 4 bytes) joins the carry.
                    None => {
                        self.carry = joined;
                        return;
                    }
                    Some(bad) => {
                        out("\u{FFFD}");
                        let used = bad.saturating_sub(self.carry.len());
                        self.carry.clear();
                        rest = &rest[used..];
                    }
                },
            }
        }
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    if !s.is_empty() {
                        out(s);
                    }
                    return;
                }
                Err(e) => {
                    let n = e.valid_up_to();
                    if n > 0 {
                        out(std::str::from_utf8(&rest[..n]).unwrap_or(""));
                    }
                    match e.error_len() {
                        None => {
                            self.carry = rest[n..].to_vec();
                            return;
                        }
                        Some(bad) => {
                            out("\u{FFFD}");
                            rest = &rest[n + bad..];
                        }
                    }
                }
            }
        }
    }

    /// The input ended: a sequence still cut is one U+FFFD.
    pub fn end(&mut self, mut out: impl FnMut(&str)) {
        if !self.carry.is_empty() {
            self.carry.clear();
            out("\u{FFFD}");
        }
    }
}

/// Drive a [`Parser`] over bytes the caller reads in slices (see the module doc).
pub struct ByteStepper {
    size: u64,
    pos: u64,
    parser: Parser,
    utf8: Utf8Slices,
    options: ParseOptions,
    passes: u8,
}

impl ByteStepper {
    /// A stepper for an input of `size` bytes (a file's size). Over
    /// `options.max_input_bytes` it fails at once, without asking for a byte.
    pub fn new(size: u64, options: &ParseOptions) -> Self {
        let mut s = Self {
            size,
            pos: 0,
            parser: Parser::new(options.clone()),
            utf8: Utf8Slices::default(),
            options: options.clone(),
            passes: 1,
        };
        if size > options.max_input_bytes as u64 {
            s.parser
                .fail_too_large(usize::try_from(size).unwrap_or(usize::MAX));
            s.pos = size;
        }
        s
    }

    /// The byte offset to read next, `None` when all is read (or the input already failed).
    pub fn wants(&self) -> Option<u64> {
        (self.pos < self.size && !self.parser.has_failed()).then_some(self.pos)
    }

    /// Feed the bytes read at [`ByteStepper::wants`] (any length; an empty slice before the
    /// end means the input is shorter than its size said: it ends there).
    pub fn feed(&mut self, bytes: &[u8]) {
        if self.wants().is_none() {
            return;
        }
        let parser = &mut self.parser;
        self.utf8.push(bytes, |s| parser.feed(s));
        self.pos = if bytes.is_empty() {
            self.size
        } else {
            self.pos.saturating_add(bytes.len() as u64).min(self.size)
        };
        if self.pos >= self.size && !self.parser.has_failed() {
            let parser = &mut self.parser;
            self.utf8.end(|s| parser.feed(s));
            self.parser.flush();
            if let Some(order) = self.parser.rereading_order() {
                // Later dates fixed the order of day and month: read again from the start.
                self.parser = Parser::with_order(self.options.clone(), order);
                self.utf8 = Utf8Slices::default();
                self.pos = 0;
                self.passes = 2;
            }
        }
    }

    /// Fraction read, 0.0 ..= 1.0 (a second reading counts from the middle).
    pub fn progress(&self) -> f64 {
        if self.size == 0 {
            return 1.0;
        }
        let f = self.pos as f64 / self.size as f64;
        if self.passes == 2 {
            0.5 + f / 2.0
        } else {
            f
        }
    }

    pub fn finish(self) -> ParseResult {
        self.parser.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ingest::{parse, IngestError};

    fn decode(slices: &[&[u8]]) -> String {
        let mut u = Utf8Slices::default();
        let mut s = String::new();
        for b in slices {
            u.push(b, |t| s.push_str(t));
        }
        u.end(|t| s.push_str(t));
        s
    }

    #[test]
    fn utf8_cut_anywhere_decodes_as_whole() {
        let text = "时间,GPU\n2026-10-05 00:00,３\n€ 😀 ok\n";
        let b = text.as_bytes();
        for i in 0..=b.len() {
            for j in i..=b.len() {
                assert_eq!(
                    decode(&[&b[..i], &b[i..j], &b[j..]]),
                    text,
                    "cut at {i},{j}"
                );
            }
        }
    }

    #[test]
    fn utf8_one_byte_slices_decode_as_whole() {
        let text = "a😀b时c";
        let bytes: Vec<&[u8]> = text.as_bytes().chunks(1).collect();
        assert_eq!(decode(&bytes), text);
    }

    #[test]
    fn broken_utf8_reads_as_replacement_like_lossy() {
        let cases: [&[u8]; 5] = [
            b"ab\xffcd",
            b"\xe6\x97",
            b"x\xe6\x97y",
            b"\xf0\x9f\x98",
            b"\xc3\x28\xa0\xa1",
        ];
        for bytes in cases {
            let want = String::from_utf8_lossy(bytes).into_owned();
            for i in 0..=bytes.len() {
                assert_eq!(
                    decode(&[&bytes[..i], &bytes[i..]]),
                    want,
                    "{bytes:?} cut at {i}"
                );
            }
        }
    }

    fn step_all(text: &str, slice: usize, opts: &ParseOptions) -> ParseResult {
        let b = text.as_bytes();
        let mut s = ByteStepper::new(b.len() as u64, opts);
        let mut reads = 0;
        while let Some(at) = s.wants() {
            let at = at as usize;
            s.feed(&b[at..(at + slice).min(b.len())]);
            reads += 1;
            assert!(reads < 10 * b.len() + 10, "the stepper must end");
        }
        s.finish()
    }

    #[test]
    fn byte_slices_give_the_whole_text_result() {
        let opts = ParseOptions::default();
        let text = "时间,GPU\n2026-10-05 00:00,3\n2026-10-05 01:00,4\n2026-10-05 02:00,\"5\"\n";
        for slice in [1, 2, 3, 7, 64, 1 << 20] {
            assert_eq!(
                step_all(text, slice, &opts),
                parse(text, &opts),
                "slice {slice}"
            );
        }
    }

    #[test]
    fn a_later_date_fixing_the_order_reads_the_file_again() {
        // 1/2 … reads both ways; 13/2 fixes day first. The locale said month first.
        let mut text = String::from("time,gpus\n");
        for d in 1..=12 {
            for h in 0..24 {
                text.push_str(&format!("{d}/2/2026 {h:02}:00,{d}\n"));
            }
        }
        text.push_str("13/2/2026 00:00,13\n");
        let opts = ParseOptions::default();
        let whole = parse(&text, &opts);
        assert_eq!(step_all(&text, 16, &opts), whole);
        let b = text.as_bytes();
        let mut s = ByteStepper::new(b.len() as u64, &opts);
        let mut starts = 0;
        while let Some(at) = s.wants() {
            starts += usize::from(at == 0);
            s.feed(&b[at as usize..]);
        }
        assert_eq!(starts, 2, "read twice from the first byte");
        assert_eq!(s.progress(), 1.0);
    }

    #[test]
    fn an_oversize_file_fails_without_a_read() {
        let opts = ParseOptions {
            max_input_bytes: 10,
            ..ParseOptions::default()
        };
        let s = ByteStepper::new(11, &opts);
        assert_eq!(s.wants(), None);
        assert_eq!(
            s.finish(),
            Err(IngestError::TooLarge {
                bytes: 11,
                max_bytes: 10
            })
        );
    }

    #[test]
    fn a_binary_file_is_refused_as_binary() {
        let bytes: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 256) as u8).collect();
        let mut s = ByteStepper::new(bytes.len() as u64, &ParseOptions::default());
        while let Some(at) = s.wants() {
            s.feed(&bytes[at as usize..(at as usize + 100).min(bytes.len())]);
        }
        assert_eq!(s.finish(), Err(IngestError::Binary));
    }

    #[test]
    fn a_file_shorter_than_its_size_ends_where_it_ends() {
        let text = b"gpus\n3\n4\n";
        let mut s = ByteStepper::new(1000, &ParseOptions::default());
        s.feed(text);
        assert_eq!(s.wants(), Some(text.len() as u64));
        s.feed(&[]);
        assert_eq!(s.wants(), None);
        let parsed = s.finish().expect("parsed");
        assert_eq!(parsed.series.len(), 2);
    }
}

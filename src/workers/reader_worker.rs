//! The readers' worker (issue 36): a module of its own (bin `reader-worker`, built by
//! scripts/extra-module.mjs) that runs `core::ingest` in a Web Worker, so the page's main
//! module does not carry the readers and its thread never parses.
//!
//! It answers the page's messages (`reader_wire::field`): a text is read in turns of
//! [`TURN_MS`], a file slice by slice from disk (never whole), each posting its progress;
//! the answer is the parse result as bytes, transferred. A message with a newer id cancels
//! the read in progress (it stops at its next turn or slice and posts nothing).

use std::cell::Cell;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::core::ingest::{self, ByteStepper, ParseOptions, ParseResult, Stepper};
use crate::web::browser::{js_object, now_ms};
use crate::workers::reader_wire::{self, field};

/// Bytes per slice of a text (~1 ms of work), then the clock is looked at.
const PARSE_SLICE_BYTES: usize = 64 * 1024;
/// Bytes read from a file at a time (one `Blob.slice(…).arrayBuffer()`).
const FILE_SLICE_BYTES: u64 = 1024 * 1024;
/// A text is read this long before the worker looks at its messages (a newer read) and
/// posts its progress; a file does both at every slice.
const TURN_MS: f64 = 50.0;

thread_local! {
    /// The newest read's id: an older read stops.
    static CURRENT: Cell<f64> = const { Cell::new(-1.0) };
}

/// Start: answer the page's messages, and say so.
pub fn run() {
    listen(on_message);
}

/// A worker module's start (this one's and the query writer's, `query_worker`): answer the
/// page's messages with `handler`, and say so.
pub(crate) fn listen(handler: fn(JsValue)) {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            handler(e.data())
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&js_object(&[(field::READY, JsValue::TRUE)]), None);
}

fn on_message(data: JsValue) {
    let get = |name: &str| js_sys::Reflect::get(&data, &JsValue::from_str(name)).ok();
    let Some(id) = get(field::ID).and_then(|v| v.as_f64()) else {
        return;
    };
    CURRENT.with(|c| c.set(id));
    let Some(options) = get(field::OPTIONS) else {
        return; // a cancel: no read
    };
    let options = js_sys::Uint8Array::new(&options).to_vec();
    let Some(options) = reader_wire::decode_options(&options) else {
        answer(
            id,
            &Err(ingest::IngestError::ReaderStopped {
                detail: "options from another build".into(),
            }),
        );
        return;
    };
    let file = get(field::FILE).and_then(|f| f.dyn_into::<web_sys::Blob>().ok());
    let text = get(field::TEXT).and_then(|t| t.as_string());
    wasm_bindgen_futures::spawn_local(async move {
        let result = match (file, text) {
            (Some(file), _) => read_file(&file, &options, id).await,
            (None, Some(text)) => read_text(&text, &options, id).await,
            (None, None) => return,
        };
        if let Some(result) = result {
            answer(id, &result);
        }
    });
}

fn current(id: f64) -> bool {
    CURRENT.with(|c| c.get()) == id
}

/// Let the worker's messages in (a newer read sets [`CURRENT`]); `false` when one came.
async fn yield_now(id: f64) -> bool {
    gloo_timers::future::TimeoutFuture::new(0).await;
    current(id)
}

async fn read_text(text: &str, options: &ParseOptions, id: f64) -> Option<ParseResult> {
    let mut stepper = Stepper::new(text, options);
    let mut turn = now_ms();
    while !stepper.step(PARSE_SLICE_BYTES) {
        if now_ms() - turn >= TURN_MS {
            progress(id, stepper.progress());
            if !yield_now(id).await {
                return None;
            }
            turn = now_ms();
        }
    }
    current(id).then(|| stepper.finish())
}

async fn read_file(file: &web_sys::Blob, options: &ParseOptions, id: f64) -> Option<ParseResult> {
    let size = file.size().max(0.0) as u64;
    let mut options = options.clone();
    options.max_input_bytes = ingest::MAX_FILE_BYTES;
    let mut stepper = ByteStepper::new(size, &options);
    let mut buf: Vec<u8> = Vec::new();
    let mut shown = now_ms();
    while let Some(at) = stepper.wants() {
        buf.clear();
        let end = at.saturating_add(FILE_SLICE_BYTES).min(size);
        let read = crate::web::browser::read_blob(file, at as f64, end as f64, &mut buf).await;
        if !current(id) {
            return None;
        }
        if !read {
            return Some(Err(ingest::IngestError::Unreadable { at }));
        }
        // An empty slice before the end: the file is shorter than it said; it ends there.
        stepper.feed(&buf);
        if now_ms() - shown >= TURN_MS {
            progress(id, stepper.progress());
            shown = now_ms();
        }
    }
    current(id).then(|| stepper.finish())
}

fn progress(id: f64, fraction: f64) {
    post(
        &js_object(&[
            (field::ID, JsValue::from_f64(id)),
            (field::PROGRESS, JsValue::from_f64(fraction)),
        ]),
        None,
    );
}

/// The answer, its bytes transferred to the page.
fn answer(id: f64, result: &ParseResult) {
    let bytes = js_sys::Uint8Array::from(&reader_wire::encode_result(result)[..]);
    let transfer = js_sys::Array::of1(&bytes.buffer());
    post(
        &js_object(&[
            (field::ID, JsValue::from_f64(id)),
            (field::RESULT, bytes.into()),
        ]),
        Some(&transfer),
    );
}

pub(crate) fn post(message: &JsValue, transfer: Option<&js_sys::Array>) {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let _ = match transfer {
        Some(t) => scope.post_message_with_transfer(message, t),
        None => scope.post_message(message),
    };
}

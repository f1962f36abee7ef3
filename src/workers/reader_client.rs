//! The page's side of the readers' worker (issue 36): the history is read in a Web Worker of
//! its own (`reader_worker`, a module the page fetches on the first read and keeps), so the
//! main module holds no reader and its thread never parses.
//!
//! One read at a time: [`read`] replaces the read in progress (its answer, if it still comes,
//! is dropped, and the worker stops it at its next turn); [`cancel`] stops it without a new
//! one. The worker's script is named by the build in `<meta name="grp-reader">`
//! (scripts/finish.mjs). When the worker fails (it could not be fetched, or it stopped), the
//! read in progress gets [`IngestError::ReaderStopped`] and the next read starts a new one.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::core::ingest::{IngestError, ParseOptions, ParseResult};
use crate::web::browser::js_object;
use crate::workers::reader_wire::{self, field};

/// The `<meta>` whose `content` is the worker script's URL.
pub const META_NAME: &str = "grp-reader";

/// What to read.
pub enum Source {
    Text(String),
    File(web_sys::File),
}

type Progress = Rc<dyn Fn(f64)>;
type Done = Box<dyn FnOnce(ParseResult)>;

/// A worker of the page's (the readers', the query writer's), with its handlers.
pub(crate) struct Client {
    worker: web_sys::Worker,
    /// The worker has said it reads messages; before, messages wait here (in order).
    ready: bool,
    waiting: Vec<JsValue>,
    /// Only the newest waiting message matters (a newer one replaces it).
    newest_only: bool,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

/// Where a client module keeps its worker (none before the first message, or after it failed).
pub(crate) type Slot = std::thread::LocalKey<RefCell<Option<Client>>>;

/// The next message number of the counter `n`.
pub(crate) fn next_id(n: &'static std::thread::LocalKey<std::cell::Cell<f64>>) -> f64 {
    n.with(|n| {
        n.set(n.get() + 1.0);
        n.get()
    })
}

/// Send `message` to the worker in `slot`, started with `start` if there is none (sent when
/// it is ready); `Err` says why there is none.
pub(crate) fn send_to(
    slot: &'static Slot,
    start: fn() -> Result<Client, String>,
    message: JsValue,
) -> Result<(), String> {
    slot.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(start()?);
        }
        if let Some(c) = slot.as_mut() {
            if c.ready {
                let _ = c.worker.post_message(&message);
            } else {
                if c.newest_only {
                    c.waiting.clear();
                }
                c.waiting.push(message);
            }
        }
        Ok(())
    })
}

/// The number (in its field `id`) of the message `data` of the worker in `slot` answers;
/// `None` for its "ready" message (what waited for it is then sent) or a message without one.
pub(crate) fn answered_id(slot: &'static Slot, data: &JsValue, id: &str) -> Option<f64> {
    let get = |name: &str| js_sys::Reflect::get(data, &JsValue::from_str(name)).ok();
    if get(field::READY).is_some_and(|r| r.is_truthy()) {
        slot.with(|cell| {
            if let Some(c) = cell.borrow_mut().as_mut() {
                c.ready = true;
                for m in std::mem::take(&mut c.waiting) {
                    let _ = c.worker.post_message(&m);
                }
            }
        });
        return None;
    }
    get(id).and_then(|v| v.as_f64())
}

/// The worker in `slot` failed: it goes (the next message starts another).
pub(crate) fn stop(slot: &'static Slot) {
    if let Some(c) = slot.with(|cell| cell.borrow_mut().take()) {
        c.worker.terminate();
        // Its handlers go once this one has returned (not while it runs).
        wasm_bindgen_futures::spawn_local(async move { drop(c) });
    }
}

/// The read in progress.
struct Pending {
    id: f64,
    progress: Progress,
    done: Done,
}

thread_local! {
    static CLIENT: RefCell<Option<Client>> = const { RefCell::new(None) };
    static PENDING: RefCell<Option<Pending>> = const { RefCell::new(None) };
    static NEXT_ID: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

/// Read `source` with `options`: `progress` with the fraction read, now and then; `done`
/// once, with the result (never called when a newer read or [`cancel`] came first).
pub fn read(
    source: Source,
    options: &ParseOptions,
    progress: impl Fn(f64) + 'static,
    done: impl FnOnce(ParseResult) + 'static,
) {
    let id = next_id(&NEXT_ID);
    let message = js_object(&[
        (field::ID, JsValue::from_f64(id)),
        (
            field::OPTIONS,
            js_sys::Uint8Array::from(&reader_wire::encode_options(options)[..]).into(),
        ),
        match source {
            Source::Text(t) => (field::TEXT, JsValue::from_str(&t)),
            Source::File(f) => (field::FILE, f.into()),
        },
    ]);
    PENDING.with(|p| {
        *p.borrow_mut() = Some(Pending {
            id,
            progress: Rc::new(progress),
            done: Box::new(done),
        })
    });
    if let Err(detail) = send_to(&CLIENT, new_client, message) {
        fail(id, detail);
    }
}

/// Stop the read in progress (its `done` is never called).
pub fn cancel() {
    let Some(_) = PENDING.with(|p| p.borrow_mut().take()) else {
        return;
    };
    let id = next_id(&NEXT_ID);
    let _ = send_to(
        &CLIENT,
        new_client,
        js_object(&[(field::ID, JsValue::from_f64(id))]),
    );
}

fn new_client() -> Result<Client, String> {
    start_worker(META_NAME, on_message, stopped, true) // only the newest read matters
}

/// A module worker whose script the `<meta name=meta>` names, with its message and error
/// handlers; `Err` says why there is none.
pub(crate) fn start_worker(
    meta: &str,
    on_message: fn(JsValue),
    on_error: fn(String),
    newest_only: bool,
) -> Result<Client, String> {
    let url = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector(&format!("meta[name={meta}]"))
                .ok()
                .flatten()
        })
        .and_then(|m| m.get_attribute("content"))
        .ok_or("this build has no such module")?;
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options(&url, &options)
        .map_err(|e| crate::web::browser::js_text(&e).unwrap_or_else(|| "no worker".into()))?;
    let message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            on_message(e.data())
        });
    let error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
        let detail = e
            .dyn_ref::<web_sys::ErrorEvent>()
            .map(|e| e.message())
            .filter(|m| !m.is_empty())
            .unwrap_or_default(); // not loaded: the page says so in its language
        on_error(detail);
    });
    worker.set_onmessage(Some(message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(error.as_ref().unchecked_ref()));
    worker.set_onmessageerror(Some(error.as_ref().unchecked_ref()));
    Ok(Client {
        worker,
        ready: false,
        waiting: Vec::new(),
        newest_only,
        _on_message: message,
        _on_error: error,
    })
}

fn on_message(data: JsValue) {
    let Some(id) = answered_id(&CLIENT, &data, field::ID) else {
        return;
    };
    let get = |name: &str| js_sys::Reflect::get(&data, &JsValue::from_str(name)).ok();
    if let Some(fraction) = get(field::PROGRESS).and_then(|v| v.as_f64()) {
        // Called outside the borrow: it sets signals, whose effects may start a new read.
        let progress = PENDING.with(|p| {
            p.borrow()
                .as_ref()
                .filter(|p| p.id == id)
                .map(|p| p.progress.clone())
        });
        if let Some(progress) = progress {
            progress(fraction);
        }
    } else if let Some(bytes) = get(field::RESULT) {
        let Some(done) = take_pending(id) else {
            return;
        };
        done(reader_wire::decode_result(
            &js_sys::Uint8Array::new(&bytes).to_vec(),
        ));
    }
}

fn take_pending(id: f64) -> Option<Done> {
    PENDING.with(|p| {
        let mut p = p.borrow_mut();
        if p.as_ref().is_some_and(|p| p.id == id) {
            p.take().map(|p| p.done)
        } else {
            None
        }
    })
}

fn fail(id: f64, detail: String) {
    if let Some(done) = take_pending(id) {
        done(Err(IngestError::ReaderStopped { detail }));
    }
}

/// The worker failed: it goes (the next read starts another), the read in progress fails.
fn stopped(detail: String) {
    stop(&CLIENT);
    let id = PENDING.with(|p| p.borrow().as_ref().map(|p| p.id));
    if let Some(id) = id {
        fail(id, detail);
    }
}

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

use crate::browser::js_object;
use crate::core::ingest::{IngestError, ParseOptions, ParseResult};
use crate::core::query::{QueryError, QuerySpec};
use crate::reader_wire::{self, field};

/// The `<meta>` whose `content` is the worker script's URL.
pub const META_NAME: &str = "grp-reader";

/// What to read.
pub enum Source {
    Text(String),
    File(web_sys::File),
}

type Progress = Rc<dyn Fn(f64)>;
type Done = Box<dyn FnOnce(ParseResult)>;

struct Client {
    worker: web_sys::Worker,
    /// The worker has said it reads messages; before, the newest message waits here.
    ready: bool,
    waiting: Option<JsValue>,
    /// Queries to write that came before the worker was ready (sent in order once it is).
    waiting_queries: Vec<JsValue>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
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
    /// The newest query to write (issue 38) and what to do with its text.
    static QUERY: RefCell<Option<(f64, QueryDone)>> = const { RefCell::new(None) };
    /// The newest rates answer to read and what to do with it.
    static RATES: RefCell<Option<(f64, RatesDone)>> = const { RefCell::new(None) };
}

type RatesDone = Box<dyn FnOnce(Option<reader_wire::RatesResult>)>;

/// Read a bills' rates answer in the worker: `done` once with the rates (`None`: the worker
/// could not be reached), unless a newer one came first.
pub fn read_rates(text: &str, done: impl FnOnce(Option<reader_wire::RatesResult>) + 'static) {
    let qid = NEXT_ID.with(|n| {
        n.set(n.get() + 1.0);
        n.get()
    });
    RATES.with(|q| *q.borrow_mut() = Some((qid, Box::new(done))));
    let message = js_object(&[
        (field::QID, JsValue::from_f64(qid)),
        (field::RATES, JsValue::from_str(text)),
    ]);
    let sent = with_client(|c| {
        if c.ready {
            let _ = c.worker.post_message(&message);
        } else {
            c.waiting_queries.push(message);
        }
    });
    if sent.is_err() {
        if let Some((_, done)) = RATES.with(|q| q.borrow_mut().take()) {
            done(None);
        }
    }
}

type QueryDone = Box<dyn FnOnce(Result<String, QueryError>)>;

/// Write the query for `spec` in the worker (the writers live there, beside the readers, so
/// the main module carries neither): `done` once with its text, unless a newer query came
/// first. A read in progress goes on.
pub fn write_query(spec: &QuerySpec, done: impl FnOnce(Result<String, QueryError>) + 'static) {
    let qid = NEXT_ID.with(|n| {
        n.set(n.get() + 1.0);
        n.get()
    });
    QUERY.with(|q| *q.borrow_mut() = Some((qid, Box::new(done))));
    let message = js_object(&[
        (field::QID, JsValue::from_f64(qid)),
        (
            field::QUERY,
            js_sys::Uint8Array::from(&reader_wire::encode_query(spec)[..]).into(),
        ),
    ]);
    let sent = with_client(|c| {
        if c.ready {
            let _ = c.worker.post_message(&message);
        } else {
            c.waiting_queries.push(message);
        }
    });
    if let Err(detail) = sent {
        query_failed(detail);
    }
}

fn query_failed(detail: String) {
    if let Some((_, done)) = QUERY.with(|q| q.borrow_mut().take()) {
        done(Err(QueryError::Unavailable(detail)));
    }
}

/// Read `source` with `options`: `progress` with the fraction read, now and then; `done`
/// once, with the result (never called when a newer read or [`cancel`] came first).
pub fn read(
    source: Source,
    options: &ParseOptions,
    progress: impl Fn(f64) + 'static,
    done: impl FnOnce(ParseResult) + 'static,
) {
    let id = NEXT_ID.with(|n| {
        n.set(n.get() + 1.0);
        n.get()
    });
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
    if let Err(detail) = with_client(|c| send(c, message)) {
        fail(id, detail);
    }
}

/// Stop the read in progress (its `done` is never called).
pub fn cancel() {
    let Some(_) = PENDING.with(|p| p.borrow_mut().take()) else {
        return;
    };
    let id = NEXT_ID.with(|n| {
        n.set(n.get() + 1.0);
        n.get()
    });
    let _ = with_client(|c| send(c, js_object(&[(field::ID, JsValue::from_f64(id))])));
}

fn send(c: &mut Client, message: JsValue) {
    if c.ready {
        let _ = c.worker.post_message(&message);
    } else {
        c.waiting = Some(message); // only the newest matters
    }
}

/// Run `f` on the worker, started if needed; `Err` says why there is none.
fn with_client(f: impl FnOnce(&mut Client)) -> Result<(), String> {
    CLIENT.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(new_client()?);
        }
        if let Some(c) = slot.as_mut() {
            f(c);
        }
        Ok(())
    })
}

fn new_client() -> Result<Client, String> {
    let url = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector(&format!("meta[name={META_NAME}]"))
                .ok()
                .flatten()
        })
        .and_then(|m| m.get_attribute("content"))
        .ok_or("this build has no reader module")?;
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options(&url, &options)
        .map_err(|e| crate::browser::js_text(&e).unwrap_or_else(|| "no worker".into()))?;
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|e: web_sys::MessageEvent| {
            on_message(e.data())
        });
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(|e: web_sys::Event| {
        let detail = e
            .dyn_ref::<web_sys::ErrorEvent>()
            .map(|e| e.message())
            .filter(|m| !m.is_empty())
            .unwrap_or_default(); // not loaded: the page says so in its language
        stopped(detail);
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    worker.set_onmessageerror(Some(on_error.as_ref().unchecked_ref()));
    Ok(Client {
        worker,
        ready: false,
        waiting: None,
        waiting_queries: Vec::new(),
        _on_message: on_message,
        _on_error: on_error,
    })
}

fn on_message(data: JsValue) {
    let get = |name: &str| js_sys::Reflect::get(&data, &JsValue::from_str(name)).ok();
    if get(field::READY).is_some_and(|r| r.is_truthy()) {
        CLIENT.with(|cell| {
            if let Some(c) = cell.borrow_mut().as_mut() {
                c.ready = true;
                if let Some(m) = c.waiting.take() {
                    let _ = c.worker.post_message(&m);
                }
                for m in std::mem::take(&mut c.waiting_queries) {
                    let _ = c.worker.post_message(&m);
                }
            }
        });
        return;
    }
    if let (Some(qid), Some(bytes)) = (
        get(field::QID).and_then(|v| v.as_f64()),
        get(field::RATES_ANSWER).filter(|b| !b.is_undefined()),
    ) {
        let done = RATES.with(|q| {
            let mut q = q.borrow_mut();
            if q.as_ref().is_some_and(|(id, _)| *id == qid) {
                q.take().map(|(_, done)| done)
            } else {
                None
            }
        });
        if let Some(done) = done {
            done(reader_wire::decode_rates(
                &js_sys::Uint8Array::new(&bytes).to_vec(),
            ));
        }
        return;
    }
    if let (Some(qid), Some(bytes)) = (
        get(field::QID).and_then(|v| v.as_f64()),
        get(field::QUERY_ANSWER).filter(|b| !b.is_undefined()),
    ) {
        let done = QUERY.with(|q| {
            let mut q = q.borrow_mut();
            if q.as_ref().is_some_and(|(id, _)| *id == qid) {
                q.take().map(|(_, done)| done)
            } else {
                None
            }
        });
        if let Some(done) = done {
            done(reader_wire::decode_query_answer(
                &js_sys::Uint8Array::new(&bytes).to_vec(),
            ));
        }
        return;
    }
    let Some(id) = get(field::ID).and_then(|v| v.as_f64()) else {
        return;
    };
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
    if let Some(c) = CLIENT.with(|cell| cell.borrow_mut().take()) {
        c.worker.terminate();
        // Its handlers go once this one has returned (not while it runs).
        wasm_bindgen_futures::spawn_local(async move { drop(c) });
    }
    let id = PENDING.with(|p| p.borrow().as_ref().map(|p| p.id));
    if let Some(id) = id {
        fail(id, detail.clone());
    }
    query_failed(detail);
    if let Some((_, done)) = RATES.with(|q| q.borrow_mut().take()) {
        done(None);
    }
}

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

struct Client {
    worker: web_sys::Worker,
    /// The worker has said it reads messages; before, the newest message waits here.
    ready: bool,
    waiting: Option<JsValue>,
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
    let (worker, on_message, on_error) = start_worker(META_NAME, on_message, stopped)?;
    Ok(Client {
        worker,
        ready: false,
        waiting: None,
        _on_message: on_message,
        _on_error: on_error,
    })
}

/// A module worker whose script the `<meta name=meta>` names, with its message and error
/// handlers (kept alive by the caller as long as the worker); `Err` says why there is none.
#[allow(clippy::type_complexity)]
pub(crate) fn start_worker(
    meta: &str,
    on_message: fn(JsValue),
    on_error: fn(String),
) -> Result<
    (
        web_sys::Worker,
        Closure<dyn FnMut(web_sys::MessageEvent)>,
        Closure<dyn FnMut(web_sys::Event)>,
    ),
    String,
> {
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
    Ok((worker, message, error))
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
            }
        });
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
        fail(id, detail);
    }
}

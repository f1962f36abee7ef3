//! The page's side of the query writer's worker (issue 38): `core::query` and the bills'
//! rates reader run in a module of their own (`query_worker`, bin `query-worker`), fetched
//! when the query panel is first opened, so neither the main module nor the readers' worker
//! (fetched on every first history read) carries the writers. Its script is named by the
//! build in `<meta name="grp-query">` (scripts/finish.mjs).
//!
//! The worker holds the panel's template, the choices' reading, the queries and every message
//! (`query_worker`); this side only moves field values and texts. One request of each kind at
//! a time: a newer one replaces the one waiting (its answer, if it still comes, is dropped).
//! When the worker fails, what waits gets `None` and the next request starts another.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use crate::format::Lang;
use crate::web::browser::js_object;
use crate::workers::reader_client::{answered_id, next_id, send_to, start_worker, stop, Client};
use crate::workers::reader_wire::field;

/// The `<meta>` whose `content` is the query worker script's URL.
pub const META_NAME: &str = "grp-query";

/// What the worker answers: the message, or `None` when it could not be reached.
type Done = Box<dyn FnOnce(Option<JsValue>)>;

thread_local! {
    static CLIENT: RefCell<Option<Client>> = const { RefCell::new(None) };
    static NEXT_ID: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
    /// The newest request of each kind (form, query, rates) and what to do with its answer.
    static WAITING: RefCell<[Option<(f64, Done)>; 3]> = const { RefCell::new([None, None, None]) };
}

/// The kinds of request, each with its own slot: a newer one replaces the one waiting.
#[derive(Clone, Copy)]
pub enum Kind {
    /// The form's template (`{form: true}` → `formHtml`).
    Form = 0,
    /// The query for the form's values (`{fields}` → `queryText` or `error`, with `attrs`).
    Query = 1,
    /// A rates answer read (`{rates}` → `ratesAnswer`).
    Rates = 2,
}

/// Ask the worker: `fields` are the message's own (besides its number and the language);
/// `done` once with the answer (`None`: no worker), unless a newer request of this kind came.
pub fn ask(
    kind: Kind,
    lang: Lang,
    fields: &[(&str, JsValue)],
    done: impl FnOnce(Option<JsValue>) + 'static,
) {
    let qid = next_id(&NEXT_ID);
    WAITING.with(|w| w.borrow_mut()[kind as usize] = Some((qid, Box::new(done))));
    let mut all = vec![
        (field::QID, JsValue::from_f64(qid)),
        (field::LANG, JsValue::from_str(lang.code())),
    ];
    all.extend(fields.iter().cloned());
    if send_to(&CLIENT, new_client, js_object(&all)).is_err() {
        fail_all();
    }
}

fn new_client() -> Result<Client, String> {
    start_worker(META_NAME, on_message, stopped, false) // every kind's request waits
}

fn on_message(data: JsValue) {
    let Some(qid) = answered_id(&CLIENT, &data, field::QID) else {
        return;
    };
    let done = WAITING.with(|w| {
        w.borrow_mut()
            .iter_mut()
            .find(|s| s.as_ref().is_some_and(|(id, _)| *id == qid))
            .and_then(|s| s.take())
            .map(|(_, done)| done)
    });
    // Called outside the borrow: it sets signals.
    if let Some(done) = done {
        done(Some(data));
    }
}

fn fail_all() {
    let waiting = WAITING.with(|w| std::mem::take(&mut *w.borrow_mut()));
    for (_, done) in waiting.into_iter().flatten() {
        done(None);
    }
}

/// The worker failed: it goes (the next request starts another), what waits fails.
fn stopped(_detail: String) {
    stop(&CLIENT);
    fail_all();
}

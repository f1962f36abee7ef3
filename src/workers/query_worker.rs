//! The query writer's worker (issue 38): a module of its own (bin `query-worker`, built by
//! scripts/extra-module.mjs), fetched when the query panel is first opened
//! (`query_client`). It holds everything of the panel but its DOM: the form's template in
//! the page's language (`present::query_form`), the choices read back into a spec, the
//! engines' queries (`core::query`), every message, and the bills' rates reader
//! (`core::ingest::rates`). Each message is answered at once: microseconds, a few KB of text.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::i18n::Lang;
use crate::present::query_form;
use crate::web::browser::js_object;
use crate::workers::reader_wire::{self, field};

/// Start: answer the page's messages, and say so.
pub fn run() {
    crate::workers::reader_worker::listen(on_message);
}

fn on_message(data: JsValue) {
    let get = |name: &str| js_sys::Reflect::get(&data, &JsValue::from_str(name)).ok();
    let Some(qid) = get(field::QID).filter(|q| !q.is_undefined()) else {
        return;
    };
    let l = get(field::LANG)
        .and_then(|v| v.as_string())
        .and_then(|c| Lang::from_code(&c))
        .unwrap_or_default();
    let reply = if get(field::FORM).is_some_and(|f| f.is_truthy()) {
        js_object(&[
            (field::QID, qid),
            (field::FORM_HTML, query_form::template(l).into()),
        ])
    } else if let Some(text) = get(field::RATES).and_then(|t| t.as_string()) {
        let read = crate::core::ingest::rates::read_rates(&text)
            .map_err(|e| query_form::rates_error(l, &e));
        let bytes = js_sys::Uint8Array::from(&reader_wire::encode_rates(&read)[..]);
        js_object(&[(field::QID, qid), (field::RATES_ANSWER, bytes.into())])
    } else if let Some(fields) = get(field::FIELDS).filter(js_sys::Array::is_array) {
        let fields: js_sys::Array = fields.unchecked_into();
        let pairs: Vec<(String, String)> = fields
            .iter()
            .filter_map(|p| {
                let p: js_sys::Array = p.dyn_into().ok()?;
                Some((p.get(0).as_string()?, p.get(1).as_string()?))
            })
            .collect();
        let value = |id: &str| {
            pairs
                .iter()
                .find(|(k, _)| k == id)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let (text, attrs) = query_form::answer(l, value);
        let attrs: js_sys::Array = attrs
            .iter()
            .map(|(k, v)| js_sys::Array::of2(&(*k).into(), &(*v).into()))
            .collect();
        let (name, text) = match text {
            Ok(t) => (field::TEXT_OUT, t),
            Err(e) => (field::ERROR, e),
        };
        js_object(&[
            (field::QID, qid),
            (name, text.into()),
            (field::ATTRS, attrs.into()),
        ])
    } else {
        return;
    };
    post(&reply);
}

fn post(message: &JsValue) {
    crate::workers::reader_worker::post(message, None);
}

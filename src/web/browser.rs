//! The only place that touches the browser for app state: reading the start URL and
//! the browser language, and writing the URL with `history.replaceState`.

/// The query string the page was opened with (`?…` or empty).
pub fn start_query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// The browser's `TextEncoder.encodeInto`, taking the JS string as it is (web-sys' binding
/// takes a Rust `&str`, i.e. the copy this exists to avoid).
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = TextEncoder)]
    type Utf8Encoder;
    #[wasm_bindgen(constructor, js_class = "TextEncoder", catch)]
    fn new() -> Result<Utf8Encoder, wasm_bindgen::JsValue>;
    #[wasm_bindgen(method, js_class = "TextEncoder", js_name = encodeInto)]
    fn encode_into(
        this: &Utf8Encoder,
        text: &js_sys::JsString,
        into: &js_sys::Uint8Array,
    ) -> EncodedInto;
    type EncodedInto;
    #[wasm_bindgen(method, getter)]
    fn read(this: &EncodedInto) -> f64;
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodedInto) -> f64;
}

/// A JS string (a paste, a file's text) as a Rust `String`, encoded by the browser straight
/// into wasm memory. wasm-bindgen's own conversion walks an ASCII string char by char in JS
/// (38 ms for the 12 MB year; bench/README.md). `None` when the value is not a string.
pub fn js_text(value: &wasm_bindgen::JsValue) -> Option<String> {
    use wasm_bindgen::JsCast;
    let text = value.dyn_ref::<js_sys::JsString>()?;
    let Ok(encoder) = Utf8Encoder::new() else {
        return value.as_string();
    };
    let units = text.length();
    // Every UTF-16 unit takes 1 to 3 bytes: start with 1 each, grow for what is left.
    let mut buf: Vec<u8> = Vec::with_capacity(units as usize + 8);
    let mut read: u32 = 0;
    loop {
        let rest = if read == 0 {
            text.clone()
        } else {
            text.slice(read, units)
        };
        let spare = buf.capacity() - buf.len();
        // SAFETY: the view covers the vector's spare capacity and is used at once, before
        // anything can allocate (and so move or grow wasm memory).
        let view =
            unsafe { js_sys::Uint8Array::view_mut_raw(buf.as_mut_ptr().add(buf.len()), spare) };
        let done = encoder.encode_into(&rest, &view);
        let (r, w) = (done.read() as u32, done.written() as usize);
        if w > spare {
            return value.as_string();
        }
        // SAFETY: encodeInto wrote `w` bytes into the spare capacity.
        unsafe { buf.set_len(buf.len() + w) };
        read += r;
        if read >= units || r == 0 && w == 0 && spare >= 3 {
            break;
        }
        buf.reserve((units - read) as usize * 3 + 8);
    }
    if read < units {
        return value.as_string();
    }
    String::from_utf8(buf).ok().or_else(|| value.as_string())
}

/// Bytes `start..end` of a file (`Blob.slice`, read as an `ArrayBuffer`), appended to `into`:
/// a large file is read piece by piece, never whole. `false` when the browser could not read
/// it (the file moved, changed or was deleted since it was picked).
pub async fn read_blob(blob: &web_sys::Blob, start: f64, end: f64, into: &mut Vec<u8>) -> bool {
    let Ok(part) = blob.slice_with_f64_and_f64(start, end) else {
        return false;
    };
    let Ok(buf) = wasm_bindgen_futures::JsFuture::from(part.array_buffer()).await else {
        return false;
    };
    let view = js_sys::Uint8Array::new(&buf);
    let old = into.len();
    into.resize(old + view.length() as usize, 0);
    view.copy_to(&mut into[old..]);
    true
}

/// A plain object of these fields (a message to or from a worker).
pub fn js_object(fields: &[(&str, wasm_bindgen::JsValue)]) -> wasm_bindgen::JsValue {
    let o = js_sys::Object::new();
    for (k, v) in fields {
        let _ = js_sys::Reflect::set(&o, &wasm_bindgen::JsValue::from_str(k), v);
    }
    o.into()
}

/// Milliseconds since the page opened (`performance.now()`, else the clock).
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// `navigator.languages` (falls back to `navigator.language`).
pub fn browser_languages() -> Vec<String> {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
        return Vec::new();
    };
    let mut tags: Vec<String> = nav
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    if tags.is_empty() {
        if let Some(l) = nav.language() {
            tags.push(l);
        }
    }
    tags
}

/// Replace the current history entry's query (no new history entry, no reload).
pub fn replace_query(query: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(history) = window.history() else {
        return;
    };
    let location = window.location();
    let path = location.pathname().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let current = location.search().unwrap_or_default();
    if current == query {
        return;
    }
    let url = format!("{path}{query}{hash}");
    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
}

/// Run `f` once the page is idle (`requestIdleCallback`), at the latest after `timeout_ms`;
/// where the browser has no `requestIdleCallback` (Safari), in a task of its own.
pub fn when_idle(timeout_ms: u32, f: impl FnOnce() + 'static) {
    use wasm_bindgen::JsCast;
    let callback = wasm_bindgen::closure::Closure::once_into_js(f);
    let idle = web_sys::window().and_then(|w| {
        let ric = js_sys::Reflect::get(&w, &"requestIdleCallback".into()).ok()?;
        let ric = ric.dyn_into::<js_sys::Function>().ok()?;
        let options = js_sys::Object::new();
        js_sys::Reflect::set(&options, &"timeout".into(), &timeout_ms.into()).ok()?;
        ric.call2(&w, &callback, &options).ok()
    });
    if idle.is_none() {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback(callback.unchecked_ref());
        }
    }
}

/// Mark `<html data-ready>`: the whole page is mounted (tests and tools wait for it).
pub fn set_ready() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute("data-ready", "");
    }
}

/// The page's answer is mounted: the prerendered copy goes and the page, mounted hidden
/// beside it (`<html data-mounting>`, main.rs), shows, in one task (never a frame without
/// the answer, never two copies).
pub fn show_app() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(copy) = doc.get_element_by_id("prerender") {
        copy.remove();
    }
    if let Some(root) = doc.document_element() {
        let _ = root.remove_attribute("data-mounting");
    }
}

/// Set `<html lang>` so screen readers and fonts follow the UI language.
pub fn set_document_lang(tag: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        if el.get_attribute("lang").as_deref() != Some(tag) {
            let _ = el.set_attribute("lang", tag);
        }
    }
}

/// The browser's offset from UTC in minutes, east positive (Beijing: +480).
pub fn utc_offset_minutes() -> i32 {
    -(js_sys::Date::new_0().get_timezone_offset() as i32)
}

/// The page's address without query or hash (`https://host/path/`), to build links.
pub fn page_base() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return String::new();
    };
    format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default()
    )
}

/// Open another query of this page (a new history entry, the page reloads).
pub fn open_query(query: &str) {
    if let Some(window) = web_sys::window() {
        let path = window.location().pathname().unwrap_or_default();
        let _ = window.location().assign(&format!("{path}{query}"));
    }
}

/// localStorage is unavailable (blocked, private mode) or refused a write (quota).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StorageError;

fn local_storage() -> Result<web_sys::Storage, StorageError> {
    web_sys::window()
        .ok_or(StorageError)?
        .local_storage()
        .map_err(|_| StorageError)?
        .ok_or(StorageError)
}

/// Read `key` from localStorage. `Err` when storage is unavailable (blocked, private mode).
pub fn storage_get(key: &str) -> Result<Option<String>, StorageError> {
    local_storage()?.get_item(key).map_err(|_| StorageError)
}

/// Write `key` to localStorage. `Err` when unavailable or full (quota exceeded).
pub fn storage_set(key: &str, value: &str) -> Result<(), StorageError> {
    local_storage()?
        .set_item(key, value)
        .map_err(|_| StorageError)
}

/// Remove `key` from localStorage (best effort).
pub fn storage_remove(key: &str) {
    if let Ok(s) = local_storage() {
        let _ = s.remove_item(key);
    }
}

/// Copy text with the async clipboard API; `false` when refused or unavailable
/// (insecure context, permission denied), so the caller can offer manual copying.
pub async fn copy_text(text: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let clipboard = window.navigator().clipboard();
    if clipboard.is_undefined() || clipboard.is_null() {
        return false;
    }
    wasm_bindgen_futures::JsFuture::from(clipboard.write_text(text))
        .await
        .is_ok()
}

/// Offer `text` as a file download (Blob + `<a download>`; the file name gives the type).
pub fn download_text(filename: &str, text: &str) {
    use wasm_bindgen::JsCast;
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let Ok(blob) = web_sys::Blob::new_with_str_sequence(&parts) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(a) = document
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        a.set_href(&url);
        a.set_download(filename);
        if let Some(body) = document.body() {
            let _ = body.append_child(&a);
            a.click();
            let _ = body.remove_child(&a);
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

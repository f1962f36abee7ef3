//! The only place that touches the browser for app state: reading the start URL and
//! the browser language, and writing the URL with `history.replaceState`.

/// The query string the page was opened with (`?…` or empty).
pub fn start_query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
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

/// Mark `<html data-ready>`: the whole page is mounted (tests and tools wait for it).
pub fn set_ready() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute("data-ready", "");
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

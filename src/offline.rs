//! Offline (issue 36): registers the build's service worker, `sw.js` beside the page (written by
//! `scripts/offline.mjs`, docs/architecture.md "Offline: the service worker"), and tells the
//! page when a newer build is installed and waiting.
//!
//! Registration waits until the page is mounted (`<html data-ready>`) and the browser is idle,
//! so the worker's script and its precache never compete with the first load. A new build
//! never replaces the one on screen by itself (the worker does not skip waiting): it opens on
//! the next visit, or now when the user asks ([`reload_now`]: the waiting worker is told to
//! take over, and the page reloads once it has).

use std::cell::{Cell, RefCell};

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    ServiceWorker, ServiceWorkerContainer, ServiceWorkerRegistration, ServiceWorkerState,
};

/// How often to look for `<html data-ready>` before registering, and how long to wait for an
/// idle moment after it.
const READY_POLL_MS: u32 = 250;
const IDLE_TIMEOUT_MS: u32 = 3000;

thread_local! {
    /// The newer build's worker, installed and waiting.
    static WAITING: RefCell<Option<ServiceWorker>> = const { RefCell::new(None) };
    /// The user asked for the newer build: reload once it controls the page.
    static RELOAD_ASKED: Cell<bool> = const { Cell::new(false) };
}

/// The service worker container, when this page may have one: a secure context (https, or
/// http on localhost) served over http(s) by a browser that has service workers.
fn container() -> Option<ServiceWorkerContainer> {
    let w = web_sys::window()?;
    let protocol = w.location().protocol().ok()?;
    if !w.is_secure_context() || !(protocol == "https:" || protocol == "http:") {
        return None;
    }
    let nav = w.navigator();
    let sw = js_sys::Reflect::get(&nav, &"serviceWorker".into()).ok()?;
    sw.dyn_into::<ServiceWorkerContainer>().ok()
}

fn page_ready() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .is_some_and(|e| e.has_attribute("data-ready"))
}

/// Register `sw.js` once the page is ready and idle; `on_update` runs when a newer build is
/// waiting (or has taken over this page from another tab of it). Nothing happens without
/// service workers.
pub fn register(on_update: impl Fn() + 'static) {
    if container().is_none() {
        return;
    }
    if page_ready() {
        crate::browser::when_idle(IDLE_TIMEOUT_MS, move || {
            wasm_bindgen_futures::spawn_local(start(on_update))
        });
    } else {
        gloo_timers::callback::Timeout::new(READY_POLL_MS, move || register(on_update)).forget();
    }
}

async fn start(on_update: impl Fn() + 'static) {
    let Some(sw) = container() else {
        return;
    };
    let on_update = std::rc::Rc::new(on_update);
    // A newer build took over (this page's reload_now, or another tab's): this page's files
    // are no longer the ones served, so reload (asked) or say so (not asked).
    let notify = on_update.clone();
    let changed = Closure::<dyn Fn()>::new(move || {
        if RELOAD_ASKED.with(Cell::get) {
            if let Some(w) = web_sys::window() {
                let _ = w.location().reload();
            }
        } else {
            notify();
        }
    });
    sw.set_oncontrollerchange(Some(changed.as_ref().unchecked_ref()));
    changed.forget();

    // Relative to the page: `/planner/sw.js` under a sub-path; its scope is that directory.
    let Ok(reg) = wasm_bindgen_futures::JsFuture::from(sw.register("sw.js")).await else {
        return; // offline at a first visit, or blocked: the page works as before
    };
    let Ok(reg) = reg.dyn_into::<ServiceWorkerRegistration>() else {
        return;
    };
    if sw.controller().is_none() {
        return; // the first visit: the worker installs for the next one, nothing to say
    }
    if let Some(waiting) = reg.waiting() {
        found(waiting, &*on_update);
    }
    if let Some(installing) = reg.installing() {
        track(installing, on_update.clone());
    }
    let reg2 = reg.clone();
    let found_new = Closure::<dyn Fn()>::new(move || {
        if let Some(installing) = reg2.installing() {
            track(installing, on_update.clone());
        }
    });
    reg.set_onupdatefound(Some(found_new.as_ref().unchecked_ref()));
    found_new.forget();
    // Look for a newer build now (the browser also does after navigations, on its own terms).
    if let Ok(p) = reg.update() {
        let _ = wasm_bindgen_futures::JsFuture::from(p).await;
    }
}

/// Follow an installing worker: once installed (its whole build cached), it is the update.
fn track(worker: ServiceWorker, on_update: std::rc::Rc<dyn Fn()>) {
    let w = worker.clone();
    let changed = Closure::<dyn Fn()>::new(move || {
        if w.state() == ServiceWorkerState::Installed {
            found(w.clone(), &*on_update);
        }
    });
    worker.set_onstatechange(Some(changed.as_ref().unchecked_ref()));
    changed.forget();
}

fn found(worker: ServiceWorker, on_update: &dyn Fn()) {
    WAITING.with(|w| *w.borrow_mut() = Some(worker));
    on_update();
}

/// Switch to the newer build now: the waiting worker takes over and the page reloads when it
/// has (`controllerchange`). Without a waiting worker (it took over already), reload.
pub fn reload_now() {
    RELOAD_ASKED.with(|r| r.set(true));
    let waiting = WAITING.with(|w| w.borrow().clone());
    let asked = waiting.is_some_and(|w| {
        let message = js_sys::Object::new();
        js_sys::Reflect::set(&message, &"type".into(), &"skip-waiting".into()).is_ok()
            && w.post_message(&message).is_ok()
            && w.state() == ServiceWorkerState::Installed
    });
    if !asked {
        if let Some(w) = web_sys::window() {
            let _ = w.location().reload();
        }
    }
}

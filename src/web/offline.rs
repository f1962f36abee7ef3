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
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    ServiceWorker, ServiceWorkerContainer, ServiceWorkerRegistration, ServiceWorkerState,
};

/// How often to look for `<html data-ready>` before registering, and how long to wait for an
/// idle moment after it.
const READY_POLL_MS: u32 = 250;
const IDLE_TIMEOUT_MS: u32 = 3000;

thread_local! {
    /// What to do when a newer build is waiting (the notice).
    static ON_UPDATE: RefCell<Option<Box<dyn Fn()>>> = const { RefCell::new(None) };
    /// The one event handler (see [`start`]), to follow each new installing worker with.
    static HANDLER: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
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
    let sw = js_sys::Reflect::get(&w.navigator(), &"serviceWorker".into()).ok()?;
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
    ON_UPDATE.with(|f| *f.borrow_mut() = Some(Box::new(on_update)));
    when_ready();
}

fn when_ready() {
    if page_ready() {
        crate::web::browser::when_idle(IDLE_TIMEOUT_MS, || {
            wasm_bindgen_futures::spawn_local(start())
        });
    } else {
        gloo_timers::callback::Timeout::new(READY_POLL_MS, when_ready).forget();
    }
}

async fn start() {
    let Some(sw) = container() else {
        return;
    };
    // Relative to the page: `/planner/sw.js` under a sub-path; its scope is that directory.
    let Ok(reg) = JsFuture::from(sw.register("sw.js")).await else {
        return; // offline at a first visit, or blocked: the page works as before
    };
    let Ok(reg) = reg.dyn_into::<ServiceWorkerRegistration>() else {
        return;
    };
    if sw.controller().is_none() {
        return; // the first visit: the worker installs for the next one, nothing to say
    }
    // One handler for the container's `controllerchange`, the registration's `updatefound`
    // and each installing worker's `statechange`.
    let handler = {
        let reg = reg.clone();
        Closure::<dyn Fn(web_sys::Event)>::new(move |e: web_sys::Event| {
            if e.type_() == "controllerchange" {
                changed();
            } else {
                check(&reg);
            }
        })
        .into_js_value()
        .unchecked_into::<js_sys::Function>()
    };
    sw.set_oncontrollerchange(Some(&handler));
    reg.set_onupdatefound(Some(&handler));
    HANDLER.with(|h| *h.borrow_mut() = Some(handler));
    check(&reg);
    // Look for a newer build now (the browser also does after navigations, on its own terms).
    if let Ok(p) = reg.update() {
        let _ = JsFuture::from(p).await;
    }
}

/// A worker installing is followed until installed; one installed and waiting (its whole
/// build cached) is the update.
fn check(reg: &ServiceWorkerRegistration) {
    if let Some(installing) = reg.installing() {
        HANDLER.with(|h| installing.set_onstatechange(h.borrow().as_ref()));
    }
    if let Some(waiting) = reg.waiting() {
        WAITING.with(|w| *w.borrow_mut() = Some(waiting));
        notify();
    }
}

fn notify() {
    ON_UPDATE.with(|f| {
        if let Some(f) = f.borrow().as_ref() {
            f();
        }
    });
}

/// A newer build took over (this page's [`reload_now`], or another tab's): this page's files
/// are no longer the ones served, so reload (asked) or say so (not asked).
fn changed() {
    if RELOAD_ASKED.with(Cell::get) {
        reload();
    } else {
        notify();
    }
}

fn reload() {
    if let Some(w) = web_sys::window() {
        let _ = w.location().reload();
    }
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
        reload();
    }
}

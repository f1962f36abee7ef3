//! What is on screen (or within `MARGIN` of it), for one IntersectionObserver of the page:
//! a card there follows every change at once, and off screen, during a burst of changes (a
//! slider dragged, a price typed), catches up when the changes pause ([`CardView`],
//! `context::PageCtx`); a chart there is drawn with each change, and off screen when the
//! changes pause (`chart_canvas`).

use std::cell::RefCell;

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// How far outside the viewport a card or a chart still counts as on screen.
const MARGIN: &str = "200px";

/// A card's place on screen: `node` goes on the card's `<section>`; `visible` is true until
/// the observer says otherwise (a card never attached, as in the component tests, is always
/// on screen).
#[derive(Clone, Copy)]
pub struct CardView {
    pub visible: RwSignal<bool>,
    pub node: NodeRef<html::Section>,
}

/// The page's observer and the elements it watches, each with its signal.
struct Watch {
    observer: web_sys::IntersectionObserver,
    _on_seen: Closure<dyn FnMut(js_sys::Array)>,
    cards: Vec<(web_sys::Element, RwSignal<bool>)>,
}

thread_local! {
    static WATCH: RefCell<Option<Watch>> = const { RefCell::new(None) };
}

impl CardView {
    /// A card's view, watched once its `<section>` (`node`) is on the page, unwatched when
    /// the component that made it goes away.
    pub fn new() -> Self {
        let view = CardView {
            visible: RwSignal::new(true),
            node: NodeRef::new(),
        };
        view.node.on_load(move |section| {
            let element: web_sys::Element = section.unchecked_into();
            watch(element, view.visible);
        });
        on_cleanup(move || unwatch(view.visible));
        view
    }
}

impl Default for CardView {
    fn default() -> Self {
        Self::new()
    }
}

fn seen(entries: js_sys::Array) {
    // Set after the borrow: a signal's effects may run at once.
    let mut changed = Vec::new();
    WATCH.with(|w| {
        let w = w.borrow();
        let Some(w) = w.as_ref() else { return };
        for e in entries.iter() {
            let Ok(e) = e.dyn_into::<web_sys::IntersectionObserverEntry>() else {
                continue;
            };
            let target = e.target();
            if let Some((_, visible)) = w.cards.iter().find(|(el, _)| *el == target) {
                changed.push((*visible, e.is_intersecting()));
            }
        }
    });
    for (visible, now) in changed {
        if visible.try_get_untracked().is_some_and(|v| v != now) {
            visible.set(now);
        }
    }
}

/// Watch `element`: `visible` follows whether it is on screen (set when that changes).
pub fn watch(element: web_sys::Element, visible: RwSignal<bool>) {
    WATCH.with(|w| {
        let mut w = w.borrow_mut();
        if w.is_none() {
            let on_seen = Closure::<dyn FnMut(js_sys::Array)>::new(seen);
            let options = web_sys::IntersectionObserverInit::new();
            options.set_root_margin(MARGIN);
            let Ok(observer) = web_sys::IntersectionObserver::new_with_options(
                on_seen.as_ref().unchecked_ref(),
                &options,
            ) else {
                return; // no observer: every signal keeps its first value
            };
            *w = Some(Watch {
                observer,
                _on_seen: on_seen,
                cards: Vec::new(),
            });
        }
        if let Some(w) = w.as_mut() {
            w.observer.observe(&element);
            w.cards.push((element, visible));
        }
    });
}

/// Stop watching the element whose signal is `visible`.
pub fn unwatch(visible: RwSignal<bool>) {
    WATCH.with(|w| {
        if let Some(w) = w.borrow_mut().as_mut() {
            w.cards.retain(|(el, v)| {
                let keep = *v != visible;
                if !keep {
                    w.observer.unobserve(el);
                }
                keep
            });
        }
    });
}

//! A value read from the page's layout, kept current while the window scrolls: read at most
//! once per frame (a burst of scroll events asks for one animation frame), set only when it
//! changed. The listener goes with the component that asked for it.

use leptos::ev;
use leptos::prelude::*;

/// `read()` on every frame in which the window scrolled (`initial` until then). Only its
/// reader writes it. (An `RwSignal`, like the page's other signals: a `ReadSignal` here
/// compiled its own copy of the signal-reading code: 464.2 against 463.0 KB gzip, measured.)
pub fn per_scroll_frame<T>(initial: T, read: fn() -> T) -> RwSignal<T>
where
    T: PartialEq + Send + Sync + 'static,
{
    let value = RwSignal::new(initial);
    let pending = StoredValue::new(false);
    let handle = window_event_listener(ev::scroll, move |_| {
        if pending.get_value() {
            return;
        }
        pending.set_value(true);
        request_animation_frame(move || {
            pending.try_set_value(false);
            let v = read();
            if value.try_with_untracked(|old| *old != v) == Some(true) {
                value.try_set(v);
            }
        });
    });
    on_cleanup(move || handle.remove());
    value
}

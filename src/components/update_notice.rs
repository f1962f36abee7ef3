//! A newer build of the page is installed and waiting (the service worker, `crate::web::offline`):
//! say so, and offer to switch now. It never switches by itself: the page on screen keeps its
//! own build until the next visit.

use leptos::prelude::*;

use crate::components::bilingual;
use crate::i18n::Lang;
use crate::web::offline;

#[component]
pub fn UpdateNotice(#[prop(into)] lang: Signal<Lang>) -> impl IntoView {
    let shown = RwSignal::new(false);
    let dismissed = RwSignal::new(false);
    // Shown again for a newer event after "Later" (another build, or another tab switched).
    offline::register(move || {
        shown.set(true);
        dismissed.set(false);
    });
    move || {
        (shown.get() && !dismissed.get()).then(|| {
            view! {
                <div class="update-notice" role="status" data-testid="update-notice">
                    <p>
                        {bilingual(
                            lang,
                            "A new version of the planner is ready. It opens on your next visit.",
                            "规划器有新版本，下次打开时启用。",
                        )}
                    </p>
                    <button type="button" class="update-reload" data-testid="update-reload"
                        on:click=|_| offline::reload_now()>
                        {bilingual(lang, "Reload now", "立即重新加载")}
                    </button>
                    <button type="button" class="update-later" data-testid="update-later"
                        on:click=move |_| dismissed.set(true)>
                        {bilingual(lang, "Later", "稍后")}
                    </button>
                </div>
            }
        })
    }
}

//! Tells the user what in the link they opened could not be used.

use leptos::prelude::*;

use crate::i18n::Lang;
use crate::url::LinkProblem;

fn describe(lang: Lang, p: &LinkProblem) -> String {
    match (p, lang) {
        (LinkProblem::NewerVersion(v), Lang::En) => format!(
            "This link was made by a newer version of the planner (link version {v}). Values it carries that this version knows were used; check them."
        ),
        (LinkProblem::NewerVersion(v), Lang::Zh) => {
            format!("此链接由更新版本的规划器生成（链接版本 {v}）。已使用本版本能识别的参数，请核对。")
        }
        (LinkProblem::BadValue { param, value }, Lang::En) => {
            format!("The link's “{param}” value “{value}” could not be read; the default was used.")
        }
        (LinkProblem::BadValue { param, value }, Lang::Zh) => {
            format!("链接中的参数“{param}”的值“{value}”无法读取，已改用默认值。")
        }
    }
}

#[component]
pub fn LinkNotice(problems: Vec<LinkProblem>, #[prop(into)] lang: Signal<Lang>) -> impl IntoView {
    let visible = RwSignal::new(!problems.is_empty());
    let problems = StoredValue::new(problems);
    move || {
        visible.get().then(|| {
            view! {
                <div class="notice" role="status" data-testid="link-notice">
                    <ul>
                        {move || {
                            problems
                                .get_value()
                                .iter()
                                .map(|p| view! { <li>{describe(lang.get(), p)}</li> })
                                .collect_view()
                        }}
                    </ul>
                    <button type="button" class="notice-close" on:click=move |_| visible.set(false)>
                        {move || if lang.get() == Lang::Zh { "知道了" } else { "Dismiss" }}
                    </button>
                </div>
            }
        })
    }
}

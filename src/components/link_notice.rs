//! Tells the user what in the link they opened could not be used.

use leptos::prelude::*;

use crate::i18n::Lang;
use crate::link::{param, HistoryError, LinkProblem};

fn history_reason(lang: Lang, e: HistoryError) -> &'static str {
    let zh = lang == Lang::Zh;
    match e {
        HistoryError::NotBase64 => {
            if zh {
                "含有无效字符或被截断"
            } else {
                "has invalid characters or was cut short"
            }
        }
        HistoryError::NotDeflate => {
            if zh {
                "已损坏或被截断"
            } else {
                "is damaged or was cut short"
            }
        }
        HistoryError::TooLarge => {
            if zh {
                "超过 10 年的小时数据"
            } else {
                "holds more than 10 years of hours"
            }
        }
        HistoryError::NewerFormat(_) => {
            if zh {
                "由更新版本的规划器写成"
            } else {
                "was written by a newer version of the planner"
            }
        }
        HistoryError::Malformed => {
            if zh {
                "格式有误"
            } else {
                "is malformed"
            }
        }
        HistoryError::BadLength => {
            if zh {
                "小时数不合理"
            } else {
                "has an impossible number of hours"
            }
        }
        HistoryError::ValueTooLarge => {
            if zh {
                "含有过大的数值"
            } else {
                "has an impossibly large value"
            }
        }
        HistoryError::OutOfRange => {
            if zh {
                "时间超出 1990–2099 或时区不合理"
            } else {
                "has times outside 1990–2099 or an impossible time zone"
            }
        }
    }
}

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
        (LinkProblem::BadHistory(e), Lang::En) => format!(
            "The link's usage history (“{}”) {}; the page opened without it. Ask for the link again or paste the history.",
            param::DATA,
            history_reason(lang, *e)
        ),
        (LinkProblem::BadHistory(e), Lang::Zh) => format!(
            "链接中的用量历史（“{}”）{}，页面已在没有它的情况下打开。请重新索取链接或粘贴历史数据。",
            param::DATA,
            history_reason(lang, *e)
        ),
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

//! The answer first: commit N GPUs monthly, run the rest elastic; total and saving.
//! The texts: `present::headline`; this file only places them.

use leptos::prelude::*;

use crate::components::value::Value;

use crate::components::how_computed::HowComputed;

use crate::components::card_body::CardBody;
use crate::components::when::When;

use crate::components::bilingual;
use crate::i18n::pick;
use crate::page::context::{error_of, is_ok, memo_of, use_ctx, Part};
use crate::present::headline::READ_CHECK;
use crate::present::read_check;
use crate::state::{ParseStatus, UsageMode};

#[component]
pub fn HeadlineCard() -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let view = Part::of(|p| &p.headline);
    let no_history = view.flag(|v| v.no_history);
    // The history file's reading needs the user's look (a plausibility warning, a column
    // meaning or a day/month order to confirm): one bool, not the report.
    let data = memo_of(ctx.state, |s| s.mode == UsageMode::Data);
    let mark = Memo::new(move |_| {
        let l = lang.get();
        ctx.parse_status.with(|p| match p {
            ParseStatus::Done(Ok(parsed)) if data.get() => {
                read_check::headline_mark(l, &parsed.report, &parsed.series.zone())
            }
            _ => None,
        })
    });
    let read_check = Memo::new(move |_| mark.with(Option::is_some));
    view! {
        <section node_ref=view.view.node class="card headline" aria-labelledby="headline-heading" aria-live="polite">
            <h2 id="headline-heading">{bilingual(lang, "The plan", "方案")}</h2>
            <CardBody ok=is_ok(view) error=error_of(view)>
                <p class="headline-sentence">
                    <Value testid="recommended-n" shown=view.shown(|v| &v.sentence) />
                </p>
                <p class="headline-figures">
                    <Value testid="plan-monthly-total" shown=view.shown(|v| &v.total) strong=true />
                    {bilingual(lang, " per month, ", " /月，")}
                    <Value testid="plan-saving" shown=view.shown(|v| &v.saving) />
                </p>
                <When when=read_check>
                    <p class="read-check">
                        <a href="#parse-report" data-testid="read-check">
                            {bilingual(lang, READ_CHECK.0, READ_CHECK.1)}
                        </a><span data-testid="read-check-why">
                            {move || mark.get().filter(|t| !t.is_empty()).map(|t| format!("{}{t}", pick(lang.get(), ": ", "：")))}
                        </span>
                    </p>
                </When>
                <HowComputed formula=view.text(|v| v.formula.clone()) formula_testid="headline-formula" anchor="pools" />
                <When when=no_history>
                    <p class="warning" role="status">
                        {bilingual(
                            lang,
                            "No usable history yet: these figures come from the sliders.",
                            "尚无可用的用量历史：以下数字来自滑块。",
                        )}
                    </p>
                </When>
            </CardBody>
        </section>
    }
}

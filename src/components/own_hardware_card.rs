//! § 12 Own hardware as a monthly option (inside a disclosure): P_own per GPU per month,
//! its parts, and its break-even against on demand in hours per day.
//! The texts: `present::own_hardware`; this file only places them.

use leptos::prelude::*;

use crate::components::how_computed::HowComputed;

use crate::components::bilingual;

use crate::components::card_body::CardBody;
use crate::components::figure::Figure;
use crate::components::input_fields::InputFields;
use crate::components::note::Note;
use crate::inputs::Group;
use crate::page::context::{error_of, flag_of, is_ok, shown_of, text_of, use_ctx, Part};
use crate::present::own_hardware::OwnHardwareView;

/// PUE: finite, 1 ≤ PUE ≤ 5 (the engine's rule).
#[component]
pub fn OwnHardwareCard() -> impl IntoView {
    let ctx = use_ctx();
    let _state = ctx.state;
    let lang = ctx.lang;

    let view = Part::of(|p| &p.own_hardware);
    let text = move |part: fn(&OwnHardwareView) -> String| text_of(view, part);
    let shown = move |part| shown_of(view, part);

    view! {
        <section node_ref=view.view.node class="card" aria-labelledby="own-heading">
            <details class="disclosure" data-testid="own-hardware-details">
                <summary>
                    <h2 id="own-heading" class="summary-heading">
                        {bilingual(lang, "Own hardware (buy instead of rent)", "自购硬件（买而不租）")}
                    </h2>
                </summary>
                <InputFields group_of=Group::OwnHardware />
                <CardBody ok=is_ok(view) error=error_of(view)>
                    <Note class="warning" testid="own-never-pays" when=flag_of(view, |v| v.never_pays.is_some())
                        text=text(|v| v.never_pays.clone().unwrap_or_default()) />
                    <dl class="figures">
                        <div>
                            <dt>{bilingual(lang, "P_own: owning one GPU per month", "P_own：自购每卡每月成本")}</dt>
                            <dd data-testid="own-monthly" data-value=text(|v| v.monthly.value.clone())>
                                <strong>{text(|v| v.monthly.text.clone())}</strong>
                            </dd>
                        </div>
                        <Figure testid="own-depreciation" en="Depreciation" zh="折旧" shown=shown(|v| &v.depreciation) />
                        <div>
                            <dt>{bilingual(lang, "Electricity (running all month)", "电费（整月运行）")}</dt>
                            <dd data-testid="own-electricity" data-value=text(|v| v.electricity.value.clone())>
                                {text(|v| v.electricity.text.clone())}
                                " ("
                                <span data-testid="own-energy-kwh" data-value=text(|v| v.energy_kwh.value.clone())>
                                    {text(|v| v.energy_kwh.text.clone())}
                                </span>
                                " kWh)"
                            </dd>
                        </div>
                        <Figure testid="own-colo-ops-cost" en="Colocation and operations" zh="托管与运维"
                            shown=shown(|v| &v.colo_ops) />
                        <div>
                            <dt>{bilingual(lang, "Break-even against on demand, hours per day", "相比按量的盈亏平衡（每天小时数）")}</dt>
                            <dd data-testid="own-breakeven-hours-per-day" data-value=text(|v| v.breakeven_per_day.value.clone())>
                                {text(|v| v.breakeven_per_day.text.clone())}
                                " ("
                                <span data-testid="own-breakeven-hours" data-value=text(|v| v.breakeven_hours.value.clone())>
                                    {text(|v| v.breakeven_hours.text.clone())}
                                </span>
                                {bilingual(lang, " h a month, ", " 小时/月，利用率 ")}
                                <span data-testid="own-breakeven-utilization" data-value=text(|v| v.breakeven_utilization.value.clone())>
                                    {text(|v| v.breakeven_utilization.text.clone())}
                                </span>
                                {bilingual(lang, " utilization)", "）")}
                            </dd>
                        </div>
                        <Figure testid="own-saving-vs-monthly" en="Saving against renting one GPU monthly" zh="相比包月租用每月节省"
                            shown=shown(|v| &v.saving_vs_monthly) />
                    </dl>
                    <Note class="explainer" testid="own-verdict" when=flag_of(view, |v| v.verdict.is_some())
                        text=text(|v| v.verdict.clone().unwrap_or_default()) />
                    <HowComputed formula=text(|v| v.formula.clone()) anchor="own-hardware" />
                </CardBody>
            </details>
        </section>
    }
}

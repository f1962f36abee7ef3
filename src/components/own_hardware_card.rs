//! § 12 Own hardware as a monthly option (inside a disclosure): P_own per GPU per month,
//! its parts, and its break-even against on demand in hours per day.
//! The texts: `present::own_hardware`; this file only places them.

use leptos::prelude::*;

use crate::components::value::Value;

use crate::components::how_computed::HowComputed;

use crate::components::bilingual;

use crate::components::card_body::CardBody;
use crate::components::figure::Figure;
use crate::components::input_fields::InputFields;
use crate::components::note::Note;
use crate::inputs::Group;
use crate::page::context::{error_of, is_ok, use_ctx, Part};

/// PUE: finite, 1 ≤ PUE ≤ 5 (the engine's rule).
#[component]
pub fn OwnHardwareCard() -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang;

    let view = Part::of(|p| &p.own_hardware);

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
                    <Note class="warning" testid="own-never-pays" when=view.flag(|v| v.never_pays.is_some())
                        text=view.text(|v| v.never_pays.clone().unwrap_or_default()) />
                    <dl class="figures">
                        <Figure testid="own-monthly" en="P_own: owning one GPU per month" zh="P_own：自购每卡每月成本"
                            shown=view.shown(|v| &v.monthly) strong=true />
                        <Figure testid="own-depreciation" en="Depreciation" zh="折旧" shown=view.shown(|v| &v.depreciation) />
                        <Figure testid="own-electricity" en="Electricity (running all month)" zh="电费（整月运行）"
                            shown=view.shown(|v| &v.electricity)>
                            " ("
                            <Value testid="own-energy-kwh" shown=view.shown(|v| &v.energy_kwh) />
                            " kWh)"
                        </Figure>
                        <Figure testid="own-colo-ops-cost" en="Colocation and operations" zh="托管与运维"
                            shown=view.shown(|v| &v.colo_ops) />
                        <Figure testid="own-breakeven-hours-per-day" en="Break-even against on demand, hours per day" zh="相比按量的盈亏平衡（每天小时数）"
                            shown=view.shown(|v| &v.breakeven_per_day)>
                            " ("
                            <Value testid="own-breakeven-hours" shown=view.shown(|v| &v.breakeven_hours) />
                            {bilingual(lang, " h a month, ", " 小时/月，利用率 ")}
                            <Value testid="own-breakeven-utilization" shown=view.shown(|v| &v.breakeven_utilization) />
                            {bilingual(lang, " utilization)", "）")}
                        </Figure>
                        <Figure testid="own-saving-vs-monthly" en="Saving against renting one GPU monthly" zh="相比包月租用每月节省"
                            shown=view.shown(|v| &v.saving_vs_monthly) />
                    </dl>
                    <Note class="explainer" testid="own-verdict" when=view.flag(|v| v.verdict.is_some())
                        text=view.text(|v| v.verdict.clone().unwrap_or_default()) />
                    <HowComputed formula=view.text(|v| v.formula.clone()) anchor="own-hardware" />
                </CardBody>
            </details>
        </section>
    }
}

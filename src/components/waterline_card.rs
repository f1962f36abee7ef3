//! § 5 Minimum stable waterline per time band (weekday day / night / weekend).

use leptos::prelude::*;

use crate::components::bilingual;

use crate::context::use_ctx;
use crate::core::profile::Band;
use crate::format::{number_trim, plain};
use crate::i18n::{error_message, pick, Lang};

fn band_name(l: Lang, b: Band, start: u32, end: u32) -> String {
    match (b, l) {
        (Band::WeekdayDay, Lang::En) => format!("Weekday day ({start:02}:00–{end:02}:00)"),
        (Band::WeekdayDay, Lang::Zh) => format!("工作日白天（{start:02}:00–{end:02}:00）"),
        (Band::WeekdayNight, _) => pick(l, "Weekday night", "工作日夜间").to_string(),
        (Band::Weekend, _) => pick(l, "Weekend", "周末全天").to_string(),
    }
}

#[component]
pub fn WaterlineCard() -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang;
    view! {
        <section class="card" aria-labelledby="waterline-heading">
            <h2 id="waterline-heading">{bilingual(lang, "Minimum stable waterline", "最低稳定水位")}</h2>
            {move || {
                let l = lang.get();
                let (start, end) = ctx.state.with(|s| (s.inputs.day_start_hour, s.inputs.day_end_hour));
                match ctx.outputs.with(|o| o.waterline.clone()) {
                    Err(e) => view! { <p class="error" role="alert">{error_message(l, &e)}</p> }.into_any(),
                    Ok(w) => {
                        let q = number_trim(w.quantile * 100.0, 1, l);
                        view! {
                            <p>
                                {pick(l, "Waterline: ", "水位：")}
                                <strong data-testid="waterline" data-value=plain(w.overall, 2)>
                                    {number_trim(w.overall, 2, l)}
                                </strong>
                                {pick(l, " GPUs busy → buy ", " 张 GPU 在用 → 固定配额买 ")}
                                <strong data-testid="waterline-buy" data-value=w.buy.to_string()>{w.buy}</strong>
                                {pick(l, " monthly (never the average: ", " 张（不要按平均值：")}
                                <span data-testid="average-usage" data-value=plain(w.average, 2)>{number_trim(w.average, 2, l)}</span>
                                {pick(l, ")", "）")}
                            </p>
                            {w.bands.clone().map(|bands| view! {
                                <div class="table-wrap" tabindex="0">
                                    <table data-testid="band-table">
                                        <caption>{match l {
                                            Lang::En => format!("GPUs busy per time band (waterline = {q} % quantile)"),
                                            Lang::Zh => format!("各时段 GPU 用量（水位 = {q}% 分位数）"),
                                        }}</caption>
                                        <thead><tr>
                                            <th scope="col">{pick(l, "Time band", "时间区间")}</th>
                                            <th scope="col">{pick(l, "Hours", "小时数")}</th>
                                            <th scope="col">{pick(l, "Average GPUs", "平均使用台数")}</th>
                                            <th scope="col">{pick(l, "Stable minimum", "最低稳定使用台数")}</th>
                                        </tr></thead>
                                        <tbody>
                                            {bands.into_iter().map(|b| {
                                                let lowest = w.lowest_band == Some(b.band);
                                                view! {
                                                    <tr data-testid=format!("band-{}", b.band.key())>
                                                        <th scope="row">{band_name(l, b.band, start, end)}{lowest.then(|| pick(l, " (lowest)", "（最低）"))}</th>
                                                        <td>{number_trim(b.hours, 0, l)}</td>
                                                        <td data-testid=format!("band-{}-average", b.band.key()) data-value=b.average.map(|v| plain(v, 2)).unwrap_or_default()>
                                                            {b.average.map(|v| number_trim(v, 2, l)).unwrap_or_else(|| "—".into())}
                                                        </td>
                                                        <td data-testid=format!("band-{}-waterline", b.band.key()) data-value=b.waterline.map(|v| plain(v, 2)).unwrap_or_default()>
                                                            {b.waterline.map(|v| number_trim(v, 2, l)).unwrap_or_else(|| "—".into())}
                                                        </td>
                                                    </tr>
                                                }
                                            }).collect_view()}
                                        </tbody>
                                    </table>
                                </div>
                            })}
                            <details class="how">
                                <summary>{pick(l, "How is this computed?", "怎么算的？")}</summary>
                                <p class="formula">{match l {
                                    Lang::En => format!("Each band's waterline is its {q} % quantile of hourly GPUs busy; overall = the lowest band = {}; buy ⌊{}⌋ = {}.", number_trim(w.overall, 2, l), number_trim(w.overall, 2, l), w.buy),
                                    Lang::Zh => format!("每个时段的水位 = 该时段每小时用量的 {q}% 分位数；总体 = 最低时段 = {}；固定配额 = ⌊{}⌋ = {}。", number_trim(w.overall, 2, l), number_trim(w.overall, 2, l), w.buy),
                                }}</p>
                                <a href="docs/formulas.html#waterline">{pick(l, "Formula", "公式")}</a>
                            </details>
                        }.into_any()
                    }
                }
            }}
        </section>
    }
}

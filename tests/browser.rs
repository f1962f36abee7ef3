//! Component tests in headless Chromium (wasm-bindgen-test). They mount the real
//! `Planner` component, drive its inputs like a user does, and assert on the text a
//! user reads (not on HTML).
#![cfg(target_arch = "wasm32")]

use gpu_rent_planner::components::planner::Planner;
use gpu_rent_planner::core::plan::PlanInputs;
use gpu_rent_planner::i18n::Lang;
use gpu_rent_planner::state::AppState;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

#[path = "common/browser.rs"]
mod common;
use common::{assert_reads, fire, host, settle, text};

/// Mount the planner in `lang` and let it settle.
async fn mount(lang: Lang) -> (HtmlElement, RwSignal<AppState>) {
    let host = host();
    let state = RwSignal::new(AppState::new(PlanInputs::default(), lang));
    let handle = leptos::mount::mount_to(host.clone(), move || view! { <Planner state /> });
    std::mem::forget(handle);
    settle().await;
    (host, state)
}

fn input(host: &HtmlElement, selector: &str) -> HtmlInputElement {
    host.query_selector(selector)
        .unwrap()
        .expect(selector)
        .unchecked_into()
}

/// Type `value` into `el` as a user does (one input event) and let the page settle.
async fn type_into(el: &HtmlInputElement, value: &str) {
    el.set_value(value);
    fire(el, "input");
    settle().await;
}

#[wasm_bindgen_test]
async fn breakeven_follows_typing_and_the_slider() {
    let (host, _) = mount(Lang::En).await;
    assert_reads(
        &host,
        "Break-even: 360 hours per month (49.3 % utilization of a 730-hour month)",
    );

    type_into(&input(&host, "[data-testid=on-demand-price]"), "30").await;
    assert_reads(&host, "Break-even: 300 hours per month (41.1 % utilization");

    type_into(&input(&host, "[data-testid=monthly-price-slider]"), "12000").await;
    assert_reads(&host, "Break-even: 400 hours per month (54.8 % utilization");
    assert_eq!(input(&host, "[data-testid=monthly-price]").value(), "12000");
}

#[wasm_bindgen_test]
async fn invalid_input_is_explained_and_the_last_good_result_stays() {
    let (host, _) = mount(Lang::En).await;
    let field = input(&host, "[data-testid=on-demand-price]");
    type_into(&field, "0").await;
    let t = text(&host);
    assert!(
        t.contains("On-demand price per GPU-hour must be greater than 0."),
        "{t}"
    );
    assert!(t.contains("Break-even: 360 hours per month"), "{t}");
    assert_eq!(field.value(), "0", "the user's text is kept");

    type_into(&field, "abc").await;
    assert!(text(&host).contains("On-demand price per GPU-hour is not a number."));
    assert_eq!(field.value(), "abc");

    type_into(&field, "２０").await;
    let t = text(&host);
    assert!(t.contains("Break-even: 450 hours per month"), "{t}");
    assert!(!t.contains("not a number"), "{t}");
}

#[wasm_bindgen_test]
async fn monthly_never_pays_is_said_not_shown_as_a_fine_utilization() {
    let (host, _) = mount(Lang::En).await;
    type_into(&input(&host, "[data-testid=monthly-price]"), "20000").await;
    let t = text(&host);
    assert!(t.contains("Break-even: 800 hours per month"), "{t}");
    assert!(t.contains("monthly never pays at these prices"), "{t}");
}

#[wasm_bindgen_test]
async fn chinese_text_and_the_language_toggle() {
    let (host, state) = mount(Lang::Zh).await;
    let t = text(&host);
    assert!(t.contains("盈亏平衡点： 360 小时/月"), "{t}");
    assert!(
        !t.contains("Break-even"),
        "no English on a Chinese page: {t}"
    );

    let toggle: HtmlElement = host
        .query_selector("[data-testid=lang-toggle]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    toggle.click();
    settle().await;
    assert_eq!(state.get_untracked().lang, Lang::En);
    assert!(text(&host).contains("Break-even: 360 hours per month"));
}

#[wasm_bindgen_test]
async fn bad_text_survives_changes_to_other_inputs() {
    let (host, _) = mount(Lang::En).await;
    let on_demand = input(&host, "[data-testid=on-demand-price]");
    type_into(&on_demand, "abc").await;
    type_into(&input(&host, "[data-testid=monthly-price]"), "7500").await;
    assert_eq!(on_demand.value(), "abc", "the bad text is still there");
    let t = text(&host);
    assert!(
        t.contains("On-demand price per GPU-hour is not a number."),
        "{t}"
    );
    assert!(
        t.contains("Break-even: 300 hours per month"),
        "7500 / 25 = 300: {t}"
    );
    // The slider still moves it: an outside change of this field's value replaces the text.
    type_into(&input(&host, "[data-testid=on-demand-price-slider]"), "30").await;
    assert_eq!(on_demand.value(), "30");
    assert!(!text(&host).contains("not a number"));
}

/// `browser::js_text` (pastes and files enter wasm through it) gives exactly the string
/// wasm-bindgen's own conversion gives: ASCII, Chinese, full-width digits, emoji (surrogate
/// pairs), a lone surrogate, and long texts whose multi-byte end needs the buffer to grow.
#[wasm_bindgen_test]
fn js_text_matches_wasm_bindgen_strings() {
    use gpu_rent_planner::web::browser::js_text;
    use wasm_bindgen::JsValue;
    let long_ascii = "2026-11-01 00:00,3\n".repeat(50_000);
    let cases = [
        String::new(),
        "abc".to_string(),
        "时间,GPU 数\n2026年11月1日 0时,３.５\n".to_string(),
        "😀".repeat(1_000) + "a",
        long_ascii.clone() + "结束😀",
        "é".repeat(70_000),
    ];
    for s in &cases {
        assert_eq!(js_text(&JsValue::from_str(s)).as_deref(), Some(s.as_str()));
    }
    // A lone high surrogate (U+D800) then "x": both become what the browser's UTF-8 gives.
    let lone = js_sys::JsString::from_char_code2(0xD800, u32::from(b'x'));
    assert_eq!(
        js_text(&lone.clone().into()),
        JsValue::from(lone).as_string()
    );
    assert_eq!(js_text(&JsValue::from_f64(3.0)), None, "not a string");
}

/// Named zones come from the browser's `Intl`: Los Angeles' 2026 daylight saving at the
/// instants the tz database gives; an unknown name is `None`.
#[wasm_bindgen_test]
fn named_zones_follow_daylight_saving() {
    use gpu_rent_planner::web::time_zones;
    let la = time_zones::named("America/Los_Angeles").expect("Chromium knows Los Angeles");
    assert_eq!(la.offset_at(1_772_964_000 - 60), -480); // 2026-03-08 09:59 UTC: PST
    assert_eq!(la.offset_at(1_772_964_000), -420); // 10:00 UTC: PDT
    assert_eq!(la.offset_at(1_793_523_600 - 60), -420);
    assert_eq!(la.offset_at(1_793_523_600), -480); // 2026-11-01 09:00 UTC: PST again
    let shanghai = time_zones::named("Asia/Shanghai").unwrap();
    assert!(shanghai.changes.is_empty() && shanghai.base_minutes == 480);
    let kolkata = time_zones::named("Asia/Kolkata").unwrap();
    assert_eq!(kolkata.offset_at(1_793_523_600), 330);
    assert_eq!(time_zones::named("Mars/Olympus_Mons"), None);
    assert_eq!(time_zones::named("America/Los_Angeles").unwrap(), la);
}

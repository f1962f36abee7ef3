//! Component tests of the spot, burst, hidden-costs, own-hardware and review cards in
//! headless Chromium (wasm-bindgen-test). Each test mounts one card with the same context
//! `Planner` provides (state → `plan` memo), drives its inputs like a user does, and checks
//! the figures (`data-value`) and the text a user reads against hand computations.
#![cfg(target_arch = "wasm32")]

use gpu_rent_planner::components::budget_card::BudgetCard;
use gpu_rent_planner::components::burst_card::BurstCard;
use gpu_rent_planner::components::hidden_costs_card::HiddenCostsCard;
use gpu_rent_planner::components::own_hardware_card::OwnHardwareCard;
use gpu_rent_planner::components::review_card::ReviewCard;
use gpu_rent_planner::components::spot_card::SpotCard;
use gpu_rent_planner::core::plan::{plan, PlanInputs, PlanOutputs};
use gpu_rent_planner::core::review::ReviewMonthInput;
use gpu_rent_planner::i18n::Lang;
use gpu_rent_planner::page::context::Ctx;
use gpu_rent_planner::state::{AppState, ParseStatus};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

#[path = "common/browser.rs"]
mod common;
use common::{assert_reads, fire, host, settle, text};

/// Which card to mount.
#[derive(Clone, Copy)]
enum Card {
    Spot,
    Burst,
    Hidden,
    Own,
    Review,
    Budget,
}

/// Mount one card with a context like `Planner`'s (no history: the sliders' profile), a
/// what-if opened (they start closed unless their inputs are set: `components::what_if`),
/// as a planner reads it.
fn mount_with(card: Card, lang: Lang, inputs: PlanInputs) -> (HtmlElement, RwSignal<AppState>) {
    let (host, state) = mount_closed(card, lang, inputs);
    if let Some(details) = host.query_selector("details.what-if").unwrap() {
        details.set_attribute("open", "").unwrap();
    }
    (host, state)
}

/// Mount one card as the page builds it.
fn mount_closed(card: Card, lang: Lang, inputs: PlanInputs) -> (HtmlElement, RwSignal<AppState>) {
    let host = host();
    let state = RwSignal::new(AppState::new(inputs, lang));
    let handle = leptos::mount::mount_to(host.clone(), move || {
        let outputs: Memo<PlanOutputs> = Memo::new(move |_| state.with(|s| plan(&s.inputs)));
        provide_context(Ctx {
            state,
            usage_text: RwSignal::new(String::new()),
            usage_file: RwSignal::new_local(None),
            parse_status: RwSignal::new(ParseStatus::Empty),
            profile: Memo::new(|_| None),
            outputs,
            fleet: Memo::new(|_| None),
            lang: Signal::derive(move || state.with(|s| s.lang)),
            currency: Signal::derive(move || state.with(|s| s.currency.symbol())),
        });
        match card {
            Card::Spot => view! { <SpotCard /> }.into_any(),
            Card::Burst => view! { <BurstCard /> }.into_any(),
            Card::Hidden => view! { <HiddenCostsCard /> }.into_any(),
            Card::Own => view! { <OwnHardwareCard /> }.into_any(),
            Card::Review => view! { <ReviewCard /> }.into_any(),
            Card::Budget => view! { <BudgetCard /> }.into_any(),
        }
    });
    std::mem::forget(handle);
    (host, state)
}

fn mount(card: Card, lang: Lang) -> (HtmlElement, RwSignal<AppState>) {
    mount_with(card, lang, PlanInputs::default())
}

fn el(host: &HtmlElement, testid: &str) -> HtmlElement {
    let sel = format!("[data-testid={testid}]");
    host.query_selector(&sel)
        .unwrap()
        .unwrap_or_else(|| panic!("no {sel} in: {}", text(host)))
        .unchecked_into()
}

fn has(host: &HtmlElement, testid: &str) -> bool {
    host.query_selector(&format!("[data-testid={testid}]"))
        .unwrap()
        .is_some()
}

/// The `data-value` of a figure.
fn value(host: &HtmlElement, testid: &str) -> String {
    el(host, testid)
        .get_attribute("data-value")
        .unwrap_or_default()
}

fn input(host: &HtmlElement, testid: &str) -> HtmlInputElement {
    el(host, testid).unchecked_into()
}

fn type_into(host: &HtmlElement, testid: &str, v: &str) {
    let el = input(host, testid);
    el.set_value(v);
    fire(&el, "input");
}

// ---------------------------------------------------------------- spot

#[wasm_bindgen_test]
async fn spot_defaults_and_young_interval() {
    // Defaults: s = 8, r = 25, λ = 0.02/h, δ = 3 min = 0.05 h, R = 15 min = 0.25 h.
    // τ = √(2·0.05/0.02) = √5 = 2.2360680 h; δ/τ = 0.0223607; λ(τ/2 + R) = 0.02·1.3680340
    // = 0.0273607; factor 1.0497214 → 8·1.0497214 = 8.3977709 → 8.40; saving 25 − 8.40 = 16.60.
    // Validity: λ(τ + R) = 0.02·2.4860680 = 0.0497 ≤ 0.1, δ/τ = 0.0224 ≤ 0.1 → valid.
    // No checkpoints, J = 8: (1/0.02 + 0.25)(e^0.16 − 1) = 50.25·0.1735109 = 8.7189 h;
    // 8·8.7189 = 69.7514 → 69.75 vs 25·8 = 200.00 on demand; 69.75/8 → 8.72 per useful hour.
    let (host, _) = mount(Card::Spot, Lang::En);
    settle().await;
    assert_eq!(value(&host, "spot-effective-price"), "8.40");
    assert_eq!(value(&host, "spot-saving"), "16.60");
    assert_eq!(value(&host, "spot-young-interval"), "2.24");
    assert_eq!(value(&host, "spot-interval"), "2.24");
    assert_eq!(value(&host, "spot-checkpoint-overhead"), "0.0224");
    assert_eq!(value(&host, "spot-reclaim-overhead"), "0.0274");
    assert_eq!(value(&host, "spot-first-order"), "true");
    assert_eq!(value(&host, "spot-no-checkpoint-hours"), "8.72");
    assert_eq!(value(&host, "spot-no-checkpoint-cost"), "69.75");
    assert_eq!(value(&host, "spot-no-checkpoint-on-demand"), "200.00");
    assert_eq!(value(&host, "spot-no-checkpoint-price"), "8.72");
    let t = text(&host);
    assert!(t.contains("Each useful spot GPU-hour costs ¥8.40 with checkpoints: ¥16.60 less than on demand (¥25.00)."), "{t}");
    assert!(t.contains("one reclaim every 50 hours on average"), "{t}");
    assert!(!has(&host, "spot-warning") && !has(&host, "spot-no-checkpoint-warning"));
    // δ and R are shown in minutes.
    assert_eq!(input(&host, "checkpoint-save").value(), "3");
    assert_eq!(input(&host, "restart-time").value(), "15");
}

#[wasm_bindgen_test]
async fn spot_own_interval_and_validity_range() {
    // λ = 0.02, δ = 2.4 min = 0.04 h, R = 30 min = 0.5 h → τ = √(2·0.04/0.02) = 2 h;
    // factor 1 + 0.02 + 0.02·1.5 = 1.05 → 8.40 (formulas.md § 8 example).
    let (host, state) = mount(Card::Spot, Lang::En);
    settle().await;
    type_into(&host, "checkpoint-save", "2.4");
    type_into(&host, "restart-time", "30");
    settle().await;
    assert_eq!(value(&host, "spot-young-interval"), "2");
    assert_eq!(value(&host, "spot-effective-price"), "8.40");
    // Own interval τ = 10 h: δ/τ = 0.004, λ(5 + 0.5) = 0.11 → factor 1.114 → 8.912 → 8.91;
    // λ(τ + R) = 0.21 > 0.1 → outside the first-order range.
    let young = input(&host, "use-young");
    young.set_checked(false);
    fire(&young, "change");
    settle().await;
    let tau = state.get_untracked().inputs.checkpoint_interval_hours;
    assert!(tau.is_some_and(|t| (t - 2.0).abs() < 1e-9), "{tau:?}");
    type_into(&host, "checkpoint-interval", "10");
    settle().await;
    assert_eq!(value(&host, "spot-interval"), "10");
    assert_eq!(value(&host, "spot-young-interval"), "2");
    assert_eq!(value(&host, "spot-effective-price"), "8.91");
    assert_eq!(value(&host, "spot-first-order"), "false");
    let t = text(&host);
    assert!(
        t.contains("⚠ No: λ(τ + R) = 0.21 and δ/τ = 0.004 must both be ≤ 0.1."),
        "{t}"
    );
    // Back to Young's optimum.
    let young = input(&host, "use-young");
    young.set_checked(true);
    fire(&young, "change");
    settle().await;
    assert_eq!(state.get_untracked().inputs.checkpoint_interval_hours, None);
    assert_eq!(value(&host, "spot-effective-price"), "8.40");
    assert!(!has(&host, "checkpoint-interval"));
}

#[wasm_bindgen_test]
async fn spot_warns_when_it_costs_more_than_on_demand() {
    // λ = 1/h, δ = 30 min = 0.5 h, R = 120 min = 2 h → τ = √(2·0.5/1) = 1 h;
    // factor 1 + 0.5 + 1·(0.5 + 2) = 4 → 8·4 = 32.00 > r = 25 → warning, 7.00 more.
    // No checkpoints, J = 8: (1 + 2)(e^8 − 1) = 3·2979.957987 = 8939.873961 h;
    // 8 × that = 71518.99 > 200.00 → warning.
    let (host, _) = mount(Card::Spot, Lang::En);
    settle().await;
    type_into(&host, "interruption-rate", "1");
    type_into(&host, "checkpoint-save", "30");
    type_into(&host, "restart-time", "120");
    settle().await;
    assert_eq!(value(&host, "spot-effective-price"), "32.00");
    assert_eq!(value(&host, "spot-saving"), "-7.00");
    let w = el(&host, "spot-warning");
    assert_eq!(w.get_attribute("role").as_deref(), Some("alert"));
    assert!(
        w.inner_text()
            .starts_with("⚠ Spot costs more than on demand here: ¥32.00"),
        "{}",
        w.inner_text()
    );
    assert_eq!(value(&host, "spot-no-checkpoint-hours"), "8939.87");
    assert_eq!(value(&host, "spot-no-checkpoint-cost"), "71518.99");
    assert!(el(&host, "spot-no-checkpoint-warning")
        .inner_text()
        .contains("¥71,518.99"));
    assert!(!has(&host, "spot-verdict"));
}

#[wasm_bindgen_test]
async fn spot_invalid_input_keeps_last_result_and_chinese() {
    let (host, _) = mount(Card::Spot, Lang::Zh);
    settle().await;
    type_into(&host, "checkpoint-save", "0");
    settle().await;
    let t = text(&host);
    assert!(t.contains("检查点保存时间必须大于 0。"), "{t}");
    assert_eq!(input(&host, "checkpoint-save").value(), "0");
    assert_eq!(value(&host, "spot-effective-price"), "8.40");
    assert!(
        t.contains("带检查点时，竞价实例每有效 GPU 小时 ¥8.40"),
        "{t}"
    );
    assert!(
        !t.contains("Spot") && !t.contains("hours"),
        "no English on a Chinese page: {t}"
    );
}

// ---------------------------------------------------------------- burst

#[wasm_bindgen_test]
async fn burst_defaults_seed_36_lora_jobs() {
    // 36 jobs × 4 GPUs × 4 h, F = 6 free fixed GPUs, E ≤ 48 elastic at r = 25, per minute.
    // Fixed only: ⌊6/4⌋ = 1 job at a time → 36 batches → 144 h, no extra cost.
    // With elastic: ⌊54/4⌋ = 13 slots → ⌈36/13⌉ = 3 batches → 12 h; ⌈36/3⌉ = 12 slots = 48 GPUs
    // → 42 elastic × 12 h = 504 GPU-h × 25 = 12 600.00; 132 h saved → 12600/132 = 95.4545 → 95.45.
    let (host, _) = mount(Card::Burst, Lang::En);
    settle().await;
    for (id, v) in [
        ("burst-fixed-parallel", "1"),
        ("burst-fixed-batches", "36"),
        ("burst-fixed-wall-hours", "144"),
        ("burst-fixed-cost", "0.00"),
        ("burst-elastic-parallel", "12"),
        ("burst-elastic-batches", "3"),
        ("burst-elastic-wall-hours", "12"),
        ("burst-elastic-gpus-used", "42"),
        ("burst-elastic-gpu-hours", "504"),
        ("burst-elastic-cost", "12600.00"),
        ("burst-hours-saved", "132"),
        ("burst-cost-per-hour-saved", "95.45"),
    ] {
        assert_eq!(value(&host, id), v, "{id}");
    }
    assert_reads(&host, "Renting 42 elastic GPUs finishes in 12 h instead of 144 h for ¥12,600.00 extra: ¥95.45 per hour saved.");
}

#[wasm_bindgen_test]
async fn burst_follows_inputs_and_billing_increment() {
    let (host, _) = mount(Card::Burst, Lang::En);
    settle().await;
    // E = 10: ⌊16/4⌋ = 4 slots → ⌈36/4⌉ = 9 batches → 36 h; 4 slots = 16 GPUs → 10 elastic,
    // the last batch is full → 10 × 36 h = 360 GPU-h × 25 = 9 000.00; saved 144 − 36 = 108 h
    // → 9000/108 = 83.333 → 83.33.
    type_into(&host, "burst-elastic-gpus", "10");
    settle().await;
    assert_eq!(value(&host, "burst-elastic-batches"), "9");
    assert_eq!(value(&host, "burst-elastic-wall-hours"), "36");
    assert_eq!(value(&host, "burst-elastic-gpus-used"), "10");
    assert_eq!(value(&host, "burst-elastic-cost"), "9000.00");
    assert_eq!(value(&host, "burst-hours-saved"), "108");
    assert_eq!(value(&host, "burst-cost-per-hour-saved"), "83.33");
    // Back to E = 48 with d = 4.1 h: 3 batches → 12.3 h = 44 280 s (whole minutes);
    // per minute 42 × 12.3 = 516.6 GPU-h × 25 = 12 915.00; per started hour each rental is
    // 13 h → 42 × 13 = 546 GPU-h × 25 = 13 650.00.
    type_into(&host, "burst-elastic-gpus", "48");
    type_into(&host, "burst-job-hours", "4.1");
    settle().await;
    assert_eq!(value(&host, "burst-elastic-wall-hours"), "12.3");
    assert_eq!(value(&host, "burst-elastic-gpu-hours"), "516.6");
    assert_eq!(value(&host, "burst-elastic-cost"), "12915.00");
    let select: web_sys::HtmlSelectElement = el(&host, "billing-increment").unchecked_into();
    assert_eq!(select.value(), "minute");
    select.set_value("hour");
    fire(&select, "change");
    settle().await;
    assert_eq!(value(&host, "burst-elastic-gpu-hours"), "546");
    assert_eq!(value(&host, "burst-elastic-cost"), "13650.00");
}

#[wasm_bindgen_test]
async fn burst_without_a_fixed_run_and_bad_counts() {
    let (host, state) = mount(Card::Burst, Lang::En);
    settle().await;
    // F = 2 < g = 4: no fixed-only run. With elastic: ⌊50/4⌋ = 12 slots → 3 batches → 12 h;
    // 12 slots = 48 GPUs → 46 elastic × 12 h = 552 GPU-h × 25 = 13 800.00.
    type_into(&host, "burst-fixed-gpus", "2");
    settle().await;
    assert_eq!(value(&host, "burst-fixed-wall-hours"), "");
    assert_eq!(el(&host, "burst-fixed-wall-hours").inner_text(), "—");
    assert_eq!(value(&host, "burst-elastic-gpus-used"), "46");
    assert_eq!(value(&host, "burst-elastic-cost"), "13800.00");
    assert_eq!(value(&host, "burst-hours-saved"), "");
    assert!(text(&host).contains("The 2 fixed GPUs cannot run even one 4-GPU job"));
    // 2.5 jobs is refused beside the field; the result keeps the last good value.
    type_into(&host, "burst-jobs", "2.5");
    settle().await;
    assert_eq!(
        el(&host, "burst-jobs-error").inner_text(),
        "Jobs must be a whole number."
    );
    assert_eq!(input(&host, "burst-jobs").value(), "2.5");
    assert_eq!(state.get_untracked().inputs.burst_jobs, 36);
    assert_eq!(value(&host, "burst-elastic-cost"), "13800.00");
    type_into(&host, "burst-jobs", "0");
    settle().await;
    assert_eq!(
        el(&host, "burst-jobs-error").inner_text(),
        "Jobs must be greater than 0."
    );
}

// ---------------------------------------------------------------- hidden costs

#[wasm_bindgen_test]
async fn hidden_costs_defaults_and_idle_timeout() {
    // Storage 200 + IP 20 + snapshots 50 + egress 0.8 × 100 = 80 + auto-stop 60 sessions ×
    // 0.5 h = 30 GPU-h × 25 = 750 → 1 100.00 a month. Elastic GPU-hours of the default plan:
    // 4 GPUs × 200 h, N* = 0 → 800 h; 1100/800 = 1.375 → 1.38 per hour; 25 + 1.38 = 26.38.
    let (host, state) = mount(Card::Hidden, Lang::En);
    settle().await;
    for (id, v) in [
        ("hidden-storage-cost", "200.00"),
        ("hidden-public-ip-cost", "20.00"),
        ("hidden-snapshots-cost", "50.00"),
        ("hidden-egress-cost", "80.00"),
        ("hidden-autostop-gpu-hours", "30"),
        ("hidden-autostop-waste", "750.00"),
        ("hidden-total", "1100.00"),
        ("hidden-elastic-gpu-hours", "800"),
        ("hidden-per-elastic-hour", "1.38"),
        ("hidden-effective-on-demand", "26.38"),
    ] {
        assert_eq!(value(&host, id), v, "{id}");
    }
    assert_eq!(input(&host, "hidden-idle-timeout").value(), "30", "minutes");
    assert_reads(&host, "Hidden costs add ¥1,100.00 a month: ¥1.38 per elastic GPU-hour, so on demand really costs ¥26.38 per GPU-hour, not ¥25.00.");
    // Idle 60 min before auto-stop: 60 × 1 h × 25 = 1 500; total 200 + 20 + 50 + 80 + 1500
    // = 1 850.00; 1850/800 = 2.3125 → 2.31; 25 + 2.31 = 27.31.
    type_into(&host, "hidden-idle-timeout", "60");
    settle().await;
    assert!((state.get_untracked().inputs.hidden_idle_timeout_hours - 1.0).abs() < 1e-12);
    assert_eq!(value(&host, "hidden-autostop-waste"), "1500.00");
    assert_eq!(value(&host, "hidden-total"), "1850.00");
    assert_eq!(value(&host, "hidden-per-elastic-hour"), "2.31");
    assert_eq!(value(&host, "hidden-effective-on-demand"), "27.31");
    // Over 24 h of idle time is refused beside the field, the total stays.
    type_into(&host, "hidden-idle-timeout", "1500");
    settle().await;
    assert_eq!(
        el(&host, "hidden-idle-timeout-error").inner_text(),
        "Hidden cost must be at most 1,440."
    );
    assert_eq!(value(&host, "hidden-total"), "1850.00");
}

#[wasm_bindgen_test]
async fn hidden_costs_without_elastic_hours_in_chinese() {
    // 4 GPUs × 400 h > H* = 360 → N* = 4, no elastic hours: nothing to spread over.
    let inputs = PlanInputs {
        used_hours: 400.0,
        ..PlanInputs::default()
    };
    let (host, _) = mount_with(Card::Hidden, Lang::Zh, inputs);
    settle().await;
    assert_eq!(value(&host, "hidden-total"), "1100.00");
    assert_eq!(value(&host, "hidden-elastic-gpu-hours"), "0");
    assert_eq!(value(&host, "hidden-per-elastic-hour"), "");
    let t = text(&host);
    assert!(
        t.contains("隐性成本每月 ¥1,100.00。当前方案没有弹性 GPU 小时，无法分摊。"),
        "{t}"
    );
    assert!(
        !t.contains("Hidden") && !t.contains("hour"),
        "no English: {t}"
    );
}

// ---------------------------------------------------------------- own hardware

#[wasm_bindgen_test]
async fn a_what_if_is_closed_with_its_answer_until_its_inputs_are_set() {
    let (host, _) = mount_closed(Card::Spot, Lang::En, PlanInputs::default());
    settle().await;
    let details = host.query_selector("details.what-if").unwrap().unwrap();
    assert!(!details.has_attribute("open"), "closed by default");
    assert_eq!(
        text(&host),
        "Spot instances with checkpoints Each useful spot GPU-hour costs ¥8.40 with checkpoints: ¥16.60 less than on demand (¥25.00)."
    );
    // A link that sets one of its inputs: open from the start.
    let inputs = PlanInputs {
        interruption_rate: 0.04,
        ..PlanInputs::default()
    };
    let (host, _) = mount_closed(Card::Hidden, Lang::Zh, inputs.clone());
    settle().await;
    let hidden = host.query_selector("details.what-if").unwrap().unwrap();
    assert!(!hidden.has_attribute("open"), "another card's input");
    let (host, _) = mount_closed(Card::Spot, Lang::Zh, inputs);
    settle().await;
    let spot = host.query_selector("details.what-if").unwrap().unwrap();
    assert!(spot.has_attribute("open"));
    assert!(text(&host).contains("中断率"), "{}", text(&host));
}

#[wasm_bindgen_test]
async fn own_hardware_is_a_disclosure_with_the_worked_example() {
    // 100 000 / 36 = 2 777.78; 0.4 kW × 1.5 × 730 h = 438 kWh × 0.8 = 350.40; colo 500.00
    // → P_own = 3 628.18. /25 = 145.1272 h a month → × 24/730 = 4.7713 h a day,
    // 145.1272/730 = 19.88 %; against renting at 9 000: 9000 − 3628.18 = 5 371.82.
    let (host, _) = mount(Card::Own, Lang::En);
    settle().await;
    let details = el(&host, "own-hardware-details");
    assert!(!details.has_attribute("open"), "closed by default");
    assert!(
        !text(&host).contains("Owning one GPU costs"),
        "hidden while closed"
    );
    for (id, v) in [
        ("own-depreciation", "2777.78"),
        ("own-energy-kwh", "438"),
        ("own-electricity", "350.40"),
        ("own-colo-ops-cost", "500.00"),
        ("own-monthly", "3628.18"),
        ("own-breakeven-hours", "145.13"),
        ("own-breakeven-hours-per-day", "4.77"),
        ("own-breakeven-utilization", "0.1988"),
        ("own-saving-vs-monthly", "5371.82"),
    ] {
        assert_eq!(value(&host, id), v, "{id}");
    }
    let summary: HtmlElement = details
        .query_selector("summary")
        .unwrap()
        .unwrap()
        .unchecked_into();
    summary.click();
    settle().await;
    assert!(details.has_attribute("open"));
    assert_reads(&host, "Owning one GPU costs ¥3,628.18 a month. It beats on demand if the GPU is busy more than 4.77 h a day, and saves ¥5,371.82 a month against renting it monthly.");
    assert!(!has(&host, "own-never-pays"));
}

#[wasm_bindgen_test]
async fn own_hardware_never_pays_and_pue_below_one() {
    // 1 000 000 over 12 months = 83 333.33 + 350.40 + 500.00 = 84 183.73 a month;
    // /25 = 3 367.3492 h > 730 → never pays; per day 3367.3492 × 24/730 = 110.707 → 110.71;
    // against renting: 9000 − 84183.73 = −75 183.73.
    let (host, state) = mount(Card::Own, Lang::En);
    settle().await;
    type_into(&host, "own-purchase", "1000000");
    type_into(&host, "own-depreciation-months", "12");
    settle().await;
    assert_eq!(value(&host, "own-monthly"), "84183.73");
    assert_eq!(value(&host, "own-breakeven-hours-per-day"), "110.71");
    assert_eq!(value(&host, "own-saving-vs-monthly"), "-75183.73");
    let w = el(&host, "own-never-pays");
    assert_eq!(w.get_attribute("role").as_deref(), Some("alert"));
    assert!(w
        .text_content()
        .unwrap_or_default()
        .starts_with("⚠ Owning never pays against on demand: ¥84,183.73 a month"));
    assert!(!has(&host, "own-verdict"));
    // PUE 0.9 is refused with the engine's rule; the last good PUE stays.
    type_into(&host, "own-pue", "0.9");
    settle().await;
    assert_eq!(
        el(&host, "own-pue-error")
            .text_content()
            .unwrap_or_default(),
        "PUE must be at least 1."
    );
    assert_eq!(state.get_untracked().inputs.own_pue, 1.5);
    // PUE 2: 0.4 × 2 × 730 = 584 kWh × 0.8 = 467.20 → 83 333.33 + 467.20 + 500 = 84 300.53.
    type_into(&host, "own-pue", "2");
    settle().await;
    assert_eq!(value(&host, "own-energy-kwh"), "584");
    assert_eq!(value(&host, "own-monthly"), "84300.53");
}

// ---------------------------------------------------------------- review

/// 4 GPUs × 400 h > H* = 360 h → the plan's baseline N* = 4.
#[wasm_bindgen_test]
async fn budget_implied_split_reads_right_in_both_languages() {
    // The plan the sliders imply, with its own pools: the sentence must name the three shares
    // and the total in each language's own punctuation.
    let out = plan(&PlanInputs::default());
    let i = out
        .budget_implied
        .clone()
        .expect("default inputs imply a split");
    let pct = |f: f64, l: Lang| gpu_rent_planner::format::percent(f, 1, l);
    let total = |l: Lang| gpu_rent_planner::format::money(i.total, "¥", l);
    let (host, _) = mount(Card::Budget, Lang::Zh);
    settle().await;
    assert_eq!(
        el(&host, "budget-implied")
            .text_content()
            .unwrap_or_default(),
        format!(
            "当前方案对应的分配：{} / {} / {}（共 {}）",
            pct(i.fixed_share, Lang::Zh),
            pct(i.elastic_share, Lang::Zh),
            pct(i.spot_share, Lang::Zh),
            total(Lang::Zh)
        )
    );
    let (host, state) = mount(Card::Budget, Lang::En);
    state.update(|s| s.currency = gpu_rent_planner::state::Currency::Usd);
    settle().await;
    let total_en = gpu_rent_planner::format::money(i.total, "$", Lang::En);
    assert_eq!(
        el(&host, "budget-implied")
            .text_content()
            .unwrap_or_default(),
        format!(
            "The chosen plan implies: {} / {} / {} (of {total_en})",
            pct(i.fixed_share, Lang::En),
            pct(i.elastic_share, Lang::En),
            pct(i.spot_share, Lang::En),
        )
    );
}

fn baseline_four() -> PlanInputs {
    PlanInputs {
        used_hours: 400.0,
        ..PlanInputs::default()
    }
}

fn click(host: &HtmlElement, testid: &str) {
    el(host, testid).click();
}

#[wasm_bindgen_test]
async fn review_typed_months_flags_and_actions() {
    let (host, state) = mount_with(Card::Review, Lang::En, baseline_four());
    settle().await;
    assert!(has(&host, "review-empty"));
    for _ in 0..3 {
        click(&host, "review-add-month");
    }
    settle().await;
    assert!(
        has(&host, "review-months-status"),
        "empty months are incomplete"
    );
    let months = [
        (1, ["2025-01", "70", "36000", "5000", "1"]),
        (2, ["2025-02", "55", "36,000", "30000", "1"]),
        (3, ["2025-03", "40", "36000", "40000", "3"]),
    ];
    let cols = [
        "label",
        "utilization",
        "fixed-spend",
        "elastic-spend",
        "queue",
    ];
    for (k, (id, cells)) in months.iter().enumerate() {
        for (col, v) in cols.iter().zip(cells) {
            type_into(&host, &format!("review-month-{id}-{col}"), v);
        }
        settle().await;
        if k < 2 {
            // All or nothing: later months are still empty.
            assert!(has(&host, "review-empty"), "{}", text(&host));
        }
    }
    assert!(!has(&host, "review-months-status"));
    assert_eq!(state.get_untracked().inputs.review_months.len(), 3);
    // Utilization 70, 55, 40 % against 60 %: months 2 and 3 low → lower N = 4 → 3.
    // Elastic 40 000 > fixed 36 000 only in month 3 → no raise. Queue 3 h > 2 h in the
    // latest month → tighten.
    assert_eq!(value(&host, "review-source"), "typed");
    assert_eq!(value(&host, "review-baseline"), "4");
    assert_eq!(value(&host, "review-row-0-utilization"), "0.7");
    assert_eq!(value(&host, "review-row-1-fixed-spend"), "36000.00");
    assert_eq!(value(&host, "review-row-2-elastic-spend"), "40000.00");
    assert_eq!(value(&host, "review-row-2-queue"), "3");
    assert_eq!(value(&host, "review-row-0-flags"), "");
    assert_eq!(value(&host, "review-row-1-flags"), "low-utilization");
    assert_eq!(
        value(&host, "review-row-2-flags"),
        "low-utilization,elastic-above-fixed,queue-over-limit"
    );
    assert_eq!(value(&host, "review-action-lower-baseline"), "3");
    assert_eq!(value(&host, "review-action-tighten-autoscaling"), "3");
    assert!(!has(&host, "review-action-raise-baseline"));
    let t = text(&host);
    assert!(t.contains("Fixed utilization was under 60 % two months running: lower the baseline from 4 to 3 GPUs."), "{t}");
    assert!(
        t.contains(
            "Jobs queued 3 h in 2025-03, over the 2 h limit: tighten the autoscaling triggers"
        ),
        "{t}"
    );
    assert!(el(&host, "review-row-2-flags")
        .inner_text()
        .contains("Queue over limit"));

    // A bad cell is explained beside it, its text kept, and the review keeps the last set.
    type_into(&host, "review-month-2-utilization", "abc");
    settle().await;
    assert_eq!(
        el(&host, "review-month-2-utilization-error").inner_text(),
        "Fixed utilization (%) is not a number."
    );
    assert_eq!(input(&host, "review-month-2-utilization").value(), "abc");
    assert!(has(&host, "review-months-status"));
    assert_eq!(value(&host, "review-row-1-utilization"), "0.55");
    type_into(&host, "review-month-2-utilization", "150");
    settle().await;
    assert_eq!(
        el(&host, "review-month-2-utilization-error").inner_text(),
        "Fixed utilization (%) must be at most 100."
    );
    type_into(&host, "review-month-2-utilization", "55");
    settle().await;
    assert!(!has(&host, "review-months-status"));

    // Threshold 50 %: only month 3 is low → no lowering; queue limit 5 h → nothing to do.
    type_into(&host, "review-utilization-threshold", "50");
    settle().await;
    assert!(!has(&host, "review-action-lower-baseline"));
    assert_eq!(value(&host, "review-row-1-flags"), "");
    type_into(&host, "review-queue-limit", "5");
    settle().await;
    assert_eq!(value(&host, "review-action-keep"), "4");
    assert!(text(&host).contains("Keep the baseline at 4 GPUs: no rule is triggered."));

    // Removing the first month leaves two rows, in order.
    click(&host, "review-month-1-remove");
    settle().await;
    assert_eq!(state.get_untracked().inputs.review_months.len(), 2);
    assert_eq!(el(&host, "review-row-0-label").inner_text(), "2025-02");
    assert!(!has(&host, "review-row-2-label"));
}

#[wasm_bindgen_test]
async fn review_months_from_the_state_in_chinese() {
    // Elastic 150 > 100 and 100.01 > 100 in the last two months → raise N = 4 → 5.
    let month = |label: &str, u: f64, f: f64, e: f64| ReviewMonthInput {
        label: label.into(),
        fixed_utilization_percent: u,
        fixed_spend: f,
        elastic_spend: e,
        queue_hours: None,
    };
    let inputs = PlanInputs {
        review_months: vec![
            month("a", 90.0, 100.0, 150.0),
            month("b", 95.0, 100.0, 100.01),
        ],
        ..baseline_four()
    };
    let (host, state) = mount_with(Card::Review, Lang::Zh, inputs);
    settle().await;
    assert_eq!(input(&host, "review-month-1-label").value(), "a");
    assert_eq!(
        input(&host, "review-month-2-elastic-spend").value(),
        "100.01"
    );
    assert_eq!(input(&host, "review-month-2-queue").value(), "");
    assert_eq!(value(&host, "review-action-raise-baseline"), "5");
    assert_eq!(value(&host, "review-row-1-queue"), "");
    assert_eq!(value(&host, "review-row-1-flags"), "elastic-above-fixed");
    let t = text(&host);
    assert!(
        t.contains("弹性支出连续两个月高于固定支出：把基线从 4 张升到 5 张。"),
        "{t}"
    );
    assert!(t.contains("未知"), "{t}");
    assert!(
        !t.contains("Elastic") && !t.contains("Month"),
        "no English: {t}"
    );
    // An empty label is refused.
    type_into(&host, "review-month-1-label", " ");
    settle().await;
    assert_eq!(
        el(&host, "review-month-1-label-error").inner_text(),
        "月份不能为空。"
    );
    assert_eq!(state.get_untracked().inputs.review_months[0].label, "a");
    // Months replaced from elsewhere (a link) replace the form.
    state.update(|s| s.inputs.review_months.clear());
    settle().await;
    assert!(!has(&host, "review-month-1-label"));
    assert!(has(&host, "review-empty"));
}

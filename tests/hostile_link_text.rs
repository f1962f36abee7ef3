//! Somebody else's text from a link (issue 27's hostile text): through the link codec, the
//! "Put it into practice" card and the Markdown export, it stays one YAML scalar in the
//! snippets and a code span in the export. Here, not in `present::action`'s tests: it runs the
//! layers above the presentation (the link, the page's export).

use gpu_rent_planner::core::plan::plan;
use gpu_rent_planner::format::Lang;
use gpu_rent_planner::link;
use gpu_rent_planner::page::export::markdown;
use gpu_rent_planner::present::action::present;

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// The link parameters that set the second region's note and the elastic workload to `text`.
fn note_and_target(text: &str) -> String {
    format!("regionnote={0}&target={0}", enc(text))
}

#[test]
fn hostile_link_text_round_trips_and_stays_one_yaml_scalar() {
    let hostile = "x\"\nkind: Secret\n![i](http://e/i.png) <script>alert(1)</script> [a](http://e)";
    let q = format!(
        "?v=2&{}&metric=a%0Ab%3A%20c&altod=20&gbph=5&xfer=0.5",
        note_and_target(hostile)
    );
    let (s, problems) = link::decode(&q);
    assert_eq!(problems, vec![]);
    let i = s.inputs.clone();
    assert_eq!(
        i.region_note,
        "x\" kind: Secret ![i](http://e/i.png) <script>alert(1)</script> [a](http://e)"
    );
    assert_eq!(i.queue_metric, "a b: c");
    // Written back: the same link values, percent-encoded.
    let again = link::encode(&s, None);
    let (back, _) = link::decode(&again);
    assert_eq!(back.inputs, i);
    assert!(!again.contains(['<', '"', ' ', '\n']), "{again}");
    let v = present(Lang::En, "$", &i, &plan(&i), None).unwrap();
    assert_eq!(v.region_note, i.region_note);
    assert!(v.keda.contains("name: \"x\\\" kind: Secret"), "{}", v.keda);
    assert_eq!(v.keda.lines().count(), 20, "{}", v.keda);
    // A version-1 link never sets them.
    let (old, _) = link::decode(&q.replace("v=2", "v=1"));
    assert_eq!(old.inputs.region_note, "");
}

#[test]
fn the_export_shows_hostile_link_text_as_code_only() {
    let hostile = "[a](http://e) ![i](http://e/i.png) <b>x</b>";
    let q = format!("?v=2&altod=20&gbph=5&xfer=0.5&{}", note_and_target(hostile));
    let (s, _) = link::decode(&q);
    let i = s.inputs;
    let md = markdown(Lang::En, &i, &plan(&i), None, "¥", "https://x.test/");
    // The note in the card's section and in the inputs list: code spans only.
    assert!(
        md.contains(&format!("- Second region: `{hostile}`\n")),
        "{md}"
    );
    assert!(
        md.contains(&format!("- Second region: note: `{hostile}`\n")),
        "{md}"
    );
    assert!(
        md.contains(&format!("- Elastic workload to scale: `{hostile}`\n")),
        "{md}"
    );
    // Outside code spans and fences no link, image or tag survives.
    let mut outside = String::new();
    let mut in_fence = false;
    for line in md.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if !in_fence {
            let parts: Vec<&str> = line.split('`').collect();
            for (k, p) in parts.iter().enumerate() {
                if k % 2 == 0 {
                    outside.push_str(p);
                }
            }
            outside.push('\n');
        }
    }
    assert!(!outside.contains("](http://e"), "{outside}");
    assert!(!outside.contains("<b>"), "{outside}");
}

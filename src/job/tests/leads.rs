//! `leads`: the opening-lead table of a run, the same for any thread count and under an output
//! ceiling, and refused where the leader's hand is not fixed.

use super::*;

/// West's hand of the studies below.
const WEST: &str = "predeal west SKJ74, HQ3, D9862, CJ75\n";

/// The JSON summary's `leads` table and `dd` counts of a run of `script` with `options`.
fn summary(options: &[(&str, &str)], script: &str) -> (String, String) {
    let mut all = vec![("json_summary", "true")];
    all.extend_from_slice(options);
    let (mut s, out) = captured(&all, script);
    s.run().unwrap();
    let text = text(&out);
    let line = text.lines().find(|l| l.starts_with("{\"schema\"")).expect(&text).to_string();
    let leads = line[line.find(",\"leads\":[").expect(&line)..].to_string();
    let dd = line[line.find(",\"dd\":{").expect(&line)..].split('}').next().unwrap().to_string();
    (leads, dd)
}

#[test]
fn the_table_is_the_same_for_one_and_two_threads_with_one_search_per_deal() {
    let script =
        format!("{WEST}condition hcp(north) + hcp(south) >= 31\nproduce 12\naction leads(west, notrump, 12)\n");
    let (one, dd) = summary(&[("seed", "5"), ("threads", "1")], &script);
    assert!(one.contains("\"contract\":\"6NT\",\"vulnerable\":false,\"deals\":12,"), "{one}");
    assert!(one.contains("{\"cards\":\"D98\",\"tricks\":"), "{one}");
    assert_eq!(dd, ",\"dd\":{\"thresholds\":0,\"exact\":0,\"tables\":0,\"by_the_cards\":0,\"leads\":12");
    assert_eq!(summary(&[("seed", "5"), ("threads", "2")], &script).0, one);
    // drand48's deals too.
    let drand48 = summary(&[("seed", "5"), ("threads", "1"), ("rng", "drand48")], &script).0;
    assert_eq!(summary(&[("seed", "5"), ("threads", "2"), ("rng", "drand48")], &script).0, drand48);
}

#[test]
fn the_vulnerability_is_the_actions_or_else_the_scripts_for_declarer() {
    let vulnerable = |extra: &str, action: &str| {
        let script = format!("{WEST}{extra}condition hcp(north) + hcp(south) >= 33\nproduce 2\naction {action}\n");
        let (leads, _) = summary(&[("seed", "2")], &script);
        leads.contains("\"vulnerable\":true")
    };
    assert!(!vulnerable("", "leads(west, notrump, 12)"));
    assert!(vulnerable("", "leads(west, notrump, 12, vul)"));
    assert!(vulnerable("vulnerable NS\n", "leads(west, notrump, 12)"));
    assert!(!vulnerable("vulnerable EW\n", "leads(west, notrump, 12)"));
    assert!(!vulnerable("vulnerable all\n", "leads(west, notrump, 12, nv)"));
}

#[test]
fn the_text_table_comes_with_the_statistics() {
    let script = format!("{WEST}condition hcp(north) + hcp(south) >= 33\nproduce 3\naction leads(west, spades, 12)\n");
    let (mut s, out) = captured(&[("seed", "4")], &script);
    s.run().unwrap();
    let text = text(&out);
    assert!(text.starts_with("\nOpening leads by West against 6S by South (not vulnerable): 3 deals\n"), "{text}");
    assert!(text.contains("\nBest lead: "), "{text}");
    assert!(text.contains("\nIMPs per deal, row lead against column lead"), "{text}");
    assert!(text.contains("\nGenerated "), "{text}");
}

#[test]
fn a_leader_whose_cards_are_not_all_predealt_is_refused_where_the_action_stands() {
    for predeal in ["", "predeal west SKJ74, HQ3, D9862\n", "predeal north SKJ74, HQ3, D9862, CJ75\n"] {
        let script = format!("{predeal}produce 2\naction printoneline,\n  leads(west, notrump, 9)\n");
        let (mut s, out) = captured(&[("seed", "1")], &script);
        let e = s.run().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Script, "{predeal}");
        assert!(e.message.contains("leads(west, ...) needs West's thirteen cards fixed by predeal"), "{}", e.message);
        let line = 3 + predeal.lines().count() as u32;
        assert_eq!((e.line, e.col), (Some(line), Some(3)), "{predeal}");
        assert!(text(&out).is_empty());
    }
}

#[test]
fn a_contract_outside_one_to_seven_is_a_script_error() {
    for needed in ["6", "14", "0"] {
        let mut s = Session::new();
        let e = s.load_script(format!("{WEST}action leads(west, notrump, {needed})\n").as_bytes()).unwrap_err();
        assert!(e.message.contains("leads: declarer needs 7 to 13 tricks"), "{}", e.message);
        assert_eq!(e.line, Some(2));
    }
}

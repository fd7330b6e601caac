//! How sure the statistics are: their 95 % intervals cover the true value about 95 % of the
//! time, and `precision` stops a run when they are narrow enough, at the same deal for any
//! thread count.

use super::*;

/// The JSON summary line of a run of `script` with `options`.
fn summary_line(options: &[(&str, &str)], script: &str) -> String {
    let mut all = vec![("json_summary", "true")];
    all.extend_from_slice(options);
    let (mut s, out) = captured(&all, script);
    s.run().unwrap();
    let text = text(&out);
    text.lines().find(|l| l.starts_with("{\"schema\"")).expect(&text).to_string()
}

/// The number after `"key":` in `json` (its first occurrence after `from`).
fn number_after(json: &str, from: &str, key: &str) -> f64 {
    let rest = &json[json.find(from).expect(json)..];
    let rest = &rest[rest.find(&format!("\"{key}\":")).expect(rest) + key.len() + 3..];
    rest.split([',', '}']).next().unwrap().parse().unwrap()
}

/// North holds 15 to 17 points and a balanced hand.
const OPENS_1NT: &str = "hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)";

#[test]
fn the_intervals_cover_an_exactly_known_share_about_95_percent_of_the_time() {
    // The true share, exactly: smart dealing counts North's hands that meet the condition.
    let exact = summary_line(&[("seed", "1")], &format!("generate 10\ncondition {OPENS_1NT}\n"));
    let share = number_after(&exact, "\"smart\"", "accepted") / number_after(&exact, "\"smart\"", "possible");
    assert!((0.04..0.06).contains(&share), "{share}");
    let script = format!("generate 800\naction frequency ({OPENS_1NT} ? 1 : 0, 0, 1), average ({OPENS_1NT} ? 1 : 0)\n");
    let runs = 4000;
    let (mut wilson_covers, mut mean_covers) = (0, 0);
    for seed in 1..=runs {
        let line = summary_line(&[("seed", &seed.to_string())], &script);
        let cell = "{\"value\":1,";
        if number_after(&line, cell, "low") <= share && share <= number_after(&line, cell, "high") {
            wilson_covers += 1;
        }
        let average = "\"type\":\"average\"";
        if number_after(&line, average, "low") <= share && share <= number_after(&line, average, "high") {
            mean_covers += 1;
        }
    }
    // 95 % of 4,000 runs is 3,800, give or take 14 (one standard deviation); the band is 1.5
    // points either side (the count of a binomial share is not exactly normal: Wilson's interval
    // covers 94–96 % at these sizes). Intervals 10 % too narrow cover about 93 %, 10 % too wide
    // about 96.6 %.
    assert!(
        (3740..=3860).contains(&wilson_covers),
        "Wilson intervals covered the share in {wilson_covers} of {runs} runs"
    );
    assert!((3700..=3860).contains(&mean_covers), "normal intervals covered the share in {mean_covers} of {runs} runs");
}

#[test]
fn precision_stops_at_the_same_deal_for_one_and_two_threads_and_before_a_fixed_produce() {
    let script = format!("generate 1000000\naction frequency ({OPENS_1NT} ? 1 : 0, 0, 1)\n");
    let one = summary_line(&[("seed", "7"), ("threads", "1"), ("precision", "0.02")], &script);
    let two = summary_line(&[("seed", "7"), ("threads", "2"), ("precision", "0.02")], &script);
    let without_time = |line: &str| {
        let at = line.find(",\"seconds\":").unwrap();
        let end = at + line[at + 1..].find(',').unwrap() + 1;
        format!("{}{}", &line[..at], &line[end..])
    };
    assert_eq!(without_time(&one), without_time(&two));
    let produced = number_after(&one, "\"produced\"", "produced");
    assert!(one.contains("\"precision\":{\"wanted\":0.02,\"widest\":") && one.contains("\"reached\":true}"), "{one}");
    assert!(number_after(&one, "\"precision\"", "widest") <= 0.02);
    // A fixed count sure of 0.02 whatever the share needs (1.96 / 0.02)² = 9,604 deals; a share
    // near 5 % is known as well after about a fifth of them.
    assert!((1000.0..3000.0).contains(&produced), "{produced}");
    // One deal fewer is not enough: the rule stopped at the first deal it could.
    let fewer = summary_line(&[("seed", "7"), ("generate", &(produced as i64 - 1).to_string())], &script);
    let cell = "{\"value\":1,";
    assert!(number_after(&fewer, cell, "high") - number_after(&fewer, cell, "low") > 0.02, "{fewer}");
}

#[test]
fn precision_needs_a_statistic() {
    let (mut s, _) = captured(&[("precision", "0.1")], "generate 100\naction printoneline\n");
    let e = s.run().unwrap_err();
    assert_eq!(e.kind, ErrorKind::Option);
    assert!(e.message.contains("the script has no statistic to be sure of"), "{}", e.message);
    // Parts keep their deals for the merge to apply the rule to (no statistics alone).
    let mut s = Session::new();
    s.load_script(b"generate 100\naction average hcp(north)\n").unwrap();
    assert!(s.statistics_suffice().unwrap());
    s.set_option("precision", "0.1").unwrap();
    assert!(!s.statistics_suffice().unwrap());
}

#[test]
fn the_text_shows_the_intervals_when_asked() {
    let script = "generate 200\naction average \"points\" hcp(north), frequency (hcp(north) >= 10 ? 1 : 0, 0, 1)\n";
    let (mut s, out) = captured(&[("seed", "3"), ("dialect", "v2")], script);
    s.run().unwrap();
    let plain = text(&out);
    assert!(!plain.contains("95 %"), "{plain}");
    let (mut s, out) = captured(&[("seed", "3"), ("dialect", "v2"), ("intervals", "true")], script);
    s.run().unwrap();
    let with = text(&out);
    assert!(with.contains("Sample Size=200 \n95 % interval "), "{with}");
    assert!(with.contains("95 % intervals of the shares (Wilson), in % of 200 deals:\n0\t"), "{with}");
    // The peers' lines are all still there, unchanged.
    for line in plain.lines().filter(|l| !l.starts_with("Time needed")) {
        assert!(with.contains(line), "{line}");
    }
}

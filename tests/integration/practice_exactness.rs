//! Exactness of levelled dealing (`--level`): each hand type is dealt from `condition and
//! HandType_NAME`, so within its quota a type's deals must follow the exact conditional
//! distribution. Three million levelled deals of a three-band ladder are compared with the
//! exact probabilities counted over South's hands (every bin within 4.5 standard errors: a 1 %
//! bias of a 10 % bin is about 7 of them), the quotas must be exact, and one band's deals are
//! compared with plain rejection dealing of the scenario (smart dealing off) restricted to that
//! band (a two-sample chi-square). A partnership ladder (North and South's points together) is
//! counted exactly against a count made by the honours held, and dealt by bands that follow it.

use std::sync::{Arc, Mutex};

use dealer::{Session, Sink, Stream};

const TYPES: &str = "HandType_12_14 = hcp(south) >= 12 and hcp(south) <= 14\n\
                     HandType_15_17 = hcp(south) >= 15 and hcp(south) <= 17\n\
                     HandType_18_24 = hcp(south) >= 18 and hcp(south) <= 24\n";
const CONDITION: &str = "shape(south, any 4333 + any 4432 + any 5332) and hcp(south) >= 12 and hcp(south) <= 24";
const ACTIONS: &str = "action frequency \"hcp\" (hcp(south), 12, 24), frequency \"spades\" (spades(south), 2, 5)\n";

/// Runs `script` under `options` through the practice runs and returns what it printed.
fn run(script: &str, options: &[(&str, &str)]) -> String {
    let mut session = Session::new();
    for (key, value) in options {
        session.set_option(key, value).expect("option");
    }
    session.load_script(script.as_bytes()).expect("script");
    let out = Arc::new(Mutex::new(Vec::new()));
    let sink = out.clone();
    session.set_sink(
        Stream::Output,
        Some(Sink::Callback(Box::new(move |bytes: &[u8]| {
            sink.lock().unwrap().extend_from_slice(bytes);
            Ok(())
        }))),
    );
    dealer::practice::run(&mut session).expect("run");
    let text = String::from_utf8(out.lock().unwrap().clone()).unwrap();
    text
}

/// The counts of a `frequency` table named `name` in `output`, by value.
fn frequency(output: &str, name: &str) -> Vec<(i32, f64)> {
    let start = output.find(&format!("Description: {name}:")).expect("table");
    output[start..]
        .lines()
        .skip(2)
        .map_while(|line| {
            let mut fields = line.split('\t').map(str::trim);
            let value = fields.next()?.parse::<i32>().ok()?;
            let count = fields.next()?.parse::<f64>().ok()?;
            Some((value, count))
        })
        .collect()
}

/// The exact number of South's hands satisfying `condition`.
fn hands(condition: &str) -> f64 {
    let mut session = Session::new();
    session.load_script(format!("condition {condition}\n").as_bytes()).unwrap();
    session.exact_count().unwrap().expect("countable").accepted as f64
}

#[test]
fn levelled_types_follow_their_exact_conditional_distributions() {
    let deals = 3_000_000;
    let script = format!("{TYPES}condition {CONDITION}\n{ACTIONS}");
    let output = run(&script, &[("level", "true"), ("seed", "20261128"), ("produce", &deals.to_string())]);
    let bands = [(12, 14), (15, 17), (18, 24)];
    // Even quotas: exactly one million of each band.
    let quota = deals as f64 / 3.0;
    let hcp = frequency(&output, "hcp");
    for (lo, hi) in bands {
        let total: f64 = hcp.iter().filter(|(v, _)| (lo..=hi).contains(v)).map(|(_, c)| c).sum();
        assert_eq!(total, quota, "band {lo}-{hi}");
    }
    let check = |what: String, observed: f64, p: f64| {
        let sigma = (quota * p * (1.0 - p)).sqrt();
        assert!(
            (observed - quota * p).abs() <= 4.5 * sigma,
            "{what}: observed {observed}, expected {:.1} (4.5 sigma = {:.1})",
            quota * p,
            4.5 * sigma
        );
    };
    let spades = frequency(&output, "spades");
    let mut by_spades = vec![0.0; spades.len()];
    for (lo, hi) in bands {
        let band = format!("{CONDITION} and hcp(south) >= {lo} and hcp(south) <= {hi}");
        let all = hands(&band);
        for &(value, count) in hcp.iter().filter(|(v, _)| (lo..=hi).contains(v)) {
            check(format!("hcp {value}"), count, hands(&format!("{band} and hcp(south) == {value}")) / all);
        }
        for (k, (value, _)) in spades.iter().enumerate() {
            by_spades[k] += quota * hands(&format!("{band} and spades(south) == {value}")) / all;
        }
    }
    for ((value, count), expected) in spades.iter().zip(&by_spades) {
        // The mix of three bands, a third each: the variance is below the binomial one.
        let p = expected / deals as f64;
        let sigma = (deals as f64 * p * (1.0 - p)).sqrt();
        assert!((count - expected).abs() <= 4.5 * sigma, "spades {value}: observed {count}, expected {expected:.1}");
    }
}

#[test]
fn a_levelled_type_deals_what_plain_rejection_keeps() {
    // 15-17 dealt directly, and plain rejection dealing of the scenario narrowed to 15-17.
    let levelled = run(
        &format!("{TYPES}condition {CONDITION}\n{ACTIONS}"),
        &[("level", "true"), ("level_target", "0,1,0"), ("seed", "7"), ("produce", "400000")],
    );
    let plain = run(
        &format!("condition {CONDITION} and hcp(south) >= 15 and hcp(south) <= 17\n{ACTIONS}"),
        &[("smart", "off"), ("seed", "8"), ("produce", "400000")],
    );
    for table in ["hcp", "spades"] {
        let a: Vec<(i32, f64)> = frequency(&levelled, table).into_iter().filter(|(_, c)| *c > 0.0).collect();
        let b: Vec<(i32, f64)> = frequency(&plain, table).into_iter().filter(|(_, c)| *c > 0.0).collect();
        assert_eq!(a.iter().map(|x| x.0).collect::<Vec<_>>(), b.iter().map(|x| x.0).collect::<Vec<_>>(), "{table}");
        let (na, nb): (f64, f64) = (a.iter().map(|x| x.1).sum(), b.iter().map(|x| x.1).sum());
        // Two-sample chi-square with k - 1 degrees of freedom, against its 0.9999 quantile
        // (about 27 for 3 degrees of freedom: held by a wide margin unless the two differ).
        let chi: f64 = a
            .iter()
            .zip(&b)
            .map(|(x, y)| {
                let pooled = (x.1 + y.1) / (na + nb);
                (x.1 - na * pooled).powi(2) / (na * pooled) + (y.1 - nb * pooled).powi(2) / (nb * pooled)
            })
            .sum();
        let df = (a.len() - 1) as f64;
        assert!(chi < df + 6.0 * (2.0 * df).sqrt() + 6.0, "{table}: chi-square {chi:.1} with {df} degrees of freedom");
    }
}

/// The sets of 26 cards (a pair's cards together) with between `lo` and `hi` points, counted
/// independently of the library: by the aces, kings, queens and jacks held (the other cards
/// any 26 minus those of the 36 spot cards).
fn pair_sets(lo: u64, hi: u64) -> u64 {
    let c = |n: u64, k: u64| -> u64 { (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1)) };
    let mut sets = 0;
    for held in 0..625u64 {
        let [aces, kings, queens, jacks] = [held % 5, held / 5 % 5, held / 25 % 5, held / 125];
        let points = 4 * aces + 3 * kings + 2 * queens + jacks;
        if (lo..=hi).contains(&points) {
            let honours = aces + kings + queens + jacks;
            sets += c(4, aces) * c(4, kings) * c(4, queens) * c(4, jacks) * c(36, 26 - honours);
        }
    }
    sets
}

const PAIR_TYPES: &str = "HandType_game = hcp(north) + hcp(south) <= 30\n\
                          HandType_slam = hcp(north) + hcp(south) >= 31 and hcp(north) + hcp(south) <= 35\n\
                          HandType_grand = hcp(north) + hcp(south) >= 36\n";
const PAIR_CONDITION: &str = "hcp(north) + hcp(south) >= 26";

#[test]
fn a_partnership_ladder_is_counted_and_dealt_exactly() {
    // The condition and every type read North and South's cards together: the natural shares
    // are counted over the pair's sets of cards, and each band is dealt from its own count.
    let bands = [(26u64, 30u64), (31, 35), (36, 40)];
    for (lo, hi) in bands {
        let mut session = Session::new();
        let script = format!(
            "condition {PAIR_CONDITION} and hcp(south) + hcp(north) <= {hi} and hcp(north) + hcp(south) >= {lo}\n"
        );
        session.load_script(script.as_bytes()).unwrap();
        let count = session.exact_count().unwrap().expect("countable");
        assert_eq!((count.seat, count.partner), (dealer::cards::Seat::North, Some(dealer::cards::Seat::South)));
        assert_eq!((count.accepted, count.possible), (pair_sets(lo, hi), 495_918_532_948_104), "{lo}-{hi}");
    }
    let deals = 600_000;
    let script = format!(
        "{PAIR_TYPES}condition {PAIR_CONDITION}\naction frequency \"pair\" (hcp(north) + hcp(south), 26, 40)\n"
    );
    let output = run(&script, &[("level", "true"), ("seed", "20261129"), ("produce", &deals.to_string())]);
    let quota = deals as f64 / 3.0;
    let pair = frequency(&output, "pair");
    for (lo, hi) in bands {
        let within = |v: &i32| (lo..=hi).contains(&(*v as u64));
        let total: f64 = pair.iter().filter(|(v, _)| within(v)).map(|(_, c)| c).sum();
        assert_eq!(total, quota, "band {lo}-{hi}");
        let all = pair_sets(lo, hi) as f64;
        for &(value, observed) in pair.iter().filter(|(v, _)| within(v)) {
            let p = pair_sets(value as u64, value as u64) as f64 / all;
            let sigma = (quota * p * (1.0 - p)).sqrt();
            assert!(
                (observed - quota * p).abs() <= 4.5 * sigma + 1e-9,
                "{value} points: observed {observed}, expected {:.1}",
                quota * p
            );
        }
    }
}

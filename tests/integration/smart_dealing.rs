//! Smart dealing's exactness on whole scripts: for twenty-four conditions (one seat, two seats,
//! card predeal, bias predeal on the counted seat and on others, spot cards on either, FD
//! shapes, `rnd()`, variables, every hand measure, projections through `||`, `!`, `?:` and
//! other seats' clauses, values read through their comparisons, a pair's cards read together),
//! the deals a session produces with `smart=auto` are distributed as those it produces with
//! `smart=off` (plain dealing, kept by the condition), by two-sample chi-square tests on hand
//! statistics of every seat and single cards; each counted seat factor's table agrees with the
//! condition on random hands and on its own draws; every deal plain dealing keeps satisfies
//! every seat factor; the same seed gives the same deals on one thread or two; and deals
//! whose rare part is a pair's cards together match exact probabilities.

use dealer::cards::{Card, Deal, Seat, Suit};
use dealer::dealing::{Dealer, DealingSetup, SeatTable, TableLimits};
use dealer::job::smart::SmartChoice;
use dealer::program::factor_bounds::FactorBounds;
use dealer::program::hand_stats::{CountTables, HCP_TABLE};
use dealer::program::seat_factors::{FactorJudges, SeatFactor};
use dealer::program::Program;
use dealer::{Dialect, Session};

/// The deals a session produces from `script` with the given `smart` setting.
fn produce(script: &str, smart: &str, seed: i64, count: usize) -> Vec<Deal> {
    let mut session = Session::new();
    session.set_option("smart", smart).unwrap();
    session.set_option("seed", &seed.to_string()).unwrap();
    session.set_option("generate", "2000000000").unwrap();
    session.load_script(script.as_bytes()).unwrap();
    (0..count).map(|_| session.next_deal().unwrap().expect("a deal within the generate limit")).collect()
}

fn hcp(deal: &Deal, seat: Seat) -> usize {
    CountTables::new().count(HCP_TABLE, deal.hand(seat), None) as usize
}

/// The cells a deal falls in: for every seat its points and its spade and heart lengths, and
/// who holds the spade ace and the heart king (each statistic a block of cells of its own).
fn cells(deal: &Deal) -> Vec<usize> {
    let mut out = Vec::new();
    for seat in Seat::ALL {
        let base = seat.index() * 100;
        out.push(base + hcp(deal, seat).min(37));
        out.push(400 + seat.index() * 30 + deal.hand(seat).len(Suit::Spades) as usize);
        out.push(400 + seat.index() * 30 + 14 + deal.hand(seat).len(Suit::Hearts) as usize);
    }
    for (k, card) in [Card::new(Suit::Spades, 12), Card::new(Suit::Hearts, 11)].into_iter().enumerate() {
        let holder = Seat::ALL.iter().position(|&s| deal.hand(s).contains(card)).unwrap();
        out.push(600 + k * 4 + holder);
    }
    out
}

/// Upper 1e-4 point of a chi-square with `dof` degrees of freedom (Wilson–Hilferty).
fn chi_square_limit(dof: f64) -> f64 {
    let z = 3.72;
    let v = 2.0 / (9.0 * dof);
    dof * (1.0 - v + z * v.sqrt()).powi(3)
}

/// Two-sample chi-square over each block of cells (seat points, lengths, card holders).
fn assert_same_distribution(name: &str, a: &[Deal], b: &[Deal]) {
    let (mut x, mut y) = (vec![0u64; 700], vec![0u64; 700]);
    for d in a {
        for c in cells(d) {
            x[c] += 1;
        }
    }
    for d in b {
        for c in cells(d) {
            y[c] += 1;
        }
    }
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let blocks: Vec<std::ops::Range<usize>> = (0..4)
        .map(|s| s * 100..s * 100 + 100)
        .chain((0..8).map(|k| 400 + k * 14 + (k / 2) * 2..400 + k * 14 + (k / 2) * 2 + 14))
        .chain([600..604, 604..608])
        .collect();
    for block in blocks {
        let (mut chi, mut cells) = (0.0, 0.0);
        for c in block.clone() {
            if x[c] + y[c] >= 10 {
                let d = (nb / na).sqrt() * x[c] as f64 - (na / nb).sqrt() * y[c] as f64;
                chi += d * d / (x[c] + y[c]) as f64;
                cells += 1.0;
            }
        }
        if cells >= 2.0 {
            assert!(
                chi < chi_square_limit(cells - 1.0),
                "{name}: cells {block:?}: chi-square {chi:.1} over {cells} cells"
            );
        }
    }
}

/// Limits wide enough to count without pruning what the tests count with it.
fn wide_limits() -> TableLimits {
    TableLimits { max_steps: 3_000_000, ..TableLimits::default() }
}

/// Each seat factor of `program`'s condition (with its position), and its table counted as
/// smart dealing counts it (partial hands ruled out by the factor's bounds are not counted on)
/// and, when counting without pruning stays within [`wide_limits`], checked to count the same
/// hands as a table counted without.
fn counted_tables(name: &str, program: &Program) -> Vec<(usize, SeatFactor, SeatTable)> {
    let Some(condition) = program.condition else { return Vec::new() };
    let predeal = program.settings.predeal.clone();
    let (program, factors) = program.seat_factors(condition);
    let mut judges = FactorJudges::new(&program, &factors);
    let mut tables = Vec::new();
    for (k, factor) in factors.iter().enumerate() {
        let (free, own, slots) = factor.cards(&predeal);
        let reading = factor.reading(&program);
        let mut bounds = FactorBounds::new(&program, factor);
        let pruned = SeatTable::build(
            free,
            own,
            slots,
            &reading,
            &mut |h| judges.judge(k, h).unwrap(),
            Some(&mut bounds),
            wide_limits(),
        );
        let plain =
            SeatTable::build(free, own, slots, &reading, &mut |h| judges.judge(k, h).unwrap(), None, wide_limits());
        let who = (factor.seat, factor.partner);
        if let (Ok(pruned), Ok(plain)) = (&pruned, &plain) {
            assert_eq!(pruned.accepted(), plain.accepted(), "{name}: {who:?}: pruning changed the count");
            assert_eq!(pruned.possible(), plain.possible(), "{name}: {who:?}");
        }
        assert!(pruned.is_ok() || plain.is_err(), "{name}: {who:?}: counted without pruning only");
        if let Ok(table) = pruned {
            tables.push((k, factor.clone(), table));
        }
    }
    tables
}

/// Every seat factor of the script's condition that can be counted: its table agrees with the
/// condition on random hands of the seat and on hands drawn from the table.
fn check_tables(name: &str, script: &str) -> usize {
    let program = Program::from_source(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
    let predeal = program.settings.predeal.clone();
    let tables = counted_tables(name, &program);
    let counted = tables.len();
    let Some(condition) = program.condition else { return 0 };
    let (program, factors) = program.seat_factors(condition);
    let mut judges = FactorJudges::new(&program, &factors);
    for (k, factor, table) in tables {
        let (_, own, _) = factor.cards(&predeal);
        let mut dealer =
            Dealer::new(&DealingSetup { seed: 99, predeal: predeal.clone(), ..DealingSetup::default() }).unwrap();
        for _ in 0..100_000 {
            let deal = dealer.deal().unwrap();
            let hand = factor.hand_in(&deal);
            assert_eq!(
                table.satisfies(hand.0 & !own),
                judges.judge(k, hand).unwrap(),
                "{name}: {:?} {}",
                (factor.seat, factor.partner),
                deal.pbn()
            );
        }
        let mut w = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            w = w.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            w
        };
        for _ in 0..20_000 {
            let word = next();
            let cards = table.draw(word, &mut next);
            assert!(
                judges.judge(k, dealer::cards::Hand(cards | own)).unwrap(),
                "{name}: a drawn hand fails its factor"
            );
        }
    }
    counted
}

/// The scripts: (name, script, deals compared).
const SCRIPTS: &[(&str, &str, usize)] = &[
    ("one seat, balanced 20-21", "condition shape(east, any 4333 + any 4432 + any 5332) && hcp(east) >= 20 && hcp(east) <= 21\n", 60_000),
    ("8-card suit, 5-9", "condition (spades(south) >= 8 || hearts(south) >= 8 || diamonds(south) >= 8 || clubs(south) >= 8) && hcp(south) >= 5 && hcp(south) <= 9\n", 40_000),
    ("4-4-4-1 with 17+", "condition shape(north, any 4441) && hcp(north) >= 17\n", 30_000),
    ("suit points and controls", "condition hcp(west, spades) >= 5 && spades(west) >= 5 && control(west) >= 4\n", 60_000),
    ("two seats", "condition shape(north, any 4333 + any 4432 + any 5332) && hcp(north) >= 15 && hcp(north) <= 17 && hcp(south) >= 10 && hearts(south) >= 5\n", 40_000),
    ("card predeal", "predeal north SAK, HQ\ncondition hcp(north) >= 19 && shape(north, any 5332 + any 4432)\n", 60_000),
    ("one card predealt", "predeal east H6\ncondition hcp(east) >= 6 && hcp(east) <= 10\n", 60_000),
    ("bias predeal on other seats", "predeal spades(north)==5 hearts(west)==1\ncondition shape(east, any 4333 + any 4432 + any 5332) && hcp(east) >= 15 && hcp(east) <= 17\n", 40_000),
    ("bias predeal on the counted seat", "predeal hearts(south)==6\ncondition hcp(south) >= 5 && hcp(south) <= 10 && spades(south) <= 2 && hcp(north) >= 12\n", 40_000),
    ("bias and card predeal", "predeal north SAK\npredeal clubs(east)==5\ncondition hcp(east) >= 10 && hcp(east) <= 12 && hearts(east) >= 3\n", 40_000),
    ("spot cards on another seat", "predeal north SQTxx\ncondition hcp(east) >= 12 && hcp(east) <= 14 && hearts(east) >= 4\n", 40_000),
    ("spot cards on the counted seat", "predeal south HK9xx, DAx\ncondition hcp(south) >= 10 && hcp(south) <= 12 && spades(south) >= 3 && hcp(north) >= 8\n", 40_000),
    ("FD shape", "condition shape{west, 5+s4+hxx} && hcp(west) >= 11 && hcp(west) <= 15\n", 60_000),
    ("rnd in the condition", "condition hcp(east) >= 14 && rnd(3) == 0 && shape(east, any 5xxx)\n", 40_000),
    ("losers, ltc and cccc", "condition loser(north) <= 6 && ltc(north) <= 700 && cccc(north) >= 1300\n", 40_000),
    ("hascard and quality", "condition hascard(east, AS) && quality(east, spades) >= 600 && hcp(east) <= 12\n", 60_000),
    ("variables, || and division", "long = spades(north) >= 6 || hearts(north) >= 6\npts = (hcp(north) + 3 * control(north)) / 2\ncondition long && pts >= 9 && pts <= 12 && hcp(south) < 15\n", 40_000),
    ("projected through ||, ! and another seat", "condition (hcp(south) >= 20 && hcp(north) >= 3) || (shape(south, any 4441) && !(hearts(north) >= 4))\n", 40_000),
    ("compared suit values, ?: and a levelling by West's cards", "keep = hascard(west, 2C) || !hascard(east, 3D)\ngood = clubs(south) > 5 && hcp(south, clubs) == 9\ntp = hcp(south) + (clubs(south) > 4 ? clubs(south) - 4 : 0)\ncondition good && tp > 13 || tp > 21 && keep\n", 40_000),
    ("lengths compared suit by suit", "condition (spades(east) >= 5 && hearts(east) >= 5 || diamonds(east) == 0) && hcp(east, spades) >= 4 && hcp(east) >= 7\n", 40_000),
    ("a pair's points together", "condition hcp(north) + hcp(south) >= 31 && hcp(north) >= 10 && hcp(south) >= 10\n", 30_000),
    ("a pair's fit, points and controls", "fit = spades(west) + spades(east) >= 9\ncondition fit && 2 * (hcp(east) + control(east)) + 2 * (hcp(west) + control(west)) >= 64 && hcp(west) <= 11\n", 30_000),
    ("a pair with cards predealt", "predeal south SA, HK\ncondition hcp(north) + hcp(south) + hascard(north, AD) + hascard(south, AD) >= 30 && hcp(north) <= 20\n", 30_000),
    ("a pair that is not a partnership", "condition hearts(north) + hearts(east) >= 9 && hcp(north, hearts) + hcp(east, hearts) >= 9 && hcp(east) <= 12\n", 30_000),
];

#[test]
fn smart_and_plain_dealing_produce_the_same_distribution() {
    for (k, &(name, script, n)) in SCRIPTS.iter().enumerate() {
        let smart = produce(script, "auto", 1000 + k as i64, n);
        let plain = produce(script, "off", 2000 + k as i64, n);
        assert_same_distribution(name, &smart, &plain);
    }
}

#[test]
fn counted_factors_agree_with_the_condition() {
    let mut counted = 0;
    for &(name, script, _) in SCRIPTS {
        counted += check_tables(name, script);
    }
    // Every script above but the one with one card predealt has a factor the tables count
    // (two seats, two; each pair script a pair factor too).
    assert!(counted >= 28, "{counted}");
}

#[test]
fn pruning_and_unread_values_count_the_same_hands_on_every_practice_script() {
    // The practice scripts (../shared/parity/pbs/scripts): every seat factor smart dealing would
    // count, counted with and without the partial hands its bounds rule out and the values it
    // does not read at some suit lengths; each table with them agrees with the factor on
    // random hands.
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = manifest.join("../shared/parity/pbs/scripts");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "dlr"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 60, "{} practice scripts", paths.len());
    let mut counted = 0;
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy();
        let source = std::fs::read(path).unwrap();
        let program = Program::from_source(&source, Dialect::V2, &Default::default()).unwrap();
        let setup = DealingSetup { predeal: program.settings.predeal.clone(), ..DealingSetup::default() };
        let choice = SmartChoice::new(&program, &setup);
        let tables = counted_tables(&name, &program);
        for count in &choice.counted {
            let (_, _, table) = tables
                .iter()
                .find(|(_, f, _)| (f.seat, f.partner) == (count.seat, count.partner))
                .expect("a counted seat");
            assert_eq!(table.accepted(), count.accepted, "{name}: {:?}", count.seat);
        }
        counted += choice.counted.len();
        let (projected, factors) = program.seat_factors(program.condition.unwrap());
        let mut judges = FactorJudges::new(&projected, &factors);
        let mut dealer = Dealer::new(&DealingSetup { seed: 7, ..setup.clone() }).unwrap();
        for (k, factor, table) in &tables {
            let (_, own, _) = factor.cards(&setup.predeal);
            for _ in 0..20_000 {
                let hand = factor.hand_in(&dealer.deal().unwrap());
                let judged = judges.judge(*k, hand).unwrap();
                assert_eq!(table.satisfies(hand.0 & !own), judged, "{name}: {:?} {}", factor.seat, hand.pbn());
            }
        }
    }
    // (59 of the 60 on 2026-11-28.)
    assert!(counted >= 55, "{counted} practice scripts counted");
}

#[test]
fn every_deal_the_condition_keeps_satisfies_every_seat_factor() {
    // A seat factor is implied by the condition: dealing only hands that satisfy it loses no
    // deal the condition would keep.
    for (k, &(name, script, _)) in SCRIPTS.iter().enumerate() {
        let program = Program::from_source(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
        let (projected, factors) = program.seat_factors(program.condition.unwrap());
        assert!(!factors.is_empty(), "{name}: no seat factor");
        let mut judges = FactorJudges::new(&projected, &factors);
        for deal in produce(script, "off", 3000 + k as i64, 3000) {
            for (f, factor) in factors.iter().enumerate() {
                assert!(
                    judges.judge(f, factor.hand_in(&deal)).unwrap(),
                    "{name}: {:?} fails {}",
                    (factor.seat, factor.partner),
                    deal.pbn()
                );
            }
        }
    }
}

#[test]
fn a_rare_seat_is_dealt_from_its_count() {
    // 1 hand in ~10^7: plain dealing would deal ~10^11 deals for these.
    let script = "condition spades(south) == 9 && hearts(south) == 4 && hcp(south) >= 10 && hcp(south) <= 11\n";
    let program = Program::from_source(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
    let choice = SmartChoice::new(&program, &DealingSetup::default());
    assert_eq!(choice.first_seat, Some(Seat::South));
    assert!(choice.table.is_some());
    let counted = choice.counted[0];
    assert!(counted.possible / counted.accepted > 1_000_000, "{counted:?}");
    let deals = produce(script, "auto", 5, 2000);
    for d in &deals {
        let south = d.hand(Seat::South);
        assert_eq!((south.len(Suit::Spades), south.len(Suit::Hearts)), (9, 4));
    }
}

#[test]
fn bias_predeal_deals_from_the_table_weighted_by_the_bias() {
    // Each bias script above is dealt from its seat's table, and the exact share of the deals
    // meeting the bias that satisfy the seat's factor is the share plain biased dealing keeps
    // (within 4.5 standard errors). Spot cards are dealt from a weighted table too.
    for &(name, script, _) in SCRIPTS.iter().filter(|(name, _, _)| name.starts_with("spot")) {
        let program = Program::from_source(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
        let spots = program.settings.spots.iter().map(|(spot, _)| *spot).collect();
        let setup = DealingSetup { predeal: program.settings.predeal.clone(), spots, ..DealingSetup::default() };
        let choice = SmartChoice::new(&program, &setup);
        assert!(choice.biased.is_some() && choice.biased.as_ref().unwrap().share().is_none(), "{name}");
    }
    for &(name, script, _) in SCRIPTS.iter().filter(|(name, _, _)| name.starts_with("bias")) {
        let program = Program::from_source(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
        let setup = DealingSetup {
            predeal: program.settings.predeal.clone(),
            bias: program.settings.bias,
            ..DealingSetup::default()
        };
        let choice = SmartChoice::new(&program, &setup);
        let (Some(biased), Some(seat)) = (&choice.biased, choice.first_seat) else { panic!("{name}: no table") };
        assert!(choice.table.is_none(), "{name}");
        let count = choice.counted.iter().find(|c| c.dealt_from_table).unwrap();
        assert_eq!((count.seat, count.share_under_bias), (seat, biased.share()), "{name}");
        let (projected, factors) = program.seat_factors(program.condition.unwrap());
        let k = factors.iter().position(|f| f.seat == seat).unwrap();
        let mut judges = FactorJudges::new(&projected, &factors);
        let mut plain = Dealer::new(&DealingSetup { seed: 9, ..setup.clone() }).unwrap();
        let n = 200_000;
        let kept = (0..n).filter(|_| judges.judge(k, plain.deal().unwrap().hand(seat)).unwrap()).count();
        let (share, exact) = (kept as f64 / n as f64, biased.share().unwrap());
        let error = (exact * (1.0 - exact) / n as f64).sqrt();
        assert!((share - exact).abs() < 4.5 * error, "{name}: {share} kept, {exact} exactly");
        // Without the bias the factor's share is another.
        let unbiased = count.accepted as f64 / count.possible as f64;
        assert!((unbiased - exact).abs() > 10.0 * error, "{name}: {unbiased} {exact}");
    }
}

#[test]
fn bias_and_spot_cards_no_deal_can_meet_end_at_the_generate_limit() {
    // Found by random setups: a counted seat that may take more spades than the other seats'
    // `x`s leave (once an out-of-bounds panic); a factor whose hands always hold a small card
    // another seat's `x` must take (every attempt rejected: the generate limit ends the run).
    for script in [
        "predeal east DQ, S9xxx\npredeal south Sxx, HAKTx\npredeal clubs(east)==2\npredeal hearts(west)==5\n\
         condition hcp(north) == 7\nproduce 5\naction printoneline\n",
        "predeal west Sx\ncondition hascard(east, 2S) && hascard(east, 3S) && hascard(east, 4S) && hascard(east, 5S) \
         && hascard(east, 6S) && hascard(east, 7S) && hascard(east, 8S) && hascard(east, 9S)\nproduce 5\naction printoneline\n",
    ] {
        let mut session = Session::new();
        session.set_option("seed", "4").unwrap();
        session.set_option("generate", "100000").unwrap();
        session.set_option("statistics", "false").unwrap();
        session.set_sink(dealer::Stream::Output, Some(dealer::Sink::Callback(Box::new(|_: &[u8]| Ok(())))));
        session.load_script(script.as_bytes()).unwrap();
        session.run().unwrap_or_else(|e| panic!("{script}: {e}"));
    }
}

#[test]
fn the_same_seed_gives_the_same_deals_on_any_thread_count() {
    for script in [
        "produce 300\ncondition hcp(north) >= 12 && shape(east, any 6xxx) && hcp(east) <= 10\naction printoneline\n",
        "produce 300\npredeal hearts(west)==5\ncondition hcp(north) >= 12 && hcp(east) <= 10\naction printoneline\n",
        "produce 300\ncondition hcp(east) + hcp(west) >= 30 && hcp(north) <= 4\naction printoneline\n",
    ] {
        same_deals_on_any_thread_count(script);
    }
}

/// Checks that `script` prints the same 300 deals on one thread and on two.
fn same_deals_on_any_thread_count(script: &str) {
    let run = |threads: &str| {
        let mut session = Session::new();
        session.set_option("seed", "17").unwrap();
        session.set_option("threads", threads).unwrap();
        session.set_option("statistics", "false").unwrap();
        let out = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = out.clone();
        session.set_sink(
            dealer::Stream::Output,
            Some(dealer::Sink::Callback(Box::new(move |bytes: &[u8]| {
                sink.lock().unwrap().extend_from_slice(bytes);
                Ok(())
            }))),
        );
        session.load_script(script.as_bytes()).unwrap();
        session.run().unwrap();
        let out = out.lock().unwrap().clone();
        out
    };
    let one = run("1");
    assert_eq!(one.iter().filter(|&&b| b == b'\n').count(), 300);
    assert_eq!(one, run("2"));
}

/// `C(n, k)` as a float.
fn choose(n: u64, k: u64) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |a, i| a * (n - i) as f64 / (i + 1) as f64)
}

#[test]
fn a_million_smart_deals_match_exact_probabilities() {
    // East balanced with 20–21 (1 hand in ~300). Exact probabilities by counting, independently
    // of the library: per shape, the hands by points are the convolution of each suit's
    // holdings by length and points. North's spades follow from East's: hypergeometric.
    let script = "condition shape(east, any 4333 + any 4432 + any 5332) && hcp(east) >= 20 && hcp(east) <= 21\n";
    let mut by_length = [[0u64; 11]; 14];
    for bits in 0u64..1 << 13 {
        let points: u32 = (9..13).map(|r| (bits >> r & 1) as u32 * (r - 8)).sum();
        by_length[bits.count_ones() as usize][points as usize] += 1;
    }
    // weight[p - 20][spades]: East's hands with p points and that many spades.
    let mut weight = [[0f64; 14]; 2];
    for s in 0..=13usize {
        for h in 0..=13 - s {
            for d in 0..=13 - s - h {
                let c = 13 - s - h - d;
                let mut sorted = [s, h, d, c];
                sorted.sort_unstable();
                if !matches!(sorted, [3, 3, 3, 4] | [2, 3, 4, 4] | [2, 3, 3, 5]) {
                    continue;
                }
                let mut dist = vec![1f64];
                for len in [s, h, d, c] {
                    let mut next = vec![0f64; dist.len() + 10];
                    for (p, &n) in dist.iter().enumerate() {
                        for (q, &m) in by_length[len].iter().enumerate() {
                            next[p + q] += n * m as f64;
                        }
                    }
                    dist = next;
                }
                weight[0][s] += dist[20];
                weight[1][s] += dist[21];
            }
        }
    }
    let total: f64 = weight.iter().flatten().sum();
    let p_points = [weight[0].iter().sum::<f64>() / total, weight[1].iter().sum::<f64>() / total];
    let p_east_spades: Vec<f64> = (0..14).map(|l| (weight[0][l] + weight[1][l]) / total).collect();
    let p_north_spades: Vec<f64> = (0..14u64)
        .map(|k| {
            (0..14u64)
                .map(|l| p_east_spades[l as usize] * choose(13 - l, k) * choose(26 + l, 13 - k) / choose(39, 13))
                .sum()
        })
        .collect();
    const N: usize = 1_000_000;
    let deals = produce(script, "auto", 77, N);
    let mut points = [0usize; 2];
    let (mut east_spades, mut north_spades) = ([0usize; 14], [0usize; 14]);
    for d in &deals {
        points[hcp(d, Seat::East) - 20] += 1;
        east_spades[d.hand(Seat::East).len(Suit::Spades) as usize] += 1;
        north_spades[d.hand(Seat::North).len(Suit::Spades) as usize] += 1;
    }
    // Each cell within 4.5 standard errors: a 1 % bias in a cell of 10 % or more is at least
    // 6 standard errors away.
    let check = |what: &str, count: usize, p: f64| {
        let sigma = (p * (1.0 - p) / N as f64).sqrt();
        let observed = count as f64 / N as f64;
        assert!((observed - p).abs() <= 4.5 * sigma + 1e-12, "{what}: observed {observed:.5}, exact {p:.5}");
    };
    for k in 0..2 {
        check(&format!("East with {} points", 20 + k), points[k], p_points[k]);
    }
    for l in 0..14 {
        check(&format!("East with {l} spades"), east_spades[l], p_east_spades[l]);
        check(&format!("North with {l} spades"), north_spades[l], p_north_spades[l]);
    }
}

#[test]
fn a_rare_pair_is_dealt_from_its_count() {
    // North and South with 36 points or more between them: 1 pair of hands in 3,716 (counted
    // independently in the table's own tests); the pair is dealt from its table, so nearly
    // every deal dealt is kept.
    let script = "condition hcp(north) + hcp(south) >= 36 && hcp(north) >= 10 && hcp(south) >= 10\n";
    let program = Program::from_source(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
    let choice = SmartChoice::new(&program, &DealingSetup::default());
    assert_eq!((choice.first_seat, choice.partner), (Some(Seat::North), Some(Seat::South)));
    let counted = choice.counted.iter().find(|c| c.dealt_from_table).unwrap();
    assert_eq!((counted.accepted, counted.possible), (133_439_296_392, 495_918_532_948_104));
    let mut session = Session::new();
    session.set_option("seed", "3").unwrap();
    session.load_script(script.as_bytes()).unwrap();
    for _ in 0..1000 {
        let deal = session.next_deal().unwrap().unwrap();
        assert!(hcp(&deal, Seat::North) + hcp(&deal, Seat::South) >= 36);
    }
    let (generated, produced) = session.dealt_so_far();
    assert_eq!(produced, 1000);
    assert!(generated < 1100, "{generated} deals dealt for 1000");
}

#[test]
fn a_million_deals_of_a_rare_pair_match_exact_probabilities() {
    // North-South with 33 or more points between them, each with 10 or more (1 deal in ~190).
    // Exact probabilities by counting, independently of the library: the honours of each rank
    // North and South hold (the deal's other cards are spot cards, in any combination).
    let script = "condition hcp(north) + hcp(south) >= 33 && hcp(north) >= 10 && hcp(south) >= 10\n";
    // Weights of North's points, of the pair's points, and of who holds an ace (North, South).
    let (mut north, mut pair, mut ace) = ([0f64; 38], [0f64; 41], [0f64; 2]);
    for held in 0..15u32.pow(4) {
        // Per rank (ace, king, queen, jack): (North's, South's), with North's + South's <= 4.
        let pairs: Vec<(u64, u64)> = (0..=4u64).flat_map(|n| (0..=4 - n).map(move |s| (n, s))).collect();
        let ranks: Vec<(u64, u64)> = (0..4).map(|r| pairs[(held / 15u32.pow(r) % 15) as usize]).collect();
        let points =
            |side: fn(&(u64, u64)) -> u64| -> u64 { ranks.iter().zip([4, 3, 2, 1]).map(|(r, p)| side(r) * p).sum() };
        let (n_points, s_points) = (points(|r| r.0), points(|r| r.1));
        let (n_honours, s_honours): (u64, u64) = (ranks.iter().map(|r| r.0).sum(), ranks.iter().map(|r| r.1).sum());
        if n_points + s_points < 33 || n_points < 10 || s_points < 10 || n_honours > 13 || s_honours > 13 {
            continue;
        }
        let ways = ranks.iter().map(|&(n, s)| choose(4, n) * choose(4 - n, s)).product::<f64>()
            * choose(36, 13 - n_honours)
            * choose(23 + n_honours, 13 - s_honours);
        north[n_points as usize] += ways;
        pair[(n_points + s_points) as usize] += ways;
        // (Each of the four aces equally likely to be any of those held.)
        ace[0] += ways * ranks[0].0 as f64 / 4.0;
        ace[1] += ways * ranks[0].1 as f64 / 4.0;
    }
    let total: f64 = north.iter().sum();
    const N: usize = 1_000_000;
    let deals = produce(script, "auto", 78, N);
    let (mut seen_north, mut seen_pair, mut seen_ace) = ([0usize; 38], [0usize; 41], [0usize; 2]);
    let spade_ace = Card::new(Suit::Spades, 12);
    for d in &deals {
        seen_north[hcp(d, Seat::North)] += 1;
        seen_pair[hcp(d, Seat::North) + hcp(d, Seat::South)] += 1;
        for (k, seat) in [Seat::North, Seat::South].into_iter().enumerate() {
            seen_ace[k] += usize::from(d.hand(seat).contains(spade_ace));
        }
    }
    // Each cell within 4.5 standard errors: a 1 % bias in a cell of 10 % or more is at least
    // 6 standard errors away.
    let check = |what: &str, count: usize, p: f64| {
        let sigma = (p * (1.0 - p) / N as f64).sqrt();
        let observed = count as f64 / N as f64;
        assert!((observed - p).abs() <= 4.5 * sigma + 1e-12, "{what}: observed {observed:.5}, exact {p:.5}");
    };
    for points in 0..38 {
        check(&format!("North with {points} points"), seen_north[points], north[points] / total);
    }
    for points in 0..41 {
        check(&format!("North-South with {points} points"), seen_pair[points], pair[points] / total);
    }
    check("North with the spade ace", seen_ace[0], ace[0] / total);
    check("South with the spade ace", seen_ace[1], ace[1] / total);
}

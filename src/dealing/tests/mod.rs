//! Tests of the dealing module against the peers' real outputs.
//!
//! Classic deals were captured from `/usr/games/dealer` (Debian 20211121+ds-1) with
//! `action printoneline`; DealerV2 deals come from the DealerV2 4.3.3 regression references in
//! `shared/parity/dealerv2/cases` (converted to the one-line format). The constants are at the
//! end of this file.

use super::*;
use crate::cards::{Hand, Suit};

/// The one-line text of a deal (`n … e … s … w … `).
fn oneline(deal: &Deal) -> String {
    let mut v = Vec::new();
    deal.write_oneline(&mut v);
    String::from_utf8(v).unwrap()
}

/// Parses predeal text such as `south SAQ542, HKJ87, D32, CAK; west CQ, D5`.
fn predeal(text: &str) -> Vec<(Seat, Card)> {
    let mut out = Vec::new();
    for group in text.split(';') {
        let mut words = group.split_whitespace();
        let seat = match words.next().unwrap() {
            "north" => Seat::North,
            "east" => Seat::East,
            "south" => Seat::South,
            "west" => Seat::West,
            other => panic!("seat {other}"),
        };
        for holding in words {
            let holding = holding.trim_end_matches(',');
            let mut chars = holding.chars();
            let suit = match chars.next().unwrap() {
                'C' => Suit::Clubs,
                'D' => Suit::Diamonds,
                'H' => Suit::Hearts,
                'S' => Suit::Spades,
                other => panic!("suit {other}"),
            };
            for r in chars {
                let rank = crate::cards::RANK_LETTERS.iter().position(|&x| x as char == r).unwrap();
                out.push((seat, Card::new(suit, rank as u8)));
            }
        }
    }
    out
}

fn setup(generator: GeneratorKind, seed: i64) -> DealingSetup {
    DealingSetup { generator, seed, ..DealingSetup::default() }
}

/// Deals `n` candidates, treating every one as produced, as one-line texts.
fn produce_all(setup: &DealingSetup, n: usize) -> Vec<String> {
    let mut dealer = Dealer::new(setup).unwrap();
    let mut out = Vec::new();
    while out.len() < n {
        if let Some(d) = dealer.deal() {
            dealer.produced();
            out.push(oneline(&d));
        }
    }
    out
}

/// High-card points with the default table (A4 K3 Q2 J1).
fn hcp(h: Hand) -> i32 {
    crate::program::hand_stats::CountTables::new().count(crate::program::hand_stats::HCP_TABLE, h, None)
}

/// Suit lengths in DealerV2's shape order: spades, hearts, diamonds, clubs.
fn shape(h: Hand) -> [u32; 4] {
    [h.len(Suit::Spades), h.len(Suit::Hearts), h.len(Suit::Diamonds), h.len(Suit::Clubs)]
}

/// `any 4333 + any 4432 + any 5332`.
fn balanced(h: Hand) -> bool {
    let mut s = shape(h);
    s.sort_unstable_by(|a, b| b.cmp(a));
    matches!(s, [4, 3, 3, 3] | [4, 4, 3, 2] | [5, 3, 3, 2])
}

// ---------------------------------------------------------------- classic (glibc) generator

fn check_classic(seed: i64, swap: u8, pre: &str, expected: &[&str]) {
    let s = DealingSetup {
        generator: GeneratorKind::Glibc,
        seed,
        swap,
        predeal: if pre.is_empty() { Vec::new() } else { predeal(pre) },
        ..DealingSetup::default()
    };
    let got = produce_all(&s, expected.len());
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        assert_eq!(g, e, "deal {} (seed {seed}, swap {swap}, predeal {pre:?})", i + 1);
    }
}

#[test]
fn classic_first_deal_seed_1_matches_appendix_a5() {
    check_classic(1, 0, "", &["n 2.T98.K752.KJT84 e 5.J7642.986.9763 s AQ8.AQ5.QJT.AQ52 w KJT97643.K3.A43. "]);
}

#[test]
fn classic_plain_seeds_match_dealer() {
    check_classic(1, 0, "", CLASSIC_S1);
    check_classic(42, 0, "", CLASSIC_S42);
    check_classic(-7, 0, "", CLASSIC_SM7);
    check_classic(0, 0, "", CLASSIC_S0);
    check_classic(4_294_967_297, 0, "", CLASSIC_S4294967297);
    check_classic(3_000_000_000, 0, "", CLASSIC_S3000000000);
}

#[test]
fn classic_swapping_matches_dealer() {
    check_classic(5, 2, "", CLASSIC_X2_S5);
    check_classic(5, 3, "", CLASSIC_X3_S5);
}

#[test]
fn classic_predeal_matches_dealer() {
    check_classic(77, 0, "south SAQ542, HKJ87, D32, CAK; west CQ, D5", CLASSIC_PREDEAL_S77);
    check_classic(77, 3, "south SAQ542, HKJ87, D32, CAK; west CQ, D5", CLASSIC_PREDEAL_X3_S77);
    check_classic(9, 0, "west SAKQJT, HKQJ, DAKQ, CAK; north HA", CLASSIC_WEST13_S9);
    check_classic(
        3,
        0,
        "north SKQJT98765432; east HAKQJT98765432; south DAKQJT98765432; west CAKQJT98765432",
        CLASSIC_51_S3,
    );
}

#[test]
fn classic_ignores_bias_predeal() {
    let mut s = setup(GeneratorKind::Glibc, 1);
    s.bias[Seat::North.index()][Suit::Spades.index()] = 13;
    let dealer = Dealer::new(&s).unwrap();
    assert_eq!(dealer.warnings().len(), 1);
    let got = produce_all(&s, CLASSIC_BIAS_IGNORED_S1.len());
    assert_eq!(got, CLASSIC_BIAS_IGNORED_S1);
}

#[test]
fn classic_rnd_interleaves_with_dealing() {
    let mut dealer = Dealer::new(&setup(GeneratorKind::Glibc, 1)).unwrap();
    for expected in CLASSIC_RND_S1 {
        let d = dealer.deal().unwrap();
        dealer.produced();
        let line = format!("{}{}", oneline(&d), dealer.rnd(1000));
        assert_eq!(&line, expected);
    }
}

// ---------------------------------------------------------------- DealerV2 (drand48) generator

#[test]
fn v2_swapping_x3_matches_reference() {
    let mut s = setup(GeneratorKind::Drand48, 311);
    s.swap = 3;
    assert_eq!(produce_all(&s, 12), V2_SWAPPING_S311_X3);
}

#[test]
fn v2_startboard_unconditioned_matches_reference() {
    let s = setup(GeneratorKind::Drand48, 347);
    assert_eq!(produce_all(&s, V2_STARTBOARD_S347.len()), V2_STARTBOARD_S347);
}

#[test]
fn v2_bias_0s7d_matches_reference() {
    let mut s = setup(GeneratorKind::Drand48, 281);
    s.bias[Seat::West.index()][Suit::Diamonds.index()] = 7;
    s.bias[Seat::East.index()][Suit::Spades.index()] = 0;
    let mut dealer = Dealer::new(&s).unwrap();
    let mut got = Vec::new();
    let mut generated = 0;
    while got.len() < 5 {
        generated += 1;
        if let Some(d) = dealer.deal() {
            dealer.produced();
            got.push(format!("e {} w {} ", d.hand(Seat::East).pbn(), d.hand(Seat::West).pbn()));
        }
    }
    assert!(generated >= 5);
    assert_eq!(got, V2_BIAS_0S7D_S281_EW);
}

#[test]
fn v2_bias_4hands_matches_reference() {
    let mut s = setup(GeneratorKind::Drand48, 283);
    s.bias[Seat::West.index()][Suit::Hearts.index()] = 6;
    s.bias[Seat::East.index()][Suit::Clubs.index()] = 4;
    s.bias[Seat::East.index()][Suit::Spades.index()] = 2;
    s.bias[Seat::North.index()][Suit::Spades.index()] = 3;
    s.bias[Seat::South.index()][Suit::Spades.index()] = 5;
    assert_eq!(produce_all(&s, 5), V2_BIAS_4HANDS_S283);
}

/// Runs a DealerV2 condition over up to `generate` candidates, producing at most `produce`.
fn v2_run(s: &DealingSetup, generate: usize, produce: usize, cond: impl Fn(&Deal) -> bool) -> Vec<Deal> {
    let mut dealer = Dealer::new(s).unwrap();
    let mut out = Vec::new();
    for _ in 0..generate {
        if out.len() >= produce {
            break;
        }
        if let Some(d) = dealer.deal() {
            if cond(&d) {
                dealer.produced();
                out.push(d);
            }
        }
    }
    out
}

#[test]
fn v2_2nt_demo_matches_reference() {
    let s = setup(GeneratorKind::Drand48, 11);
    let got = v2_run(&s, 1_000_000, 10, |d| {
        let e = d.hand(Seat::East);
        let w = d.hand(Seat::West);
        let [es, eh, _, _] = shape(e);
        let east_notrump = balanced(e) && es != 5 && eh != 5 && hcp(e) >= 23 && hcp(e) < 25;
        let [ws, wh, _, _] = shape(w);
        let west_stayman = hcp(w) > 3 && (wh == 4 || ws == 4);
        let west_jacoby = wh > 4 || ws > 4;
        east_notrump && (west_stayman || west_jacoby)
    });
    let got: Vec<String> = got.iter().map(oneline).collect();
    assert_eq!(got, V2_2NT_DEMO_S11);
}

#[test]
fn v2_you_hold_predeal_matches_reference() {
    let mut s = setup(GeneratorKind::Drand48, 271);
    s.predeal = predeal("south SAQ542, HKJ87, D32, CAK");
    let got = v2_run(&s, 20_000, 25, |d| {
        let w = d.hand(Seat::West);
        let n = d.hand(Seat::North);
        let [ws, wh, wd, wc] = shape(w);
        let west1n = balanced(w) && ws != 5 && wh != 5 && hcp(w) > 14 && hcp(w) < 18;
        let west1h = wh >= 5;
        let west1s = ws >= 5;
        let west1d = wd > wc; // `|| ((d == c) == 4)` is always false
        let west1c = hcp(w) > 10 && wc >= 3 && !west1n && !west1h && !west1s && !west1d;
        let ns = shape(n);
        let north2d = hcp(n) > 5 && hcp(n) < 12 && (ns[2] == 6 || ns[2] == 7) && !ns.iter().any(|&l| l == 4 || l == 5);
        west1c && north2d
    });
    let got: Vec<String> = got.iter().map(oneline).collect();
    assert_eq!(got, V2_YOU_HOLD_S271);
}

/// DealerV2's `average` line values: mean, std dev, var (printed `%10.4f`).
fn v2_average(sum: i64, sqsum: i64, count: i64) -> (String, String, String) {
    let mean = sum as f64 / count as f64;
    let var =
        (sqsum as f64 - (sum as f64) * (sum as f64) / count as f64) / (if count > 1 { count - 1 } else { 1 }) as f64;
    (format!("{mean:10.4}"), format!("{:10.4}", var.sqrt()), format!("{var:10.4}"))
}

#[test]
fn v2_play_decision_predeal_matches_reference() {
    let mut s = setup(GeneratorKind::Drand48, 13);
    s.predeal = predeal("north SJ865432, HJ5, D72, C95; west DQ5; south SA, HAQ, DA, CAQJT87642; east DKJ");
    let mut dealer = Dealer::new(&s).unwrap();
    let (mut drops, mut finesse, mut count) = (0i64, 0i64, 0i64);
    for _ in 0..1_000_000 {
        let d = dealer.deal().unwrap();
        let e = d.hand(Seat::East);
        let w = d.hand(Seat::West);
        let es = shape(e);
        if hcp(e) >= 10 && shape(w)[1] == 5 && es[1] == 4 && (5..=7).contains(&es[2]) {
            dealer.produced();
            count += 1;
            drops += (shape(w)[3] == 1) as i64;
            finesse += e.contains(Card::new(Suit::Hearts, 11)) as i64;
        }
    }
    assert_eq!(count, 110_364);
    // king drops: Mean=    0.5732, Std Dev=    0.4946, Var=    0.2446
    assert_eq!(v2_average(drops, drops, count), ("    0.5732".into(), "    0.4946".into(), "    0.2446".into()));
    // finesse: Mean=    0.7507, Std Dev=    0.4326, Var=    0.1871
    assert_eq!(v2_average(finesse, finesse, count), ("    0.7507".into(), "    0.4326".into(), "    0.1871".into()));
}

#[test]
fn v2_rnd_10m_matches_reference() {
    let mut dealer = Dealer::new(&setup(GeneratorKind::Drand48, 197)).unwrap();
    let (mut sum, mut sqsum) = (0i64, 0i64);
    for _ in 0..10_000_000 {
        dealer.deal().unwrap();
        dealer.produced();
        let v = dealer.rnd(100) as i64;
        sum += v;
        sqsum += v * v;
    }
    // Avg Random Number (0..100): Mean=   49.4918, Std Dev=   28.8652, Var=  833.1976
    assert_eq!(v2_average(sum, sqsum, 10_000_000), ("   49.4918".into(), "   28.8652".into(), "  833.1976".into()));
}

#[test]
fn v2_mode_precedence_warnings() {
    let mut s = setup(GeneratorKind::Drand48, 1);
    s.predeal = predeal("north SA");
    s.swap = 2;
    assert_eq!(Dealer::new(&s).unwrap().warnings().len(), 1);
    s.bias[0][0] = 3;
    assert_eq!(Dealer::new(&s).unwrap().warnings().len(), 2);
}

#[test]
fn v2_seed48_state_overrides_seed() {
    let mut a = setup(GeneratorKind::Drand48, 12345);
    a.drand48_state = Some((12345u64 << 16) | 0x330E);
    let b = setup(GeneratorKind::Drand48, 12345);
    assert_eq!(produce_all(&a, 3), produce_all(&b, 3));
    a.drand48_state = Some(7);
    assert_ne!(produce_all(&a, 3), produce_all(&b, 3));
}

// ---------------------------------------------------------------- setup errors

#[test]
fn setup_errors_are_reported() {
    for generator in [GeneratorKind::ChaCha, GeneratorKind::Drand48, GeneratorKind::Glibc] {
        let mut s = setup(generator, 1);
        s.predeal = predeal("north SA; south SA");
        assert_eq!(Dealer::new(&s).unwrap_err(), "Card predealt twice");
        s.predeal = predeal("north SAKQJT98765432, HA");
        assert_eq!(Dealer::new(&s).unwrap_err(), "More than 13 cards for one player");
        s.predeal.clear();
        s.swap = 4;
        assert!(Dealer::new(&s).is_err());
    }
    for generator in [GeneratorKind::ChaCha, GeneratorKind::Drand48] {
        let mut s = setup(generator, 1);
        s.bias[0][3] = 8;
        s.bias[2][3] = 6;
        assert_eq!(Dealer::new(&s).unwrap_err(), "Too many Spades");
        s.bias[2][3] = -1;
        s.bias[0][2] = 6;
        assert_eq!(Dealer::new(&s).unwrap_err(), "Suit lengths too long for North");
        // All four lengths set but summing to 12: no deal.
        s.bias[0] = [3, 3, 3, 3];
        assert!(Dealer::new(&s).is_err());
    }
    // ChaCha honours predeal and bias together: they must agree.
    let mut s = setup(GeneratorKind::ChaCha, 1);
    s.predeal = predeal("north SAK");
    s.bias[0][3] = 1;
    assert!(Dealer::new(&s).is_err());
}

// ---------------------------------------------------------------- ChaCha generator

#[test]
fn chacha_is_reproducible_and_seed_dependent() {
    let a = produce_all(&setup(GeneratorKind::ChaCha, 99), 50);
    let b = produce_all(&setup(GeneratorKind::ChaCha, 99), 50);
    let c = produce_all(&setup(GeneratorKind::ChaCha, 100), 50);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn chacha_statistics_match_theory() {
    let mut dealer = Dealer::new(&setup(GeneratorKind::ChaCha, 2024)).unwrap();
    const N: usize = 200_000;
    let mut hcp_sum = [0i64; 4];
    let mut lengths = [0u64; 14];
    for _ in 0..N {
        let d = dealer.deal().unwrap();
        assert!(d.is_complete());
        for seat in Seat::ALL {
            let h = d.hand(seat);
            hcp_sum[seat.index()] += hcp(h) as i64;
            for suit in Suit::ALL {
                lengths[h.len(suit) as usize] += 1;
            }
        }
    }
    for (seat, &sum) in hcp_sum.iter().enumerate() {
        let mean = sum as f64 / N as f64;
        // sd 4.13 per hand: standard error 0.0092.
        assert!((mean - 10.0).abs() < 0.05, "seat {seat}: mean hcp {mean}");
    }
    // dealer-v1-behaviour.md §8.4 exact percentages.
    let exact = [1.2791, 8.0062, 20.5873, 28.6330, 23.8608, 12.4692, 4.1564, 0.8817, 0.1167, 0.0093];
    let total = (N * 16) as f64;
    for (len, &p) in exact.iter().enumerate() {
        let got = lengths[len] as f64 / total * 100.0;
        let se = (p * (100.0 - p) / total).sqrt();
        assert!((got - p).abs() < 6.0 * se + 0.01, "length {len}: {got}% vs {p}%");
    }
}

#[test]
fn chacha_predeal_is_always_present_and_rest_uniform() {
    let mut s = setup(GeneratorKind::ChaCha, 5);
    s.predeal = predeal("south SAQ542, HKJ87, D32, CAK; west CQ, D5");
    let pre = s.predeal.clone();
    let mut dealer = Dealer::new(&s).unwrap();
    const N: usize = 100_000;
    let mut north_has_hq = 0;
    for _ in 0..N {
        let d = dealer.deal().unwrap();
        assert!(d.is_complete());
        for &(seat, card) in &pre {
            assert!(d.hand(seat).contains(card));
        }
        north_has_hq += d.hand(Seat::North).contains(Card::new(Suit::Hearts, 10)) as usize;
    }
    // HQ is free; 13 of the 37 free slots belong to North.
    let p = north_has_hq as f64 / N as f64;
    assert!((p - 13.0 / 37.0).abs() < 0.008, "{p}");
}

#[test]
fn chacha_bias_lengths_met_and_conditionally_uniform() {
    let mut s = setup(GeneratorKind::ChaCha, 8);
    s.bias[Seat::North.index()][Suit::Spades.index()] = 5;
    let mut dealer = Dealer::new(&s).unwrap();
    const N: usize = 100_000;
    let mut hearts = [0usize; 9];
    let mut south_spades = 0usize;
    for _ in 0..N {
        let d = dealer.deal().unwrap();
        assert!(d.is_complete());
        assert_eq!(d.hand(Seat::North).len(Suit::Spades), 5);
        hearts[d.hand(Seat::North).len(Suit::Hearts) as usize] += 1;
        south_spades += d.hand(Seat::South).len(Suit::Spades) as usize;
    }
    // North's other 8 cards are a uniform 8-subset of the 39 non-spades: hypergeometric.
    let choose = |n: u64, k: u64| -> f64 { (0..k).fold(1.0, |a, i| a * (n - i) as f64 / (i + 1) as f64) };
    for k in 0..=8u64 {
        let p = choose(13, k) * choose(26, 8 - k) / choose(39, 8);
        let got = hearts[k as usize] as f64 / N as f64;
        assert!((got - p).abs() < 5.0 * (p * (1.0 - p) / N as f64).sqrt() + 1e-4, "hearts {k}: {got} vs {p}");
    }
    // South gets 13 of the 39 other cards, 8 of them spades: mean 8/3.
    let mean = south_spades as f64 / N as f64;
    assert!((mean - 8.0 / 3.0).abs() < 0.02, "{mean}");
}

#[test]
fn chacha_bias_with_predeal_and_many_constraints() {
    let mut s = setup(GeneratorKind::ChaCha, 9);
    s.predeal = predeal("west HA; north SK");
    let b = [
        (Seat::West, Suit::Hearts, 6),
        (Seat::East, Suit::Clubs, 4),
        (Seat::East, Suit::Spades, 2),
        (Seat::North, Suit::Spades, 3),
        (Seat::South, Suit::Spades, 5),
        (Seat::East, Suit::Hearts, 0),
    ];
    for &(seat, suit, len) in &b {
        s.bias[seat.index()][suit.index()] = len;
    }
    let mut dealer = Dealer::new(&s).unwrap();
    for _ in 0..20_000 {
        let d = dealer.deal().unwrap();
        assert!(d.is_complete());
        assert!(d.hand(Seat::West).contains(Card::new(Suit::Hearts, 12)));
        assert!(d.hand(Seat::North).contains(Card::new(Suit::Spades, 11)));
        for &(seat, suit, len) in &b {
            assert_eq!(d.hand(seat).len(suit), len as u32);
        }
    }
}

// ---------------------------------------------------------------- spot-card predeal (ChaCha)

/// `C(n, k)` as a float.
fn choose(n: u64, k: u64) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |a, i| a * (n - i) as f64 / (i + 1) as f64)
}

/// The chi-square statistic of `counts` against probabilities `p` (cells with p > 0).
fn chi_square(counts: &[u64], p: &[f64]) -> f64 {
    let n: u64 = counts.iter().sum();
    counts
        .iter()
        .zip(p)
        .filter(|(_, &p)| p > 0.0)
        .map(|(&c, &p)| {
            let e = p * n as f64;
            (c as f64 - e).powi(2) / e
        })
        .sum()
}

/// A spot holding.
fn spot(seat: Seat, suit: Suit, count: u8) -> SpotCards {
    SpotCards { seat, suit, count }
}

/// The small (2–9) cards of `suit` in `hand`, as rank bits 0..8.
fn smalls(hand: Hand, suit: Suit) -> u16 {
    hand.suit_bits(suit) & SPOT_RANKS
}

/// Index of a `k`-subset of 0..n (given as a bit mask) among all `k`-subsets: its colex rank.
fn subset_index(mask: u16) -> usize {
    let mut index = 0.0;
    for (i, bit) in (0..16).filter(|&b| mask >> b & 1 != 0).enumerate() {
        index += choose(bit, i as u64 + 1);
    }
    index as usize
}

#[test]
fn chacha_spot_holding_is_exact() {
    // predeal north SQTxx: North holds SQ, ST and two of the eight small spades, nothing else in
    // spades; each pair of small spades equally likely; the other hands share the rest uniformly.
    let mut s = setup(GeneratorKind::ChaCha, 61);
    s.predeal = predeal("north SQT");
    s.spots = vec![spot(Seat::North, Suit::Spades, 2)];
    let mut dealer = Dealer::new(&s).unwrap();
    const N: usize = 200_000;
    let mut pairs = [0u64; 28];
    let mut east_spades = [0u64; 10];
    let mut east_hearts = [0u64; 14];
    for _ in 0..N {
        let d = dealer.deal().unwrap();
        assert!(d.is_complete());
        let north = d.hand(Seat::North);
        assert_eq!(north.len(Suit::Spades), 4);
        assert_eq!(north.suit_bits(Suit::Spades) & !SPOT_RANKS, (1 << 10) | (1 << 8), "{north:?}");
        pairs[subset_index(smalls(north, Suit::Spades))] += 1;
        east_spades[d.hand(Seat::East).len(Suit::Spades) as usize] += 1;
        east_hearts[d.hand(Seat::East).len(Suit::Hearts) as usize] += 1;
    }
    assert!(chi_square(&pairs, &[1.0 / 28.0; 28]) < chi_square_limit(27.0), "pairs {pairs:?}");
    // East takes 13 of the 39 cards North does not hold: 9 spades among them.
    let p: Vec<f64> = (0..10).map(|k| choose(9, k) * choose(30, 13 - k) / choose(39, 13)).collect();
    assert!(chi_square(&east_spades, &p) < chi_square_limit(9.0), "east spades {east_spades:?}");
    // North holds 9 other cards of the 39 non-spades; 13 hearts among them; East takes 13 of
    // the 39 cards left: P(East k hearts) sums over North's hearts.
    let p: Vec<f64> = (0..14)
        .map(|k| {
            (0..=9u64)
                .map(|h| {
                    let north = choose(13, h) * choose(26, 9 - h) / choose(39, 9);
                    north * choose(13 - h, k) * choose(26 + h, 13 - k) / choose(39, 13)
                })
                .sum()
        })
        .collect();
    assert!(chi_square(&east_hearts, &p) < chi_square_limit(13.0), "east hearts {east_hearts:?}");
}

#[test]
fn chacha_spot_holdings_with_bias_and_other_predeals_are_exact() {
    // North SQTxx, South S9 and a spade length of 5, West HJ8x: North's smalls come from the
    // seven left (S9 is South's), West's heart smalls from the seven left (H8 is named).
    let mut s = setup(GeneratorKind::ChaCha, 62);
    s.predeal = predeal("north SQT; south S9; west HJ8");
    s.spots = vec![spot(Seat::North, Suit::Spades, 2), spot(Seat::West, Suit::Hearts, 1)];
    s.bias[Seat::South.index()][Suit::Spades.index()] = 5;
    let mut dealer = Dealer::new(&s).unwrap();
    const N: usize = 150_000;
    let mut north_pairs = [0u64; 28];
    let mut west_heart = [0u64; 8];
    for _ in 0..N {
        let d = dealer.deal().unwrap();
        assert!(d.is_complete());
        let (north, south, west) = (d.hand(Seat::North), d.hand(Seat::South), d.hand(Seat::West));
        assert_eq!(north.len(Suit::Spades), 4);
        assert_eq!(north.suit_bits(Suit::Spades) & !SPOT_RANKS, (1 << 10) | (1 << 8));
        assert_eq!(south.len(Suit::Spades), 5);
        assert!(south.contains(Card::new(Suit::Spades, 7)));
        assert_eq!(west.len(Suit::Hearts), 3);
        assert_eq!(west.suit_bits(Suit::Hearts) & !SPOT_RANKS, 1 << 9);
        assert!(west.contains(Card::new(Suit::Hearts, 6)));
        north_pairs[subset_index(smalls(north, Suit::Spades))] += 1;
        let west_small = smalls(west, Suit::Hearts) & !(1 << 6);
        west_heart[west_small.trailing_zeros() as usize] += 1;
    }
    // 21 pairs of the small spades other than the 9, never the 9 (index of pairs with bit 7).
    let mut p = [0.0; 28];
    for (i, cell) in p.iter_mut().enumerate() {
        let pair =
            (0..8u16).flat_map(|a| (a + 1..8).map(move |b| (1u16 << a) | (1 << b))).find(|&m| subset_index(m) == i);
        *cell = if pair.is_some_and(|m| m & (1 << 7) == 0) { 1.0 / 21.0 } else { 0.0 };
    }
    assert!(north_pairs.iter().zip(&p).all(|(&c, &p)| p > 0.0 || c == 0));
    assert!(chi_square(&north_pairs, &p) < chi_square_limit(20.0), "{north_pairs:?}");
    let mut p = [1.0 / 7.0; 8];
    p[6] = 0.0; // the H8 is named
    assert_eq!(west_heart[6], 0);
    assert!(chi_square(&west_heart, &p) < chi_square_limit(6.0), "{west_heart:?}");
    // The whole deal against rejection sampling: plain predeal deals (uniform, tested above)
    // kept when they meet the spot holdings and the bias have the same distribution.
    let mut plain = setup(GeneratorKind::ChaCha, 64);
    plain.predeal = s.predeal.clone();
    let mut reference = Dealer::new(&plain).unwrap();
    let meets = |d: &Deal| {
        let (north, south, west) = (d.hand(Seat::North), d.hand(Seat::South), d.hand(Seat::West));
        north.len(Suit::Spades) == 4
            && north.suit_bits(Suit::Spades) & !SPOT_RANKS == (1 << 10) | (1 << 8)
            && south.len(Suit::Spades) == 5
            && west.len(Suit::Hearts) == 3
            && west.suit_bits(Suit::Hearts) & !SPOT_RANKS == 1 << 9
            && west.contains(Card::new(Suit::Hearts, 6))
    };
    // A cell per (East's spades, East's hearts, West's spades, South's hcp > 8).
    let cell = |d: &Deal| {
        let (east, west) = (d.hand(Seat::East), d.hand(Seat::West));
        ((east.len(Suit::Spades) * 14 + east.len(Suit::Hearts)) * 5 + west.len(Suit::Spades).min(4)) as usize * 2
            + usize::from(hcp(d.hand(Seat::South)) > 8)
    };
    let mut ours = vec![0u64; 14 * 14 * 5 * 2];
    let mut kept = vec![0u64; ours.len()];
    for _ in 0..N {
        ours[cell(&dealer.deal().unwrap())] += 1;
    }
    let mut accepted = 0;
    while accepted < N / 2 {
        let d = reference.deal().unwrap();
        if meets(&d) {
            kept[cell(&d)] += 1;
            accepted += 1;
        }
    }
    let (a, b) = (N as f64, accepted as f64);
    let (mut chi, mut cells) = (0.0, 0.0);
    for (&x, &y) in ours.iter().zip(&kept) {
        if x + y >= 5 {
            chi += ((b / a).sqrt() * x as f64 - (a / b).sqrt() * y as f64).powi(2) / (x + y) as f64;
            cells += 1.0;
        }
    }
    assert!(cells > 20.0 && chi < chi_square_limit(cells - 1.0), "two-sample chi-square {chi} over {cells} cells");
}

#[test]
fn chacha_spot_holdings_share_a_suit() {
    // north Sxx, south Sxxx: five of the eight small spades go to North and South, the honours
    // and the rest to East and West.
    let mut s = setup(GeneratorKind::ChaCha, 63);
    s.spots = vec![spot(Seat::North, Suit::Spades, 2), spot(Seat::South, Suit::Spades, 3)];
    let mut dealer = Dealer::new(&s).unwrap();
    const N: usize = 100_000;
    let mut north_pairs = [0u64; 28];
    let mut east_spades = [0u64; 9];
    for _ in 0..N {
        let d = dealer.deal().unwrap();
        let (north, south) = (d.hand(Seat::North), d.hand(Seat::South));
        assert_eq!((north.len(Suit::Spades), south.len(Suit::Spades)), (2, 3));
        assert_eq!((north.suit_bits(Suit::Spades) | south.suit_bits(Suit::Spades)) & !SPOT_RANKS, 0);
        north_pairs[subset_index(smalls(north, Suit::Spades))] += 1;
        east_spades[d.hand(Seat::East).len(Suit::Spades) as usize] += 1;
    }
    assert!(chi_square(&north_pairs, &[1.0 / 28.0; 28]) < chi_square_limit(27.0), "{north_pairs:?}");
    // East takes 13 of the 26 cards left to East–West, 8 of them spades.
    let p: Vec<f64> = (0..9).map(|k| choose(8, k) * choose(18, 13 - k) / choose(26, 13)).collect();
    assert!(chi_square(&east_spades, &p) < chi_square_limit(8.0), "{east_spades:?}");
}

#[test]
fn spot_holding_errors() {
    let mut s = setup(GeneratorKind::ChaCha, 1);
    s.predeal = predeal("south S98");
    s.spots = vec![spot(Seat::North, Suit::Spades, 7)];
    assert_eq!(
        Dealer::new(&s).unwrap_err(),
        "Too many spot cards (x) in Spades: 7 asked for, but only 6 of the Spades 2 to 9 are not predealt"
    );
    s.spots = vec![spot(Seat::North, Suit::Spades, 3)];
    s.bias[Seat::North.index()][Suit::Spades.index()] = 4;
    assert_eq!(Dealer::new(&s).unwrap_err(), "North's spot-card holding has 3 Spades but its length is set to 4");
    s.bias[Seat::North.index()][Suit::Spades.index()] = 3;
    assert!(Dealer::new(&s).is_ok());
    for generator in [GeneratorKind::Drand48, GeneratorKind::Glibc] {
        s.generator = generator;
        assert!(Dealer::new(&s).unwrap_err().starts_with("spot cards (x) in predeal need the ChaCha generator"));
    }
    // A length that leaves no deal (13 spades needed by one seat besides 1 fixed elsewhere).
    let mut s = setup(GeneratorKind::ChaCha, 1);
    s.spots = vec![spot(Seat::North, Suit::Spades, 1)];
    s.bias[Seat::South.index()][Suit::Spades.index()] = 13;
    assert!(Dealer::new(&s).is_err());
}

#[test]
fn chacha_swapping_cycles_arrangements() {
    let mut s = setup(GeneratorKind::ChaCha, 3);
    s.swap = 3;
    let mut dealer = Dealer::new(&s).unwrap();
    let first = dealer.deal().unwrap();
    let mut seen = vec![first];
    for _ in 0..5 {
        let d = dealer.deal().unwrap();
        assert_eq!(d.hand(Seat::North), first.hand(Seat::North));
        seen.push(d);
    }
    let mut set: Vec<_> = seen.iter().map(|d| [d.0[1].0, d.0[2].0, d.0[3].0]).collect();
    set.sort_unstable();
    set.dedup();
    assert_eq!(set.len(), 6);
    assert_ne!(dealer.deal().unwrap().hand(Seat::North), first.hand(Seat::North));
}

/// Deals `n` deals of a setup one by one.
fn deals(setup: &DealingSetup, n: usize) -> Vec<Option<Deal>> {
    let mut dealer = Dealer::new(setup).unwrap();
    (0..n).map(|_| dealer.deal()).collect()
}

/// ChaCha setups covering each dealing path: plain, predeal, bias, swapping.
fn chacha_setups() -> Vec<DealingSetup> {
    let plain = setup(GeneratorKind::ChaCha, 31);
    let mut with_predeal = setup(GeneratorKind::ChaCha, 32);
    with_predeal.predeal = predeal("south SAQ542, HKJ87, D32, CAK; west CQ, D5; north HA");
    let mut with_bias = setup(GeneratorKind::ChaCha, 33);
    with_bias.bias[Seat::East.index()][Suit::Hearts.index()] = 6;
    let mut swapped = setup(GeneratorKind::ChaCha, 34);
    swapped.swap = 3;
    let mut with_spots = setup(GeneratorKind::ChaCha, 35);
    with_spots.predeal = predeal("north SQT; east HA");
    with_spots.spots = vec![spot(Seat::North, Suit::Spades, 2), spot(Seat::East, Suit::Hearts, 3)];
    vec![plain, with_predeal, with_bias, swapped, with_spots]
}

/// Setups of the compatibility generators with the features that change how they deal.
fn compatibility_setups() -> Vec<DealingSetup> {
    let mut out = Vec::new();
    for generator in [GeneratorKind::Glibc, GeneratorKind::Drand48] {
        let plain = setup(generator, 41);
        let mut with_predeal = setup(generator, 42);
        with_predeal.predeal = predeal("south SAQ542, HKJ87, D32, CAK; west CQ, D5; north HA");
        let mut swapped = setup(generator, 43);
        swapped.swap = 3;
        out.extend([plain, with_predeal, swapped]);
    }
    let mut with_bias = setup(GeneratorKind::Drand48, 44);
    with_bias.bias[Seat::East.index()][Suit::Hearts.index()] = 6;
    out.push(with_bias);
    out
}

#[test]
fn partial_deals_complete_to_the_full_deal() {
    for s in chacha_setups().into_iter().chain(compatibility_setups()) {
        // Every third deal is taken as produced (DealerV2's generator then sorts its hands,
        // which changes the next shuffle), by both dealers before the deal is completed.
        let mut whole = Dealer::new(&s).unwrap();
        let mut dealer = Dealer::new(&s).unwrap();
        for i in 0..3000 {
            let expected = whole.deal();
            let seats = SeatSet((i * 7 % 16) as u8);
            let dealt = dealer.deal_seats(seats);
            assert_eq!(dealt.is_some(), expected.is_some(), "{:?} deal {i}", s.generator);
            let (Some(mut deal), Some(expected)) = (dealt, expected) else { continue };
            for seat in Seat::ALL {
                if seats.contains(seat) {
                    assert_eq!(deal.hand(seat), expected.hand(seat), "{:?} deal {i}, seats {seats:?}", s.generator);
                }
            }
            if i % 5 == 1 {
                let more = SeatSet::of(Seat::East).union(SeatSet::of(Seat::South));
                dealer.extend(&mut deal, more);
                for seat in [Seat::East, Seat::South] {
                    assert_eq!(deal.hand(seat), expected.hand(seat), "{:?} deal {i}, extended", s.generator);
                }
            }
            if i % 3 == 2 {
                whole.produced();
                dealer.produced();
            }
            if i % 3 != 0 {
                dealer.complete(&mut deal);
                assert_eq!(deal, expected, "{:?} deal {i}, seats {seats:?}", s.generator);
            }
        }
    }
}

#[test]
fn chacha_deal_number_alone_fixes_the_deal() {
    for s in chacha_setups() {
        let full = deals(&s, 500);
        let mut dealer = Dealer::new(&s).unwrap();
        assert!(dealer.deals_independently());
        for i in [499usize, 0, 137, 138, 3, 250, 251, 252, 498] {
            dealer.seek(i as u64);
            assert_eq!(dealer.deal(), full[i], "deal {i}");
        }
        // `rnd()` during a deal reads that deal's own stream.
        let mut a = Dealer::new(&s).unwrap();
        let mut b = Dealer::new(&s).unwrap();
        for _ in 0..40 {
            a.deal();
        }
        let after_40: Vec<i32> = (0..5).map(|_| a.rnd(1000)).collect();
        b.seek(39);
        b.deal();
        assert_eq!((0..5).map(|_| b.rnd(1000)).collect::<Vec<_>>(), after_40);
    }
}

/// The chi-square statistic's upper 10^-4 point for `dof` degrees of freedom (Wilson–Hilferty).
fn chi_square_limit(dof: f64) -> f64 {
    let z = 3.72;
    let v = 2.0 / (9.0 * dof);
    dof * (1.0 - v + z * v.sqrt()).powi(3)
}

#[test]
fn chacha_cards_reach_every_seat_uniformly_and_independently() {
    for (seats, seed) in [(SeatSet::ALL, 41), (SeatSet::of(Seat::North), 42), (SeatSet::of(Seat::South), 43)] {
        let mut dealer = Dealer::new(&setup(GeneratorKind::ChaCha, seed)).unwrap();
        const N: usize = 200_000;
        let mut card_seat = [[0u32; 4]; 64];
        // Pairs of cards in one hand: every pair should share a hand with probability 12/51.
        let mut together = vec![0u32; 64 * 64];
        for _ in 0..N {
            // Dealt lazily and completed, as a condition on `seats` makes the dealing loop do.
            let mut d = dealer.deal_seats(seats).unwrap();
            dealer.complete(&mut d);
            for seat in Seat::ALL {
                let hand = d.hand(seat).0;
                let mut rest = hand;
                while rest != 0 {
                    let a = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    card_seat[a][seat.index()] += 1;
                    let mut others = rest;
                    while others != 0 {
                        let b = others.trailing_zeros() as usize;
                        others &= others - 1;
                        together[a * 64 + b] += 1;
                    }
                }
            }
        }
        let expected = N as f64 / 4.0;
        let chi: f64 =
            card_seat.iter().flatten().filter(|&&c| c > 0).map(|&c| (c as f64 - expected).powi(2) / expected).sum();
        assert!(chi < chi_square_limit(52.0 * 3.0), "card × seat chi-square {chi}");
        let p = 12.0 / 51.0;
        let (mean, var) = (N as f64 * p, N as f64 * p * (1.0 - p));
        let pairs: Vec<f64> = together.iter().filter(|&&c| c > 0).map(|&c| (c as f64 - mean).powi(2) / var).collect();
        assert_eq!(pairs.len(), 52 * 51 / 2);
        let chi: f64 = pairs.iter().sum();
        assert!(chi < chi_square_limit(pairs.len() as f64), "pair chi-square {chi}");
    }
}

#[test]
fn chacha_lazy_north_shapes_follow_theory() {
    // North's 4-3-3-3 / 4-4-3-2 / 5-3-3-2 frequencies when only North is dealt.
    let mut dealer = Dealer::new(&setup(GeneratorKind::ChaCha, 44)).unwrap();
    const N: usize = 400_000;
    let mut counts = [0u32; 3];
    for _ in 0..N {
        let d = dealer.deal_seats(SeatSet::of(Seat::North)).unwrap();
        let mut s = shape(d.hand(Seat::North));
        s.sort_unstable_by(|a, b| b.cmp(a));
        match s {
            [4, 3, 3, 3] => counts[0] += 1,
            [4, 4, 3, 2] => counts[1] += 1,
            [5, 3, 3, 2] => counts[2] += 1,
            _ => {}
        }
    }
    for (count, p) in counts.iter().zip([0.105_361, 0.215_511, 0.155_168]) {
        let got = *count as f64 / N as f64;
        assert!((got - p).abs() < 5.0 * (p * (1.0 - p) / N as f64).sqrt(), "{got} vs {p}");
    }
}

#[test]
fn chacha_rnd_range() {
    let mut dealer = Dealer::new(&setup(GeneratorKind::ChaCha, 1)).unwrap();
    let mut seen = [false; 7];
    for _ in 0..1000 {
        let v = dealer.rnd(7);
        assert!((0..7).contains(&v));
        seen[v as usize] = true;
    }
    assert!(seen.iter().all(|&x| x));
    assert_eq!(dealer.rnd(0), 0);
    assert_eq!(dealer.rnd(-5), 0);
}

/// Throughput of unconstrained ChaCha dealing: `cargo test --release -- --ignored --nocapture bench`.
#[test]
#[ignore]
fn bench_chacha_deals_per_second() {
    for (name, generator) in
        [("chacha", GeneratorKind::ChaCha), ("drand48", GeneratorKind::Drand48), ("glibc", GeneratorKind::Glibc)]
    {
        let mut dealer = Dealer::new(&setup(generator, 1)).unwrap();
        let n = 20_000_000u64;
        let start = std::time::Instant::now();
        let mut acc = 0u64;
        for _ in 0..n {
            let d = dealer.deal().unwrap();
            acc = acc.wrapping_add(d.0[0].0 ^ d.0[2].0);
        }
        let secs = start.elapsed().as_secs_f64();
        println!("{name}: {:.2} M deals/s (checksum {acc})", n as f64 / secs / 1e6);
    }
    for (name, seats) in [("north only", SeatSet::of(Seat::North)), ("north and south", SeatSet(0b0101))] {
        let mut dealer = Dealer::new(&setup(GeneratorKind::ChaCha, 1)).unwrap();
        let n = 20_000_000u64;
        let start = std::time::Instant::now();
        let mut acc = 0u64;
        for _ in 0..n {
            let d = dealer.deal_seats(seats).unwrap();
            acc = acc.wrapping_add(d.0[0].0 ^ d.0[2].0);
        }
        let secs = start.elapsed().as_secs_f64();
        println!("chacha, {name}: {:.2} M deals/s (checksum {acc})", n as f64 / secs / 1e6);
    }
}

// ---------------------------------------------------------------- captured peer outputs

pub(super) const CLASSIC_S1: &[&str] = &[
    "n 2.T98.K752.KJT84 e 5.J7642.986.9763 s AQ8.AQ5.QJT.AQ52 w KJT97643.K3.A43. ",
    "n Q7432.Q63.983.J4 e .J92.QT6.A986532 s KJT95.K854.K5.KT w A86.AT7.AJ742.Q7 ",
    "n K83.QJ8.J987.987 e QT54.654.KQT3.A2 s A7.A93.6542.JT64 w J962.KT72.A.KQ53 ",
    "n K32.AKQJ96.53.K7 e AQJT7.43.JT87.84 s 4.872.AQ642.J532 w 9865.T5.K9.AQT96 ",
    "n KQT52.AK.J76.974 e A83.T96542.2.532 s 964.Q7.K85.AQT86 w J7.J83.AQT943.KJ ",
    "n JT973.73.72.JT52 e A62.KT542.QJ643. s K84.AJ98.KT98.98 w Q5.Q6.A5.AKQ7643 ",
    "n AQ86.AKT32.2.T82 e 94.J987.J43.AKQ5 s KJT72.654.76.J63 w 53.Q.AKQT985.974 ",
    "n 94.T93.K954.KQT5 e T8765.82.QT7.J96 s 3.J754.A8632.842 w AKQJ2.AKQ6.J.A73 ",
    "n J87.AJ3.K76542.2 e 54.96.AJ983.9873 s A962.874.T.AKQJT w KQT3.KQT52.Q.654 ",
    "n J73.9.95.KT87652 e QT96.AQ73.KT3.93 s 82.KJ654.AQJ4.J4 w AK54.T82.8762.AQ ",
];
pub(super) const CLASSIC_S42: &[&str] = &[
    "n Q8.QJ742.753.AQJ e AJ9632.T5.AQ4.96 s 5.AK983.JT2.K753 w KT74.6.K986.T842 ",
    "n KQ92.K852.AQ32.K e AJ4.QJ97.J85.Q94 s 875.63.K97.J8653 w T63.AT4.T64.AT72 ",
    "n K.T86.8764.KT962 e AQ76.J743.J9.QJ8 s 8532.AK52.532.A7 w JT94.Q9.AKQT.543 ",
    "n AKQ65.T72.KQ9.K2 e T7432.A54.A5.Q43 s 9.QJ8.8632.T9765 w J8.K963.JT74.AJ8 ",
    "n K72.6.KT95.AT532 e Q63.QT74.863.976 s AJ94.98.A742.QJ4 w T85.AKJ532.QJ.K8 ",
    "n QJ96.T3.T5.AK652 e AK2.A984.Q42.743 s 3.KJ75.KJ9863.T9 w T8754.Q62.A7.QJ8 ",
    "n J6.K976.KJ42.AQ4 e AT53.QT.AQT98.K2 s Q72.8543.73.T653 w K984.AJ2.65.J987 ",
    "n QT3.T9632.A74.AT e J96.KQ54.9.KJ876 s K752.J7.KQT2.954 w A84.A8.J8653.Q32 ",
    "n 73.KJ.A6.KQT7632 e JT6.763.QJ432.J4 s AKQ2.A9854.T5.A9 w 9854.QT2.K987.85 ",
    "n KT8.T4.J85.AKQ75 e Q3.Q7.AQT432.864 s A96.A98532.K76.2 w J7542.KJ6.9.JT93 ",
];
pub(super) const CLASSIC_SM7: &[&str] = &[
    "n KJ2.643.AT5.K985 e QT87.K95.42.AJ76 s A95.T872.KJ3.432 w 643.AQJ.Q9876.QT ",
    "n AQ76.32.K92.A986 e KT8.AJ4.Q73.QJT2 s J52.KT97.AJ.K754 w 943.Q865.T8654.3 ",
    "n AK96.A93.K976.J6 e JT82.2.AJT32.QT7 s Q53.KQ.Q85.K8432 w 74.JT87654.4.A95 ",
    "n JT62.87.T876.T85 e 8753.KQT.K95.A43 s 9.96542.J.KQJ976 w AKQ4.AJ3.AQ432.2 ",
    "n AK952.43.32.A942 e QJT8.KJT62.QJ4.Q s 73.9875.85.KJ876 w 64.AQ.AKT976.T53 ",
    "n AQJ854.82.AQ.J64 e 97.AJT9754.K9.K2 s T.KQ63.543.QT985 w K632..JT8762.A73 ",
    "n .J84.AKJ5.AQJT54 e KJ7654.AK.876.62 s QT982.T62.Q93.K3 w A3.Q9753.T42.987 ",
    "n JT652.QJ.932.T95 e Q8.K43.KQT754.Q3 s K4.76.AJ86.KJ876 w A973.AT9852..A42 ",
    "n A65.42.Q9.J96532 e KQJ3.K98.A76.T74 s T9.AQJT765.842.Q w 8742.3.KJT53.AK8 ",
    "n AQ4.AT87.654.A32 e KT965.Q9.J732.J4 s J3.KJ4.QT8.Q9765 w 872.6532.AK9.KT8 ",
];
pub(super) const CLASSIC_S0: &[&str] = &[
    "n 2.T98.K752.KJT84 e 5.J7642.986.9763 s AQ8.AQ5.QJT.AQ52 w KJT97643.K3.A43. ",
    "n Q7432.Q63.983.J4 e .J92.QT6.A986532 s KJT95.K854.K5.KT w A86.AT7.AJ742.Q7 ",
    "n K83.QJ8.J987.987 e QT54.654.KQT3.A2 s A7.A93.6542.JT64 w J962.KT72.A.KQ53 ",
    "n K32.AKQJ96.53.K7 e AQJT7.43.JT87.84 s 4.872.AQ642.J532 w 9865.T5.K9.AQT96 ",
    "n KQT52.AK.J76.974 e A83.T96542.2.532 s 964.Q7.K85.AQT86 w J7.J83.AQT943.KJ ",
    "n JT973.73.72.JT52 e A62.KT542.QJ643. s K84.AJ98.KT98.98 w Q5.Q6.A5.AKQ7643 ",
    "n AQ86.AKT32.2.T82 e 94.J987.J43.AKQ5 s KJT72.654.76.J63 w 53.Q.AKQT985.974 ",
    "n 94.T93.K954.KQT5 e T8765.82.QT7.J96 s 3.J754.A8632.842 w AKQJ2.AKQ6.J.A73 ",
    "n J87.AJ3.K76542.2 e 54.96.AJ983.9873 s A962.874.T.AKQJT w KQT3.KQT52.Q.654 ",
    "n J73.9.95.KT87652 e QT96.AQ73.KT3.93 s 82.KJ654.AQJ4.J4 w AK54.T82.8762.AQ ",
];
pub(super) const CLASSIC_S4294967297: &[&str] = &[
    "n 2.T98.K752.KJT84 e 5.J7642.986.9763 s AQ8.AQ5.QJT.AQ52 w KJT97643.K3.A43. ",
    "n Q7432.Q63.983.J4 e .J92.QT6.A986532 s KJT95.K854.K5.KT w A86.AT7.AJ742.Q7 ",
    "n K83.QJ8.J987.987 e QT54.654.KQT3.A2 s A7.A93.6542.JT64 w J962.KT72.A.KQ53 ",
    "n K32.AKQJ96.53.K7 e AQJT7.43.JT87.84 s 4.872.AQ642.J532 w 9865.T5.K9.AQT96 ",
    "n KQT52.AK.J76.974 e A83.T96542.2.532 s 964.Q7.K85.AQT86 w J7.J83.AQT943.KJ ",
    "n JT973.73.72.JT52 e A62.KT542.QJ643. s K84.AJ98.KT98.98 w Q5.Q6.A5.AKQ7643 ",
    "n AQ86.AKT32.2.T82 e 94.J987.J43.AKQ5 s KJT72.654.76.J63 w 53.Q.AKQT985.974 ",
    "n 94.T93.K954.KQT5 e T8765.82.QT7.J96 s 3.J754.A8632.842 w AKQJ2.AKQ6.J.A73 ",
    "n J87.AJ3.K76542.2 e 54.96.AJ983.9873 s A962.874.T.AKQJT w KQT3.KQT52.Q.654 ",
    "n J73.9.95.KT87652 e QT96.AQ73.KT3.93 s 82.KJ654.AQJ4.J4 w AK54.T82.8762.AQ ",
];
pub(super) const CLASSIC_S3000000000: &[&str] = &[
    "n 32.KQ.KQ973.Q873 e QT5.T85.AT6.KJ64 s AKJ9864.A.J85.52 w 7.J976432.42.AT9 ",
    "n 5.AJ765.AQ873.92 e AK86.K2.T52.J643 s QJT973.QT43.K.K7 w 42.98.J964.AQT85 ",
    "n K862.K2.JT62.986 e JT9.873.Q54.AK43 s A543.J54.83.QJ75 w Q7.AQT96.AK97.T2 ",
    "n K95.QJ64.Q2.AQT4 e 432.52.AT9753.76 s 8.AKT93.864.K983 w AQJT76.87.KJ.J52 ",
    "n 9743.QJT54.84.A9 e J8.K32.AJ965.852 s AQT5.7.Q32.KQJT4 w K62.A986.KT7.763 ",
    "n JT98.KJT972..AT6 e AK.Q654.AT964.54 s Q743.A8.K852.QJ7 w 652.3.QJ73.K9832 ",
    "n 96532.76.Q94.AT4 e AK7.T8432.KJ3.KJ s QJ.A.T8762.Q9753 w T84.KQJ95.A5.862 ",
    "n QT86.432.94.AQ54 e A4.K75.QT5.KJ762 s 52.AJT86.8763.T8 w KJ973.Q9.AKJ2.93 ",
    "n T754.K943.52.K96 e KQJ2.AJ2.87.QJ83 s A83.Q8765.AK3.42 w 96.T.QJT964.AT75 ",
    "n QT72.J54.2.AJ987 e AJ63.8.KJ86.KQ63 s 4.AQ9632.A93.T54 w K985.KT7.QT754.2 ",
];
pub(super) const CLASSIC_X2_S5: &[&str] = &[
    "n J86.543.T952.Q87 e 974.T62.84.AKT52 s AKT2.AQ98.J7.643 w Q53.KJ7.AKQ63.J9 ",
    "n J86.543.T952.Q87 e Q53.KJ7.AKQ63.J9 s AKT2.AQ98.J7.643 w 974.T62.84.AKT52 ",
    "n K.K943.AK83.QT96 e A9.QT765.Q962.A7 s JT874.AJ82.4.K53 w Q6532..JT75.J842 ",
    "n K.K943.AK83.QT96 e Q6532..JT75.J842 s JT874.AJ82.4.K53 w A9.QT765.Q962.A7 ",
    "n KJ8.K97.Q4.AT763 e AQT96.AQJ3.K85.Q s 532.T64.AJ76.K98 w 74.852.T932.J542 ",
    "n KJ8.K97.Q4.AT763 e 74.852.T932.J542 s 532.T64.AJ76.K98 w AQT96.AQJ3.K85.Q ",
    "n KJT3.K5.AK2.9642 e A9.AQJ842.Q96.53 s 754.97.T73.AKJ87 w Q862.T63.J854.QT ",
    "n KJT3.K5.AK2.9642 e Q862.T63.J854.QT s 754.97.T73.AKJ87 w A9.AQJ842.Q96.53 ",
    "n 86432.JT2.KQ84.Q e 9.86.A762.AJT652 s QT5.KQ4.JT953.97 w AKJ7.A9753..K843 ",
    "n 86432.JT2.KQ84.Q e AKJ7.A9753..K843 s QT5.KQ4.JT953.97 w 9.86.A762.AJT652 ",
    "n 762.93.KJT63.J42 e AKQJ.54.A9754.86 s 985.AJ8762.Q2.T5 w T43.KQT.8.AKQ973 ",
    "n 762.93.KJT63.J42 e T43.KQT.8.AKQ973 s 985.AJ8762.Q2.T5 w AKQJ.54.A9754.86 ",
];
pub(super) const CLASSIC_X3_S5: &[&str] = &[
    "n J86.543.T952.Q87 e 974.T62.84.AKT52 s AKT2.AQ98.J7.643 w Q53.KJ7.AKQ63.J9 ",
    "n J86.543.T952.Q87 e Q53.KJ7.AKQ63.J9 s AKT2.AQ98.J7.643 w 974.T62.84.AKT52 ",
    "n J86.543.T952.Q87 e Q53.KJ7.AKQ63.J9 s 974.T62.84.AKT52 w AKT2.AQ98.J7.643 ",
    "n J86.543.T952.Q87 e 974.T62.84.AKT52 s Q53.KJ7.AKQ63.J9 w AKT2.AQ98.J7.643 ",
    "n J86.543.T952.Q87 e AKT2.AQ98.J7.643 s Q53.KJ7.AKQ63.J9 w 974.T62.84.AKT52 ",
    "n J86.543.T952.Q87 e AKT2.AQ98.J7.643 s 974.T62.84.AKT52 w Q53.KJ7.AKQ63.J9 ",
    "n T.QT843.J43.Q965 e 3.AJ752.972.KJ73 s QJ854.K6.AKQ8.T4 w AK9762.9.T65.A82 ",
    "n T.QT843.J43.Q965 e AK9762.9.T65.A82 s QJ854.K6.AKQ8.T4 w 3.AJ752.972.KJ73 ",
    "n T.QT843.J43.Q965 e AK9762.9.T65.A82 s 3.AJ752.972.KJ73 w QJ854.K6.AKQ8.T4 ",
    "n T.QT843.J43.Q965 e 3.AJ752.972.KJ73 s AK9762.9.T65.A82 w QJ854.K6.AKQ8.T4 ",
    "n T.QT843.J43.Q965 e QJ854.K6.AKQ8.T4 s AK9762.9.T65.A82 w 3.AJ752.972.KJ73 ",
    "n T.QT843.J43.Q965 e QJ854.K6.AKQ8.T4 s 3.AJ752.972.KJ73 w AK9762.9.T65.A82 ",
];
pub(super) const CLASSIC_PREDEAL_S77: &[&str] = &[
    "n K73.T2.KQT9.JT76 e 8.96543.AJ86.943 s AQ542.KJ87.32.AK w JT96.AQ.754.Q852 ",
    "n 3.T943.AQJ9.8754 e J976.AQ62.87.T62 s AQ542.KJ87.32.AK w KT8.5.KT654.QJ93 ",
    "n T9.A92.K8.T98754 e K873.QT53.AJ4.J2 s AQ542.KJ87.32.AK w J6.64.QT9765.Q63 ",
    "n KT863.9.AQ96.J73 e J.AQT432.KT8.542 s AQ542.KJ87.32.AK w 97.65.J754.QT986 ",
    "n KT87.AT94.874.J5 e J3.Q52.AKJT9.943 s AQ542.KJ87.32.AK w 96.63.Q65.QT8762 ",
    "n T873.Q952.A.J963 e 6.T.KQJT986.7542 s AQ542.KJ87.32.AK w KJ9.A643.754.QT8 ",
    "n 76.643.AT64.T432 e J3.QT92.KJ87.J76 s AQ542.KJ87.32.AK w KT98.A5.Q95.Q985 ",
    "n K98.T532.T9.JT63 e J3.A4.K8764.7542 s AQ542.KJ87.32.AK w T76.Q96.AQJ5.Q98 ",
    "n KJ9763.954.96.65 e T.Q3.AKT84.98743 s AQ542.KJ87.32.AK w 8.AT62.QJ75.QJT2 ",
    "n KT3..KJT86.J7654 e J7.AQT63.Q9.9832 s AQ542.KJ87.32.AK w 986.9542.A754.QT ",
];
pub(super) const CLASSIC_PREDEAL_X3_S77: &[&str] = &[
    "n K73.T2.KQT9.JT76 e 8.96543.AJ86.943 s AQ542.KJ87.32.AK w JT96.AQ.754.Q852 ",
    "n K73.T2.KQT9.JT76 e JT96.AQ.754.Q852 s AQ542.KJ87.32.AK w 8.96543.AJ86.943 ",
    "n K73.T2.KQT9.JT76 e JT96.AQ.754.Q852 s 8.96543.AJ86.943 w AQ542.KJ87.32.AK ",
    "n K73.T2.KQT9.JT76 e 8.96543.AJ86.943 s JT96.AQ.754.Q852 w AQ542.KJ87.32.AK ",
    "n K73.T2.KQT9.JT76 e AQ542.KJ87.32.AK s JT96.AQ.754.Q852 w 8.96543.AJ86.943 ",
    "n K73.T2.KQT9.JT76 e AQ542.KJ87.32.AK s 8.96543.AJ86.943 w JT96.AQ.754.Q852 ",
    "n AQ53.T7.Q93.A875 e J976.AKQ82.7.T62 s 8.96543.AJ86.943 w KT42.J.KT542.KQJ ",
    "n AQ53.T7.Q93.A875 e KT42.J.KT542.KQJ s 8.96543.AJ86.943 w J976.AKQ82.7.T62 ",
    "n AQ53.T7.Q93.A875 e KT42.J.KT542.KQJ s J976.AKQ82.7.T62 w 8.96543.AJ86.943 ",
    "n AQ53.T7.Q93.A875 e J976.AKQ82.7.T62 s KT42.J.KT542.KQJ w 8.96543.AJ86.943 ",
    "n AQ53.T7.Q93.A875 e 8.96543.AJ86.943 s KT42.J.KT542.KQJ w J976.AKQ82.7.T62 ",
    "n AQ53.T7.Q93.A875 e 8.96543.AJ86.943 s J976.AKQ82.7.T62 w KT42.J.KT542.KQJ ",
];
pub(super) const CLASSIC_WEST13_S9: &[&str] = &[
    "n 74.A2.83.QJT9853 e 8653.T975.T652.2 s 92.8643.J974.764 w AKQJT.KQJ.AKQ.AK ",
    "n 953.AT64.T642.J6 e 62.9732.J85.9872 s 874.85.973.QT543 w AKQJT.KQJ.AKQ.AK ",
    "n 7.A932.JT2.97542 e 9532.74.987.QJT3 s 864.T865.6543.86 w AKQJT.KQJ.AKQ.AK ",
    "n 654.A53.542.Q532 e 9832.T976.J3.864 s 7.842.T9876.JT97 w AKQJT.KQJ.AKQ.AK ",
    "n 6.A7653.54.86543 e 8732.T.J97.QJT72 s 954.9842.T8632.9 w AKQJT.KQJ.AKQ.AK ",
    "n 3.A42.J7652.QT84 e 8754.863.983.J95 s 962.T975.T4.7632 w AKQJT.KQJ.AKQ.AK ",
    "n .AT843.J8743.QT8 e 972.7652.2.J9654 s 86543.9.T965.732 w AKQJT.KQJ.AKQ.AK ",
    "n 9862.A85.J876.82 e 74.T96.T543.J954 s 53.7432.92.QT763 w AKQJT.KQJ.AKQ.AK ",
    "n 872.A985.7642.J7 e 95.76.53.Q985432 s 643.T432.JT98.T6 w AKQJT.KQJ.AKQ.AK ",
    "n 98.AT965.T.T7654 e 64.873.86432.983 s 7532.42.J975.QJ2 w AKQJT.KQJ.AKQ.AK ",
];
pub(super) const CLASSIC_51_S3: &[&str] = &[
    "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 ",
    "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 ",
    "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 ",
];
pub(super) const CLASSIC_RND_S1: &[&str] = &[
    "n 2.T98.K752.KJT84 e 5.J7642.986.9763 s AQ8.AQ5.QJT.AQ52 w KJT97643.K3.A43. 192",
    "n J.3.KQJ85.AKJ764 e AQT75.J92.7.T952 s K943.AQT65.9.Q83 w 862.K874.AT6432. 881",
    "n 65.KT64.J952.KJ8 e AKQ9.9.Q8.AQ9632 s T843.AQ832.KT4.7 w J72.J75.A763.T54 461",
    "n 5.KJ3.KJT9863.76 e KQT43.AT2.Q4.AJ9 s J72.Q987.A2.T852 w A986.654.75.KQ43 248",
    "n KT5.J9.K63.KJ875 e QJ3.AKT.AT9875.3 s 9764.Q865.QJ.AT2 w A82.7432.42.Q964 532",
    "n J8.Q93.AJ743.K72 e Q.J64.62.AQJT963 s T763.AK872.Q.854 w AK9542.T5.KT985. 139",
    "n .AJT9843.432.Q76 e KJT853.75.AQ7.T5 s AQ6.2.KT96.AKJ82 w 9742.KQ6.J85.943 897",
    "n AKQ84.J93.AJ6.QT e T9.AKQ862.832.87 s J7.54.KQ954.AK53 w 6532.T7.T7.J9642 290",
    "n J83.AQ87.K852.T3 e Q9642.64.A6.AQJ8 s AKT5.KJT5.T3.K65 w 7.932.QJ974.9742 152",
    "n QJT972.J5.A3.KQ9 e K54.KT832.K42.A5 s A6.Q7.Q9865.J864 w 83.A964.JT7.T732 794",
];
pub(super) const CLASSIC_BIAS_IGNORED_S1: &[&str] = &[
    "n 2.T98.K752.KJT84 e 5.J7642.986.9763 s AQ8.AQ5.QJT.AQ52 w KJT97643.K3.A43. ",
    "n Q7432.Q63.983.J4 e .J92.QT6.A986532 s KJT95.K854.K5.KT w A86.AT7.AJ742.Q7 ",
    "n K83.QJ8.J987.987 e QT54.654.KQT3.A2 s A7.A93.6542.JT64 w J962.KT72.A.KQ53 ",
    "n K32.AKQJ96.53.K7 e AQJT7.43.JT87.84 s 4.872.AQ642.J532 w 9865.T5.K9.AQT96 ",
    "n KQT52.AK.J76.974 e A83.T96542.2.532 s 964.Q7.K85.AQT86 w J7.J83.AQT943.KJ ",
    "n JT973.73.72.JT52 e A62.KT542.QJ643. s K84.AJ98.KT98.98 w Q5.Q6.A5.AKQ7643 ",
    "n AQ86.AKT32.2.T82 e 94.J987.J43.AKQ5 s KJT72.654.76.J63 w 53.Q.AKQT985.974 ",
    "n 94.T93.K954.KQT5 e T8765.82.QT7.J96 s 3.J754.A8632.842 w AKQJ2.AKQ6.J.A73 ",
    "n J87.AJ3.K76542.2 e 54.96.AJ983.9873 s A962.874.T.AKQJT w KQT3.KQT52.Q.654 ",
    "n J73.9.95.KT87652 e QT96.AQ73.KT3.93 s 82.KJ654.AQJ4.J4 w AK54.T82.8762.AQ ",
];
pub(super) const V2_SWAPPING_S311_X3: &[&str] = &[
    "n K765.AT843.Q8.86 e QJ842.J72.KJ2.J4 s AT3.KQ95.T754.Q7 w 9.6.A963.AKT9532 ",
    "n K765.AT843.Q8.86 e 9.6.A963.AKT9532 s AT3.KQ95.T754.Q7 w QJ842.J72.KJ2.J4 ",
    "n K765.AT843.Q8.86 e 9.6.A963.AKT9532 s QJ842.J72.KJ2.J4 w AT3.KQ95.T754.Q7 ",
    "n K765.AT843.Q8.86 e QJ842.J72.KJ2.J4 s 9.6.A963.AKT9532 w AT3.KQ95.T754.Q7 ",
    "n K765.AT843.Q8.86 e AT3.KQ95.T754.Q7 s 9.6.A963.AKT9532 w QJ842.J72.KJ2.J4 ",
    "n K765.AT843.Q8.86 e AT3.KQ95.T754.Q7 s QJ842.J72.KJ2.J4 w 9.6.A963.AKT9532 ",
    "n KJ7.J73.J6532.84 e 985.2.AQ97.A9632 s 62.AT986.K84.QJT w AQT43.KQ54.T.K75 ",
    "n KJ7.J73.J6532.84 e AQT43.KQ54.T.K75 s 62.AT986.K84.QJT w 985.2.AQ97.A9632 ",
    "n KJ7.J73.J6532.84 e AQT43.KQ54.T.K75 s 985.2.AQ97.A9632 w 62.AT986.K84.QJT ",
    "n KJ7.J73.J6532.84 e 985.2.AQ97.A9632 s AQT43.KQ54.T.K75 w 62.AT986.K84.QJT ",
    "n KJ7.J73.J6532.84 e 62.AT986.K84.QJT s AQT43.KQ54.T.K75 w 985.2.AQ97.A9632 ",
    "n KJ7.J73.J6532.84 e 62.AT986.K84.QJT s 985.2.AQ97.A9632 w AQT43.KQ54.T.K75 ",
];
pub(super) const V2_YOU_HOLD_S271: &[&str] = &[
    "n J76.T9.AKJT975.8 e T98.432.Q64.7654 s AQ542.KJ87.32.AK w K3.AQ65.8.QJT932 ",
    "n KJ.Q42.KJ9864.84 e T8.T95.Q75.T9765 s AQ542.KJ87.32.AK w 9763.A63.AT.QJ32 ",
    "n 876.54.KQJT94.84 e KT3.Q93.87.JT952 s AQ542.KJ87.32.AK w J9.AT62.A65.Q763 ",
    "n T8.9.KQT8654.Q52 e J97.AT542.7.T987 s AQ542.KJ87.32.AK w K63.Q63.AJ9.J643 ",
    "n 3.AQT.QJT954.JT7 e T976.52.876.Q843 s AQ542.KJ87.32.AK w KJ8.9643.AK.9652 ",
    "n T7.T43.AK9764.97 e K9863.62.T8.Q642 s AQ542.KJ87.32.AK w J.AQ95.QJ5.JT853 ",
    "n 7.A65.QJ9765.Q73 e JT3.T42.T8.JT952 s AQ542.KJ87.32.AK w K986.Q93.AK4.864 ",
    "n 9.A54.KJT654.864 e T876.Q9632.97.Q7 s AQ542.KJ87.32.AK w KJ3.T.AQ8.JT9532 ",
    "n 9.AT.QT98764.JT9 e T863.954.J5.Q754 s AQ542.KJ87.32.AK w KJ7.Q632.AK.8632 ",
    "n J9.942.AT9876.Q5 e 87.T53.K54.JT862 s AQ542.KJ87.32.AK w KT63.AQ6.QJ.9743 ",
    "n J6.43.AKJT654.87 e 97.T9652.Q7.JT92 s AQ542.KJ87.32.AK w KT83.AQ.98.Q6543 ",
    "n 93.53.AKQ864.Q63 e J87.T964.975.875 s AQ542.KJ87.32.AK w KT6.AQ2.JT.JT942 ",
    "n J8.Q4.QJT987.J95 e 976.532.A6.T8742 s AQ542.KJ87.32.AK w KT3.AT96.K54.Q63 ",
    "n 863.32.KQ9875.J5 e J9.Q94.JT64.9874 s AQ542.KJ87.32.AK w KT7.AT65.A.QT632 ",
    "n 87.Q4.KJT984.953 e JT9.T965.Q7.7642 s AQ542.KJ87.32.AK w K63.A32.A65.QJT8 ",
    "n J7.QT.KQT986.964 e 86.6542.J5.J8753 s AQ542.KJ87.32.AK w KT93.A93.A74.QT2 ",
    "n J93.32.KQ9865.63 e 86.QT65.JT.98542 s AQ542.KJ87.32.AK w KT7.A94.A74.QJT7 ",
    "n KJ3.T4.KJT986.J5 e T876.6532.Q4.632 s AQ542.KJ87.32.AK w 9.AQ9.A75.QT9874 ",
    "n 73.T6.KQJ976.QJT e JT8.95432.T.9864 s AQ542.KJ87.32.AK w K96.AQ.A854.7532 ",
    "n K3.942.AQT876.J4 e JT9876.T6.9.T965 s AQ542.KJ87.32.AK w .AQ53.KJ54.Q8732 ",
    "n J9.65.AQJ9654.Q8 e T763.QT42.7.T632 s AQ542.KJ87.32.AK w K8.A93.KT8.J9754 ",
    "n T9.A53.AT9865.J4 e J73.942.Q74.T965 s AQ542.KJ87.32.AK w K86.QT6.KJ.Q8732 ",
    "n J97.4.AT98765.QT e T63.AT532.J4.965 s AQ542.KJ87.32.AK w K8.Q96.KQ.J87432 ",
    "n 963.Q42.AKT964.2 e 87.T93.J75.JT653 s AQ542.KJ87.32.AK w KJT.A65.Q8.Q9874 ",
    "n JT6.542.AQ9765.3 e 987.93.T4.QT8752 s AQ542.KJ87.32.AK w K3.AQT6.KJ8.J964 ",
];
pub(super) const V2_STARTBOARD_S347: &[&str] = &[
    "n 7.AK93.AQJT52.JT e K943.Q74.7.K9874 s AT865.2.9843.A52 w QJ2.JT865.K6.Q63 ",
    "n QJ9652.AQ74..T42 e KT.J6.JT92.KJ965 s A83.K82.K854.A83 w 74.T953.AQ763.Q7 ",
    "n Q96.Q874.JT6.876 e AKT8.KJ5.92.AKT5 s J42.T962.KQ84.J4 w 753.A3.A753.Q932 ",
    "n JT4.J4.KQJ7.T763 e 98.AKQT9632.A2.4 s A652.7.T964.AK92 w KQ73.85.853.QJ85 ",
    "n 432.Q8632.AK7.Q4 e KQ965.AT4.QJ3.82 s JT.J95.T98.AK753 w A87.K7.6542.JT96 ",
    "n AK98.J4.T7.AQ943 e T32.A832.Q64.J65 s QJ754.KQ95.8.K87 w 6.T76.AKJ9532.T2 ",
    "n T98642..764.K632 e KJ.AT8432.J8.AJ4 s A3.KQJ65.QT2.T87 w Q75.97.AK953.Q95 ",
    "n AT752.KQJ.T3.876 e .98.KQJ94.JT9532 s QJ.AT76543.752.K w K98643.2.A86.AQ4 ",
];
pub(super) const V2_2NT_DEMO_S11: &[&str] = &[
    "n 762.6532.J6.AT63 e AKT8.A9.AKQ4.QJ7 s J954.84.T52.K542 w Q3.KQJT7.9873.98 ",
    "n Q9532.8.KT83.J97 e AKJT.AQ9.AJ9.KQ2 s 76.T752.64.A8653 w 84.KJ643.Q752.T4 ",
    "n 762.832.J952.J93 e AJ54.A64.AKQ7.AQ s KQT83.5.863.K752 w 9.KQJT97.T4.T864 ",
    "n A84.J642.T8.J732 e KT3.AT7.AKQ9.AKT s Q9765.K.7653.Q96 w J2.Q9853.J42.854 ",
    "n Q9.Q42.T543.8753 e AJ8.AT83.AKQ.AJ9 s K753.J97.J762.Q6 w T642.K65.98.KT42 ",
    "n T53.Q86.KT82.962 e AKJ7.A3.AQ54.KQJ s 642.T75.J93.AT87 w Q98.KJ942.76.543 ",
    "n 8643.96.JT6.KJ82 e AJ2.AKJT.AQ52.A5 s T5.Q5432.K98.T74 w KQ97.87.743.Q963 ",
    "n 987.KJT4.A74.943 e AKJ.A7.QJ52.AKQ8 s 52.Q93.KT93.JT65 w QT643.8652.86.72 ",
    "n 654.J85.7653.A54 e AKJ3.AQ42.AT.KQ3 s QT9872.K.82.9762 w .T9763.KQJ94.JT8 ",
    "n T853.T73.42.KJ76 e A2.AKJ4.KQ5.AQT4 s K9764.6.T987.932 w QJ.Q9852.AJ63.85 ",
];
pub(super) const V2_BIAS_0S7D_S281_EW: &[&str] = &[
    "e .AQ97432.K8.AKJ2 w A76.6.AJ97632.Q6 ",
    "e .AK7652.Q543.Q82 w 7643..AKT9762.K6 ",
    "e .AKT8632.Q.KJ432 w KQ7.5.JT96432.Q7 ",
    "e .AKJ43.2.AQJ6532 w A974..AKT9843.K8 ",
    "e .KQ97532.AK52.A2 w QT42.T4.QT98643. ",
];
pub(super) const V2_BIAS_4HANDS_S283: &[&str] = &[
    "n K84.AKJ6.K732.63 e 53.93.QJT94.QT75 s AJT62.5.A8.AK982 w Q97.QT8742.65.J4 ",
    "n T96.K5.743.AKQJ2 e A8.73.AQJ82.8763 s KQJ52.AQ6.T965.9 w 743.JT9842.K.T54 ",
    "n J43.AT8.6.K98753 e Q5.9.KQ9832.QT62 s KT962.754.AT.AJ4 w A87.KQJ632.J754. ",
    "n 975.QJ5.K32.JT62 e A3.AT9.T876.7543 s KQJ82.K.AQJ54.A9 w T64.876432.9.KQ8 ",
    "n AJ8.Q3.AQJ3.Q543 e 53.987.T754.8762 s Q9742.K6.K96.AKJ w KT6.AJT542.82.T9 ",
];

mod smart;

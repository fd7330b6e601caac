//! Statistical tests of the default ChaCha dealing against exact combinatorial probabilities
//! (dealer-v1-behaviour.md §8.4): one million deals, tolerances of about five standard errors.

use dealer::cards::{Seat, Suit};
use dealer::dealing::{Dealer, DealingSetup, GeneratorKind};
use dealer::program::hand_stats::{CountTables, HCP_TABLE};

const DEALS: usize = 1_000_000;

fn chacha(seed: i64, predeal: Vec<(Seat, dealer::cards::Card)>) -> Dealer {
    Dealer::new(&DealingSetup {
        generator: GeneratorKind::ChaCha,
        seed,
        drand48_state: None,
        predeal,
        bias: [[-1; 4]; 4],
        spots: Vec::new(),
        swap: 0,
        first_seat: None,
        first_seat_table: None,
        first_partner: None,
        first_seat_biased: None,
    })
    .expect("valid setup")
}

/// Asserts an observed frequency is within 5 standard errors of the exact probability.
fn assert_close(what: &str, count: usize, trials: usize, p: f64) {
    let observed = count as f64 / trials as f64;
    let sigma = (p * (1.0 - p) / trials as f64).sqrt();
    assert!(
        (observed - p).abs() <= 5.0 * sigma + 1e-9,
        "{what}: observed {observed:.6}, expected {p:.6} (5 sigma = {:.6})",
        5.0 * sigma
    );
}

#[test]
fn hcp_suit_lengths_and_shapes_match_exact_probabilities() {
    let mut dealer = chacha(20261121, Vec::new());
    let counts = CountTables::new();
    let mut hcp_hist = [0usize; 41];
    let mut hcp_sum = [0f64; 4];
    let mut lengths = [0usize; 14];
    let mut patterns = std::collections::HashMap::<[u32; 4], usize>::new();
    let mut balanced = 0usize;
    let mut controls = 0usize;
    for _ in 0..DEALS {
        let deal = dealer.deal().expect("ChaCha never rejects a deal");
        assert!(deal.is_complete());
        for seat in Seat::ALL {
            let h = deal.hand(seat);
            hcp_sum[seat.index()] += counts.count(HCP_TABLE, h, None) as f64;
        }
        let north = deal.hand(Seat::North);
        hcp_hist[counts.count(HCP_TABLE, north, None) as usize] += 1;
        lengths[north.len(Suit::Spades) as usize] += 1;
        let mut p =
            [north.len(Suit::Spades), north.len(Suit::Hearts), north.len(Suit::Diamonds), north.len(Suit::Clubs)];
        p.sort_unstable_by(|a, b| b.cmp(a));
        *patterns.entry(p).or_default() += 1;
        if matches!(p, [4, 3, 3, 3] | [4, 4, 3, 2] | [5, 3, 3, 2]) {
            balanced += 1;
        }
        controls += dealer::program::hand_stats::controls(north, None) as usize;
    }
    // Mean HCP per seat is exactly 10.
    for (seat, sum) in hcp_sum.iter().enumerate() {
        let mean = sum / DEALS as f64;
        let se = (17.0588f64 / DEALS as f64).sqrt();
        assert!((mean - 10.0).abs() < 5.0 * se, "seat {seat}: mean hcp {mean}");
    }
    // HCP distribution: chi-squared over 0..=25 with the tail pooled.
    let exact = [
        0.3639, 0.7884, 1.3561, 2.4624, 3.8454, 5.1862, 6.5541, 8.0281, 8.8922, 9.3562, 9.4051, 8.9447, 8.0269, 6.9143,
        5.6933, 4.4237, 3.3109, 2.3617, 1.6051, 1.0362, 0.6435, 0.3779, 0.2100, 0.1119, 0.0559, 0.0264,
    ];
    let mut chi2 = 0.0;
    let mut tail_exact = 100.0;
    for (points, pct) in exact.iter().enumerate() {
        let expected = pct / 100.0 * DEALS as f64;
        chi2 += (hcp_hist[points] as f64 - expected).powi(2) / expected;
        tail_exact -= pct;
        assert_close(&format!("P(hcp = {points})"), hcp_hist[points], DEALS, pct / 100.0 * 1.0);
    }
    let tail: usize = hcp_hist[26..].iter().sum();
    let expected_tail = tail_exact.max(0.0) / 100.0 * DEALS as f64;
    chi2 += (tail as f64 - expected_tail).powi(2) / expected_tail.max(1.0);
    assert!(chi2 < 70.0, "hcp chi-squared {chi2} over 26 degrees of freedom");
    // Suit lengths.
    let exact_lengths = [1.2791, 8.0062, 20.5873, 28.6330, 23.8608, 12.4692, 4.1564, 0.8817, 0.1167];
    for (len, pct) in exact_lengths.iter().enumerate() {
        assert_close(&format!("P(spades = {len})"), lengths[len], DEALS, pct / 100.0);
    }
    // Hand patterns.
    for (pattern, pct) in [
        ([4, 4, 3, 2], 21.5512),
        ([5, 3, 3, 2], 15.5168),
        ([5, 4, 3, 1], 12.9307),
        ([5, 4, 2, 2], 10.5797),
        ([4, 3, 3, 3], 10.5361),
        ([6, 3, 2, 2], 5.6425),
        ([6, 4, 2, 1], 4.7021),
        ([7, 3, 2, 1], 1.8808),
    ] {
        let n = patterns.get(&pattern).copied().unwrap_or(0);
        assert_close(&format!("P({pattern:?})"), n, DEALS, pct / 100.0);
    }
    assert_close("P(balanced)", balanced, DEALS, 0.476042);
    let mean_controls = controls as f64 / DEALS as f64;
    assert!((mean_controls - 3.0).abs() < 0.01, "mean controls {mean_controls}");
}

#[test]
fn predealt_cards_stay_and_the_rest_is_uniform() {
    use dealer::cards::Card;
    let ace_spades = Card::new(Suit::Spades, 12);
    let king_hearts = Card::new(Suit::Hearts, 11);
    let mut dealer = chacha(5, vec![(Seat::South, ace_spades), (Seat::West, king_hearts)]);
    let two_clubs = Card::new(Suit::Clubs, 0);
    let mut holder = [0usize; 4];
    let trials = 200_000;
    for _ in 0..trials {
        let deal = dealer.deal().expect("deal");
        assert!(deal.is_complete());
        assert_eq!(deal.holder(ace_spades), Some(Seat::South));
        assert_eq!(deal.holder(king_hearts), Some(Seat::West));
        holder[deal.holder(two_clubs).expect("held").index()] += 1;
    }
    // North and East have 13 free slots, South and West 12, among 50 free cards.
    for (seat, free) in [(0, 13.0), (1, 13.0), (2, 12.0), (3, 12.0)] {
        assert_close(&format!("C2 with seat {seat}"), holder[seat], trials, free / 50.0);
    }
}

#[test]
fn the_same_seed_gives_the_same_deals() {
    let mut a = chacha(99, Vec::new());
    let mut b = chacha(99, Vec::new());
    let mut c = chacha(100, Vec::new());
    let mut differs = false;
    for _ in 0..1000 {
        let (x, y, z) = (a.deal(), b.deal(), c.deal());
        assert_eq!(x, y);
        differs |= x != z;
    }
    assert!(differs);
}

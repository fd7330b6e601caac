//! Smart dealing's exactness: a deal whose first seat is drawn from its [`SeatTable`] (weighted
//! by the bias, under bias predeal: [`BiasedTable`]) is exactly uniform over the deals whose
//! first seat satisfies the table's condition, checked by enumerating every deal of a small
//! pack and, on the full pack, against plain dealing with rejection.

use super::*;

/// The table of `seat`'s hands under `predeal` that satisfy `accept`, which reads the hand's
/// suit lengths and high-card points.
fn table(predeal: &[(Seat, Card)], seat: Seat, accept: impl Fn(Hand) -> bool) -> Arc<SeatTable> {
    let (free, own, slots) = seat_cards(predeal, seat);
    let reading = HandReading { lengths: true, values: vec![ReadValue::exact(ValueScope::Total, Box::new(hcp))] };
    Arc::new(SeatTable::build(free, own, slots, &reading, &mut |h| accept(h), None, TableLimits::default()).unwrap())
}

fn smart_setup(seed: i64, predeal: Vec<(Seat, Card)>, seat: Seat, accept: impl Fn(Hand) -> bool) -> DealingSetup {
    let first_seat_table = Some(table(&predeal, seat, accept));
    DealingSetup { seed, predeal, first_seat: Some(seat), first_seat_table, ..DealingSetup::default() }
}

#[test]
fn every_deal_of_a_small_pack_is_equally_likely() {
    // The spade and heart A K Q J are free, the other 44 cards predealt eleven to a seat: the
    // free cards go two to a seat, 2,520 deals, of which those where East has 4+ points are kept.
    let honours = 0x1E00_1E00_0000_0000u64;
    let pre: Vec<(Seat, Card)> = (0..52)
        .map(Card::from_ordinal)
        .filter(|card| honours & card.bit() == 0)
        .enumerate()
        .map(|(i, card)| (Seat::ALL[i % 4], card))
        .collect();
    let (free, _, slots) = seat_cards(&pre, Seat::East);
    assert_eq!((free, slots), (honours, 2));
    let accept = |h: Hand| hcp(Hand(h.0 & honours)) >= 4;
    let setup = smart_setup(7, pre.clone(), Seat::East, accept);
    let mut dealer = Dealer::new(&setup).unwrap();
    assert_eq!(dealer.dealing_order()[0], Seat::East);
    // Every way to give the free cards two to a seat, East's meeting the condition.
    let cards: Vec<u64> = (0..64).filter(|b| free >> b & 1 != 0).map(|b| 1u64 << b).collect();
    let mut cells = std::collections::HashMap::new();
    for code in 0..4u32.pow(8) {
        let seats: Vec<usize> = (0..8).map(|i| (code / 4u32.pow(i) % 4) as usize).collect();
        if (0..4).any(|s| seats.iter().filter(|&&x| x == s).count() != 2) {
            continue;
        }
        let east = (0..8).filter(|&i| seats[i] == Seat::East.index()).fold(0, |h, i| h | cards[i]);
        if accept(Hand(east)) {
            let key: Vec<u64> =
                (0..4).map(|s| (0..8).filter(|&i| seats[i] == s).fold(0, |h, i| h | cards[i])).collect();
            let next = cells.len();
            cells.insert(key, next);
        }
    }
    assert!(cells.len() > 200, "{}", cells.len());
    let mut counts = vec![0u64; cells.len()];
    let draws = 300 * cells.len();
    for _ in 0..draws {
        let deal = dealer.deal().unwrap();
        let key: Vec<u64> = deal.0.iter().map(|hand| hand.0 & free).collect();
        counts[*cells.get(&key).expect("a deal whose East meets the condition")] += 1;
    }
    let p = vec![1.0 / cells.len() as f64; cells.len()];
    assert!(chi_square(&counts, &p) < chi_square_limit(cells.len() as f64 - 1.0));
}

#[test]
fn a_smart_seat_deals_like_rejection_on_the_full_pack() {
    // East balanced with 15–17 (1 hand in ~40), with a card predealt to North: smart dealing
    // against plain dealing kept by the same condition, on East's points and spades, North's
    // points and hearts, South's spades and whether West holds the club ace.
    const N: u64 = 250_000;
    let pre = predeal("north SA");
    let accept = |h: Hand| balanced(h) && (15..=17).contains(&hcp(h));
    let mut smart = Dealer::new(&smart_setup(3, pre.clone(), Seat::East, accept)).unwrap();
    let mut plain_setup = setup(GeneratorKind::ChaCha, 4);
    plain_setup.predeal = pre;
    let mut plain = Dealer::new(&plain_setup).unwrap();
    let cell = |d: &Deal| {
        let (n, e, s, w) = (d.hand(Seat::North), d.hand(Seat::East), d.hand(Seat::South), d.hand(Seat::West));
        let ace = usize::from(w.contains(Card::new(Suit::Clubs, 12)));
        [
            (hcp(e) - 15) as usize * 6 + e.len(Suit::Spades) as usize,
            100 + hcp(n).min(25) as usize * 14 + n.len(Suit::Hearts) as usize,
            500 + s.len(Suit::Spades) as usize * 2 + ace,
        ]
    };
    let (mut ours, mut kept) = (vec![0u64; 600], vec![0u64; 600]);
    for _ in 0..N {
        let d = smart.deal().unwrap();
        assert!(accept(d.hand(Seat::East)));
        for c in cell(&d) {
            ours[c] += 1;
        }
    }
    let mut accepted = 0;
    while accepted < N {
        let d = plain.deal().unwrap();
        if accept(d.hand(Seat::East)) {
            for c in cell(&d) {
                kept[c] += 1;
            }
            accepted += 1;
        }
    }
    // Three statistics per deal: each block's cells are a two-sample test of their own.
    for block in [0..100, 100..500, 500..600] {
        let (mut chi, mut cells) = (0.0, 0.0);
        for (&x, &y) in ours[block.clone()].iter().zip(&kept[block.clone()]) {
            if x + y >= 10 {
                chi += (x as f64 - y as f64).powi(2) / (x + y) as f64;
                cells += 1.0;
            }
        }
        assert!(
            cells >= 8.0 && chi < chi_square_limit(cells - 1.0),
            "block {block:?}: chi-square {chi} over {cells} cells"
        );
    }
}

/// Smart dealing's setup under `bias`: `seat` dealt first, from its table weighted by the bias.
fn biased_setup(
    seed: i64,
    predeal: Vec<(Seat, Card)>,
    bias: [[i8; 4]; 4],
    seat: Seat,
    accept: impl Fn(Hand) -> bool,
) -> (DealingSetup, Arc<BiasedTable>) {
    let table = table(&predeal, seat, accept);
    let mut setup = DealingSetup { seed, predeal, bias, first_seat: Some(seat), ..DealingSetup::default() };
    let biased = Arc::new(BiasedTable::new(table, &setup, seat).expect("a deal meets the bias and the factor"));
    setup.first_seat_biased = Some(biased.clone());
    (setup, biased)
}

#[test]
fn every_deal_of_a_small_pack_is_equally_likely_under_bias() {
    // The small pack above (the spade and heart A K Q J free, two to a seat), with East's
    // hearts set to one more than its predealt hearts and West's spades to two more: every
    // deal meeting the bias whose East has 4+ points equally likely, and the share of such
    // deals among those meeting the bias exact.
    let honours = 0x1E00_1E00_0000_0000u64;
    let pre: Vec<(Seat, Card)> = (0..52)
        .map(Card::from_ordinal)
        .filter(|card| honours & card.bit() == 0)
        .enumerate()
        .map(|(i, card)| (Seat::ALL[i % 4], card))
        .collect();
    let held = |seat: Seat, suit: Suit| pre.iter().filter(|(s, c)| *s == seat && c.suit() == suit).count() as i8;
    let (hearts, spades) = (Suit::Hearts.index(), Suit::Spades.index());
    let mut bias = [[-1i8; 4]; 4];
    bias[Seat::East.index()][hearts] = held(Seat::East, Suit::Hearts) + 1;
    bias[Seat::West.index()][spades] = held(Seat::West, Suit::Spades) + 2;
    let (free, _, _) = seat_cards(&pre, Seat::East);
    let accept = |h: Hand| hcp(Hand(h.0 & honours)) >= 4;
    let (setup, biased) = biased_setup(9, pre.clone(), bias, Seat::East, accept);
    let mut dealer = Dealer::new(&setup).unwrap();
    let cards: Vec<u64> = (0..64).filter(|b| free >> b & 1 != 0).map(|b| 1u64 << b).collect();
    let lane = |hand: u64, suit: usize| (hand >> (16 * suit) & 0x1FFF).count_ones();
    let (mut cells, mut meeting_bias) = (std::collections::HashMap::new(), 0u64);
    for code in 0..4u32.pow(8) {
        let seats: Vec<usize> = (0..8).map(|i| (code / 4u32.pow(i) % 4) as usize).collect();
        if (0..4).any(|s| seats.iter().filter(|&&x| x == s).count() != 2) {
            continue;
        }
        let key: Vec<u64> = (0..4).map(|s| (0..8).filter(|&i| seats[i] == s).fold(0, |h, i| h | cards[i])).collect();
        if lane(key[Seat::East.index()], hearts) != 1 || lane(key[Seat::West.index()], spades) != 2 {
            continue;
        }
        meeting_bias += 1;
        if accept(Hand(key[Seat::East.index()])) {
            let next = cells.len();
            cells.insert(key, next);
        }
    }
    assert!(cells.len() > 30 && (cells.len() as u64) < meeting_bias, "{} of {meeting_bias}", cells.len());
    assert_eq!(biased.share(), Some(cells.len() as f64 / meeting_bias as f64));
    let mut counts = vec![0u64; cells.len()];
    let draws = 1000 * cells.len();
    for _ in 0..draws {
        let deal = dealer.deal().unwrap();
        let key: Vec<u64> = deal.0.iter().map(|hand| hand.0 & free).collect();
        counts[*cells.get(&key).expect("a deal meeting the bias whose East meets the condition")] += 1;
    }
    let p = vec![1.0 / cells.len() as f64; cells.len()];
    assert!(chi_square(&counts, &p) < chi_square_limit(cells.len() as f64 - 1.0));
}

#[test]
fn a_smart_seat_deals_like_biased_rejection_on_the_full_pack() {
    // East balanced with 12-17 (1 hand in 8), North's spades set to 5 and West's hearts to
    // 1, the spade ace predealt to North: smart dealing against plain biased dealing kept by
    // the same condition, on East's points and spades, North's points and hearts, South's
    // spades and whether West holds the club ace.
    const N: u64 = 150_000;
    let pre = predeal("north SA");
    let mut bias = [[-1i8; 4]; 4];
    bias[Seat::North.index()][Suit::Spades.index()] = 5;
    bias[Seat::West.index()][Suit::Hearts.index()] = 1;
    let accept = |h: Hand| balanced(h) && (12..=17).contains(&hcp(h));
    let (smart_setup, biased) = biased_setup(3, pre.clone(), bias, Seat::East, accept);
    let mut smart = Dealer::new(&smart_setup).unwrap();
    let mut plain = Dealer::new(&DealingSetup { seed: 4, predeal: pre, bias, ..DealingSetup::default() }).unwrap();
    let cell = |d: &Deal| {
        let (n, e, s, w) = (d.hand(Seat::North), d.hand(Seat::East), d.hand(Seat::South), d.hand(Seat::West));
        let ace = usize::from(w.contains(Card::new(Suit::Clubs, 12)));
        [
            (hcp(e) - 12) as usize * 6 + e.len(Suit::Spades) as usize,
            100 + hcp(n).min(25) as usize * 14 + n.len(Suit::Hearts) as usize,
            500 + s.len(Suit::Spades) as usize * 2 + ace,
        ]
    };
    let (mut ours, mut kept) = (vec![0u64; 600], vec![0u64; 600]);
    for _ in 0..N {
        let d = smart.deal().unwrap();
        assert!(accept(d.hand(Seat::East)));
        assert_eq!((d.hand(Seat::North).len(Suit::Spades), d.hand(Seat::West).len(Suit::Hearts)), (5, 1));
        assert!(d.hand(Seat::North).contains(Card::new(Suit::Spades, 12)));
        for c in cell(&d) {
            ours[c] += 1;
        }
    }
    let (mut accepted, mut dealt) = (0, 0u64);
    while accepted < N {
        let d = plain.deal().unwrap();
        dealt += 1;
        if accept(d.hand(Seat::East)) {
            for c in cell(&d) {
                kept[c] += 1;
            }
            accepted += 1;
        }
    }
    // The exact share against the share plain dealing kept (within 4.5 standard errors).
    let share = N as f64 / dealt as f64;
    let exact = biased.share().unwrap();
    let error = (exact * (1.0 - exact) / dealt as f64).sqrt();
    assert!((share - exact).abs() < 4.5 * error, "{share} against {exact}");
    for block in [0..100, 100..500, 500..600] {
        let (mut chi, mut cells) = (0.0, 0.0);
        for (&x, &y) in ours[block.clone()].iter().zip(&kept[block.clone()]) {
            if x + y >= 10 {
                chi += (x as f64 - y as f64).powi(2) / (x + y) as f64;
                cells += 1.0;
            }
        }
        assert!(
            cells >= 8.0 && chi < chi_square_limit(cells - 1.0),
            "block {block:?}: chi-square {chi} over {cells} cells"
        );
    }
}

#[test]
fn every_deal_of_a_small_pack_is_equally_likely_with_spot_cards() {
    // Eight free cards (the spade A K 5 4 3 2, the heart 3 2), the other 44 predealt eleven to
    // a seat, two free cards to each seat. West holds two small spades (`xx`): with East
    // counted on its points (a spade honour), and with East holding one small spade itself
    // (`x`) and counted on its hearts, every deal meeting the spot holdings whose East
    // satisfies its condition is equally likely.
    let free: u64 = (0x1800 | 0x000F) << 48 | 0x0003 << 32;
    let pre: Vec<(Seat, Card)> = (0..52)
        .map(Card::from_ordinal)
        .filter(|card| free & card.bit() == 0)
        .enumerate()
        .map(|(i, card)| (Seat::ALL[i % 4], card))
        .collect();
    let small_spades = 0x000Fu64 << 48;
    let spot = |seat, count| SpotCards { seat, suit: Suit::Spades, count };
    type Case = (Vec<SpotCards>, fn(Hand) -> bool);
    let cases: [Case; 2] = [
        (vec![spot(Seat::West, 2)], |h: Hand| hcp(h) >= 3),
        (vec![spot(Seat::West, 1), spot(Seat::East, 1)], |h: Hand| h.len(Suit::Hearts) >= 1),
    ];
    for (spots, accept) in cases {
        let mut setup = DealingSetup {
            seed: 5,
            predeal: pre.clone(),
            spots: spots.clone(),
            first_seat: Some(Seat::East),
            ..DealingSetup::default()
        };
        let (table_free, own, slots) = BiasedTable::seat_cards(&setup, Seat::East);
        let reading = HandReading { lengths: true, values: vec![ReadValue::exact(ValueScope::Total, Box::new(hcp))] };
        let table = SeatTable::build(
            table_free,
            own,
            slots,
            &reading,
            &mut |h| accept(Hand(h.0 & free)),
            None,
            TableLimits::default(),
        )
        .unwrap();
        setup.first_seat_biased = Some(Arc::new(BiasedTable::new(Arc::new(table), &setup, Seat::East).unwrap()));
        let mut dealer = Dealer::new(&setup).unwrap();
        // Every way to give the free cards two to a seat, each spot seat holding exactly its
        // x small spades and no other free spade, East meeting its condition.
        let cards: Vec<u64> = (0..64).filter(|b| free >> b & 1 != 0).map(|b| 1u64 << b).collect();
        let mut cells = std::collections::HashMap::new();
        for code in 0..4u32.pow(8) {
            let seats: Vec<usize> = (0..8).map(|i| (code / 4u32.pow(i) % 4) as usize).collect();
            if (0..4).any(|s| seats.iter().filter(|&&x| x == s).count() != 2) {
                continue;
            }
            let key: Vec<u64> =
                (0..4).map(|s| (0..8).filter(|&i| seats[i] == s).fold(0, |h, i| h | cards[i])).collect();
            let spots_met = spots.iter().all(|x| {
                let spades = key[x.seat.index()] & 0x1FFF << 48;
                spades.count_ones() == u32::from(x.count) && spades & !small_spades == 0
            });
            if spots_met && accept(Hand(key[Seat::East.index()])) {
                let next = cells.len();
                cells.insert(key, next);
            }
        }
        assert!(cells.len() > 10, "{}", cells.len());
        let mut counts = vec![0u64; cells.len()];
        let draws = 2000 * cells.len();
        let mut dealt = 0;
        while dealt < draws {
            // (No deal when East's hand holds a small card West's `x`s took.)
            let Some(deal) = dealer.deal() else { continue };
            let key: Vec<u64> = deal.0.iter().map(|hand| hand.0 & free).collect();
            counts[*cells.get(&key).expect("a deal meeting the spot holdings whose East meets its condition")] += 1;
            dealt += 1;
        }
        let p = vec![1.0 / cells.len() as f64; cells.len()];
        assert!(chi_square(&counts, &p) < chi_square_limit(cells.len() as f64 - 1.0), "{spots:?}");
    }
}

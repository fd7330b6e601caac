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

/// The small pack of `free`: every other card predealt, eleven to a seat in card order.
fn small_pack(free: u64) -> Vec<(Seat, Card)> {
    (0..52)
        .map(Card::from_ordinal)
        .filter(|card| free & card.bit() == 0)
        .enumerate()
        .map(|(i, card)| (Seat::ALL[i % 4], card))
        .collect()
}

/// Every way to give the eight cards of `free` two to a seat: each seat's cards.
fn two_to_a_seat(free: u64) -> Vec<[u64; 4]> {
    let cards: Vec<u64> = (0..64).filter(|b| free >> b & 1 != 0).map(|b| 1u64 << b).collect();
    assert_eq!(cards.len(), 8);
    let mut deals = Vec::new();
    for code in 0..4u32.pow(8) {
        let seats: Vec<usize> = (0..8).map(|i| (code / 4u32.pow(i) % 4) as usize).collect();
        if (0..4).all(|s| seats.iter().filter(|&&x| x == s).count() == 2) {
            deals.push(std::array::from_fn(|s| (0..8).filter(|&i| seats[i] == s).fold(0, |h, i| h | cards[i])));
        }
    }
    deals
}

/// Deals `per_cell` deals per cell from `deal`, each (its cards of `free`) one of `cells`, and
/// checks by a chi-square test that every cell is equally likely.
fn assert_equally_likely(cells: &[[u64; 4]], free: u64, per_cell: usize, mut deal: impl FnMut() -> Deal, what: &str) {
    let index: std::collections::HashMap<[u64; 4], usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let mut counts = vec![0u64; cells.len()];
    for _ in 0..per_cell * cells.len() {
        let key = deal().0.map(|hand| hand.0 & free);
        counts[*index.get(&key).unwrap_or_else(|| panic!("{what}: a deal outside the cells"))] += 1;
    }
    let p = vec![1.0 / cells.len() as f64; cells.len()];
    assert!(chi_square(&counts, &p) < chi_square_limit(cells.len() as f64 - 1.0), "{what}");
}

/// `n` deals from `smart` (each checked by `check`) against the first `n` deals of `plain`
/// that `accept` keeps, compared on the statistics of `cell` (three blocks of cells: points
/// and spades, 0..100; points and hearts, 100..500; spades and an ace, 500..600), each block a
/// two-sample chi-square test of its own; returns the deals `plain` dealt.
fn assert_deals_like_rejection(
    smart: &mut Dealer,
    plain: &mut Dealer,
    n: u64,
    accept: impl Fn(Hand) -> bool,
    cell: impl Fn(&Deal) -> [usize; 3],
    check: impl Fn(&Deal),
) -> u64 {
    let (mut ours, mut kept) = (vec![0u64; 600], vec![0u64; 600]);
    for _ in 0..n {
        let d = smart.deal().unwrap();
        assert!(accept(d.hand(Seat::East)));
        check(&d);
        for c in cell(&d) {
            ours[c] += 1;
        }
    }
    let (mut accepted, mut dealt) = (0, 0u64);
    while accepted < n {
        let d = plain.deal().unwrap();
        dealt += 1;
        if accept(d.hand(Seat::East)) {
            for c in cell(&d) {
                kept[c] += 1;
            }
            accepted += 1;
        }
    }
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
    dealt
}

/// East's points from `low` and spades, North's points and hearts, South's spades and
/// whether West holds the club ace: the cells of [`assert_deals_like_rejection`].
fn full_pack_cells(d: &Deal, low: i32) -> [usize; 3] {
    let (n, e, s, w) = (d.hand(Seat::North), d.hand(Seat::East), d.hand(Seat::South), d.hand(Seat::West));
    let ace = usize::from(w.contains(Card::new(Suit::Clubs, 12)));
    [
        (hcp(e) - low) as usize * 6 + e.len(Suit::Spades) as usize,
        100 + hcp(n).min(25) as usize * 14 + n.len(Suit::Hearts) as usize,
        500 + s.len(Suit::Spades) as usize * 2 + ace,
    ]
}

#[test]
fn every_deal_of_a_small_pack_is_equally_likely() {
    // The spade and heart A K Q J are free, the other 44 cards predealt eleven to a seat: the
    // free cards go two to a seat, 2,520 deals, of which those where East has 4+ points are kept.
    let honours = 0x1E00_1E00_0000_0000u64;
    let pre = small_pack(honours);
    let (free, _, slots) = seat_cards(&pre, Seat::East);
    assert_eq!((free, slots), (honours, 2));
    let accept = |h: Hand| hcp(Hand(h.0 & honours)) >= 4;
    let setup = smart_setup(7, pre.clone(), Seat::East, accept);
    let mut dealer = Dealer::new(&setup).unwrap();
    assert_eq!(dealer.dealing_order()[0], Seat::East);
    // Every way to give the free cards two to a seat, East's meeting the condition.
    let cells: Vec<[u64; 4]> =
        two_to_a_seat(free).into_iter().filter(|deal| accept(Hand(deal[Seat::East.index()]))).collect();
    assert!(cells.len() > 200, "{}", cells.len());
    assert_equally_likely(&cells, free, 300, || dealer.deal().unwrap(), "East with 4+ points");
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
    assert_deals_like_rejection(&mut smart, &mut plain, N, accept, |d| full_pack_cells(d, 15), |_| {});
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
    let pre = small_pack(honours);
    let held = |seat: Seat, suit: Suit| pre.iter().filter(|(s, c)| *s == seat && c.suit() == suit).count() as i8;
    let (hearts, spades) = (Suit::Hearts.index(), Suit::Spades.index());
    let mut bias = [[-1i8; 4]; 4];
    bias[Seat::East.index()][hearts] = held(Seat::East, Suit::Hearts) + 1;
    bias[Seat::West.index()][spades] = held(Seat::West, Suit::Spades) + 2;
    let (free, _, _) = seat_cards(&pre, Seat::East);
    let accept = |h: Hand| hcp(Hand(h.0 & honours)) >= 4;
    let (setup, biased) = biased_setup(9, pre.clone(), bias, Seat::East, accept);
    let mut dealer = Dealer::new(&setup).unwrap();
    let lane = |hand: u64, suit: usize| (hand >> (16 * suit) & 0x1FFF).count_ones();
    let meeting_bias: Vec<[u64; 4]> = two_to_a_seat(free)
        .into_iter()
        .filter(|deal| lane(deal[Seat::East.index()], hearts) == 1 && lane(deal[Seat::West.index()], spades) == 2)
        .collect();
    let cells: Vec<[u64; 4]> =
        meeting_bias.iter().copied().filter(|deal| accept(Hand(deal[Seat::East.index()]))).collect();
    assert!(cells.len() > 30 && cells.len() < meeting_bias.len(), "{} of {}", cells.len(), meeting_bias.len());
    assert_eq!(biased.share(), Some(cells.len() as f64 / meeting_bias.len() as f64));
    assert_equally_likely(&cells, free, 1000, || dealer.deal().unwrap(), "East with 4+ points under bias");
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
    let check = |d: &Deal| {
        assert_eq!((d.hand(Seat::North).len(Suit::Spades), d.hand(Seat::West).len(Suit::Hearts)), (5, 1));
        assert!(d.hand(Seat::North).contains(Card::new(Suit::Spades, 12)));
    };
    let dealt = assert_deals_like_rejection(&mut smart, &mut plain, N, accept, |d| full_pack_cells(d, 12), check);
    // The exact share against the share plain dealing kept (within 4.5 standard errors).
    let share = N as f64 / dealt as f64;
    let exact = biased.share().unwrap();
    let error = (exact * (1.0 - exact) / dealt as f64).sqrt();
    assert!((share - exact).abs() < 4.5 * error, "{share} against {exact}");
}

#[test]
fn every_deal_of_a_small_pack_is_equally_likely_with_spot_cards() {
    // Eight free cards (the spade A K 5 4 3 2, the heart 3 2), the other 44 predealt eleven to
    // a seat, two free cards to each seat. West holds two small spades (`xx`): with East
    // counted on its points (a spade honour), and with East holding one small spade itself
    // (`x`) and counted on its hearts, every deal meeting the spot holdings whose East
    // satisfies its condition is equally likely.
    let free: u64 = (0x1800 | 0x000F) << 48 | 0x0003 << 32;
    let pre = small_pack(free);
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
        let cells: Vec<[u64; 4]> = two_to_a_seat(free)
            .into_iter()
            .filter(|deal| {
                let spots_met = spots.iter().all(|x| {
                    let spades = deal[x.seat.index()] & 0x1FFF << 48;
                    spades.count_ones() == u32::from(x.count) && spades & !small_spades == 0
                });
                spots_met && accept(Hand(deal[Seat::East.index()]))
            })
            .collect();
        assert!(cells.len() > 10, "{}", cells.len());
        // (No deal when East's hand holds a small card West's `x`s took.)
        let deal = || std::iter::repeat_with(|| dealer.deal()).flatten().next().expect("a deal");
        assert_equally_likely(&cells, free, 2000, deal, &format!("{spots:?}"));
    }
}

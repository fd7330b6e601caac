//! Dealing: the three random generators and each peer's exact dealing order.
//!
//! - [`GeneratorKind::ChaCha`] — the native generator: ChaCha8 seeded with the 64-bit seed,
//!   deal `i` a function of the seed and `i` alone (seekable, dealt lazily seat by seat),
//!   exactly uniform deals, card predeal and bias predeal honoured together (bias lengths by an
//!   exact suit-length table draw, no rejection), swapping as in DealerV2. Fast: hands are built
//!   as bitmasks with no allocation per deal.
//! - [`GeneratorKind::Drand48`] — DealerV2 4.3.3 draw for draw: `srand48`/`seed48`, in-place
//!   Fisher–Yates over a persistent deck sorted on produce, predeal mode with its persistent
//!   small pack, swapping mode, and DealerV2's bias predeal algorithm with its rejections.
//! - [`GeneratorKind::Glibc`] — classic dealer (Debian `dealer`) draw for draw: glibc
//!   `srand`/`rand`, the persistent deck with predeal slots, the "zero52" rejection table, the
//!   naive swap-every-position shuffle and swapping. Bias predeal has no effect, as in classic.
//!
//! Mode precedence follows DealerV2 for the ChaCha and drand48 generators: bias predeal
//! discards card predeal (drand48 only; ChaCha honours both) and swapping; card predeal
//! discards swapping. Each discarded feature leaves a note in [`Dealer::warnings`]. Classic
//! dealer applies predeal and swapping together (predealt cards move with their hands).
//!
//! The `rnd()` script function draws from the same stream as dealing ([`Dealer::rnd`]).

mod bias;
mod biased_table;
mod chacha;
mod completions;
mod drand48;
mod glibc;
mod hand_reading;
mod hand_sampler;
mod key_map;
mod key_summary;
mod partial_hand;
mod seat_table;
mod spots;
mod suit_holdings;
mod v2bias;
mod v2dealer;
mod v2pack;

#[cfg(test)]
mod tests;

/// The order in which [`Dealer::deal_seats`] deals hands lazily (ChaCha) when no seat is dealt
/// first: reading a seat deals the seats before it too.
pub const LAZY_DEALING_ORDER: [Seat; 4] = chacha::DEALING_ORDER;

/// The lazy dealing order with `first` dealt first (see [`DealingSetup::first_seat`]).
pub fn dealing_order(first: Option<Seat>) -> [Seat; 4] {
    first.map_or(LAZY_DEALING_ORDER, chacha::order_from)
}

/// The number of hands of `slots` cards from `free` cards: `C(free, slots)`.
pub fn hand_count(free: u64, slots: u64) -> u64 {
    hand_sampler::binomial(free as usize, slots as usize)
}

/// A seat's cards before dealing under a card predeal: the free cards (predealt to no seat),
/// the seat's predealt cards and the number of free cards it still takes.
pub fn seat_cards(predeal: &[(Seat, Card)], seat: Seat) -> (u64, u64, u32) {
    let taken = predeal.iter().fold(0u64, |cards, (_, card)| cards | card.bit());
    let own = predeal.iter().filter(|(s, _)| *s == seat).fold(0u64, |cards, (_, card)| cards | card.bit());
    (0x1FFF_1FFF_1FFF_1FFF & !taken, own, 13 - own.count_ones())
}

use crate::cards::{Card, Deal, Hand, Seat, SeatSet, Suit};
pub use biased_table::BiasedTable;
pub use hand_reading::{HandReading, HoldingValue, ReadValue, ValueScope};
pub use key_map::KeyMap;
pub use partial_hand::{PartialHand, PartialJudge};
pub use seat_table::{SeatTable, TableLimits, TableRefusal};
pub use spots::{too_many_spots, SpotCards, SPOT_RANKS};
use std::sync::Arc;

/// Which random generator (and with it which peer's dealing algorithm) a session uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeneratorKind {
    /// Native: ChaCha8, uniform, fast. Not comparable with either peer deal for deal.
    ChaCha,
    /// DealerV2 4.3.3 (glibc `drand48`), byte for byte.
    Drand48,
    /// Classic dealer, Debian build (glibc `rand`), byte for byte.
    Glibc,
}

/// Everything the dealer needs, fixed for a whole run.
#[derive(Clone, Debug)]
pub struct DealingSetup {
    /// The random generator and dealing algorithm.
    pub generator: GeneratorKind,
    /// The seed as given by the user; each generator reduces it as its peer does (drand48: low
    /// 32 bits through `srand48`; glibc: truncated to `u32`, 0 becomes 1; ChaCha: all 64 bits).
    pub seed: i64,
    /// `Some(48-bit state)`: drand48 starts from `seed48` of this raw state instead of
    /// `srand48(seed)` (library mode's unseeded glibc state for `rnd()`). Ignored by the other
    /// generators.
    pub drand48_state: Option<u64>,
    /// Card predeal in textual order; each card goes to its seat's lowest free slot.
    pub predeal: Vec<(Seat, Card)>,
    /// Bias predeal: `bias[seat][suit]` is the required suit length, −1 when unset.
    pub bias: [[i8; 4]; 4],
    /// Spot-card holdings (`SQTxx`): each fixes a seat's suit to its predealt cards of the
    /// suit and `count` free cards of ranks 2 to 9 (ChaCha only; see `spots`).
    pub spots: Vec<SpotCards>,
    /// Swapping mode: 0 (off), 2 (E/W exchange) or 3 (all E/S/W arrangements).
    pub swap: u8,
    /// ChaCha: the seat dealt first (the others follow in the order North, South, East, West),
    /// so that a condition judged on it first needs no other hand; `None`: North. Ignored by
    /// the other generators, which deal the whole pack.
    pub first_seat: Option<Seat>,
    /// ChaCha, smart dealing: the first seat's hands are drawn exactly uniformly from this
    /// table of the hands that satisfy its part of the condition (built from [`seat_cards`]
    /// for this predeal). Not with bias predeal or spot cards (see
    /// [`first_seat_biased`](Self::first_seat_biased)), or swapping.
    pub first_seat_table: Option<Arc<SeatTable>>,
    /// ChaCha, smart dealing: when `first_seat_table` is a pair's (it holds the cards of the
    /// first seat and of this one together), the other seat of the pair. It is dealt second,
    /// and the pair's cards are split between the two uniformly.
    pub first_partner: Option<Seat>,
    /// ChaCha, smart dealing with bias predeal or spot cards: the first seat's hands are drawn
    /// from this table, weighted by the deals the other seats then have under the bias and the
    /// spot holdings (built by [`BiasedTable::new`] for this setup). Not with swapping.
    pub first_seat_biased: Option<Arc<BiasedTable>>,
}

impl Default for DealingSetup {
    /// ChaCha, seed 0, no predeal, no bias, no swapping.
    fn default() -> DealingSetup {
        DealingSetup {
            generator: GeneratorKind::ChaCha,
            seed: 0,
            drand48_state: None,
            predeal: Vec::new(),
            bias: [[-1; 4]; 4],
            spots: Vec::new(),
            swap: 0,
            first_seat: None,
            first_seat_table: None,
            first_partner: None,
            first_seat_biased: None,
        }
    }
}

/// The generator-specific dealing state.
#[derive(Clone, Debug)]
enum Engine {
    ChaCha(Box<chacha::ChaChaDealer>),
    Drand48(Box<v2dealer::V2Dealer>),
    Glibc(Box<glibc::ClassicDealer>),
}

/// Produces the candidate deals of a run, in the chosen peer's exact order.
#[derive(Clone, Debug)]
pub struct Dealer {
    kind: GeneratorKind,
    engine: Engine,
    warnings: Vec<String>,
    /// The seats of the last deal built from a compatibility generator's deck so far (the deck
    /// stays as it is until the next deal, so the other hands can be built later).
    slots_built: SeatSet,
}

/// Checks the card predeal: valid cards, none twice, at most 13 per seat.
fn check_predeal(predeal: &[(Seat, Card)]) -> Result<(), String> {
    let mut seen = 0u64;
    let mut per_seat = [0u32; 4];
    for &(seat, card) in predeal {
        if card.0 >> 4 > 3 || card.rank() > 12 {
            return Err(format!("Invalid card code 0x{:02X} in predeal", card.0));
        }
        if seen & card.bit() != 0 {
            return Err("Card predealt twice".to_string());
        }
        seen |= card.bit();
        per_seat[seat.index()] += 1;
        if per_seat[seat.index()] > 13 {
            return Err("More than 13 cards for one player".to_string());
        }
    }
    Ok(())
}

/// Checks the bias table's values and sums; returns whether any length is set.
fn check_bias(bias: &[[i8; 4]; 4]) -> Result<bool, String> {
    let mut any = false;
    for seat in Seat::ALL {
        let row = bias[seat.index()];
        let mut sum = 0i32;
        for suit in Suit::ALL {
            let b = row[suit.index()];
            if !(-1..=13).contains(&b) {
                return Err(format!("{}'s {} suit length {} is out of range", seat.name(), suit.name(), b));
            }
            any |= b >= 0;
            sum += (b as i32).max(0);
        }
        if sum > 13 {
            return Err(format!("Suit lengths too long for {}", seat.name()));
        }
    }
    for suit in Suit::ALL {
        let sum: i32 = (0..4).map(|h| (bias[h][suit.index()] as i32).max(0)).sum();
        if sum > 13 {
            return Err(format!("Too many {}s", suit.name()));
        }
    }
    Ok(any)
}

/// The free cards each (seat, suit) must still receive for the bias to hold, given the card
/// predeal and the spot holdings (`spots[seat][suit]`: the `x`s, −1 where the suit is not
/// fixed; the `x`s count as predealt cards here, and a fixed suit takes no other free card);
/// −1 where no length is set.
fn pinned_cells(predeal: &[(Seat, Card)], bias: &[[i8; 4]; 4], spots: &[[i8; 4]; 4]) -> Result<[[i8; 4]; 4], String> {
    let mut held = [[0i8; 4]; 4];
    for &(seat, card) in predeal {
        held[seat.index()][card.suit().index()] += 1;
    }
    let mut pinned = [[-1i8; 4]; 4];
    for seat in Seat::ALL {
        for suit in Suit::ALL {
            let (h, s) = (seat.index(), suit.index());
            if spots[h][s] >= 0 {
                let length = held[h][s] + spots[h][s];
                if bias[h][s] >= 0 && bias[h][s] != length {
                    return Err(format!(
                        "{}'s spot-card holding has {} {}s but its length is set to {}",
                        seat.name(),
                        length,
                        suit.name(),
                        bias[h][s]
                    ));
                }
                pinned[h][s] = 0;
            } else if bias[h][s] >= 0 {
                if held[h][s] > bias[h][s] {
                    return Err(format!(
                        "{} is predealt {} {}s but its length is set to {}",
                        seat.name(),
                        held[h][s],
                        suit.name(),
                        bias[h][s]
                    ));
                }
                pinned[h][s] = bias[h][s] - held[h][s];
            }
        }
    }
    Ok(pinned)
}

/// The error for spot cards with a compatibility generator.
pub fn spots_need_chacha(generator: GeneratorKind) -> String {
    let peer = match generator {
        GeneratorKind::Glibc => "glibc generator reproduces classic dealer",
        _ => "drand48 generator reproduces DealerV2",
    };
    format!("spot cards (x) in predeal need the ChaCha generator: the {peer}, which has none")
}

/// The error for a bias predeal that no deal can satisfy.
fn impossible_bias() -> String {
    "Bias predeal cannot be satisfied by any deal".to_string()
}

impl Dealer {
    /// Sets up a dealer. Errors: an invalid or inconsistent setup (a card predealt twice, more
    /// than 13 cards for a seat, bias lengths out of range or too long for a seat or a suit, a
    /// bias that no deal can satisfy, a predeal contradicting the bias under ChaCha, a swap mode
    /// other than 0, 2 or 3).
    pub fn new(setup: &DealingSetup) -> Result<Dealer, String> {
        if !matches!(setup.swap, 0 | 2 | 3) {
            return Err(format!("Swapping mode must be 0, 2 or 3, not {}", setup.swap));
        }
        check_predeal(&setup.predeal)?;
        let spots = spots::spot_table(&setup.predeal, &setup.spots)?;
        if !setup.spots.is_empty() && setup.generator != GeneratorKind::ChaCha {
            return Err(spots_need_chacha(setup.generator));
        }
        let mut warnings = Vec::new();
        let engine = match setup.generator {
            GeneratorKind::Glibc => {
                if setup.bias.iter().flatten().any(|&b| b >= 0) {
                    warnings.push("Bias predeal has no effect with the classic (glibc) generator".to_string());
                }
                Engine::Glibc(Box::new(glibc::ClassicDealer::new(setup.seed, &setup.predeal, setup.swap)))
            }
            GeneratorKind::Drand48 => {
                let has_bias = check_bias(&setup.bias)?;
                let rng = match setup.drand48_state {
                    Some(state) => drand48::Drand48::from_state(state),
                    None => drand48::Drand48::from_seed(setup.seed),
                };
                if has_bias {
                    if !setup.predeal.is_empty() {
                        warnings.push("Bias predeal is in force: the card predeal is discarded".to_string());
                    }
                    if setup.swap != 0 {
                        warnings.push("Bias predeal is in force: swapping is discarded".to_string());
                    }
                    let pinned = pinned_cells(&[], &setup.bias, &[[-1; 4]; 4])?;
                    if !bias::LengthSampler::new([13; 4], [13; 4], pinned).feasible() {
                        return Err(impossible_bias());
                    }
                    Engine::Drand48(Box::new(v2dealer::V2Dealer::new_bias(rng, &setup.bias)))
                } else if !setup.predeal.is_empty() {
                    if setup.swap != 0 {
                        warnings.push("Card predeal is in force: swapping is discarded".to_string());
                    }
                    Engine::Drand48(Box::new(v2dealer::V2Dealer::new_predeal(rng, &setup.predeal)))
                } else {
                    Engine::Drand48(Box::new(v2dealer::V2Dealer::new_default(rng, setup.swap)))
                }
            }
            GeneratorKind::ChaCha => {
                let has_bias = check_bias(&setup.bias)?;
                let has_spots = !setup.spots.is_empty();
                if setup.first_seat_table.is_some()
                    && (has_bias || has_spots || setup.swap != 0 || setup.first_seat.is_none())
                {
                    return Err("smart dealing needs a first seat and no bias, spot cards or swapping".to_string());
                }
                if setup.first_partner.is_some()
                    && (setup.first_seat_table.is_none() || setup.first_partner == setup.first_seat)
                {
                    return Err("smart dealing of a pair needs its table and two different seats".to_string());
                }
                if let Some(biased) = &setup.first_seat_biased {
                    if !(has_bias || has_spots) || setup.swap != 0 || Some(biased.order()[0]) != setup.first_seat {
                        return Err(
                            "smart dealing with bias or spot cards needs the table's seat first, and no swapping"
                                .to_string(),
                        );
                    }
                }
                let constrained = has_bias || has_spots || !setup.predeal.is_empty();
                let swap = if constrained && setup.swap != 0 {
                    warnings.push("Predeal is in force: swapping is discarded".to_string());
                    0
                } else {
                    setup.swap
                };
                let pinned =
                    if has_bias || has_spots { Some(pinned_cells(&setup.predeal, &setup.bias, &spots)?) } else { None };
                let spots = has_spots.then_some(&spots);
                let order = match (setup.first_seat, setup.first_partner) {
                    (Some(first), Some(partner)) => chacha::pair_order(first, partner),
                    (first, _) => dealing_order(first),
                };
                let first = match (&setup.first_seat_table, &setup.first_seat_biased) {
                    (Some(table), _) if setup.first_partner.is_some() => Some(chacha::FirstSeat::Pair(table.clone())),
                    (Some(table), _) => Some(chacha::FirstSeat::Table(table.clone())),
                    (_, Some(biased)) => Some(chacha::FirstSeat::Biased(biased.clone())),
                    _ => None,
                };
                let dealer = chacha::ChaChaDealer::new(setup.seed, &setup.predeal, spots, pinned, swap, order, first);
                if (has_bias || has_spots) && !dealer.bias_feasible() {
                    return Err(impossible_bias());
                }
                Engine::ChaCha(Box::new(dealer))
            }
        };
        Ok(Dealer { kind: setup.generator, engine, warnings, slots_built: SeatSet::NONE })
    }

    /// Deals the next candidate deal ("generated" deal). `None` = the generator rejected this
    /// attempt (DealerV2 bias predeal's `DL_ERR_BIAS`; ChaCha smart dealing's hand holding a
    /// spot holding's `x`); it still counts as generated.
    #[inline]
    pub fn deal(&mut self) -> Option<Deal> {
        self.deal_seats(SeatSet::ALL)
    }

    /// Like [`deal`](Self::deal), but only the hands of `seats` are sure to be dealt: the
    /// others are left empty until [`extend`](Self::extend) or [`complete`](Self::complete)
    /// deals them (ChaCha from the deal's own random words; the compatibility generators
    /// shuffle their whole deck and build the other hands from it later).
    #[inline(always)]
    pub fn deal_seats(&mut self, seats: SeatSet) -> Option<Deal> {
        let slots = match &mut self.engine {
            Engine::ChaCha(d) => return d.deal_seats(seats),
            Engine::Drand48(d) => {
                if !d.advance() {
                    return None;
                }
                d.slots()
            }
            Engine::Glibc(d) => {
                d.advance();
                d.slots()
            }
        };
        let mut deal = Deal([Hand::EMPTY; 4]);
        deal.set_from_slots(slots, seats);
        self.slots_built = seats;
        Some(deal)
    }

    /// Deals the hands [`deal_seats`](Self::deal_seats) left out of `deal`, which must be the
    /// last deal it returned. The completed deal is the one [`deal`](Self::deal) would have
    /// returned.
    #[inline]
    pub fn complete(&mut self, deal: &mut Deal) {
        match &mut self.engine {
            Engine::ChaCha(d) => d.complete(deal),
            _ => self.extend(deal, SeatSet::ALL),
        }
    }

    /// Deals the hands of `seats` that [`deal_seats`](Self::deal_seats) left out of `deal`,
    /// which must be the last deal it returned.
    #[inline]
    pub fn extend(&mut self, deal: &mut Deal, seats: SeatSet) {
        let slots = match &mut self.engine {
            Engine::ChaCha(d) => return d.extend(deal, seats),
            Engine::Drand48(d) => d.slots(),
            Engine::Glibc(d) => d.slots(),
        };
        let missing = seats.without(self.slots_built);
        if missing != SeatSet::NONE {
            deal.set_from_slots(slots, missing);
            self.slots_built = self.slots_built.union(missing);
        }
    }

    /// Whether each deal depends only on the seed and its number (ChaCha), so that
    /// [`seek`](Self::seek) can deal any part of a run on its own.
    pub fn deals_independently(&self) -> bool {
        matches!(self.engine, Engine::ChaCha(_))
    }

    /// Makes generated deal number `index` (0-based) the next one dealt. Only for a dealer
    /// that [`deals_independently`](Self::deals_independently); others ignore it.
    pub fn seek(&mut self, index: u64) {
        if let Engine::ChaCha(d) = &mut self.engine {
            d.seek(index);
        }
    }

    /// Tells the dealer the last dealt candidate was produced (accepted): DealerV2 sorts each
    /// hand descending in its deck here, which changes the next shuffle's start. No effect for
    /// the other generators.
    #[inline]
    pub fn produced(&mut self) {
        if let Engine::Drand48(d) = &mut self.engine {
            d.produced();
        }
    }

    /// Whether [`produced`](Self::produced) changes the deals that follow (DealerV2's
    /// sort-on-produce): then a deal dealt ahead of its verdict is only valid while the deals
    /// before it are rejected.
    pub fn sorts_on_produce(&self) -> bool {
        matches!(self.engine, Engine::Drand48(_))
    }

    /// Sorts the named seats' hands descending in DealerV2's deck, as its `opc()` does to the
    /// two hands of its side (even on a rejected deal). No effect for the other generators.
    pub fn sort_seats(&mut self, seats: &[Seat]) {
        if let Engine::Drand48(d) = &mut self.engine {
            d.sort_seats(seats);
        }
    }

    /// `rnd(n)`: draws from the same stream as dealing, with the peer's formula. drand48:
    /// `(int)(drand48() * n)`; glibc: `(int)((double)n * rand() / 2147483648.0)` (both negative
    /// for negative `n` and one draw whatever `n`); ChaCha: uniform in `0..n`, and 0 without a
    /// draw when `n <= 0`. (DealerV2's `rnd(0)` = deal-number hack belongs to the caller.)
    #[inline]
    pub fn rnd(&mut self, n: i32) -> i32 {
        match &mut self.engine {
            Engine::ChaCha(d) => d.rnd(n),
            Engine::Drand48(d) => d.rnd(n),
            Engine::Glibc(d) => d.rnd(n),
        }
    }

    /// Notes about setup features that were discarded by the mode precedence rules (or that
    /// have no effect with this generator), for the caller to report as it sees fit.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The order in which [`deal_seats`](Self::deal_seats) deals the seats: reading a seat
    /// deals the seats before it too (ChaCha; the other generators deal the whole pack at once).
    pub fn dealing_order(&self) -> [Seat; 4] {
        match &self.engine {
            Engine::ChaCha(d) => d.order(),
            _ => LAZY_DEALING_ORDER,
        }
    }

    /// The generator this dealer uses.
    pub fn generator(&self) -> GeneratorKind {
        self.kind
    }
}

//! Cards, suits, seats, hands and deals.
//!
//! A hand is a 64-bit mask with one 16-bit lane per suit (clubs in the lowest lane, spades in the
//! highest); inside a lane bit `r` is rank `r` (0 = deuce … 12 = ace). Suit lengths are popcounts
//! of a lane and every per-suit table lookup indexes by the 13-bit lane value, so hand statistics
//! need no loops over cards. A [`Deal`] is four such masks indexed by [`Seat`].
//!
//! This module knows nothing of scripts or generators; it also owns the hand text formats shared
//! by several printers (PBN-style `AKQ.JT9.876.5432`).

/// A seat at the table, in the peers' order North, East, South, West.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Seat {
    /// North (0).
    North = 0,
    /// East (1).
    East = 1,
    /// South (2).
    South = 2,
    /// West (3).
    West = 3,
}

impl Seat {
    /// All seats in N, E, S, W order.
    pub const ALL: [Seat; 4] = [Seat::North, Seat::East, Seat::South, Seat::West];

    /// The seat with index 0..=3 (N, E, S, W); other values wrap modulo 4.
    pub fn from_index(i: usize) -> Seat {
        Seat::ALL[i & 3]
    }

    /// Index 0..=3.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The seat's partner.
    pub fn partner(self) -> Seat {
        Seat::from_index(self.index() + 2)
    }

    /// The seat on this seat's left (the next in N, E, S, W order).
    pub fn left(self) -> Seat {
        Seat::from_index(self.index() + 1)
    }

    /// Lowercase letter used by one-line formats: `n e s w`.
    pub fn lower_letter(self) -> char {
        b"nesw"[self.index()] as char
    }

    /// Uppercase letter: `N E S W`.
    pub fn upper_letter(self) -> char {
        b"NESW"[self.index()] as char
    }

    /// Capitalised name: `North` …
    pub fn name(self) -> &'static str {
        ["North", "East", "South", "West"][self.index()]
    }
}

/// A set of seats (bit `i` = the seat with index `i`): the hands an expression reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(pub u8);

impl SeatSet {
    /// No seat.
    pub const NONE: SeatSet = SeatSet(0);
    /// All four seats.
    pub const ALL: SeatSet = SeatSet(0b1111);

    /// The set holding one seat.
    pub fn of(seat: Seat) -> SeatSet {
        SeatSet(1 << seat.index())
    }

    /// Both sets together.
    pub fn union(self, other: SeatSet) -> SeatSet {
        SeatSet(self.0 | other.0)
    }

    /// The seats of this set that are not in `other`.
    pub fn without(self, other: SeatSet) -> SeatSet {
        SeatSet(self.0 & !other.0)
    }

    /// Whether the set holds `seat`.
    pub fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.index()) != 0
    }
}

/// A partnership: North–South or East–West.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Side {
    /// North and South (0).
    NS = 0,
    /// East and West (1).
    EW = 1,
}

impl Side {
    /// The two seats of the side, in N, E, S, W order (N then S, or E then W).
    pub fn seats(self) -> [Seat; 2] {
        match self {
            Side::NS => [Seat::North, Seat::South],
            Side::EW => [Seat::East, Seat::West],
        }
    }

    /// `NS` or `EW`.
    pub fn name(self) -> &'static str {
        match self {
            Side::NS => "NS",
            Side::EW => "EW",
        }
    }
}

/// A suit, numbered as the peers do: clubs 0, diamonds 1, hearts 2, spades 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Suit {
    /// Clubs (0).
    Clubs = 0,
    /// Diamonds (1).
    Diamonds = 1,
    /// Hearts (2).
    Hearts = 2,
    /// Spades (3).
    Spades = 3,
}

impl Suit {
    /// All suits, clubs first.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];
    /// Suits in printing order: spades, hearts, diamonds, clubs.
    pub const PRINT_ORDER: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit with index 0..=3 (C, D, H, S); other values wrap modulo 4.
    pub fn from_index(i: usize) -> Suit {
        Suit::ALL[i & 3]
    }

    /// Index 0..=3.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Uppercase letter `C D H S`.
    pub fn letter(self) -> char {
        b"CDHS"[self.index()] as char
    }

    /// Capitalised singular name: `Club` … `Spade`.
    pub fn name(self) -> &'static str {
        ["Club", "Diamond", "Heart", "Spade"][self.index()]
    }
}

/// A denomination: a suit or notrump (strain index 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strain {
    /// A trump suit.
    Suit(Suit),
    /// Notrump.
    Notrump,
}

impl Strain {
    /// Index 0..=4: C, D, H, S, NT.
    pub fn index(self) -> usize {
        match self {
            Strain::Suit(s) => s.index(),
            Strain::Notrump => 4,
        }
    }

    /// The strain with index 0..=4 (C, D, H, S, NT).
    pub fn from_index(i: usize) -> Strain {
        if i >= 4 {
            Strain::Notrump
        } else {
            Strain::Suit(Suit::from_index(i))
        }
    }
}

/// Rank letters indexed by rank number (0 = deuce … 12 = ace).
pub const RANK_LETTERS: &[u8; 13] = b"23456789TJQKA";

/// One card: `(suit << 4) | rank`, the encoding DealerV2 uses (rank 0 = deuce … 12 = ace).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(pub u8);

impl Card {
    /// The card of a suit and rank (0 = deuce … 12 = ace).
    pub fn new(suit: Suit, rank: u8) -> Card {
        debug_assert!(rank < 13);
        Card(((suit as u8) << 4) | rank)
    }

    /// The card's suit.
    pub fn suit(self) -> Suit {
        Suit::from_index((self.0 >> 4) as usize)
    }

    /// The card's rank, 0 = deuce … 12 = ace.
    pub fn rank(self) -> u8 {
        self.0 & 0x0F
    }

    /// The card's bit in a [`Hand`] mask.
    pub fn bit(self) -> u64 {
        1u64 << (((self.0 >> 4) as u32) * 16 + (self.0 & 0x0F) as u32)
    }

    /// The card's position 0..=51 in suit-major ascending order (C2 = 0 … SA = 51).
    pub fn ordinal(self) -> usize {
        ((self.0 >> 4) as usize) * 13 + (self.0 & 0x0F) as usize
    }

    /// The card with ordinal 0..=51 (C2 = 0 … SA = 51).
    pub fn from_ordinal(i: usize) -> Card {
        Card::new(Suit::from_index(i / 13), (i % 13) as u8)
    }

    /// Rank letter, uppercase.
    pub fn rank_letter(self) -> char {
        RANK_LETTERS[self.rank() as usize] as char
    }
}

/// The 13-bit mask of a full suit lane.
pub const LANE_MASK: u64 = 0x1FFF;

/// A set of cards held by one player (see the module documentation for the bit layout).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand(pub u64);

impl Hand {
    /// The empty hand.
    pub const EMPTY: Hand = Hand(0);

    /// Adds a card.
    pub fn insert(&mut self, card: Card) {
        self.0 |= card.bit();
    }

    /// Whether the hand holds the card.
    pub fn contains(self, card: Card) -> bool {
        self.0 & card.bit() != 0
    }

    /// The 13-bit lane of one suit (bit r = rank r).
    pub fn suit_bits(self, suit: Suit) -> u16 {
        ((self.0 >> (suit.index() * 16)) & LANE_MASK) as u16
    }

    /// Number of cards held in a suit.
    pub fn len(self, suit: Suit) -> u32 {
        self.suit_bits(suit).count_ones()
    }

    /// Number of cards in the hand.
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the hand holds no card.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Cards of the hand, highest first within each suit, suits in S, H, D, C order.
    pub fn cards_descending(self) -> impl Iterator<Item = Card> {
        Suit::PRINT_ORDER.into_iter().flat_map(move |suit| {
            let bits = self.suit_bits(suit);
            (0..13u8).rev().filter(move |r| bits & (1 << r) != 0).map(move |r| Card::new(suit, r))
        })
    }

    /// Appends the ranks held in one suit, highest first, as uppercase letters.
    pub fn write_suit(self, suit: Suit, out: &mut Vec<u8>) {
        let mut text = [0u8; 13];
        let n = self.suit_letters(suit, &mut text);
        out.extend_from_slice(&text[..n]);
    }

    /// Writes the ranks held in one suit, highest first, at the start of `text`; returns how
    /// many were written (set bits from the highest down, no per-rank test).
    fn suit_letters(self, suit: Suit, text: &mut [u8]) -> usize {
        let mut bits = self.suit_bits(suit) & 0x1FFF;
        let mut n = 0;
        while bits != 0 {
            let rank = 15 - bits.leading_zeros() as usize;
            bits &= !(1 << rank);
            text[n] = RANK_LETTERS[rank];
            n += 1;
        }
        n
    }

    /// Appends the PBN-style text `S.H.D.C` (a void is an empty field), e.g. `AT97.AT543.AK.K9`.
    pub fn write_pbn(self, out: &mut Vec<u8>) {
        // At most 52 letters and 3 dots (a hand of any size): built on the stack, appended once.
        let mut text = [0u8; 55];
        let mut n = 0;
        for (i, suit) in Suit::PRINT_ORDER.into_iter().enumerate() {
            if i > 0 {
                text[n] = b'.';
                n += 1;
            }
            n += self.suit_letters(suit, &mut text[n..]);
        }
        out.extend_from_slice(&text[..n]);
    }

    /// The PBN-style text of the hand as a `String`.
    pub fn pbn(self) -> String {
        let mut v = Vec::with_capacity(20);
        self.write_pbn(&mut v);
        String::from_utf8(v).expect("ASCII")
    }
}

/// Four hands indexed by [`Seat`]: a whole deal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Deal(pub [Hand; 4]);

impl Deal {
    /// The hand of a seat.
    pub fn hand(&self, seat: Seat) -> Hand {
        self.0[seat.index()]
    }

    /// Which seat holds a card, if any.
    pub fn holder(&self, card: Card) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| self.hand(*s).contains(card))
    }

    /// Builds a deal from 52 card bytes in seat-slot order (N = 0..12, E = 13..25, S = 26..38,
    /// W = 39..51), the layout both peers use for their decks.
    pub fn from_slots(slots: &[Card; 52]) -> Deal {
        let mut deal = Deal([Hand::EMPTY; 4]);
        deal.set_from_slots(slots, SeatSet::ALL);
        deal
    }

    /// Sets the hands of `seats` from 52 card bytes in seat-slot order (see
    /// [`from_slots`](Self::from_slots)); the other hands are left as they are.
    pub fn set_from_slots(&mut self, slots: &[Card; 52], seats: SeatSet) {
        for (seat, cards) in Seat::ALL.into_iter().zip(slots.chunks_exact(13)) {
            if seats.contains(seat) {
                self.0[seat.index()] = Hand(cards.iter().fold(0, |mask, card| mask | card.bit()));
            }
        }
    }

    /// Whether every one of the 52 cards is held exactly once and each hand has 13 cards.
    pub fn is_complete(&self) -> bool {
        let all = self.0.iter().fold(0u64, |a, h| a | h.0);
        let total: u32 = self.0.iter().map(|h| h.count()).sum();
        total == 52 && all.count_ones() == 52 && self.0.iter().all(|h| h.count() == 13)
    }

    /// The one-line text `n <hand> e <hand> s <hand> w <hand> ` (each hand followed by a space).
    pub fn write_oneline(&self, out: &mut Vec<u8>) {
        for seat in Seat::ALL {
            out.push(seat.lower_letter() as u8);
            out.push(b' ');
            self.hand(seat).write_pbn(out);
            out.push(b' ');
        }
    }

    /// Appends the PBN `[Deal]` value `N:<N> <E> <S> <W>` to `out`.
    pub fn write_pbn(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"N:");
        for (i, seat) in Seat::ALL.into_iter().enumerate() {
            if i > 0 {
                out.push(b' ');
            }
            self.hand(seat).write_pbn(out);
        }
    }

    /// The PBN `[Deal]` value `N:<N> <E> <S> <W>`.
    pub fn pbn(&self) -> String {
        let mut v = Vec::with_capacity(69);
        self.write_pbn(&mut v);
        String::from_utf8(v).expect("ASCII")
    }
}

/// Why a PBN deal text was refused: where (1-based byte column) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PbnError {
    /// The column (1-based, in bytes) of the offending character, or one past the end.
    pub col: usize,
    /// What is wrong there.
    pub message: String,
}

impl Deal {
    /// Parses a PBN `[Deal]` value: the seat of the first hand (`N`, `E`, `S` or `W`), a colon,
    /// then four hands clockwise from that seat, separated by spaces, each `S.H.D.C` with the
    /// ranks `AKQJT98765432` in any order and case, or `-` for a hand left empty. No card may
    /// appear twice and no hand may hold more than 13 cards; a deal need not be complete
    /// (see [`Deal::is_complete`]).
    pub fn from_pbn(text: &str) -> Result<Deal, PbnError> {
        let bytes = text.as_bytes();
        let fail = |at: usize, message: String| Err(PbnError { col: at + 1, message });
        let skip_blanks = |mut at: usize| {
            while bytes.get(at).is_some_and(|b| b.is_ascii_whitespace()) {
                at += 1;
            }
            at
        };
        let mut at = skip_blanks(0);
        let first = match bytes.get(at).map(u8::to_ascii_uppercase) {
            Some(b'N') => Seat::North,
            Some(b'E') => Seat::East,
            Some(b'S') => Seat::South,
            Some(b'W') => Seat::West,
            _ => return fail(at, "expected the first hand's seat (N, E, S or W) before ':'".into()),
        };
        at += 1;
        if bytes.get(at) != Some(&b':') {
            return fail(at, "expected ':' after the first hand's seat".into());
        }
        at += 1;
        let mut deal = Deal([Hand::EMPTY; 4]);
        let mut held = 0u64;
        for k in 0..4 {
            let start = skip_blanks(at);
            if k > 0 && start == at && at < bytes.len() {
                return fail(at, "expected a space between hands".into());
            }
            at = start;
            if at >= bytes.len() {
                return fail(at, format!("expected four hands, found {k}"));
            }
            let seat = Seat::from_index(first.index() + k);
            if bytes[at] == b'-' {
                at += 1;
                continue;
            }
            let mut hand = Hand::EMPTY;
            let mut suit = 0; // 0 spades … 3 clubs, in PBN's order
            while let Some(&b) = bytes.get(at).filter(|b| !b.is_ascii_whitespace()) {
                if b == b'.' {
                    suit += 1;
                    if suit > 3 {
                        return fail(at, format!("{}'s hand has more than four suits", seat.name()));
                    }
                } else {
                    let Some(rank) = RANK_LETTERS.iter().position(|r| *r == b.to_ascii_uppercase()) else {
                        return fail(at, format!("unexpected character '{}' in a hand", b.escape_ascii()));
                    };
                    let card = Card::new(Suit::PRINT_ORDER[suit], rank as u8);
                    if held & card.bit() != 0 {
                        return fail(
                            at,
                            format!("the card {}{} appears twice", card.suit().letter(), card.rank_letter()),
                        );
                    }
                    held |= card.bit();
                    hand.insert(card);
                }
                at += 1;
            }
            if suit < 3 {
                return fail(at, format!("{}'s hand needs four suits separated by '.'", seat.name()));
            }
            if hand.count() > 13 {
                return fail(at, format!("{}'s hand has {} cards (at most 13)", seat.name(), hand.count()));
            }
            deal.0[seat.index()] = hand;
        }
        at = skip_blanks(at);
        if at < bytes.len() {
            return fail(at, "unexpected text after the fourth hand".into());
        }
        Ok(deal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_bits_and_lanes() {
        let sa = Card::new(Suit::Spades, 12);
        let c2 = Card::new(Suit::Clubs, 0);
        assert_eq!(sa.bit(), 1 << 60);
        assert_eq!(c2.bit(), 1);
        assert_eq!(Card::from_ordinal(51), sa);
        let mut h = Hand::EMPTY;
        h.insert(sa);
        h.insert(c2);
        h.insert(Card::new(Suit::Spades, 8));
        assert_eq!(h.len(Suit::Spades), 2);
        assert_eq!(h.pbn(), "AT...2");
        assert_eq!(h.cards_descending().collect::<Vec<_>>()[0], sa);
    }

    #[test]
    fn deal_from_slots_is_complete() {
        let mut slots = [Card(0); 52];
        for (i, s) in slots.iter_mut().enumerate() {
            *s = Card::from_ordinal(51 - i);
        }
        let d = Deal::from_slots(&slots);
        assert!(d.is_complete());
        assert_eq!(d.hand(Seat::North).pbn(), "AKQJT98765432...");
        let mut line = Vec::new();
        d.write_oneline(&mut line);
        assert!(line.starts_with(b"n AKQJT98765432... e .AKQJT98765432.. "));
    }

    #[test]
    fn pbn_deal_text_round_trips_and_rotates() {
        let deal = Deal::from_slots(&std::array::from_fn(Card::from_ordinal));
        assert_eq!(Deal::from_pbn(&deal.pbn()), Ok(deal));
        // The same deal written from East, in lower case, with extra blanks.
        let [n, e, s, w] = deal.0.map(|h| h.pbn().to_lowercase());
        let from_east = format!("  e:{e}  {s} {w}\t{n} ");
        assert_eq!(Deal::from_pbn(&from_east), Ok(deal));
        // An empty hand.
        let partial = Deal::from_pbn("S:- AKQJT98765432... - -").unwrap();
        assert_eq!(partial.hand(Seat::West).len(Suit::Spades), 13);
        assert!(!partial.is_complete());
    }

    #[test]
    fn pbn_deal_errors_name_the_column() {
        let err = |text: &str| Deal::from_pbn(text).unwrap_err();
        assert_eq!(err("X:...").col, 1);
        assert_eq!(err("N...").col, 2);
        let e = err("N:AK.Q.J.T QX.. - -");
        assert_eq!((e.col, e.message.as_str()), (13, "unexpected character 'X' in a hand"));
        let e = err("N:AK.Q.J.T A... - -");
        assert_eq!((e.col, e.message.as_str()), (12, "the card SA appears twice"));
        assert_eq!(err("N:AK.Q.J - - -").message, "North's hand needs four suits separated by '.'");
        assert_eq!(err("N:A.K.Q.J.T - - -").message, "North's hand has more than four suits");
        assert_eq!(err("N:- - -").message, "expected four hands, found 3");
        assert_eq!(err("N:- - - - x").message, "unexpected text after the fourth hand");
        assert_eq!(err("N:AKQJT98765432.A.. - - -").message, "North's hand has 14 cards (at most 13)");
    }
}

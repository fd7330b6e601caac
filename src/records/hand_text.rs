//! Hands written as text, as every text format writes them: ranks `AKQJT98765432` (any case,
//! `10` for the ten) grouped by suit, and the check that four hands make a deal (each card once,
//! 13 to a hand; one hand left out is the cards the others do not hold).

use crate::cards::{Card, Deal, Hand, Seat, Suit};

/// The rank (0 = deuce … 12 = ace) of each byte plus one, 0 for a byte that names no rank.
const RANK_OF: [u8; 256] = {
    let mut table = [0u8; 256];
    let letters = b"23456789TJQKA";
    let mut rank = 0;
    while rank < 13 {
        table[letters[rank] as usize] = rank as u8 + 1;
        table[letters[rank].to_ascii_lowercase() as usize] = rank as u8 + 1;
        rank += 1;
    }
    table
};

/// The rank a byte names (`A`, `k`, `T`, `9`…), if any.
#[inline]
pub fn rank_of(byte: u8) -> Option<u8> {
    RANK_OF[byte as usize].checked_sub(1)
}

/// The suit a letter names (`S`, `h`…), if any.
#[inline]
pub fn suit_of(byte: u8) -> Option<Suit> {
    match byte.to_ascii_uppercase() {
        b'S' => Some(Suit::Spades),
        b'H' => Some(Suit::Hearts),
        b'D' => Some(Suit::Diamonds),
        b'C' => Some(Suit::Clubs),
        _ => None,
    }
}

/// A seat named by its letter (`N`, `e`…).
#[inline]
pub fn seat_of(byte: u8) -> Option<Seat> {
    match byte.to_ascii_uppercase() {
        b'N' => Some(Seat::North),
        b'E' => Some(Seat::East),
        b'S' => Some(Seat::South),
        b'W' => Some(Seat::West),
        _ => None,
    }
}

/// A hand text error: the byte offset in the text given and what is wrong.
pub type HandError = (usize, String);

/// Adds the ranks in `text[*at..]` up to the first byte that is no rank (`10` is the ten) to
/// `suit` of `hand`; a card already in the hand is an error.
#[inline]
fn add_ranks(text: &[u8], at: &mut usize, suit: Suit, hand: &mut Hand) -> Result<(), HandError> {
    while let Some(&byte) = text.get(*at) {
        let rank = match rank_of(byte) {
            Some(rank) => rank,
            None if byte == b'1' && text.get(*at + 1) == Some(&b'0') => {
                *at += 1;
                8
            }
            None => break,
        };
        let card = Card::new(suit, rank);
        if hand.contains(card) {
            return Err((*at, format!("the card {}{} appears twice", suit.letter(), card.rank_letter())));
        }
        hand.insert(card);
        *at += 1;
    }
    Ok(())
}

/// A hand written as PBN writes it: `S.H.D.C`, spades first, suits separated by `.`; the whole
/// of `text` (no blanks). `-` is no hand (`None`).
pub fn parse_dotted_hand(text: &[u8]) -> Result<Option<Hand>, HandError> {
    if text == b"-" {
        return Ok(None);
    }
    let mut hand = Hand::EMPTY;
    let mut at = 0;
    for (k, suit) in Suit::PRINT_ORDER.into_iter().enumerate() {
        if k > 0 {
            match text.get(at) {
                Some(b'.') => at += 1,
                _ => return Err((at, "a hand needs four suits separated by '.' (S.H.D.C)".to_string())),
            }
        }
        add_ranks(text, &mut at, suit, &mut hand)?;
    }
    match text.get(at) {
        None => Ok(Some(hand)),
        Some(b'.') => Err((at, "a hand has four suits: a fifth '.'".to_string())),
        Some(&byte) => Err((at, format!("'{}' is not a card rank (AKQJT98765432)", byte.escape_ascii()))),
    }
}

/// A hand written as LIN writes it: suit letters each followed by its ranks (`SAK3HQJ2D…C…`),
/// in any order, each suit at most once. The whole of `text`.
pub fn parse_lettered_hand(text: &[u8]) -> Result<Hand, HandError> {
    let mut hand = Hand::EMPTY;
    let mut seen = [false; 4];
    let mut at = 0;
    while let Some(&byte) = text.get(at) {
        let Some(suit) = suit_of(byte) else {
            return Err((at, format!("expected a suit letter (S, H, D or C), found '{}'", byte.escape_ascii())));
        };
        if std::mem::replace(&mut seen[suit.index()], true) {
            return Err((at, format!("the suit {} appears twice in a hand", suit.letter())));
        }
        at += 1;
        add_ranks(text, &mut at, suit, &mut hand)?;
    }
    Ok(hand)
}

/// The deal four hands make (indexed by seat; `None` for a hand the record leaves out): each
/// card held once, 13 cards to a hand. One hand left out is the 13 cards the others do not hold.
pub fn complete_deal(hands: [Option<Hand>; 4]) -> Result<Deal, String> {
    let mut held = 0u64;
    for hand in hands.iter().flatten() {
        let twice = held & hand.0;
        if twice != 0 {
            return Err(twice_message(twice));
        }
        held |= hand.0;
    }
    for (seat, hand) in Seat::ALL.into_iter().zip(hands) {
        match hand {
            Some(hand) if hand.count() != 13 => {
                return Err(format!("{} holds {} cards (13 needed)", seat.name(), hand.count()))
            }
            _ => {}
        }
    }
    let missing: Vec<usize> = (0..4).filter(|&s| hands[s].is_none()).collect();
    let mut deal = Deal([Hand::EMPTY; 4]);
    for (seat, hand) in hands.iter().enumerate() {
        deal.0[seat] = hand.unwrap_or(Hand::EMPTY);
    }
    match missing.as_slice() {
        [] => Ok(deal),
        [seat] => {
            deal.0[*seat] = Hand(FULL_DECK & !held);
            Ok(deal)
        }
        seats => {
            Err(format!("{} hands are not given (a script needs the whole deal; one may be left out)", seats.len()))
        }
    }
}

/// The message for cards held twice (`twice`: their bits), naming the first.
fn twice_message(twice: u64) -> String {
    let bit = twice.trailing_zeros() as usize;
    let card = Card::new(Suit::from_index(bit / 16), (bit % 16) as u8);
    format!("the card {}{} appears twice", card.suit().letter(), card.rank_letter())
}

/// All 52 cards as hand bits (13 rank bits in each suit's 16-bit lane).
const FULL_DECK: u64 = 0x1FFF_1FFF_1FFF_1FFF;

/// A PBN deal, `X:<hand> <hand> <hand> <hand>` (the first hand's seat, then the hands clockwise
/// from it, each as [`parse_dotted_hand`] reads it or `-`), as the whole of `text`; blanks
/// around and between the hands are allowed. The error's offset is in `text`.
pub fn parse_pbn_deal(text: &[u8]) -> Result<Deal, HandError> {
    let mut at = 0;
    let skip_blanks = |at: &mut usize| {
        while text.get(*at).is_some_and(u8::is_ascii_whitespace) {
            *at += 1;
        }
    };
    skip_blanks(&mut at);
    let first = match (text.get(at).copied().and_then(seat_of), text.get(at + 1)) {
        (Some(seat), Some(b':')) => seat,
        _ => return Err((at, "a PBN deal starts with its first hand's seat and ':' (N:, E:, S: or W:)".to_string())),
    };
    at += 2;
    let mut hands: [Option<Hand>; 4] = [None; 4];
    for k in 0..4 {
        skip_blanks(&mut at);
        let start = at;
        while text.get(at).is_some_and(|b| !b.is_ascii_whitespace()) {
            at += 1;
        }
        if start == at {
            return Err((at, format!("a PBN deal has four hands: found {k}")));
        }
        let hand = parse_dotted_hand(&text[start..at]).map_err(|(offset, message)| (start + offset, message))?;
        if let Some(hand) = hand {
            // A card an earlier hand holds: the error points at this hand.
            let earlier = hands.iter().flatten().fold(0u64, |all, h| all | h.0);
            if earlier & hand.0 != 0 {
                return Err((start, twice_message(earlier & hand.0)));
            }
        }
        hands[(first.index() + k) % 4] = hand;
    }
    skip_blanks(&mut at);
    if at < text.len() {
        return Err((at, "unexpected text after the four hands".to_string()));
    }
    complete_deal(hands).map_err(|message| (0, message))
}

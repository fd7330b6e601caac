//! Opening-lead tables (`leads(seat, strain, tricks[, vul])`): over the produced deals, what
//! each card the leader may lead gives the defence against one contract — the mean tricks the
//! defence takes and the share of deals on which the contract is beaten, each with its standard
//! error — the best lead, and the payoff between every two leads in IMPs and in matchpoints.
//!
//! [`LeadTable`] accumulates the deals (running sums only: its memory does not grow with the
//! deals); [`LeadReport`] is what it says at the end, written as text
//! ([`LeadReport::write_text`]) or JSON ([`LeadReport::write_json`]). Cards that are always
//! equal (touching cards of one suit in the leader's fixed hand, such as `D98`) form one lead.
//!
//! Reads the program stage (the study, scoring), the double-dummy results of a deal, the
//! statistics' precision and the shared vocabulary.

use std::io::Write;

use crate::actions::pbn_dd::denomination_name;
use crate::actions::precision::{json_number, wilson, Estimate};
use crate::cards::{Card, Hand, Seat, Suit};
use crate::dd::LeadTricks;
use crate::dialect::Dialect;
use crate::program::scoring;
use crate::program::LeadStudy;
use crate::script::ast::Contract;

/// The running sums of one `leads` action over the produced deals.
#[derive(Clone, Debug)]
pub struct LeadTable {
    study: LeadStudy,
    vulnerable: bool,
    /// The leader's hand, fixed by the first deal (every later deal must give the same).
    hand: Option<Hand>,
    /// The leads: cards always equal to one another, highest first; suits spades first.
    leads: Vec<Vec<Card>>,
    deals: u64,
    /// Per lead: the defence's tricks summed, their squares summed, the deals beaten.
    tricks: Vec<u64>,
    tricks_squared: Vec<u64>,
    beaten: Vec<u64>,
    /// Per ordered pair of leads (row × leads + column): IMPs of the row lead against the column
    /// lead summed and their squares summed; matchpoints in half points (2 more tricks, 1 equal,
    /// 0 fewer) summed and their squares summed.
    imps: Vec<i64>,
    imps_squared: Vec<i64>,
    half_points: Vec<i64>,
    half_points_squared: Vec<i64>,
}

impl LeadTable {
    /// An empty table for `study`, declarer vulnerable or not.
    pub fn new(study: LeadStudy, vulnerable: bool) -> LeadTable {
        LeadTable {
            study,
            vulnerable,
            hand: None,
            leads: Vec::new(),
            deals: 0,
            tricks: Vec::new(),
            tricks_squared: Vec::new(),
            beaten: Vec::new(),
            imps: Vec::new(),
            imps_squared: Vec::new(),
            half_points: Vec::new(),
            half_points_squared: Vec::new(),
        }
    }

    /// What the table studies.
    pub fn study(&self) -> &LeadStudy {
        &self.study
    }

    /// The contract studied, undoubled.
    pub fn contract(&self) -> Contract {
        Contract { level: self.study.needed - 6, strain: self.study.strain, doubled: 0 }
    }

    /// Adds one deal: the leader's `hand` on it and the defence's tricks after each lead. An
    /// error when the hand is not the one of the deals before (the leader's cards must be fixed
    /// by predeal) or a card of it has no count.
    pub fn add(&mut self, hand: Hand, tricks: &LeadTricks) -> Result<(), String> {
        match self.hand {
            None => self.start(hand),
            Some(fixed) if fixed != hand => {
                return Err(format!(
                    "leads: {}'s hand differs from one deal to the next; its thirteen cards must be fixed by predeal",
                    self.study.leader.name()
                ))
            }
            Some(_) => {}
        }
        let mut counts = [0u8; 13];
        for (count, lead) in counts.iter_mut().zip(&self.leads) {
            *count = tricks.after(lead[0]).ok_or("leads: the solver gave no count for a card of the leader")?;
        }
        let counts = &counts[..self.leads.len()];
        // The defence's score after each lead, once per deal (the pairs below compare them).
        let contract = self.contract();
        let mut scores = [0i32; 13];
        for (score, &tricks) in scores.iter_mut().zip(counts) {
            *score = -scoring::score(Dialect::Classic, self.vulnerable, &contract, 13 - i32::from(tricks));
        }
        let beat_at = 14 - self.study.needed;
        let n = self.leads.len();
        for (row, &mine) in counts.iter().enumerate() {
            self.tricks[row] += u64::from(mine);
            self.tricks_squared[row] += u64::from(mine) * u64::from(mine);
            self.beaten[row] += u64::from(mine >= beat_at);
            for (column, &theirs) in counts.iter().enumerate() {
                let imps = i64::from(scoring::imps(Dialect::Classic, scores[row] - scores[column]));
                let half = match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                };
                let cell = row * n + column;
                self.imps[cell] += imps;
                self.imps_squared[cell] += imps * imps;
                self.half_points[cell] += half;
                self.half_points_squared[cell] += half * half;
            }
        }
        self.deals += 1;
        Ok(())
    }

    /// Fixes the leader's hand and its leads at the first deal.
    fn start(&mut self, hand: Hand) {
        self.hand = Some(hand);
        self.leads = always_equal_leads(hand);
        let n = self.leads.len();
        self.tricks = vec![0; n];
        self.tricks_squared = vec![0; n];
        self.beaten = vec![0; n];
        self.imps = vec![0; n * n];
        self.imps_squared = vec![0; n * n];
        self.half_points = vec![0; n * n];
        self.half_points_squared = vec![0; n * n];
    }

    /// The widest 95 % interval the table gives for `--precision`: each lead's beaten share
    /// (Wilson's interval), its mean tricks and the IMPs between every two leads; infinite
    /// before two deals.
    pub fn widest_interval(&self) -> f64 {
        if self.deals < 2 {
            return f64::INFINITY;
        }
        let n = self.deals;
        let mut widest: f64 = 0.0;
        for i in 0..self.leads.len() {
            let (low, high) = wilson(n, self.beaten[i]);
            widest = widest.max(high - low);
            widest = widest.max(Estimate::of_sums(n, self.tricks[i] as f64, self.tricks_squared[i] as f64).width());
        }
        for (sum, squares) in self.imps.iter().zip(&self.imps_squared) {
            widest = widest.max(Estimate::of_sums(n, *sum as f64, *squares as f64).width());
        }
        widest
    }

    /// What the table says after the deals added so far.
    pub fn report(&self) -> LeadReport {
        let n = self.deals;
        let leads: Vec<LeadRow> = self
            .leads
            .iter()
            .enumerate()
            .map(|(i, cards)| LeadRow {
                cards: lead_name(cards),
                tricks: Estimate::of_sums(n, self.tricks[i] as f64, self.tricks_squared[i] as f64),
                beaten: Estimate::of_share(n, self.beaten[i]),
            })
            .collect();
        let pair = |sums: &[i64], squares: &[i64], scale: f64| -> Vec<Vec<Estimate>> {
            let width = leads.len();
            (0..width)
                .map(|row| {
                    (0..width)
                        .map(|column| {
                            let cell = row * width + column;
                            let e = Estimate::of_sums(n, sums[cell] as f64, squares[cell] as f64);
                            Estimate { mean: e.mean * scale, error: e.error * scale }
                        })
                        .collect()
                })
                .collect()
        };
        LeadReport {
            leader: self.study.leader,
            declarer: self.study.declarer(),
            contract: self.contract(),
            vulnerable: self.vulnerable,
            deals: n,
            best: best_lead(&leads),
            imps: pair(&self.imps, &self.imps_squared, 1.0),
            matchpoints: pair(&self.half_points, &self.half_points_squared, 50.0),
            leads,
        }
    }
}

/// The leads of a hand: each suit's cards, spades first, cut into runs of touching ranks (cards
/// no other player's card can fall between, so always equal), highest first.
fn always_equal_leads(hand: Hand) -> Vec<Vec<Card>> {
    let mut leads: Vec<Vec<Card>> = Vec::new();
    for suit in Suit::PRINT_ORDER {
        let mut run_below: Option<u8> = None;
        for rank in (0..13u8).rev() {
            let card = Card::new(suit, rank);
            if !hand.contains(card) {
                run_below = None;
                continue;
            }
            match (run_below, leads.last_mut()) {
                (Some(next), Some(lead)) if next == rank => lead.push(card),
                _ => leads.push(vec![card]),
            }
            run_below = rank.checked_sub(1);
        }
    }
    leads
}

/// A lead's name: the suit letter and the ranks, `D98`.
fn lead_name(cards: &[Card]) -> String {
    let mut name = String::new();
    name.push(cards[0].suit().letter());
    name.extend(cards.iter().map(|c| c.rank_letter()));
    name
}

/// The lead that beats the contract most often; of those, the one whose defence takes most
/// tricks on average; of those, the first.
fn best_lead(leads: &[LeadRow]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, lead) in leads.iter().enumerate() {
        let better = match best {
            None => true,
            Some(b) => {
                let key = |row: &LeadRow| (row.beaten.mean, row.tricks.mean);
                key(lead) > key(&leads[b])
            }
        };
        if better {
            best = Some(i);
        }
    }
    best
}

/// One lead's line of a [`LeadReport`].
#[derive(Clone, Debug, PartialEq)]
pub struct LeadRow {
    /// The cards, `D98`.
    pub cards: String,
    /// The tricks the defence takes after this lead.
    pub tricks: Estimate,
    /// The share of deals on which this lead beats the contract.
    pub beaten: Estimate,
}

/// What a `leads` action says at the end of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct LeadReport {
    /// The opening leader.
    pub leader: Seat,
    /// Declarer.
    pub declarer: Seat,
    /// The contract, undoubled.
    pub contract: Contract,
    /// Whether declarer is vulnerable.
    pub vulnerable: bool,
    /// The deals studied.
    pub deals: u64,
    /// Every lead, spades first, highest first.
    pub leads: Vec<LeadRow>,
    /// The index of the best lead (see the module): none without deals.
    pub best: Option<usize>,
    /// IMPs per deal of the row lead against the column lead, from the defence's side.
    pub imps: Vec<Vec<Estimate>>,
    /// The row lead's matchpoints against the column lead, in percent (50: as good).
    pub matchpoints: Vec<Vec<Estimate>>,
}

/// A contract's name: `3NT`, `4S` (the level and PBN's denomination).
fn contract_name(contract: &Contract) -> String {
    format!("{}{}", contract.level, denomination_name(contract.strain))
}

/// A number with `decimals` decimals, or `-` when it is not known.
fn number(value: f64, decimals: usize) -> String {
    if value.is_finite() {
        format!("{value:.decimals$}")
    } else {
        "-".to_string()
    }
}

impl LeadReport {
    /// The report as text: the heading, a line per lead, the best lead and the two payoff
    /// tables.
    pub fn write_text(&self, out: &mut Vec<u8>) {
        let contract = contract_name(&self.contract);
        let _ = writeln!(
            out,
            "\nOpening leads by {} against {} by {} ({}vulnerable): {} deals",
            self.leader.name(),
            contract,
            self.declarer.name(),
            if self.vulnerable { "" } else { "not " },
            self.deals
        );
        let _ = writeln!(out, "{:<6}{:>8}{:>8}{:>10}{:>8}", "lead", "tricks", "s.e.", "beaten", "s.e.");
        for lead in &self.leads {
            let _ = writeln!(
                out,
                "{:<6}{:>8}{:>8}{:>9}%{:>7}%",
                lead.cards,
                number(lead.tricks.mean, 3),
                number(lead.tricks.error, 3),
                number(100.0 * lead.beaten.mean, 1),
                number(100.0 * lead.beaten.error, 1)
            );
        }
        if let Some(best) = self.best {
            let lead = &self.leads[best];
            let _ = writeln!(
                out,
                "Best lead: {} (beats {} on {}% of the deals, s.e. {}%)",
                lead.cards,
                contract,
                number(100.0 * lead.beaten.mean, 1),
                number(100.0 * lead.beaten.error, 1)
            );
        }
        self.write_payoff(out, "IMPs per deal, row lead against column lead (mean, s.e.)", &self.imps, 2, true);
        self.write_payoff(
            out,
            "Matchpoints, row lead against column lead (% of the top, s.e.)",
            &self.matchpoints,
            1,
            false,
        );
    }

    /// One payoff table after an empty line: a column per lead, `mean±error` in each cell (the
    /// mean with its sign when `signed`), `.` on the diagonal.
    fn write_payoff(&self, out: &mut Vec<u8>, title: &str, table: &[Vec<Estimate>], decimals: usize, signed: bool) {
        let mean = |value: f64| match signed && value.is_finite() {
            true => format!("{value:+.decimals$}"),
            false => number(value, decimals),
        };
        let cell = |e: &Estimate| format!("{}±{}", mean(e.mean), number(e.error, decimals));
        let widest_cell = table.iter().flatten().map(|e| cell(e).chars().count());
        let width = widest_cell.chain(self.leads.iter().map(|l| l.cards.len())).max().unwrap_or(1) + 2;
        let _ = writeln!(out, "\n{title}");
        let _ = write!(out, "{:<6}", "");
        for lead in &self.leads {
            let _ = write!(out, "{:>width$}", lead.cards);
        }
        out.push(b'\n');
        for (r, (row, lead)) in table.iter().zip(&self.leads).enumerate() {
            let _ = write!(out, "{:<6}", lead.cards);
            for (c, e) in row.iter().enumerate() {
                let text = if r == c { ".".to_string() } else { cell(e) };
                let _ = write!(out, "{text:>width$}");
            }
            out.push(b'\n');
        }
    }

    /// The report as one JSON object.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        let _ = write!(
            out,
            "{{\"leader\":\"{}\",\"declarer\":\"{}\",\"contract\":\"{}\",\"vulnerable\":{},\"deals\":{},\"leads\":[",
            self.leader.name().to_lowercase(),
            self.declarer.name().to_lowercase(),
            contract_name(&self.contract),
            self.vulnerable,
            self.deals
        );
        for (i, lead) in self.leads.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let _ = write!(
                out,
                "{{\"cards\":\"{}\",\"tricks\":{},\"tricks_se\":{},\"beaten\":{},\"beaten_se\":{}}}",
                lead.cards,
                json_number(lead.tricks.mean),
                json_number(lead.tricks.error),
                json_number(lead.beaten.mean),
                json_number(lead.beaten.error)
            );
        }
        out.push(b']');
        match self.best {
            Some(best) => {
                let _ = write!(out, ",\"best\":\"{}\"", self.leads[best].cards);
            }
            None => out.extend_from_slice(b",\"best\":null"),
        }
        for (key, table) in [("imps", &self.imps), ("matchpoints", &self.matchpoints)] {
            let _ = write!(out, ",\"{key}\":[");
            for (r, row) in table.iter().enumerate() {
                if r > 0 {
                    out.push(b',');
                }
                out.push(b'[');
                for (c, e) in row.iter().enumerate() {
                    if c > 0 {
                        out.push(b',');
                    }
                    let _ = write!(out, "{{\"mean\":{},\"se\":{}}}", json_number(e.mean), json_number(e.error));
                }
                out.push(b']');
            }
            out.push(b']');
        }
        out.push(b'}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Strain;
    use crate::pos::Pos;

    /// West's hand SKJ74 HQ3 D9862 CJ75.
    fn west() -> Hand {
        let mut hand = Hand::EMPTY;
        for (suit, ranks) in
            [(Suit::Spades, "KJ74"), (Suit::Hearts, "Q3"), (Suit::Diamonds, "9862"), (Suit::Clubs, "J75")]
        {
            for r in ranks.bytes() {
                let rank = crate::cards::RANK_LETTERS.iter().position(|&l| l == r).unwrap() as u8;
                hand.insert(Card::new(suit, rank));
            }
        }
        hand
    }

    fn study(needed: u8) -> LeadStudy {
        LeadStudy { leader: Seat::West, strain: Strain::Notrump, needed, vulnerable: None, pos: Pos::default() }
    }

    #[test]
    fn touching_cards_of_a_suit_are_one_lead() {
        let names: Vec<String> = always_equal_leads(west()).iter().map(|l| lead_name(l)).collect();
        assert_eq!(names, ["SK", "SJ", "S7", "S4", "HQ", "H3", "D98", "D6", "D2", "CJ", "C7", "C5"]);
        let mut top = Hand::EMPTY;
        for rank in [12, 11, 10, 8, 0, 1] {
            top.insert(Card::new(Suit::Hearts, rank));
        }
        let names: Vec<String> = always_equal_leads(top).iter().map(|l| lead_name(l)).collect();
        assert_eq!(names, ["HAKQ", "HT", "H32"]);
    }

    #[test]
    fn means_shares_errors_and_payoffs_from_the_deals() {
        // Against 3NT (9 tricks; 5 for the defence beat it), not vulnerable: on deal 1 the spade
        // king gives 5 tricks and every other lead 4; on deal 2 the king gives 3, the others 4.
        let hand = west();
        let king = Card::new(Suit::Spades, 11);
        let mut table = LeadTable::new(study(9), false);
        for king_tricks in [5, 3] {
            let tricks = LeadTricks::from_counts(hand, |c| if c == king { king_tricks } else { 4 });
            table.add(hand, &tricks).unwrap();
        }
        let report = table.report();
        assert_eq!((report.deals, report.leads.len(), report.declarer), (2, 12, Seat::South));
        let sk = &report.leads[0];
        assert_eq!((sk.cards.as_str(), sk.tricks.mean, sk.tricks.error), ("SK", 4.0, 1.0));
        assert_eq!((sk.beaten.mean, sk.beaten.error), (0.5, 0.5f64.sqrt() * 0.5));
        let d98 = &report.leads[6];
        assert_eq!((d98.cards.as_str(), d98.tricks.mean, d98.tricks.error, d98.beaten.mean), ("D98", 4.0, 0.0, 0.0));
        assert_eq!(report.best, Some(0));
        // SK against SJ: deal 1, 3NT down one (+50 for the defence) against 3NT making (-400):
        // 450 = +10 IMPs; deal 2, 3NT +1 (-430) against -400: -30 = -1 IMP. Mean 4.5, error 5.5.
        assert_eq!(report.imps[0][1], Estimate { mean: 4.5, error: 5.5 });
        assert_eq!(report.imps[1][0], Estimate { mean: -4.5, error: 5.5 });
        // Matchpoints: a top and a bottom: 50 % with an error of 50 %.
        assert_eq!(report.matchpoints[0][1], Estimate { mean: 50.0, error: 50.0 });
        assert_eq!(report.matchpoints[1][2], Estimate { mean: 50.0, error: 0.0 });
        // Vulnerable, down one is +100 and the game -600: 700 = 12 IMPs; -630 vs -600 = -1.
        let mut vulnerable = LeadTable::new(study(9), true);
        for king_tricks in [5, 3] {
            let tricks = LeadTricks::from_counts(hand, |c| if c == king { king_tricks } else { 4 });
            vulnerable.add(hand, &tricks).unwrap();
        }
        assert_eq!(vulnerable.report().imps[0][1].mean, 5.5);
    }

    #[test]
    fn another_hand_for_the_leader_is_an_error() {
        let hand = west();
        let mut table = LeadTable::new(study(12), false);
        table.add(hand, &LeadTricks::from_counts(hand, |_| 1)).unwrap();
        let mut other = hand;
        other.0 ^= Card::new(Suit::Spades, 2).bit() | Card::new(Suit::Spades, 3).bit();
        let e = table.add(other, &LeadTricks::from_counts(other, |_| 1)).unwrap_err();
        assert!(e.contains("West's hand differs from one deal to the next"), "{e}");
        assert_eq!(table.report().deals, 1);
    }

    #[test]
    fn without_deals_nothing_is_known() {
        let report = LeadTable::new(study(9), false).report();
        assert_eq!((report.deals, report.leads.len(), report.best), (0, 0, None));
        let mut json = Vec::new();
        report.write_json(&mut json);
        assert_eq!(
            String::from_utf8(json).unwrap(),
            "{\"leader\":\"west\",\"declarer\":\"south\",\"contract\":\"3NT\",\"vulnerable\":false,\"deals\":0,\
             \"leads\":[],\"best\":null,\"imps\":[],\"matchpoints\":[]}"
        );
    }
}

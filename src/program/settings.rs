//! The settings a script makes with its environment statements (`generate`, `produce`, `seed`,
//! `dealer`, `vulnerable`, predeal …), which the job's options may override.

use crate::cards::{Card, Seat};
use crate::dealing::SpotCards;
use crate::script::ast::{Pos, Vulnerability};

/// Settings a script makes with its environment statements; options may override them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScriptSettings {
    /// `generate` (the first non-zero one).
    pub generate: Option<i64>,
    /// `produce` (the first non-zero one).
    pub produce: Option<i64>,
    /// `seed` (the last one).
    pub seed: Option<i64>,
    /// `title` (the last one).
    pub title: Option<String>,
    /// `dealer` for PBN.
    pub dealer: Option<Seat>,
    /// `vulnerable` for PBN.
    pub vulnerable: Option<Vulnerability>,
    /// `startboard`.
    pub startboard: Option<i64>,
    /// `opener`.
    pub opener: Option<Seat>,
    /// Card predeal in textual order.
    pub predeal: Vec<(Seat, Card)>,
    /// Bias predeal suit lengths, `[seat][suit]`, -1 unset.
    pub bias: [[i8; 4]; 4],
    /// Spot-card holdings (`SQTxx`), each with the position of its holding; the named cards
    /// are in `predeal`.
    pub spots: Vec<(SpotCards, Pos)>,
    /// Where the card predeal and the bias predeal items stand, in textual order: where a
    /// combination that no deal can satisfy is reported (at the last of them).
    pub predeal_pos: Vec<Pos>,
}

//! The hand types a script declares by Dealer3's naming convention: every variable whose name
//! begins with `HandType` (in any case) is a type, its label the rest of the name without
//! leading `_` and `-` (`HandType_12_14` is `12_14`); `HandType_NAME_Share = w` weights type
//! `NAME` in the target mix (a whole number, default 1; the weights are normalised). Types
//! are listed in the order they are first declared. Nothing here deals: whether the types
//! partition the produced deals is the measuring's business (see [`super::natural_shares`]).

use crate::error::Result;
use crate::practice::refusal::refusal;
use crate::script::ast::{Expr, ParsedScript, Statement};

/// The prefix of a hand type's variable (matched without regard to case).
pub const HAND_TYPE_PREFIX: &str = "HandType";
/// The prefix of Dealer3's second decomposition, used for the keeps only (not available).
const LEVEL_TYPE_PREFIX: &str = "LevelType";
/// The suffix of a share declaration (matched without regard to case).
const SHARE_SUFFIX: &str = "_Share";

/// One declared hand type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandType {
    /// The variable as the script declares it (`HandType_12_14`).
    pub variable: String,
    /// Its label (`12_14`): what reports, board tags and `{{level-mix:…}}` markers name.
    pub label: String,
}

/// The hand types of a script and their target weights.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HandTypes {
    /// The types, in declaration order.
    pub types: Vec<HandType>,
    /// Each type's weight in the target mix (`HandType_NAME_Share`, default 1).
    pub weights: Vec<f64>,
}

/// Whether `name` begins with `prefix`, in any case.
fn has_prefix(name: &str, prefix: &str) -> bool {
    name.len() >= prefix.len() && name.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// The label of a variable named with `prefix`: the prefix taken off (as often as it repeats),
/// then every leading `_` and `-`.
fn label(name: &str, prefix: &str) -> String {
    let mut rest = name;
    while has_prefix(rest, prefix) {
        rest = &rest[prefix.len()..];
    }
    rest.trim_start_matches(['_', '-']).to_string()
}

/// The share declaration's type label, when `name` is one (`HandType_b_Share` → `b`).
fn share_label(name: &str) -> Option<String> {
    let cut = name.len().checked_sub(SHARE_SUFFIX.len()).filter(|&cut| cut > 0)?;
    let suffix = name.get(cut..)?;
    suffix.eq_ignore_ascii_case(SHARE_SUFFIX).then(|| label(&name[..cut], HAND_TYPE_PREFIX))
}

impl HandTypes {
    /// The hand types `script` declares, with their weights. Refuses a share that names no
    /// type, one that is not a plain number, a negative one, shares that are all zero, two
    /// types whose labels differ only in case, and Dealer3's `LevelType_` decomposition (not
    /// available).
    pub fn declared(script: &ParsedScript) -> Result<HandTypes> {
        let mut types: Vec<HandType> = Vec::new();
        let mut shares: Vec<(String, String, &Expr)> = Vec::new();
        for statement in &script.statements {
            let Statement::Define(name, expr, _) = statement else { continue };
            if has_prefix(name, LEVEL_TYPE_PREFIX) {
                return Err(refusal(format!(
                    "`{name}`: levelling over a separate `LevelType_` decomposition is not available in \
                         libdealer; level the `HandType_` variables"
                )));
            }
            if !has_prefix(name, HAND_TYPE_PREFIX) {
                continue;
            }
            if let Some(of) = share_label(name) {
                shares.push((name.clone(), of, expr));
            } else if !types.iter().any(|t| t.variable == *name) {
                let label = label(name, HAND_TYPE_PREFIX);
                if let Some(same) = types.iter().find(|t| t.label.eq_ignore_ascii_case(&label)) {
                    return Err(refusal(format!(
                        "`{}` and `{name}` name the same category: hand type labels may not differ only in \
                             case.\n       Rename one of them.",
                        same.variable
                    )));
                }
                types.push(HandType { variable: name.clone(), label });
            }
        }
        let mut weights = vec![1.0; types.len()];
        for (name, of, expr) in shares {
            let Some(at) = types.iter().position(|t| t.label.eq_ignore_ascii_case(&of)) else {
                return Err(refusal(format!(
                    "`{name}` sets the share of a `{of}` the scenario never declares.\n       Add \
                         `{HAND_TYPE_PREFIX}_{of} = ...`, or correct the name."
                )));
            };
            let &Expr::Number(weight, _) = expr else {
                return Err(refusal(format!(
                    "`{name}` has to be a plain number — it is a target share, settled before any deal is \
                         looked at."
                )));
            };
            if weight < 0 {
                return Err(refusal(format!("`{name}` cannot be negative.")));
            }
            weights[at] = f64::from(weight);
        }
        if !types.is_empty() && weights.iter().all(|&w| w == 0.0) {
            return Err(refusal("every share is 0, which asks for no deals at all."));
        }
        Ok(HandTypes { types, weights })
    }

    /// The labels, in declaration order.
    pub fn labels(&self) -> Vec<&str> {
        self.types.iter().map(|t| t.label.as_str()).collect()
    }

    /// The target mix: the weights given as an option (`even`, or one per type), else the
    /// script's, normalised to sum 1.
    pub fn target(&self, given: Option<&crate::job::options::LevelTarget>) -> Result<Vec<f64>> {
        use crate::job::options::LevelTarget;
        let weights = match given {
            None => self.weights.clone(),
            Some(LevelTarget::Even) => vec![1.0; self.types.len()],
            Some(LevelTarget::Weights(w)) if w.len() != self.types.len() => {
                return Err(refusal(format!(
                    "--level-target has {} weights for {} hand types",
                    w.len(),
                    self.types.len()
                )))
            }
            Some(LevelTarget::Weights(w)) => w.clone(),
        };
        let sum: f64 = weights.iter().sum();
        if sum <= 0.0 {
            return Err(refusal("the target shares sum to zero, which asks for no deals at all."));
        }
        Ok(weights.iter().map(|w| w / sum).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;

    fn declared(text: &str) -> Result<HandTypes> {
        let script = crate::script::parse(text.as_bytes(), Dialect::V2, &Default::default()).expect("parses");
        HandTypes::declared(&script)
    }

    const THREE: &str = "HandType_a = hcp(north) < 10\nHandType_b = hcp(north) >= 10 and hcp(north) < 15\n\
                         HandType_c = hcp(north) >= 15\ncondition 1\n";

    #[test]
    fn labels_and_default_weights() {
        let types = declared(THREE).unwrap();
        assert_eq!(types.labels(), ["a", "b", "c"]);
        assert_eq!(types.weights, [1.0, 1.0, 1.0]);
        assert_eq!(label("HandType-x", HAND_TYPE_PREFIX), "x");
        assert_eq!(label("HandType__x", HAND_TYPE_PREFIX), "x");
        assert_eq!(label("HandTypex", HAND_TYPE_PREFIX), "x");
        assert_eq!(label("handtype_south_15", HAND_TYPE_PREFIX), "south_15");
        // Declaration order, not alphabetical.
        let types = declared("HandType_zzz = hcp(north) < 10\nHandType_aaa = hcp(north) >= 10\n").unwrap();
        assert_eq!(types.labels(), ["zzz", "aaa"]);
    }

    #[test]
    fn shares_weight_the_types() {
        for share in ["HandType_b_Share = 3", "HandType_b_share = 3", "HANDTYPE_B_SHARE = 3"] {
            let types = declared(&format!("{THREE}{share}\n")).unwrap();
            assert_eq!(types.labels(), ["a", "b", "c"], "{share}");
            assert_eq!(types.weights, [1.0, 3.0, 1.0], "{share}");
            assert_eq!(types.target(None).unwrap(), [0.2, 0.6, 0.2]);
        }
    }

    #[test]
    fn refusals() {
        let refused = |extra: &str| declared(&format!("{THREE}{extra}\n")).unwrap_err().to_string();
        let e = refused("HandType_d_Share = 2");
        assert!(e.contains("never declares") && e.contains("HandType_d"), "{e}");
        assert!(refused("HandType_a_Share = hcp(north)").contains("plain number"));
        assert!(refused("HandType_a_Share = -2").contains("cannot be negative"));
        let e = refused("HandType_a_Share = 0\nHandType_b_Share = 0\nHandType_c_Share = 0");
        assert!(e.contains("no deals at all"), "{e}");
        let e = refused("handtype_A = hcp(north) > 30");
        assert!(e.contains("the same category") && e.contains("HandType_a") && e.contains("handtype_A"), "{e}");
        assert!(refused("LevelType_x = hcp(north) > 3").contains("not available"));
    }

    #[test]
    fn targets_from_options() {
        use crate::job::options::LevelTarget;
        let types = declared(THREE).unwrap();
        assert_eq!(types.target(Some(&LevelTarget::Weights(vec![2.0, 1.0, 1.0]))).unwrap(), [0.5, 0.25, 0.25]);
        assert_eq!(types.target(Some(&LevelTarget::Even)).unwrap(), [1.0 / 3.0; 3]);
        let e = types.target(Some(&LevelTarget::Weights(vec![1.0, 1.0]))).unwrap_err().to_string();
        assert!(e.contains("2 weights for 3 hand types"), "{e}");
    }
}

//! The arithmetic of levelling by keeps (Dealer3's `--write-leveled`): from each hand type's
//! natural share `n` and target share `t`, the mix delivered (`t`, or under a budget every
//! type moved the same fraction `λ` from nature toward the target), each type's keep
//! `(mix/n) / max(mix/n)` (the most wanted type is always kept), its threshold on a roll of
//! `scale` (`keep × scale` rounded; refused when a kept type would round to 0), the share of
//! qualifying deals kept (`acceptance`) and the deals dealt per deal kept (`cost`). Pure
//! numbers: nothing here deals or writes.

use crate::error::Result;
use crate::practice::refusal::refusal;

/// How a type's deals are kept by the generated block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threshold {
    /// Never (a type the target gives no share): `level_X = 0`.
    Never,
    /// Always: `level_X = HandType_X`.
    Always,
    /// When the roll is below this: `level_X = HandType_X and roll < k`.
    Below(u32),
}

/// The keeps that turn the natural mix into the target mix.
#[derive(Clone, Debug, PartialEq)]
pub struct Keeps {
    /// The target mix, normalised.
    pub target: Vec<f64>,
    /// The mix delivered (the target, or moved toward it as far as the budget allows).
    pub mix: Vec<f64>,
    /// Each type's keep, the largest 1.
    pub keep: Vec<f64>,
    /// Each type's threshold on the roll.
    pub thresholds: Vec<Threshold>,
    /// How far from nature toward the target the mix goes (1: all the way).
    pub exactness: f64,
    /// The share of qualifying deals kept.
    pub acceptance: f64,
    /// Deals dealt per deal kept, when the condition's share of all deals is known.
    pub cost: Option<f64>,
}

impl Keeps {
    /// The keeps for `natural` shares (all above 0) and `target` shares (normalised), on a
    /// roll of `scale`, within `budget` deals dealt per deal kept when given (`base_rate`: the
    /// share of all deals the condition keeps, when known). `labels` name the types in errors.
    pub fn new(
        natural: &[f64],
        target: &[f64],
        base_rate: Option<f64>,
        budget: Option<f64>,
        scale: u32,
        labels: &[&str],
    ) -> Result<Keeps> {
        let ratio =
            |mix: &[f64]| mix.iter().zip(natural).map(|(m, n)| if *n > 0.0 { m / n } else { 0.0 }).fold(0.0, f64::max);
        let most = ratio(target);
        let exactness = match (budget, base_rate) {
            (Some(budget), Some(base)) if most > 1.0 => {
                let acceptance = ((1.0 / budget) / base).min(1.0);
                (((1.0 / acceptance) - 1.0) / (most - 1.0)).clamp(0.0, 1.0)
            }
            _ => 1.0,
        };
        let acceptance = if most > 1.0 { 1.0 / (1.0 + exactness * (most - 1.0)) } else { 1.0 };
        let mix: Vec<f64> = natural.iter().zip(target).map(|(n, t)| (1.0 - exactness) * n + exactness * t).collect();
        let scaled = ratio(&mix);
        let keep: Vec<f64> =
            mix.iter().zip(natural).map(|(m, n)| if *n > 0.0 { (m / n) / scaled } else { 0.0 }).collect();
        let mut thresholds = Vec::with_capacity(keep.len());
        for (k, label) in keep.iter().zip(labels) {
            let steps = (k * f64::from(scale)).round();
            thresholds.push(if *k <= 0.0 {
                Threshold::Never
            } else if steps < 1.0 {
                let finer = scale.saturating_mul(100);
                return Err(refusal(format!(
                    "`{label}` wants to be kept {k:.6} of the time, which is less than one deal in {scale}.\n       \
                         No threshold on this roll says that. Give `{label}` more of the target, or define\n       \
                         a finer roll before the block: roll = (rnd({finer}) % {finer} + {finer}) % {finer}"
                )));
            } else if steps >= f64::from(scale) {
                Threshold::Always
            } else {
                Threshold::Below(steps as u32)
            });
        }
        let cost = base_rate.map(|base| 1.0 / (base * acceptance));
        Ok(Keeps { target: target.to_vec(), mix, keep, thresholds, exactness, acceptance, cost })
    }

    /// The mix the thresholds deliver exactly, for exact `natural` shares (the keeps rounded to
    /// steps of the roll move it a little from [`mix`](Self::mix)).
    pub fn delivered(&self, natural: &[f64], scale: u32) -> Vec<f64> {
        let kept: Vec<f64> = self
            .thresholds
            .iter()
            .zip(natural)
            .map(|(threshold, n)| match threshold {
                Threshold::Never => 0.0,
                Threshold::Always => *n,
                Threshold::Below(k) => n * f64::from(*k) / f64::from(scale),
            })
            .collect();
        let total: f64 = kept.iter().sum();
        kept.iter().map(|k| if total > 0.0 { k / total } else { 0.0 }).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LABELS: [&str; 5] = ["12_14", "15_17", "18_19", "20_21", "22_24"];
    /// Dealer3's NT_Ladder example: measured natural shares of five balanced bands.
    const NATURAL: [f64; 5] = [0.58301, 0.29260, 0.07961, 0.03214, 0.01263];

    #[test]
    fn even_target_on_the_nt_ladder() {
        let keeps = Keeps::new(&NATURAL, &[0.2; 5], Some(0.1667), None, 1000, &LABELS).unwrap();
        assert_eq!(
            keeps.thresholds,
            [
                Threshold::Below(22),
                Threshold::Below(43),
                Threshold::Below(159),
                Threshold::Below(393),
                Threshold::Always
            ]
        );
        assert!((keeps.acceptance - 0.0632).abs() < 1e-4, "{}", keeps.acceptance);
        assert_eq!(format!("{:.0}", keeps.cost.unwrap()), "95");
        assert_eq!(keeps.exactness, 1.0);
        let delivered = keeps.delivered(&NATURAL, 1000);
        assert!(delivered.iter().all(|d| (d - 0.2).abs() < 0.005), "{delivered:?}");
    }

    #[test]
    fn a_budget_moves_every_type_the_same_fraction() {
        // Budget 40 on NT_Ladder with 1 deal in 6 qualifying: 15% of qualifying deals may be
        // dropped, λ = (1/0.15 − 1) / (15.835 − 1) = 0.382 of the way to the target (Dealer3's
        // guide, from its own measurement, shows 43.4 25.6 12.7 9.7 8.6).
        let keeps = Keeps::new(&NATURAL, &[0.2; 5], Some(1.0 / 6.0), Some(40.0), 1000, &LABELS).unwrap();
        let percent: Vec<String> = keeps.mix.iter().map(|m| format!("{:.1}", m * 100.0)).collect();
        assert_eq!(percent, ["43.7", "25.7", "12.6", "9.6", "8.4"]);
        for (m, n) in keeps.mix.iter().zip(NATURAL) {
            assert!(((m - n) / (0.2 - n) - keeps.exactness).abs() < 1e-12);
        }
        assert!(keeps.exactness < 0.999);
        assert!((keeps.cost.unwrap() - 40.0).abs() < 1e-9);
        assert_eq!(keeps.thresholds[4], Threshold::Always);
    }

    #[test]
    fn zero_targets_and_keeps_too_small() {
        let keeps = Keeps::new(&NATURAL, &[0.25, 0.25, 0.25, 0.25, 0.0], None, None, 1000, &LABELS).unwrap();
        assert_eq!(keeps.thresholds[4], Threshold::Never);
        assert_eq!(keeps.delivered(&NATURAL, 1000)[4], 0.0);
        let e = Keeps::new(&NATURAL, &[0.2; 5], None, None, 10, &LABELS).unwrap_err().to_string();
        assert!(e.contains("less than one deal in 10") && e.contains("finer roll"), "{e}");
        assert!(e.contains("roll = (rnd(1000) % 1000 + 1000) % 1000"), "{e}");
    }
}

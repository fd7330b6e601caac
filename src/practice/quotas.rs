//! Exact quotas: `total` boards split over shares by the largest-remainder rule (each share's
//! whole part, then one more to the largest fractional parts, earlier shares first on ties),
//! so that `-p 100` over five even types gives exactly 20 of each.

/// The quotas of `total` boards for `shares` (summing to 1).
pub fn largest_remainder(total: u64, shares: &[f64]) -> Vec<u64> {
    let exact: Vec<f64> = shares.iter().map(|s| s * total as f64).collect();
    let mut quotas: Vec<u64> = exact.iter().map(|e| e.floor() as u64).collect();
    let given: u64 = quotas.iter().sum();
    let mut order: Vec<usize> = (0..shares.len()).filter(|&i| shares[i] > 0.0).collect();
    // Largest fractional part first; the sort is stable, so ties keep declaration order.
    order.sort_by(|&a, &b| (exact[b] - exact[b].floor()).total_cmp(&(exact[a] - exact[a].floor())));
    for &i in order.iter().cycle().take(total.saturating_sub(given) as usize) {
        quotas[i] += 1;
    }
    quotas
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotas_add_up_exactly() {
        assert_eq!(largest_remainder(100, &[0.2; 5]), [20; 5]);
        assert_eq!(largest_remainder(7, &[1.0 / 3.0; 3]), [3, 2, 2]);
        assert_eq!(largest_remainder(10, &[0.46, 0.27, 0.27]), [4, 3, 3]);
        assert_eq!(largest_remainder(3, &[0.5, 0.5, 0.0]), [2, 1, 0]);
        for total in 0..200u64 {
            let quotas = largest_remainder(total, &[0.58, 0.29, 0.08, 0.032, 0.018]);
            assert_eq!(quotas.iter().sum::<u64>(), total);
        }
    }
}

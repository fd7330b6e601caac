//! The order `--interleave` and `--level` print boards in (Dealer3's): one bucket of deals per
//! hand type, in declaration order, plus the deals of no type. Over as many rounds as the
//! largest bucket holds, each bucket gives a deal whenever its credit (its size over the
//! number of rounds a round, starting staggered among buckets of the same size) reaches one,
//! the buckets visited in an order shuffled per round from the seed (splitmix64 and
//! Fisher–Yates); what is left follows bucket by bucket, then the deals of no type. Equal
//! buckets give one deal each per round; the same seed gives the same order.

/// The golden-ratio increment of splitmix64.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// The `n`-th number (from 1) of the splitmix64 stream that starts at `state`.
pub fn splitmix64(state: u64, n: u64) -> u64 {
    let mut z = state.wrapping_add(n.wrapping_mul(GOLDEN));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The order the buckets are visited in, in round `round` of a run with `seed`.
pub fn round_order(seed: u64, round: u64, count: usize) -> Vec<usize> {
    let state = seed.wrapping_mul(GOLDEN).wrapping_add(round).wrapping_add(0x8ebc_6af0_9c88_c6e3);
    let mut n = 0;
    let mut next = || {
        n += 1;
        splitmix64(state, n)
    };
    let mut order: Vec<usize> = (0..count).collect();
    for i in (1..count).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// The bucket of each position of the interleaved order, for buckets of `sizes` (the hand
/// types, in declaration order) and `untyped` deals of no type (bucket `sizes.len()`, last).
pub fn interleaved(sizes: &[usize], untyped: usize, seed: u64) -> Vec<usize> {
    let rounds = sizes.iter().copied().max().unwrap_or(0);
    let mut order = Vec::with_capacity(sizes.iter().sum::<usize>() + untyped);
    let mut left: Vec<usize> = sizes.to_vec();
    let mut credit: Vec<f64> = sizes
        .iter()
        .enumerate()
        .map(|(i, &size)| {
            let alike = sizes.iter().filter(|&&s| s == size).count();
            let place = sizes[..i].iter().filter(|&&s| s == size).count();
            (place as f64 + 0.5) / alike as f64
        })
        .collect();
    for round in 0..rounds {
        for bucket in round_order(seed, round as u64, sizes.len()) {
            if sizes[bucket] == 0 {
                continue;
            }
            credit[bucket] += sizes[bucket] as f64 / rounds as f64;
            if credit[bucket] >= 1.0 - 1e-9 && left[bucket] > 0 {
                credit[bucket] -= 1.0;
                left[bucket] -= 1;
                order.push(bucket);
            }
        }
    }
    for (bucket, &n) in left.iter().enumerate() {
        order.extend(std::iter::repeat_n(bucket, n));
    }
    order.extend(std::iter::repeat_n(sizes.len(), untyped));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_buckets_give_one_deal_each_per_round() {
        let order = interleaved(&[4, 4, 4], 0, 3);
        for round in order.chunks(3) {
            let mut sorted = round.to_vec();
            sorted.sort();
            assert_eq!(sorted, [0, 1, 2], "{order:?}");
        }
        // Another seed, another order within the rounds; the same seed, the same.
        assert_ne!(interleaved(&[8, 8, 8], 0, 3), interleaved(&[8, 8, 8], 0, 4));
        assert_eq!(interleaved(&[8, 8, 8], 0, 3), interleaved(&[8, 8, 8], 0, 3));
    }

    #[test]
    fn unequal_buckets_spread_and_every_deal_comes_once() {
        // Sizes 4, 4, 2, 2: every round of three holds both big ones and one small one.
        let order = interleaved(&[4, 2, 4, 2], 0, 9);
        assert_eq!(order.len(), 12);
        for round in order.chunks(3) {
            assert!(round.contains(&0) && round.contains(&2), "{order:?}");
        }
        let order = interleaved(&[10, 3, 0, 1], 5, 1);
        let count = |b| order.iter().filter(|&&x| x == b).count();
        assert_eq!((count(0), count(1), count(2), count(3), count(4)), (10, 3, 0, 1, 5));
        assert!(order[order.len() - 5..].iter().all(|&b| b == 4), "untyped last: {order:?}");
    }
}

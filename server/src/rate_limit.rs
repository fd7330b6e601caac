//! Per-client rate limits: a token bucket per client (`per_second` tokens a second, holding at
//! most `burst`), in a map of bounded size. When the map is full, the clients whose buckets have
//! filled up again (idle ones, which lose nothing by being forgotten) are dropped first; if none
//! is idle, the stalest is. Memory stays bounded whatever the number of addresses.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The buckets of all clients.
pub struct RateLimiter {
    per_second: f64,
    burst: f64,
    max_clients: usize,
    buckets: Mutex<HashMap<String, Bucket>>,
}

#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    updated: Instant,
}

impl RateLimiter {
    /// A limiter; `per_second` 0 lets every request through.
    pub fn new(per_second: f64, burst: f64, max_clients: usize) -> RateLimiter {
        RateLimiter { per_second, burst, max_clients: max_clients.max(1), buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes a token from `client`'s bucket at `now`: `Ok`, or `Err` with how long until the
    /// next token.
    pub fn check(&self, client: &str, now: Instant) -> Result<(), Duration> {
        if self.per_second <= 0.0 {
            return Ok(());
        }
        let Ok(mut buckets) = self.buckets.lock() else { return Ok(()) };
        if !buckets.contains_key(client) && buckets.len() >= self.max_clients {
            self.forget_idle(&mut buckets, now);
        }
        let bucket = buckets.entry(client.to_string()).or_insert(Bucket { tokens: self.burst, updated: now });
        let elapsed = now.saturating_duration_since(bucket.updated).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * self.per_second).min(self.burst);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / self.per_second))
        }
    }

    /// Clients remembered now.
    pub fn clients(&self) -> usize {
        self.buckets.lock().map_or(0, |b| b.len())
    }

    /// Makes room in a full map: drops the idle clients, and if none is, the stalest tenth (so
    /// that a flood of new addresses costs amortised constant time per request, not a sweep of
    /// the map each).
    fn forget_idle(&self, buckets: &mut HashMap<String, Bucket>, now: Instant) {
        let refill = Duration::from_secs_f64(self.burst / self.per_second);
        buckets.retain(|_, b| now.saturating_duration_since(b.updated) < refill);
        if buckets.len() >= self.max_clients {
            let mut times: Vec<Instant> = buckets.values().map(|b| b.updated).collect();
            let cut = (self.max_clients / 10).min(times.len() - 1);
            let (_, &mut newest_dropped, _) = times.select_nth_unstable(cut);
            buckets.retain(|_, b| b.updated > newest_dropped);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_the_rate() {
        let limiter = RateLimiter::new(2.0, 3.0, 10);
        let t = Instant::now();
        for _ in 0..3 {
            assert!(limiter.check("a", t).is_ok());
        }
        let wait = limiter.check("a", t).unwrap_err();
        assert!(wait <= Duration::from_millis(500) && wait > Duration::ZERO);
        assert!(limiter.check("b", t).is_ok(), "clients have their own buckets");
        assert!(limiter.check("a", t + Duration::from_millis(500)).is_ok());
    }

    #[test]
    fn a_flood_of_busy_clients_evicts_the_stalest_in_batches() {
        let limiter = RateLimiter::new(0.001, 1000.0, 100);
        let t = Instant::now();
        for i in 0..100 {
            assert!(limiter.check(&format!("c{i}"), t + Duration::from_millis(i)).is_ok());
        }
        assert!(limiter.check("new", t + Duration::from_millis(200)).is_ok());
        let clients = limiter.clients();
        assert!((89..=91).contains(&clients), "{clients}");
        // The stalest went, the newest stayed (its bucket still spent by one token).
        let buckets = limiter.buckets.lock().unwrap();
        assert!(!buckets.contains_key("c0") && buckets.contains_key("c99") && buckets.contains_key("new"));
    }

    #[test]
    fn memory_stays_bounded() {
        let limiter = RateLimiter::new(1.0, 1.0, 100);
        let t = Instant::now();
        for i in 0..10_000 {
            let _ = limiter.check(&format!("10.0.{}.{}", i / 256, i % 256), t);
        }
        assert!(limiter.clients() <= 100);
    }
}

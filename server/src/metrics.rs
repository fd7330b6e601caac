//! The service's Prometheus metrics (`GET /metrics`, the text exposition format): requests by
//! endpoint and outcome, their latency, runs in progress, the queue, double-dummy runs and deals
//! produced.

use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// A request's labels.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    /// The route (`/v1/deal`, …; `other` for unknown paths).
    pub endpoint: String,
    /// How it ended (`ok`, `ceiling`, `script_error`, `rate_limited`, `queue_full`, …).
    pub outcome: String,
}

/// The latency histogram's label.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct EndpointLabel {
    /// The route.
    pub endpoint: String,
}

/// Every metric, registered once.
pub struct Metrics {
    registry: Registry,
    /// Requests answered (or abandoned by their client), by endpoint and outcome.
    pub requests: Family<RequestLabels, Counter>,
    /// Seconds from a request's arrival to its answer.
    pub latency: Family<EndpointLabel, Histogram>,
    /// Runs dealing now.
    pub runs_in_progress: Gauge,
    /// Double-dummy runs now.
    pub double_dummy_runs: Gauge,
    /// Requests waiting for a slot now.
    pub queue_length: Gauge,
    /// Deals produced by all runs.
    pub deals_produced: Counter,
}

impl Metrics {
    /// The metrics, registered.
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("dealer_server");
        let requests = Family::<RequestLabels, Counter>::default();
        let latency = Family::<EndpointLabel, Histogram>::new_with_constructor(|| {
            Histogram::new([0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0])
        });
        let runs_in_progress = Gauge::default();
        let double_dummy_runs = Gauge::default();
        let queue_length = Gauge::default();
        let deals_produced = Counter::default();
        registry.register("requests", "Requests by endpoint and outcome", requests.clone());
        registry.register(
            "request_duration_seconds",
            "Seconds from a request's arrival to its answer",
            latency.clone(),
        );
        registry.register("runs_in_progress", "Runs dealing now", runs_in_progress.clone());
        registry.register("double_dummy_runs_in_progress", "Double-dummy runs now", double_dummy_runs.clone());
        registry.register("queue_length", "Requests waiting for a run slot", queue_length.clone());
        registry.register("deals_produced", "Deals produced by all runs", deals_produced.clone());
        Metrics { registry, requests, latency, runs_in_progress, double_dummy_runs, queue_length, deals_produced }
    }

    /// Counts one request.
    pub fn count(&self, endpoint: &str, outcome: &str, seconds: f64) {
        let endpoint = endpoint.to_string();
        self.requests.get_or_create(&RequestLabels { endpoint: endpoint.clone(), outcome: outcome.to_string() }).inc();
        self.latency.get_or_create(&EndpointLabel { endpoint }).observe(seconds);
    }

    /// The text exposition.
    pub fn render(&self) -> String {
        let mut text = String::new();
        // Writing to a String does not fail.
        let _ = encode(&mut text, &self.registry);
        text
    }
}

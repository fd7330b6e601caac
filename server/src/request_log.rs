//! The request log and metrics around every request: a request id (the client's `X-Request-Id`
//! when it is a short token, else a new one) sent back in `X-Request-Id`, one structured log
//! line per request (id, client address, method, route, status, outcome, milliseconds), and the
//! request counted by endpoint and outcome with its latency. Also the logger itself (JSON or
//! text lines on standard error).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;

use crate::api_error::Outcome;
use crate::metrics::Metrics;

/// The routes counted by name; others count as `other`.
const ROUTES: &[&str] = &["/v1/deal", "/v1/check", "/v1/version", "/v1/health", "/v1/openapi.json", "/metrics"];

/// Makes request ids: a per-start prefix and a counter.
pub struct RequestIds {
    prefix: String,
    next: AtomicU64,
}

impl RequestIds {
    /// Ids unique to this start of the service.
    pub fn new() -> RequestIds {
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        RequestIds { prefix: format!("{:x}", nanos ^ u64::from(std::process::id()) << 32), next: AtomicU64::new(1) }
    }

    fn next(&self) -> String {
        format!("{}-{}", self.prefix, self.next.fetch_add(1, Ordering::Relaxed))
    }
}

/// A request's id, put among the request's extensions for the handlers (a run abandoned by its
/// client is logged by the handler's side, since the log line of its answer never comes).
#[derive(Clone, Debug)]
pub struct RequestId(pub String);

/// What the request log needs.
pub struct LogState {
    /// The id maker.
    pub ids: RequestIds,
    /// The metrics the requests are counted in.
    pub metrics: Arc<Metrics>,
}

/// Whether a client's request id can be used as ours: 1 to 64 letters, digits, `-`, `_`, `.`.
fn usable_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
}

/// The middleware: id, log line, metrics.
pub async fn log_request(State(log): State<Arc<LogState>>, mut request: Request, next: Next) -> Response {
    let started = Instant::now();
    let id = request
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| usable_id(v))
        .map(str::to_string)
        .unwrap_or_else(|| log.ids.next());
    let method = request.method().to_string();
    let path = request.uri().path().to_string();
    let route = ROUTES.iter().find(|r| **r == path).copied().unwrap_or("other");
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip().to_string()).unwrap_or_default();
    request.extensions_mut().insert(RequestId(id.clone()));
    let mut response = next.run(request).await;
    let outcome = response.extensions().get::<Outcome>().map_or("other", |o| o.0);
    let seconds = started.elapsed().as_secs_f64();
    log.metrics.count(route, outcome, seconds);
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert("x-request-id", value);
    }
    tracing::info!(
        request_id = %id,
        client = %peer,
        method = %method,
        path = %route,
        status = response.status().as_u16(),
        outcome = outcome,
        ms = (seconds * 1000.0 * 1000.0).round() / 1000.0,
        "request"
    );
    response
}

/// Starts the logger: `format` `json` or `text`, `level` `error` … `debug`.
pub fn start_logger(format: &str, level: &str) {
    let level = match level {
        "error" => tracing::Level::ERROR,
        "warn" => tracing::Level::WARN,
        "debug" => tracing::Level::DEBUG,
        _ => tracing::Level::INFO,
    };
    let builder = tracing_subscriber::fmt().with_writer(std::io::stderr).with_max_level(level).with_target(false);
    if format == "json" {
        builder.json().flatten_event(true).init();
    } else {
        builder.init();
    }
}

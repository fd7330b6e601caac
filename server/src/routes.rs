//! The HTTP API (version 1) over the service's state: `POST /v1/deal`, `POST /v1/check`,
//! `GET /v1/version`, `GET /v1/health`, `GET /v1/openapi.json` and `GET /metrics`. Each
//! handler identifies the client, applies its rate limit, and hands runs to the admission and
//! the run thread; the request log and metrics wrap them (src/request_log.rs).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Extension, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;

use crate::admission::{Admission, Busy, InFlight};
use crate::api_error::{ApiError, Outcome};
use crate::clients::{identify, Client};
use crate::config::Config;
use crate::libdealer;
use crate::metrics::Metrics;
use crate::rate_limit::RateLimiter;
use crate::request::{CheckRequest, DealRequest};
use crate::request_log::RequestId;
use crate::run::{interrupted, prepare, RunFailure};

/// The OpenAPI description of the API, served as is.
pub const OPENAPI: &str = include_str!("../openapi.json");

/// What every handler shares.
pub struct AppState {
    /// The configuration in force.
    pub config: Config,
    /// Run slots and the queue.
    pub admission: Admission,
    /// Runs in flight (interrupted when their client goes, or on shutdown).
    pub in_flight: Arc<InFlight>,
    /// Per-client rate limits.
    pub rate_limiter: RateLimiter,
    /// The metrics.
    pub metrics: Arc<Metrics>,
    /// Set once the service is stopping: new runs are refused.
    pub stopping: AtomicBool,
}

impl AppState {
    /// The state for `config`.
    pub fn new(config: Config) -> AppState {
        let admission = Admission::new(
            config.max_runs(),
            config.double_dummy.max_runs,
            config.limits.max_queue,
            Duration::from_secs_f64(config.limits.queue_wait_seconds),
        );
        let rate_limiter =
            RateLimiter::new(config.rate_limit.per_second, config.rate_limit.burst, config.rate_limit.max_clients);
        AppState {
            config,
            admission,
            in_flight: Arc::new(InFlight::default()),
            rate_limiter,
            metrics: Arc::new(Metrics::new()),
            stopping: AtomicBool::new(false),
        }
    }
}

/// The router of the API over `state` (without the request log and CORS, which main adds).
pub fn router(state: Arc<AppState>) -> Router {
    let body_limit = state.config.limits.max_body_bytes;
    Router::new()
        .route("/v1/deal", post(deal))
        .route("/v1/check", post(check))
        .route("/v1/version", get(version))
        .route("/v1/health", get(health))
        .route("/v1/openapi.json", get(openapi))
        .route("/metrics", get(metrics))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state)
}

/// A response with an outcome for the log.
fn with_outcome(mut response: Response, outcome: &'static str) -> Response {
    response.extensions_mut().insert(Outcome(outcome));
    response
}

/// The client of a request, within its rate limit.
fn admit(state: &AppState, headers: &HeaderMap, peer: SocketAddr) -> Result<Client, ApiError> {
    let client = identify(&state.config, headers, peer)?;
    if let Err(wait) = state.rate_limiter.check(&client.name, Instant::now()) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("too many requests from this client ({} per second)", state.config.rate_limit.per_second),
        )
        .retry_after(wait.as_secs_f64().ceil() as u64));
    }
    Ok(client)
}

/// A JSON body, or why it is not one (400; 413 past the body limit).
fn body<T>(parsed: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    parsed.map(|Json(v)| v).map_err(|rejection| {
        let status = rejection.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(status, "too_large", "the request body is larger than the service takes")
        } else if status == StatusCode::UNSUPPORTED_MEDIA_TYPE {
            ApiError::new(status, "bad_request", "send the request as JSON (Content-Type: application/json)")
        } else {
            ApiError::new(StatusCode::BAD_REQUEST, "bad_request", rejection.body_text())
        }
    })
}

/// A slot refused.
fn busy(refusal: Busy, what: &str) -> ApiError {
    match refusal {
        Busy::QueueFull => ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "queue_full",
            format!("the service is busy: every {what} slot is taken and the queue is full"),
        )
        .retry_after(1),
        Busy::TimedOut => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "queue_timeout",
            format!("the service is busy: no {what} slot came free in time"),
        )
        .retry_after(2),
    }
}

/// Refused while stopping.
fn stopping() -> ApiError {
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "stopping", "the service is stopping").retry_after(5)
}

/// `POST /v1/deal`: runs a script and answers with its output, deals and counters.
async fn deal(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    id: Option<Extension<RequestId>>,
    headers: HeaderMap,
    parsed: Result<Json<DealRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let arrived = Instant::now();
    let client = admit(&state, &headers, peer)?;
    let plan = body(parsed)?
        .plan(&state.config.limits)
        .map_err(|r| ApiError::new(StatusCode::BAD_REQUEST, "invalid_request", r.0))?;
    if state.stopping.load(Ordering::Acquire) {
        return Err(stopping());
    }
    // (The queue's gauge is read from the admission when the metrics are scraped.)
    let slot = state.admission.run_slot().await.map_err(|b| busy(b, "run"))?;
    let prepared = tokio::task::spawn_blocking(move || prepare(plan))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()))?;
    let prepared = match prepared {
        Ok(p) => p,
        Err(RunFailure::Refused(failure)) => return Err(ApiError::from_library(failure)),
        Err(RunFailure::Internal(message)) => {
            return Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message))
        }
    };
    let (slot, dd_slot) = if prepared.needs_double_dummy {
        if !client.double_dummy {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "double_dummy_not_allowed",
                "this script solves double dummy, which this client may not ask for (an API key that allows it is needed)",
            ));
        }
        // The run slot is given back while the request waits for a double-dummy slot (plain
        // runs do not wait behind double-dummy ones), then taken again.
        drop(slot);
        let dd_slot = state.admission.double_dummy_slot().await.map_err(|b| busy(b, "double-dummy"))?;
        (state.admission.run_slot().await.map_err(|b| busy(b, "run"))?, Some(dd_slot))
    } else {
        (slot, None)
    };
    if state.stopping.load(Ordering::Acquire) {
        return Err(stopping());
    }
    let metrics = Arc::clone(&state.metrics);
    let id = id.map(|Extension(RequestId(id))| id).unwrap_or_default();
    let client_name = client.name.clone();
    let abandoned = Box::new(move || {
        metrics.count("/v1/deal", "disconnected", arrived.elapsed().as_secs_f64());
        tracing::info!(request_id = %id, client = %client_name, path = "/v1/deal", outcome = "disconnected",
            "request abandoned by its client: run interrupted");
    });
    let registered = state.in_flight.register(Arc::clone(&prepared.interrupter), abandoned);
    let dd = dd_slot.is_some();
    state.metrics.runs_in_progress.inc();
    if dd {
        state.metrics.double_dummy_runs.inc();
    }
    let metrics = Arc::clone(&state.metrics);
    // The slots go with the run: they are given back when it has stopped, not when the request
    // is dropped.
    let (answer, result) = tokio::task::spawn_blocking(move || {
        let ran = prepared.run();
        metrics.runs_in_progress.dec();
        if dd {
            metrics.double_dummy_runs.dec();
        }
        drop((slot, dd_slot));
        ran
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()))?;
    registered.finish();
    state.metrics.deals_produced.inc_by(answer.produced.max(0) as u64);
    match result {
        Ok(()) => {
            let outcome = if answer.ceiling.is_some() { "ceiling" } else { "ok" };
            Ok(with_outcome(Json(answer).into_response(), outcome))
        }
        Err(failure) if interrupted(&failure) => {
            let mut error = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "interrupted",
                "the run was interrupted: the service is stopping",
            )
            .retry_after(5);
            error.answer = Some(Box::new(answer));
            Err(error)
        }
        Err(failure) => {
            let mut error = ApiError::from_library(failure);
            error.outcome = "run_error";
            error.answer = Some(Box::new(answer));
            Err(error)
        }
    }
}

/// `POST /v1/check`: a script's diagnostics — its error, if it does not load, and Bridge Base
/// Online's check (warnings and errors), each with its line and column.
async fn check(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    parsed: Result<Json<CheckRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    admit(&state, &headers, peer)?;
    let request = body(parsed)?;
    if let Some(dialect) = &request.dialect {
        if !matches!(dialect.as_str(), "classic" | "v2") {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                format!("dialect '{dialect}': classic or v2"),
            ));
        }
    }
    let checked = tokio::task::spawn_blocking(move || check_script(&request))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()))?
        .map_err(|message| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message))?;
    Ok(with_outcome(Json(checked).into_response(), "ok"))
}

/// The diagnostics of a script as JSON: `{ok, diagnostics: [{source, severity, line, column, message}]}`.
fn check_script(request: &CheckRequest) -> Result<serde_json::Value, String> {
    let mut session = libdealer::Session::new(1 << 16)?;
    let set = |s: &mut libdealer::Session, k: &str, v: &str| s.set_option(k, v).map_err(|f| f.message);
    set(&mut session, "untrusted", "true")?;
    if let Some(dialect) = &request.dialect {
        set(&mut session, "dialect", dialect)?;
    }
    let mut diagnostics = Vec::new();
    if let Err(failure) = session.load_script(request.script.as_bytes()) {
        let (line, column) = failure.place.unwrap_or((0, 0));
        diagnostics.push(
            json!({"source": "load", "severity": "error", "line": line, "column": column, "message": failure.message}),
        );
    }
    if request.bbo.unwrap_or(true) {
        let found = session.check_bbo(request.script.as_bytes()).map_err(|f| f.message)?;
        for line in found.lines() {
            // `line:col: severity: message`
            let mut parts = line.splitn(4, ':');
            let (l, c, severity, message) = (parts.next(), parts.next(), parts.next(), parts.next());
            let number = |t: Option<&str>| t.and_then(|t| t.trim().parse::<u32>().ok()).unwrap_or(0);
            diagnostics.push(json!({
                "source": "bbo",
                "severity": severity.map(str::trim).unwrap_or("error"),
                "line": number(l),
                "column": number(c),
                "message": message.map(str::trim).unwrap_or(line),
            }));
        }
    }
    let ok = !diagnostics.iter().any(|d| d["severity"] == "error");
    Ok(json!({"ok": ok, "diagnostics": diagnostics}))
}

/// `GET /v1/version`.
async fn version(State(state): State<Arc<AppState>>) -> Response {
    let body = json!({
        "service": "dealer-server",
        "version": env!("CARGO_PKG_VERSION"),
        "library": libdealer::version(),
        "api": "v1",
        "double_dummy": { "anonymous": state.config.double_dummy.anonymous, "max_runs": state.config.double_dummy.max_runs },
    });
    with_outcome(Json(body).into_response(), "ok")
}

/// `GET /v1/health`: 200 while serving, 503 once stopping.
async fn health(State(state): State<Arc<AppState>>) -> Response {
    let stopping = state.stopping.load(Ordering::Acquire);
    let body = json!({
        "status": if stopping { "stopping" } else { "ok" },
        "runs_in_progress": state.in_flight.count(),
        "queue_length": state.admission.queue_length(),
        "max_runs": state.config.max_runs(),
        "max_queue": state.config.limits.max_queue,
        "clients_tracked": state.rate_limiter.clients(),
    });
    let status = if stopping { StatusCode::SERVICE_UNAVAILABLE } else { StatusCode::OK };
    with_outcome((status, Json(body)).into_response(), if stopping { "stopping" } else { "ok" })
}

/// `GET /v1/openapi.json`.
async fn openapi() -> Response {
    with_outcome(([(header::CONTENT_TYPE, "application/json")], OPENAPI).into_response(), "ok")
}

/// `GET /metrics`: the Prometheus text exposition.
async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    state.metrics.queue_length.set(state.admission.queue_length() as i64);
    let text = state.metrics.render();
    with_outcome(([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], text).into_response(), "ok")
}

/// A method the route does not have.
async fn method_not_allowed() -> ApiError {
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", "this endpoint does not take that method")
}

/// Any other path.
async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such endpoint (see /v1/openapi.json)")
}

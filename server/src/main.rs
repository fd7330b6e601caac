//! dealer-server: libdealer's deal service. A JSON API over HTTP (axum on hyper and tokio) for
//! web sites and online practice tables that deal on a server: `POST /v1/deal` runs a dealer
//! script and answers with what the CLI prints, the deals as data and the counters; `POST
//! /v1/check` checks a script; `GET /v1/version`, `GET /v1/health`, `GET /metrics`.
//!
//! Safe by default: every script runs `untrusted` (no programs, no files) under ceilings on
//! time, deals and output; runs at once and the queue are bounded; clients are rate-limited;
//! double dummy is off for anonymous clients. See `dealer-server --help` and the book's
//! "Running the deal service".
//!
//! The data path: request JSON → [`request`] (a plan of library options) → [`admission`] (a run
//! slot) → [`run`] (a libdealer session through [`libdealer`], on a blocking thread) → the
//! answer. [`routes`] joins them; [`request_log`] logs and counts; [`shutdown`] stops.

mod admission;
mod api_error;
mod clients;
mod config;
mod libdealer;
mod metrics;
mod rate_limit;
mod request;
mod request_log;
mod routes;
mod run;
mod shutdown;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::http::{HeaderName, HeaderValue, Method};
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::config::{Config, ENVIRONMENT};
use crate::request_log::{LogState, RequestIds};
use crate::routes::AppState;

/// The command line's help.
fn usage() -> String {
    let mut text = String::from(
        "usage: dealer-server [--listen ADDR:PORT] [--config FILE] [--print-config] [--version]\n\n\
         libdealer's deal service: a JSON API over HTTP (POST /v1/deal, POST /v1/check,\n\
         GET /v1/version, GET /v1/health, GET /v1/openapi.json, GET /metrics).\n\n\
         \x20 --listen ADDR:PORT  where to listen (default 127.0.0.1:8080)\n\
         \x20 --config FILE       read the settings from a TOML file\n\
         \x20 --print-config      print the settings in force (TOML, API keys hidden) and exit\n\
         \x20 --version           print the version and exit\n\n\
         Environment variables replace the file's settings:\n",
    );
    for (name, setting) in ENVIRONMENT {
        text.push_str(&format!("  {name:<36} {setting}\n"));
    }
    text
}

/// The command line: `(listen, config file, print config)`.
fn arguments() -> Result<(Option<String>, Option<String>, bool), String> {
    let mut listen = None;
    let mut file = None;
    let mut print = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |what: &str| inline.clone().or_else(|| args.next()).ok_or(format!("{what} needs a value"));
        match name.as_str() {
            "--listen" => listen = Some(value("--listen")?),
            "--config" => file = Some(value("--config")?),
            "--print-config" => print = true,
            "--version" => {
                println!("dealer-server {} (libdealer {})", env!("CARGO_PKG_VERSION"), libdealer::version());
                std::process::exit(0);
            }
            "--help" | "-h" => {
                print!("{}", usage());
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument '{arg}' (--help lists them)")),
        }
    }
    Ok((listen, file, print))
}

/// CORS for the configured origins (none: no CORS headers, so other origins' pages are
/// refused by their browsers).
fn cors(config: &Config) -> Option<CorsLayer> {
    let origins = &config.cors.allow_origins;
    if origins.is_empty() {
        return None;
    }
    let allow = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(origins.iter().filter_map(|o| HeaderValue::from_str(o).ok()))
    };
    Some(
        CorsLayer::new()
            .allow_origin(allow)
            .allow_methods([Method::GET, Method::POST])
            .allow_headers([
                HeaderName::from_static("content-type"),
                HeaderName::from_static("authorization"),
                HeaderName::from_static("x-api-key"),
                HeaderName::from_static("x-request-id"),
            ])
            .expose_headers([HeaderName::from_static("x-request-id"), HeaderName::from_static("retry-after")])
            .max_age(std::time::Duration::from_secs(600)),
    )
}

fn main() {
    let (listen, file, print) = match arguments() {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("dealer-server: {message}");
            std::process::exit(2);
        }
    };
    let mut config = match Config::load(file.as_deref(), &|name| std::env::var(name).ok()) {
        Ok(c) => c,
        Err(message) => {
            eprintln!("dealer-server: {message}");
            std::process::exit(2);
        }
    };
    if let Some(listen) = listen {
        config.listen = listen;
    }
    if print {
        print!("{}", config.printable());
        return;
    }
    request_log::start_logger(&config.log.format, &config.log.level);
    // Runs, script loads and checks go to the blocking pool: as many threads as runs at once
    // and a few more (tokio's default, 512, would let idle threads and glibc's per-thread
    // arenas pile up under bursts of checks).
    let blocking_threads = config.max_runs() * 2 + 4;
    let runtime =
        match tokio::runtime::Builder::new_multi_thread().enable_all().max_blocking_threads(blocking_threads).build() {
            Ok(r) => r,
            Err(e) => {
                eprintln!("dealer-server: cannot start: {e}");
                std::process::exit(1);
            }
        };
    let code = runtime.block_on(serve(config));
    // Runs interrupted at the end may still be winding down on blocking threads: do not wait.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    std::process::exit(code);
}

/// Serves until stopped; returns the exit status.
async fn serve(config: Config) -> i32 {
    let listener = match tokio::net::TcpListener::bind(&config.listen).await {
        Ok(l) => l,
        Err(e) => {
            tracing::error!(listen = %config.listen, error = %e, "cannot listen");
            return 1;
        }
    };
    let address = listener.local_addr().map(|a| a.to_string()).unwrap_or_default();
    let cors = cors(&config);
    let state = Arc::new(AppState::new(config));
    let log = Arc::new(LogState { ids: RequestIds::new(), metrics: Arc::clone(&state.metrics) });
    let mut app = routes::router(Arc::clone(&state));
    if let Some(cors) = cors {
        app = app.layer(cors);
    }
    let app = app.layer(axum::middleware::from_fn_with_state(log, request_log::log_request));
    tracing::info!(
        listen = %address,
        version = env!("CARGO_PKG_VERSION"),
        library = %libdealer::version(),
        max_runs = state.config.max_runs(),
        max_queue = state.config.limits.max_queue,
        "listening"
    );
    let stop_state = Arc::clone(&state);
    let (stopped_tx, stopped_rx) = tokio::sync::oneshot::channel::<()>();
    let server = axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).with_graceful_shutdown(
        async move {
            shutdown::signalled().await;
            shutdown::begin(&stop_state);
            let _ = stopped_tx.send(());
        },
    );
    let grace = std::time::Duration::from_secs_f64(state.config.shutdown.grace_seconds.max(0.0));
    // The server ends when every connection has closed; after the signal that is bounded.
    let bound = async move {
        if stopped_rx.await.is_ok() {
            tokio::time::sleep(grace + shutdown::LAST_ANSWERS).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        result = server => match result {
            Ok(()) => {
                tracing::info!("stopped");
                0
            }
            Err(e) => {
                tracing::error!(error = %e, "the server failed");
                1
            }
        },
        _ = bound => {
            tracing::warn!("connections still open after the grace period: exiting");
            0
        }
    }
}

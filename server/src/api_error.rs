//! The service's refusals and failures as HTTP answers: a status, an outcome name (logs and
//! metrics), and a JSON body `{"error": {"code", "message", "line"?, "column"?}}`, with
//! `Retry-After` when trying again later can succeed. A run that failed after writing keeps its
//! output in the body (`answer`).

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::libdealer::Failure;
use crate::run::RunAnswer;

/// What a handler answers instead of its result.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The outcome (`bad_request`, `script_error`, …), also the body's `code`.
    pub outcome: &'static str,
    /// What went wrong, for a person.
    pub message: String,
    /// Where in the script, when it has a place.
    pub place: Option<(u32, u32)>,
    /// Seconds after which trying again may succeed.
    pub retry_after: Option<u64>,
    /// The run's answer as far as it got, for a run that failed or was interrupted.
    pub answer: Option<Box<RunAnswer>>,
}

/// The outcome a handler's success or failure leaves in its response's extensions, for the
/// request log and the metrics.
#[derive(Clone, Copy, Debug)]
pub struct Outcome(pub &'static str);

impl ApiError {
    /// An error with a status, an outcome and a message.
    pub fn new(status: StatusCode, outcome: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { status, outcome, message: message.into(), place: None, retry_after: None, answer: None }
    }

    /// The same, to be tried again after `seconds`.
    pub fn retry_after(mut self, seconds: u64) -> ApiError {
        self.retry_after = Some(seconds.max(1));
        self
    }

    /// A refusal by the library (a script error, an option value): 422 with its place.
    pub fn from_library(failure: Failure) -> ApiError {
        let outcome = if failure.is_script_error() { "script_error" } else { "invalid_request" };
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            outcome,
            message: failure.message,
            place: failure.place,
            retry_after: None,
            answer: None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut error = json!({"code": self.outcome, "message": self.message});
        if let Some((line, column)) = self.place {
            error["line"] = json!(line);
            error["column"] = json!(column);
        }
        let mut body = json!({ "error": error });
        if let Some(answer) = &self.answer {
            if let (Ok(answer), Some(object)) = (serde_json::to_value(answer), body.as_object_mut()) {
                object.insert("answer".into(), answer);
            }
        }
        let mut response = (self.status, axum::Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response.extensions_mut().insert(Outcome(self.outcome));
        response
    }
}

//! Who is asking: the API key a request carries (`Authorization: Bearer KEY` or `X-API-Key`),
//! checked against the configured keys in constant time, else the client's address (the first
//! `X-Forwarded-For` entry when the configuration trusts a proxy to set it). A client's name
//! keys its rate limit; its key decides whether it may solve double dummy.

use std::net::SocketAddr;

use axum::http::{HeaderMap, StatusCode};

use crate::api_error::ApiError;
use crate::config::Config;

/// The client of a request.
#[derive(Debug, Clone)]
pub struct Client {
    /// `key:NAME` or `addr:IP`.
    pub name: String,
    /// Whether its runs may solve double dummy.
    pub double_dummy: bool,
}

/// Identifies the client of a request, or refuses it (401: a wrong key, or no key where one is
/// required).
pub fn identify(config: &Config, headers: &HeaderMap, peer: SocketAddr) -> Result<Client, ApiError> {
    let bearer = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")));
    let key = bearer.or_else(|| headers.get("x-api-key").and_then(|v| v.to_str().ok())).map(str::trim);
    match key {
        Some(given) => {
            // Every key is compared whole, so the time taken does not tell how much matched.
            let mut found = None;
            for entry in &config.auth.keys {
                if constant_time_equal(entry.key.as_bytes(), given.as_bytes()) {
                    found = Some(entry);
                }
            }
            match found {
                Some(entry) => Ok(Client { name: format!("key:{}", entry.name), double_dummy: entry.double_dummy }),
                None => Err(ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", "the API key is not valid")),
            }
        }
        None if config.auth.require_key => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "an API key is required (Authorization: Bearer KEY or X-API-Key: KEY)",
        )),
        None => {
            let forwarded = config
                .rate_limit
                .trust_forwarded_for
                .then(|| headers.get("x-forwarded-for").and_then(|v| v.to_str().ok()))
                .flatten()
                .and_then(|v| v.split(',').next())
                .map(|v| v.trim().to_string())
                .filter(|v| v.parse::<std::net::IpAddr>().is_ok());
            let address = forwarded.unwrap_or_else(|| peer.ip().to_string());
            Ok(Client { name: format!("addr:{address}"), double_dummy: config.double_dummy.anonymous })
        }
    }
}

/// Whether two byte strings are equal, in time that depends on their lengths only.
fn constant_time_equal(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ApiKey;

    fn config() -> Config {
        let mut c = Config::default();
        c.auth.keys.push(ApiKey { name: "site".into(), key: "0123456789abcdef".into(), double_dummy: true });
        c
    }

    #[test]
    fn keys_and_addresses() {
        let peer: SocketAddr = "10.1.2.3:5000".parse().unwrap();
        let mut headers = HeaderMap::new();
        let c = identify(&config(), &headers, peer).unwrap();
        assert_eq!(c.name, "addr:10.1.2.3");
        assert!(!c.double_dummy);
        headers.insert("authorization", "Bearer 0123456789abcdef".parse().unwrap());
        let c = identify(&config(), &headers, peer).unwrap();
        assert_eq!(c.name, "key:site");
        assert!(c.double_dummy);
        headers.insert("authorization", "Bearer 0123456789abcdeX".parse().unwrap());
        assert_eq!(identify(&config(), &headers, peer).unwrap_err().status, StatusCode::UNAUTHORIZED);
        let mut required = config();
        required.auth.require_key = true;
        assert!(identify(&required, &HeaderMap::new(), peer).is_err());
    }
}

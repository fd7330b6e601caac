//! The service's configuration: a TOML file (`--config FILE`), then environment variables
//! (`DEALER_SERVER_*`, see [`ENVIRONMENT`]), then `--listen`; every setting has a documented
//! default that is safe for a machine on the internet (anonymous clients without double
//! dummy, ceilings on every run, a bounded queue, per-client rate limits). `dealer-server
//! --print-config` prints the settings in force.

use serde::{Deserialize, Serialize};

/// Everything the service reads at start.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// The address and port to listen on.
    pub listen: String,
    /// Runs and their ceilings.
    pub limits: Limits,
    /// Requests per client.
    pub rate_limit: RateLimit,
    /// API keys.
    pub auth: Auth,
    /// Double dummy.
    pub double_dummy: DoubleDummy,
    /// Cross-origin requests from browsers.
    pub cors: Cors,
    /// Stopping on SIGTERM or SIGINT.
    pub shutdown: Shutdown,
    /// Logs.
    pub log: Log,
}

/// Runs at once, the queue, and the ceilings of each run.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Runs at once (0: the number of CPUs).
    pub max_runs: usize,
    /// Requests waiting for a run slot beyond those; past it a request is refused (429).
    pub max_queue: usize,
    /// How long a request waits in the queue before it is refused (503), in seconds.
    pub queue_wait_seconds: f64,
    /// The largest request body, in bytes (413 past it).
    pub max_body_bytes: usize,
    /// A run's wall-time ceiling when the request names none, in seconds.
    pub default_seconds: f64,
    /// The most a request may ask for, in seconds.
    pub max_seconds: f64,
    /// The most deals a run may generate.
    pub max_generate: i64,
    /// The most output bytes a run may write.
    pub max_output_bytes: u64,
    /// The most structured deals an answer carries (`deals`).
    pub max_deals: usize,
}

/// Per-client token buckets: a client is its API key's name, or else its address.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RateLimit {
    /// Requests per second a client may make on average (0: no limit).
    pub per_second: f64,
    /// How many it may make at once after a pause.
    pub burst: f64,
    /// Clients remembered at most (the idlest are forgotten first).
    pub max_clients: usize,
    /// Whether the client's address comes from the first `X-Forwarded-For` entry (only behind
    /// a proxy that sets it).
    pub trust_forwarded_for: bool,
}

/// API keys: sent as `Authorization: Bearer KEY` or `X-API-Key: KEY`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Auth {
    /// Whether a request without a key is refused (401).
    pub require_key: bool,
    /// The keys.
    pub keys: Vec<ApiKey>,
}

/// One API key.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiKey {
    /// The client's name (logs, metrics and its rate limit).
    pub name: String,
    /// The key itself.
    pub key: String,
    /// Whether its requests may solve double dummy.
    #[serde(default)]
    pub double_dummy: bool,
}

/// Double dummy (seconds per deal where dealing takes microseconds).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DoubleDummy {
    /// Whether requests without a key may solve double dummy.
    pub anonymous: bool,
    /// Double-dummy runs at once (they also count among `limits.max_runs`).
    pub max_runs: usize,
}

/// Cross-origin requests.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Cors {
    /// Origins a browser page may call the API from (`["*"]`: any); empty: none.
    pub allow_origins: Vec<String>,
}

/// Stopping.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Shutdown {
    /// After SIGTERM, how long runs in flight may go on before they are interrupted, in seconds.
    pub grace_seconds: f64,
}

/// Logs on standard error.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Log {
    /// `json` (one object per line) or `text`.
    pub format: String,
    /// `error`, `warn`, `info` or `debug`.
    pub level: String,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: "127.0.0.1:8080".to_string(),
            limits: Limits::default(),
            rate_limit: RateLimit::default(),
            auth: Auth::default(),
            double_dummy: DoubleDummy::default(),
            cors: Cors::default(),
            shutdown: Shutdown::default(),
            log: Log::default(),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_runs: 0,
            max_queue: 64,
            queue_wait_seconds: 10.0,
            max_body_bytes: 64 * 1024,
            default_seconds: 5.0,
            max_seconds: 10.0,
            max_generate: 10_000_000,
            max_output_bytes: 1 << 20,
            max_deals: 1000,
        }
    }
}

impl Default for RateLimit {
    fn default() -> Self {
        RateLimit { per_second: 10.0, burst: 20.0, max_clients: 100_000, trust_forwarded_for: false }
    }
}

impl Default for DoubleDummy {
    fn default() -> Self {
        DoubleDummy { anonymous: false, max_runs: 1 }
    }
}

impl Default for Shutdown {
    fn default() -> Self {
        Shutdown { grace_seconds: 10.0 }
    }
}

impl Default for Log {
    fn default() -> Self {
        Log { format: "json".to_string(), level: "info".to_string() }
    }
}

/// The environment variables and the setting each one replaces (`section.key`). Lists are
/// comma-separated; `DEALER_SERVER_API_KEYS` holds `name:key` or `name:key:dd` entries (`dd`:
/// the key may solve double dummy).
pub const ENVIRONMENT: &[(&str, &str)] = &[
    ("DEALER_SERVER_LISTEN", "listen"),
    ("DEALER_SERVER_MAX_RUNS", "limits.max_runs"),
    ("DEALER_SERVER_MAX_QUEUE", "limits.max_queue"),
    ("DEALER_SERVER_QUEUE_WAIT_SECONDS", "limits.queue_wait_seconds"),
    ("DEALER_SERVER_MAX_BODY_BYTES", "limits.max_body_bytes"),
    ("DEALER_SERVER_DEFAULT_SECONDS", "limits.default_seconds"),
    ("DEALER_SERVER_MAX_SECONDS", "limits.max_seconds"),
    ("DEALER_SERVER_MAX_GENERATE", "limits.max_generate"),
    ("DEALER_SERVER_MAX_OUTPUT_BYTES", "limits.max_output_bytes"),
    ("DEALER_SERVER_MAX_DEALS", "limits.max_deals"),
    ("DEALER_SERVER_RATE_PER_SECOND", "rate_limit.per_second"),
    ("DEALER_SERVER_RATE_BURST", "rate_limit.burst"),
    ("DEALER_SERVER_RATE_MAX_CLIENTS", "rate_limit.max_clients"),
    ("DEALER_SERVER_TRUST_FORWARDED_FOR", "rate_limit.trust_forwarded_for"),
    ("DEALER_SERVER_REQUIRE_KEY", "auth.require_key"),
    ("DEALER_SERVER_API_KEYS", "auth.keys"),
    ("DEALER_SERVER_DD_ANONYMOUS", "double_dummy.anonymous"),
    ("DEALER_SERVER_DD_MAX_RUNS", "double_dummy.max_runs"),
    ("DEALER_SERVER_CORS_ORIGINS", "cors.allow_origins"),
    ("DEALER_SERVER_GRACE_SECONDS", "shutdown.grace_seconds"),
    ("DEALER_SERVER_LOG_FORMAT", "log.format"),
    ("DEALER_SERVER_LOG_LEVEL", "log.level"),
];

impl Config {
    /// The configuration from `file` (if any), then the environment `env` (name → value).
    pub fn load(file: Option<&str>, env: &dyn Fn(&str) -> Option<String>) -> Result<Config, String> {
        let mut table = match file {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
                text.parse::<toml::Table>().map_err(|e| format!("{path}: {e}"))?
            }
            None => toml::Table::new(),
        };
        for (name, setting) in ENVIRONMENT {
            if let Some(value) = env(name) {
                let value = environment_value(setting, &value).map_err(|e| format!("{name}: {e}"))?;
                let mut place = &mut table;
                let mut parts = setting.split('.').peekable();
                while let Some(part) = parts.next() {
                    if parts.peek().is_none() {
                        place.insert(part.to_string(), value.clone());
                    } else {
                        let entry =
                            place.entry(part.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
                        place = entry.as_table_mut().ok_or_else(|| format!("{name}: {part} is not a table"))?;
                    }
                }
            }
        }
        let config: Config = toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| format!("{}: {}", file.unwrap_or("the environment"), e.message()))?;
        config.checked()
    }

    /// The configuration, or what is wrong with it.
    fn checked(self) -> Result<Config, String> {
        let l = &self.limits;
        let seconds = [
            ("limits.queue_wait_seconds", l.queue_wait_seconds),
            ("limits.default_seconds", l.default_seconds),
            ("limits.max_seconds", l.max_seconds),
        ];
        for (name, value) in seconds {
            if !(value.is_finite() && value > 0.0) {
                return Err(format!("{name} must be a positive number of seconds"));
            }
        }
        let grace = self.shutdown.grace_seconds;
        if !(grace.is_finite() && grace >= 0.0) {
            return Err("shutdown.grace_seconds must be 0 or more seconds".to_string());
        }
        if l.default_seconds > l.max_seconds {
            return Err("limits.default_seconds must not exceed limits.max_seconds".to_string());
        }
        if l.max_generate <= 0 || l.max_output_bytes == 0 || l.max_body_bytes == 0 {
            return Err("limits.max_generate, max_output_bytes and max_body_bytes must be positive".to_string());
        }
        if self.double_dummy.max_runs == 0 {
            return Err("double_dummy.max_runs must be at least 1".to_string());
        }
        let rate = &self.rate_limit;
        if !(rate.per_second.is_finite() && rate.per_second >= 0.0) {
            return Err("rate_limit.per_second must be 0 (no limit) or more".to_string());
        }
        if rate.per_second > 0.0 && !(rate.burst >= 1.0) {
            return Err("rate_limit.burst must be at least 1".to_string());
        }
        if !matches!(self.log.format.as_str(), "json" | "text") {
            return Err(format!("log.format: '{}' (json or text)", self.log.format));
        }
        if !matches!(self.log.level.as_str(), "error" | "warn" | "info" | "debug") {
            return Err(format!("log.level: '{}' (error, warn, info or debug)", self.log.level));
        }
        let mut seen = std::collections::HashSet::new();
        for key in &self.auth.keys {
            if key.key.len() < 16 {
                return Err(format!("auth.keys: the key of '{}' is shorter than 16 characters", key.name));
            }
            if !seen.insert(key.key.as_str()) {
                return Err(format!("auth.keys: the key of '{}' is given twice", key.name));
            }
        }
        if self.auth.require_key && self.auth.keys.is_empty() {
            return Err("auth.require_key is set but auth.keys holds no key".to_string());
        }
        Ok(self)
    }

    /// The settings as TOML, the API keys replaced by `<hidden>` (`--print-config`).
    pub fn printable(&self) -> String {
        let mut shown = self.clone();
        for key in &mut shown.auth.keys {
            key.key = "<hidden>".to_string();
        }
        toml::to_string(&shown).unwrap_or_default()
    }

    /// Runs at once: `limits.max_runs`, or the number of CPUs.
    pub fn max_runs(&self) -> usize {
        match self.limits.max_runs {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }
}

/// An environment variable's text as the value of `setting`.
fn environment_value(setting: &str, text: &str) -> Result<toml::Value, String> {
    let text = text.trim();
    Ok(match setting {
        "listen" | "log.format" | "log.level" => toml::Value::String(text.to_string()),
        "cors.allow_origins" => toml::Value::Array(
            text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(|s| toml::Value::String(s.into())).collect(),
        ),
        "auth.keys" => {
            let mut keys = Vec::new();
            for entry in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let parts: Vec<&str> = entry.split(':').collect();
                let (name, key, dd) = match parts.as_slice() {
                    [name, key] => (name, key, false),
                    [name, key, "dd"] => (name, key, true),
                    _ => return Err(format!("'{entry}' is not name:key or name:key:dd")),
                };
                let mut table = toml::Table::new();
                table.insert("name".into(), toml::Value::String(name.to_string()));
                table.insert("key".into(), toml::Value::String(key.to_string()));
                table.insert("double_dummy".into(), toml::Value::Boolean(dd));
                keys.push(toml::Value::Table(table));
            }
            toml::Value::Array(keys)
        }
        _ => match text {
            "true" => toml::Value::Boolean(true),
            "false" => toml::Value::Boolean(false),
            _ => {
                if let Ok(n) = text.parse::<i64>() {
                    toml::Value::Integer(n)
                } else if let Ok(x) = text.parse::<f64>() {
                    toml::Value::Float(x)
                } else {
                    return Err(format!("'{text}' is not a number or true/false"));
                }
            }
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_safe_and_valid() {
        let c = Config::load(None, &|_| None).unwrap();
        assert_eq!(c.listen, "127.0.0.1:8080");
        assert!(!c.double_dummy.anonymous && !c.auth.require_key && c.rate_limit.per_second > 0.0);
    }

    #[test]
    fn environment_replaces_the_file() {
        let env = |name: &str| match name {
            "DEALER_SERVER_MAX_RUNS" => Some("3".to_string()),
            "DEALER_SERVER_API_KEYS" => Some("site:0123456789abcdef:dd".to_string()),
            "DEALER_SERVER_CORS_ORIGINS" => Some("https://a.example, https://b.example".to_string()),
            _ => None,
        };
        let c = Config::load(None, &env).unwrap();
        assert_eq!(c.limits.max_runs, 3);
        assert_eq!(c.auth.keys[0].name, "site");
        assert!(c.auth.keys[0].double_dummy);
        assert_eq!(c.cors.allow_origins.len(), 2);
        assert!(Config::load(None, &|n| (n == "DEALER_SERVER_MAX_RUNS").then(|| "x".into())).is_err());
    }

    #[test]
    fn unknown_settings_and_short_keys_are_refused() {
        let dir = std::env::temp_dir().join(format!("dealer-server-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("c.toml");
        std::fs::write(&file, "[limits]\nmax_runz = 2\n").unwrap();
        let e = Config::load(file.to_str(), &|_| None).unwrap_err();
        assert!(e.contains("max_runz"), "{e}");
        std::fs::write(&file, "[[auth.keys]]\nname = \"a\"\nkey = \"short\"\n").unwrap();
        assert!(Config::load(file.to_str(), &|_| None).unwrap_err().contains("shorter"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

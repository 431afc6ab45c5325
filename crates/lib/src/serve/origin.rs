//! Only the page's own origin: what keeps another web site, open in the
//! same browser, from reading DIR's scenarios or making the server compute.
//!
//! - Every request must name, in `Host`, an address the server is reached
//!   at: `localhost`, a loopback IP, the address it listens on (any IP
//!   address when it listens on all of them, `0.0.0.0` or `::`), or the
//!   name given with `--host`; and its port, the one it listens on. A page
//!   of another site whose name was made to point at this machine (DNS
//!   rebinding) sends its own name, and is refused `421`.
//! - A request that computes or changes anything (any method but `GET` and
//!   `HEAD`) is refused `403` when the browser says it comes from another
//!   site: an `Origin` other than the server's own, or `Sec-Fetch-Site`
//!   other than `same-origin` or `none`. Clients that are not browsers
//!   (curl, scripts) send neither, and are served.

use std::net::{IpAddr, SocketAddr};

use axum::http::{HeaderMap, Method, header};

use super::error_body::ErrorBody;

/// The names and port the server answers to.
#[derive(Clone, Debug)]
pub struct Origins {
    /// The address it listens on.
    bound: SocketAddr,
    /// `--host` as given, lower case, without brackets.
    host: String,
}

impl Origins {
    /// The origins of a server listening on `bound`, asked with `--host
    /// host`.
    pub fn new(bound: SocketAddr, host: &str) -> Origins {
        Origins {
            bound,
            host: unbracket(&host.to_ascii_lowercase()).to_string(),
        }
    }

    /// `Ok` for a request this server's page (or a client that is not a
    /// browser) may make; the error to answer otherwise.
    pub fn check(&self, method: &Method, headers: &HeaderMap) -> Result<(), ErrorBody> {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        if !host.is_some_and(|h| self.is_own(h)) {
            return Err(ErrorBody::plain(
                "misdirected",
                format!(
                    "this server answers requests to {} (or localhost) only, not to Host {}",
                    self.bound,
                    quoted(host)
                ),
            ));
        }
        if method == Method::GET || method == Method::HEAD {
            return Ok(());
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let own = origin
                .to_str()
                .ok()
                .and_then(|o| o.strip_prefix("http://"))
                .is_some_and(|authority| self.is_own(authority));
            if !own {
                return Err(cross_site(format!(
                    "Origin {}",
                    quoted(origin.to_str().ok())
                )));
            }
        }
        if let Some(site) = headers.get("sec-fetch-site") {
            let site = site.to_str().unwrap_or("");
            if !(site.eq_ignore_ascii_case("same-origin") || site.eq_ignore_ascii_case("none")) {
                return Err(cross_site(format!("Sec-Fetch-Site {}", quoted(Some(site)))));
            }
        }
        Ok(())
    }

    /// Whether `authority` (`name[:port]`) is this server's.
    fn is_own(&self, authority: &str) -> bool {
        let Some((name, port)) = split_authority(authority) else {
            return false;
        };
        if port.unwrap_or(80) != self.bound.port() {
            return false;
        }
        let name = name.to_ascii_lowercase();
        if name == "localhost" || name == self.host {
            return true;
        }
        match name.parse::<IpAddr>() {
            Ok(ip) => ip.is_loopback() || ip == self.bound.ip() || self.bound.ip().is_unspecified(),
            Err(_) => false,
        }
    }
}

fn cross_site(what: String) -> ErrorBody {
    ErrorBody::plain(
        "forbidden",
        format!(
            "refused: {what} says this request comes from another web site; \
             only the page this server serves may run or convert scenarios"
        ),
    )
}

/// A header's value quoted, cut to 100 characters.
fn quoted(value: Option<&str>) -> String {
    match value {
        None => "(none)".into(),
        Some(v) if v.chars().count() > 100 => {
            format!(
                "\"{}…\" ({} bytes)",
                v.chars().take(100).collect::<String>(),
                v.len()
            )
        }
        Some(v) => format!("\"{v}\""),
    }
}

/// `name[:port]` or `[v6][:port]` split; `None` when the port is not a
/// number or the text is not an authority.
fn split_authority(authority: &str) -> Option<(&str, Option<u16>)> {
    let (name, port) = if let Some(rest) = authority.strip_prefix('[') {
        let (v6, after) = rest.split_once(']')?;
        match after {
            "" => (v6, None),
            p => (v6, Some(p.strip_prefix(':')?)),
        }
    } else {
        match authority.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (authority, None),
        }
    };
    if name.is_empty() || name.contains(['/', '@', ' ']) {
        return None;
    }
    let port = match port {
        Some(p) => Some(p.parse().ok()?),
        None => None,
    };
    Some((name, port))
}

fn unbracket(host: &str) -> &str {
    host.strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host)
}

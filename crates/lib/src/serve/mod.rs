//! `pikeshot serve`: the odds in a browser. A local HTTP server (`http`:
//! hyper and axum on tokio) serving one page,
//! with every asset embedded in the binary, and a small JSON API over the
//! CLI's own run path: the registry's metadata (`meta`), the shipped
//! scenarios (`assets`), runs and the TOML ↔ JSON conversion (`compute`), a scenario's
//! decisions solved (`decide`),
//! a sweep's charts and table (`sweep`), the routes (`routes`), which
//! pages may use it (`origin`) and what keeps the server safe to leave
//! running (`limits`). Nothing is written to disk.

pub mod assets;
pub mod compute;
pub mod decide;
pub mod error_body;
pub mod http;
pub mod limits;
pub mod meta;
pub mod origin;
pub mod routes;
pub mod sweep;

use std::io::Write;
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::Semaphore;

use crate::error::{Error, InputError};

/// What `pikeshot serve` was asked.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The address to listen on (default `127.0.0.1`).
    pub host: String,
    /// The port; 0 picks a free one (printed).
    pub port: u16,
    /// Open the page in the default browser.
    pub open: bool,
    /// A folder whose `*.toml` files the page may load.
    pub dir: Option<PathBuf>,
}

/// Serves the page until the process is stopped. Prints the address on
/// stdout (first line: `pikeshot serve: http://ADDR/`), and a warning on
/// stderr when the address is not a loopback one.
pub fn serve(opts: &ServeOptions) -> Result<(), Error> {
    let addr = address(opts)?;
    if let Some(dir) = &opts.dir
        && !dir.is_dir()
    {
        return Err(
            InputError::new(format!("{} is not a folder", dir.display()))
                .key("DIR")
                .accepted("a folder of scenario files (*.toml)")
                .into(),
        );
    }
    let listener = TcpListener::bind(addr).map_err(|e| Error::io(format!("{addr}"), e))?;
    let bound = listener
        .local_addr()
        .map_err(|e| Error::io(format!("{addr}"), e))?;
    let url = format!("http://{bound}/");
    let state = routes::AppState {
        dir: opts.dir.clone(),
        systems: serde_json::to_string(&meta::systems())
            .map_err(|e| Error::internal("the registry as JSON", e))?,
        running: Arc::new(Semaphore::new(limits::MAX_RUNNING)),
        generations: Arc::default(),
        origins: origin::Origins::new(bound, &opts.host),
    };
    // Two threads for the connections, which only wait on sockets; the
    // computations run on rayon's pool, handed over by `spawn_blocking`.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("serve")
        .enable_all()
        .build()
        .map_err(|e| Error::io("the server's runtime", e))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| Error::io(url.clone(), e))?;
    announce(&url, bound, opts.open)?;
    runtime
        .block_on(async {
            let listener = tokio::net::TcpListener::from_std(listener)?;
            http::serve(listener, routes::router(state)).await
        })
        .map_err(|e| Error::io(url, e))
}

/// The address `--host` and `--port` name.
fn address(opts: &ServeOptions) -> Result<SocketAddr, Error> {
    let bad = |why: String| -> Error {
        InputError::new(why)
            .key("--host")
            .accepted("an IP address or host name, e.g. 127.0.0.1 (the default) or ::1")
            .into()
    };
    (opts.host.as_str(), opts.port)
        .to_socket_addrs()
        .map_err(|e| bad(format!("cannot listen on \"{}\": {e}", opts.host)))?
        .next()
        .ok_or_else(|| bad(format!("\"{}\" names no address", opts.host)))
}

/// Prints where the page is (and a warning when others can reach it), and
/// opens it when asked.
fn announce(url: &str, bound: SocketAddr, open: bool) -> Result<(), Error> {
    if !bound.ip().is_loopback() {
        eprintln!(
            "WARNING: pikeshot serve is listening on {bound}, which is not a loopback address: \
             anyone who can reach this machine on that address can use the page and make it \
             compute. Leave --host out to listen on 127.0.0.1 only."
        );
    }
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "pikeshot serve: {url} (Ctrl-C stops it)")
        .and_then(|()| stdout.flush())
        .map_err(|e| Error::io("<stdout>", e))?;
    if open {
        let opener = if cfg!(target_os = "macos") {
            "open"
        } else if cfg!(windows) {
            "explorer"
        } else {
            "xdg-open"
        };
        if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
            eprintln!("could not open a browser ({opener}: {e}); open {url} yourself");
        }
    }
    Ok(())
}

//! The server's plumbing: hyper reads and writes HTTP/1.1 (keep-alive,
//! the head's size limit and deadline), tokio runs the connections, and
//! the routes are an axum [`Router`]. This module only accepts
//! connections and hands each to hyper with the limits below.
//!
//! A client that sends its head slowly is closed at [`HEAD_DEADLINE`]
//! after hyper starts reading it (the deadline is not moved by the bytes
//! that come; an idle keep-alive connection is closed the same way); its
//! body is read under [`super::limits::BODY_DEADLINE`] by the route, and
//! a response the client stops taking is dropped at [`WRITE_DEADLINE`]. At
//! most [`MAX_CONNECTIONS`] connections are served at once: one more
//! waits in the listening socket's queue until one of them ends, which
//! the deadlines make short.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_io_timeout::TimeoutStream;

/// Most connections served at once.
pub const MAX_CONNECTIONS: usize = 256;

/// Longest a request's head (request line and headers) may take to come
/// whole, from when hyper starts reading it.
pub const HEAD_DEADLINE: Duration = Duration::from_secs(10);

/// Longest a response may wait for the client to take more of it: a
/// client that stops reading is closed.
pub const WRITE_DEADLINE: Duration = Duration::from_secs(30);

/// Largest request head: hyper answers `431` past it.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;

/// Serves `listener` with `router` until accepting fails.
pub async fn serve(listener: TcpListener, router: Router) -> io::Result<()> {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        // A slot first: past MAX_CONNECTIONS the next connection waits in
        // the kernel's queue, not in memory here.
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            return Ok(());
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // A connection reset before it was accepted: the next one may do.
            Err(e) if transient(&e) => continue,
            // Out of file descriptors: accepting again at once would fail
            // at once, in a loop; wait for connections to close.
            Err(e) if out_of_files(&e) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            Err(e) => return Err(e),
        };
        let service = TowerToHyperService::new(router.clone());
        let mut stream = TimeoutStream::new(stream);
        stream.set_write_timeout(Some(WRITE_DEADLINE));
        tokio::spawn(async move {
            let _slot = slot;
            let _ = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEAD_DEADLINE)
                .max_header_size(MAX_HEAD_BYTES)
                .serve_connection(TokioIo::new(Box::pin(stream)), service)
                .await;
        });
    }
}

fn transient(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::Interrupted
            | io::ErrorKind::WouldBlock
    )
}

/// `ENFILE` or `EMFILE`: the process or the system has no file
/// descriptor to spare.
fn out_of_files(e: &io::Error) -> bool {
    e.raw_os_error().is_some_and(|n| n == 23 || n == 24)
}

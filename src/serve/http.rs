//! The HTTP/1.1 the page needs, over `std::net`: one thread a connection
//! (at most [`MAX_CONNECTIONS`] at once), one request a connection
//! (`Connection: close`), bodies by `Content-Length`, and a way for a
//! long handler to see that its page went away ([`Request::peer_gone`]).
//!
//! A local page asks little of HTTP, and this is all of it that `serve`
//! uses: an async runtime and a framework built 28 crates (a quarter of
//! the dependencies' build) for the same routes. Nothing here panics on
//! what a client sends; a malformed or oversized head is answered
//! `400`/`431` and the connection closed.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Most connections served at once; one more is answered `503` at once.
pub const MAX_CONNECTIONS: usize = 64;

/// Largest request head (request line and headers).
const MAX_HEAD_BYTES: usize = 16 * 1024;

/// How long a client may take to send its request, and a response to
/// be taken: a connection that stalls is closed, its thread freed.
const IO_TIMEOUT: Duration = Duration::from_secs(30);

/// One request: its method, its path (percent-decoded, without the
/// query), and its connection, from which the handler reads the body.
pub struct Request {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path, percent-decoded, e.g. `/api/scenario/dir/my fight.toml`.
    pub path: String,
    /// The `Content-Length` it stated, if any.
    pub content_length: Option<u64>,
    /// Whether it sent its body in chunks (`Transfer-Encoding`), which
    /// [`Request::body`] refuses.
    pub chunked: bool,
    /// Whether it waits to be told to send its body (`Expect:
    /// 100-continue`, as curl does for a large one).
    expect_continue: bool,
    reader: BufReader<TcpStream>,
}

/// Why a body could not be read.
#[derive(Debug)]
pub enum BodyError {
    /// It is over the limit it was read with.
    TooLarge,
    /// It came in chunks, without a `Content-Length`.
    Chunked,
    /// The connection failed or timed out before the whole body came.
    Io(io::Error),
}

impl Request {
    /// The body: the `Content-Length` bytes that follow the head, at most
    /// `max` (none when no length is stated).
    pub fn body(&mut self, max: usize) -> Result<Vec<u8>, BodyError> {
        if self.chunked {
            return Err(BodyError::Chunked);
        }
        let length = self.content_length.unwrap_or(0);
        if length > max as u64 {
            return Err(BodyError::TooLarge);
        }
        if self.expect_continue && length > 0 {
            self.reader
                .get_ref()
                .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                .map_err(BodyError::Io)?;
        }
        let mut body = vec![0; length as usize];
        self.reader.read_exact(&mut body).map_err(BodyError::Io)?;
        Ok(body)
    }

    /// Whether the client closed its side of the connection (a tab
    /// closed, a fetch aborted): asked without waiting, between the
    /// slices of a long computation.
    pub fn peer_gone(&self) -> bool {
        if !self.reader.buffer().is_empty() {
            return false;
        }
        let stream = self.reader.get_ref();
        if stream.set_nonblocking(true).is_err() {
            return false;
        }
        let mut byte = [0u8; 1];
        let gone = match stream.peek(&mut byte) {
            Ok(0) => true,
            Ok(_) => false,
            Err(e) => e.kind() != io::ErrorKind::WouldBlock,
        };
        let _ = stream.set_nonblocking(false);
        gone
    }
}

/// A response: status, content type, any further headers, body.
pub struct Response {
    /// The status code.
    pub status: u16,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Further headers, e.g. `("Cache-Control", "no-store")`.
    pub headers: Vec<(&'static str, &'static str)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// A response of `status` with `body` of type `content_type`.
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            content_type,
            headers: Vec::new(),
            body: body.into(),
        }
    }

    /// The same response with one more header.
    pub fn with_header(mut self, name: &'static str, value: &'static str) -> Response {
        self.headers.push((name, value));
        self
    }
}

/// Serves `listener` with `handler` until accepting fails: each
/// connection on a thread of its own, its one request answered by
/// `handler`, or by `refuse` when the head cannot be read as HTTP.
pub fn serve<H, R>(listener: TcpListener, handler: H, refuse: R) -> io::Result<()>
where
    H: Fn(&mut Request) -> Response + Send + Sync + 'static,
    R: Fn(u16, String) -> Response + Send + Sync + 'static,
{
    let handler = Arc::new(handler);
    let refuse = Arc::new(refuse);
    let open = Arc::new(AtomicUsize::new(0));
    loop {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            // A connection reset before it was accepted: the next one may do.
            Err(e) if transient(&e) => continue,
            // Out of file descriptors: accepting again at once would fail
            // at once, in a loop; wait for connections to close.
            Err(e) if out_of_files(&e) => {
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
            Err(e) => return Err(e),
        };
        if open.fetch_add(1, Ordering::AcqRel) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::AcqRel);
            let busy = refuse(
                503,
                format!("more than {MAX_CONNECTIONS} connections at once"),
            );
            // Answered and closed here, without the lingering read of
            // `close`: the accept loop must not wait on a client.
            let _ = answer(&stream, busy);
            let _ = stream.shutdown(Shutdown::Write);
            continue;
        }
        let (handler, refuse) = (Arc::clone(&handler), Arc::clone(&refuse));
        let slot = Slot(Arc::clone(&open));
        // Without a thread for it, the connection (moved into the closure)
        // is closed, and its slot given back, as the closure is dropped.
        let _ = std::thread::Builder::new()
            .name("serve-connection".into())
            .spawn(move || {
                let _slot = slot;
                connection(stream, &*handler, &*refuse);
            });
    }
}

/// One of the [`MAX_CONNECTIONS`], given back when its connection ends
/// (however its thread ends).
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
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

/// Reads one request from `stream`, answers it, and closes.
fn connection(
    stream: TcpStream,
    handler: &dyn Fn(&mut Request) -> Response,
    refuse: &dyn Fn(u16, String) -> Response,
) {
    let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let response = match read_head(&mut reader) {
        Ok(Some(head)) => {
            let mut request = Request {
                method: head.method,
                path: head.path,
                content_length: head.content_length,
                chunked: head.chunked,
                expect_continue: head.expect_continue,
                reader,
            };
            let response = handler(&mut request);
            reader = request.reader;
            response
        }
        // Closed before a request came: nothing to answer.
        Ok(None) => return,
        Err((status, why)) => refuse(status, why),
    };
    let _ = answer(&stream, response);
    drop(reader);
    close(stream);
}

/// Writes `response` with the headers every answer has.
fn answer(mut stream: &TcpStream, r: Response) -> io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        r.status,
        reason(r.status),
        r.content_type,
        r.body.len()
    );
    for (name, value) in &r.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(&r.body)?;
    stream.flush()
}

/// Closes after the answer: the writing side first, then what the client
/// still sends (a body not read) is read and dropped for a moment, so
/// that the close does not reset the connection under the answer before
/// the client has read it.
fn close(stream: TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let mut sink = [0u8; 8192];
    let mut left = MAX_HEAD_BYTES * 16;
    while left > 0 {
        match (&stream).read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => left = left.saturating_sub(n),
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Internal Server Error",
    }
}

/// A request's head.
struct Head {
    method: String,
    path: String,
    content_length: Option<u64>,
    chunked: bool,
    expect_continue: bool,
}

/// The head of the next request: `None` when the client closed before
/// sending one; `Err((status, why))` when it is not HTTP/1.x as read here.
fn read_head(reader: &mut BufReader<TcpStream>) -> Result<Option<Head>, (u16, String)> {
    let mut lines = Vec::new();
    let mut read = 0usize;
    loop {
        let mut line = Vec::new();
        let n = reader
            .by_ref()
            .take((MAX_HEAD_BYTES - read) as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| (400, format!("the request could not be read: {e}")))?;
        if n == 0 {
            if lines.is_empty() {
                return Ok(None);
            }
            return Err((400, "the request ended inside its head".into()));
        }
        read += n;
        if read > MAX_HEAD_BYTES {
            return Err((
                431,
                format!("the request's head is over {MAX_HEAD_BYTES} bytes"),
            ));
        }
        let text = String::from_utf8(line)
            .map_err(|_| (400, "the request's head is not UTF-8".to_string()))?;
        let text = text.trim_end_matches(['\r', '\n']).to_string();
        if text.is_empty() {
            if lines.is_empty() {
                // Blank lines before a request line are allowed (RFC 9112 2.2).
                continue;
            }
            break;
        }
        lines.push(text);
    }
    let mut parts = lines[0].split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err((400, format!("not an HTTP request line: {:?}", lines[0])));
    };
    if !version.starts_with("HTTP/1.") || method.is_empty() {
        return Err((400, format!("not an HTTP/1.x request line: {:?}", lines[0])));
    }
    let raw_path = target.split(['?', '#']).next().unwrap_or("");
    let path = percent_decode(raw_path).ok_or_else(|| {
        (
            400,
            format!("the path {raw_path:?} is not percent-encoded UTF-8"),
        )
    })?;
    let mut content_length = None;
    let mut chunked = false;
    let mut expect_continue = false;
    for line in &lines[1..] {
        let Some((name, value)) = line.split_once(':') else {
            return Err((400, format!("not a header: {line:?}")));
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            let n: u64 = value
                .parse()
                .map_err(|_| (400, format!("Content-Length {value:?} is not a number")))?;
            if content_length.is_some_and(|m| m != n) {
                return Err((400, "two different Content-Length headers".into()));
            }
            content_length = Some(n);
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = true;
        } else if name.eq_ignore_ascii_case("expect") {
            expect_continue = value.eq_ignore_ascii_case("100-continue");
        }
    }
    Ok(Some(Head {
        method: method.to_string(),
        path,
        content_length,
        chunked,
        expect_continue,
    }))
}

/// `%XX` escapes decoded; `None` for a bad escape or bytes that are not
/// UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            if !hex.iter().all(u8::is_ascii_hexdigit) {
                return None;
            }
            out.push(u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

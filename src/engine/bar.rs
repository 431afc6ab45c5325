//! A progress bar redrawn in place on a terminal's stderr: a spinner, the
//! time elapsed, the bar, and what the caller says of the count (trials with
//! their rate and time left, or scenarios with the one running). Redrawn at
//! most ten times a second as work is counted, and every 200 ms by a ticker
//! thread so that the spinner and the clock move while a long piece of work
//! counts nothing.

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Time between two redraws as work is counted.
const REDRAW_EVERY: Duration = Duration::from_millis(100);

/// Time between two redraws of the ticker.
const TICK_EVERY: Duration = Duration::from_millis(200);

/// The spinner's frames, one per redraw.
const SPINNER: [char; 8] = ['⠁', '⠂', '⠄', '⡀', '⢀', '⠠', '⠐', '⠈'];

/// What the bar says after it: the count's own words, from the number done,
/// the total and the time elapsed (and the message set last).
pub type Label = fn(done: u64, total: u64, elapsed: Duration, message: &str) -> String;

/// One bar line: `⠂ [00:01:05] ██████░░░░ label`, the bar as wide as
/// `width` columns leave for it (at least 10, at most 40 cells) and the
/// line cut to `width - 1` columns so that it never wraps.
pub fn bar_line(
    frame: usize,
    done: u64,
    total: u64,
    elapsed: Duration,
    label: &str,
    width: usize,
) -> String {
    let secs = elapsed.as_secs();
    let head = format!(
        "{} [{:02}:{:02}:{:02}] ",
        SPINNER[frame % SPINNER.len()],
        secs / 3600,
        (secs / 60) % 60,
        secs % 60
    );
    let fixed = head.chars().count() + 1 + label.chars().count();
    let cells = width.saturating_sub(fixed + 1).clamp(10, 40);
    let filled = if total == 0 {
        0
    } else {
        (cells as u128 * done.min(total) as u128 / total as u128) as usize
    };
    let line = format!(
        "{head}{}{} {label}",
        "█".repeat(filled),
        "░".repeat(cells - filled)
    );
    line.chars().take(width.saturating_sub(1).max(1)).collect()
}

/// The state the workers, the ticker and the owner share.
struct Shared {
    total: u64,
    done: AtomicU64,
    start: Instant,
    label: Label,
    finished: AtomicBool,
    /// The message, the last redraw and the spinner frame; taken with
    /// `try_lock` by the workers, which skip a redraw rather than wait.
    drawn: Mutex<Drawn>,
}

struct Drawn {
    message: String,
    last: Option<Instant>,
    frame: usize,
}

impl Shared {
    /// Redraws unless one was drawn less than `every` ago (or the bar is
    /// finished, or another thread is drawing it).
    fn redraw(&self, every: Duration) {
        let Ok(mut d) = self.drawn.try_lock() else {
            return;
        };
        if self.finished.load(Ordering::Acquire) {
            return;
        }
        let now = Instant::now();
        if d.last.is_some_and(|t| now.duration_since(t) < every) {
            return;
        }
        d.last = Some(now);
        d.frame += 1;
        let done = self.done.load(Ordering::Relaxed);
        let elapsed = now.duration_since(self.start);
        let label = (self.label)(done, self.total, elapsed, &d.message);
        let line = bar_line(d.frame, done, self.total, elapsed, &label, width());
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K{line}");
        let _ = err.flush();
    }
}

/// A bar on stderr, cleared when finished or dropped. Create it only when
/// stderr is a terminal: it writes control sequences.
pub struct Bar {
    shared: Arc<Shared>,
    ticker: Option<JoinHandle<()>>,
}

impl Bar {
    /// A bar over `total` units of work, its words after it from `label`,
    /// drawn as work is counted and every 200 ms (first after 200 ms, so
    /// that a line printed just after this one is not drawn over).
    pub fn new(total: u64, label: Label) -> Bar {
        let shared = Arc::new(Shared {
            total,
            done: AtomicU64::new(0),
            start: Instant::now(),
            label,
            finished: AtomicBool::new(false),
            drawn: Mutex::new(Drawn {
                message: String::new(),
                last: None,
                frame: 0,
            }),
        });
        let ticking = Arc::clone(&shared);
        // A bar without its ticker still draws as work is counted.
        let ticker = std::thread::Builder::new()
            .name("progress".into())
            .spawn(move || {
                while !ticking.finished.load(Ordering::Acquire) {
                    std::thread::park_timeout(TICK_EVERY);
                    ticking.redraw(TICK_EVERY / 2);
                }
            })
            .ok();
        Bar { shared, ticker }
    }

    /// Counts `n` more units done.
    pub fn inc(&self, n: u64) {
        self.shared.done.fetch_add(n, Ordering::Relaxed);
        self.shared.redraw(REDRAW_EVERY);
    }

    /// Says `message` after the count from the next redraw on.
    pub fn set_message(&self, message: &str) {
        if let Ok(mut d) = self.shared.drawn.lock() {
            d.message = message.to_string();
        }
    }

    /// Stops the ticker and clears the line.
    pub fn finish_and_clear(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if self.shared.finished.swap(true, Ordering::AcqRel) {
            return;
        }
        if let Some(t) = self.ticker.take() {
            t.thread().unpark();
            let _ = t.join();
        }
        // Wait for a worker's redraw in progress, then clear its line.
        let _d = self.shared.drawn.lock();
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K");
        let _ = err.flush();
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The terminal's width in columns (stderr's), or 80 where it cannot be
/// asked.
fn width() -> usize {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: TIOCGWINSZ writes a `winsize` into the struct passed, and
        // only reads the file descriptor; a failure leaves it zeroed.
        let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
        let ok = unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut ws) } == 0;
        if ok && ws.ws_col > 0 {
            return ws.ws_col as usize;
        }
    }
    80
}

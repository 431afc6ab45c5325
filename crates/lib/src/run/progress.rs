//! How a run and a report show their progress on stderr: on a terminal, a
//! bar redrawn in place (a spinner, the time elapsed, the bar, and the
//! count in words), cleared at the end; without one, a line every few
//! seconds once a run has lasted that long. Nothing for a short run, and
//! nothing at all under `-q` (the caller then asks for none).

use std::io::IsTerminal as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressState, ProgressStyle};

use crate::engine::progress::{BAR_FROM_TRIALS, LINE_EVERY, Meter, ShowProgress, line, trials};

/// The spinner's frames, one per redraw (the last one shown once finished).
const SPINNER: &str = "⠁⠂⠄⡀⢀⠠⠐⠈ ";

/// Time between two redraws of the bar while nothing is counted, so that
/// the spinner and the clock move through a long piece of work.
const TICK_EVERY: Duration = Duration::from_millis(200);

/// Progress of a run's trials on stderr: a bar on a terminal (for at least
/// [`BAR_FROM_TRIALS`] trials), else a line every [`LINE_EVERY`] once the
/// run has lasted that long.
pub fn on_stderr() -> ShowProgress {
    ShowProgress::new(|total| {
        if std::io::stderr().is_terminal() {
            if total < BAR_FROM_TRIALS {
                return None;
            }
            let bar = bar(total, "{trials}");
            return Some(Box::new(TrialsBar(bar)) as Box<dyn Meter>);
        }
        let now = Instant::now();
        Some(Box::new(Lines {
            total,
            done: AtomicU64::new(0),
            start: now,
            last: Mutex::new(now),
        }))
    })
}

/// A bar over a report's `total` scenarios on stderr, saying
/// `3/7 scenarios  file.toml` (the file from [`ProgressBar::set_message`]);
/// `None` unless stderr is a terminal.
pub fn scenarios(total: u64) -> Option<ProgressBar> {
    (std::io::stderr().is_terminal() && total > 0)
        .then(|| bar(total, "{pos}/{len} scenarios  {msg}"))
}

/// A bar over `total` units on stderr: `⠂ [00:01:05] ██████░░░░ words`,
/// the words from the template `words`, the bar as wide as the terminal
/// leaves for it, ticking every [`TICK_EVERY`], cleared when finished or
/// dropped (as when the run fails).
fn bar(total: u64, words: &str) -> ProgressBar {
    let template = format!("{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {words}");
    let style = ProgressStyle::with_template(&template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .tick_chars(SPINNER)
        .progress_chars("█░")
        .with_key(
            "trials",
            |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&trials(s.pos(), s.len().unwrap_or(0), s.elapsed()));
            },
        );
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
        .with_style(style)
        .with_finish(ProgressFinish::AndClear);
    bar.enable_steady_tick(TICK_EVERY);
    bar
}

/// The bar of a run's trials.
struct TrialsBar(ProgressBar);

impl Meter for TrialsBar {
    fn inc(&self, n: u64) {
        self.0.inc(n);
    }
    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// A line on stderr every [`LINE_EVERY`] (where stderr is not a terminal).
struct Lines {
    total: u64,
    done: AtomicU64,
    start: Instant,
    /// When the last line was written; taken with `try_lock` by the
    /// workers, which skip a line rather than wait.
    last: Mutex<Instant>,
}

impl Meter for Lines {
    fn inc(&self, n: u64) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        let now = Instant::now();
        let Ok(mut last) = self.last.try_lock() else {
            return;
        };
        if now.duration_since(*last) < LINE_EVERY {
            return;
        }
        *last = now;
        eprintln!("{}", line(done, self.total, now.duration_since(self.start)));
    }
    fn finish(&self) {}
}

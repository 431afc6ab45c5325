//! Telling a person how a long run is going: a progress bar with an ETA and
//! a rate in words ("1.1 G/s") on a terminal; without one, a line every few
//! seconds once a run has lasted that long. Nothing for a short run.

use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::bar::Bar;

/// Trials below which a run shows no bar: it is over before one would help.
pub const BAR_FROM_TRIALS: u64 = 5_000_000;

/// Seconds between two progress lines when stderr is not a terminal.
pub const LINE_EVERY: Duration = Duration::from_secs(5);

/// A count in SI units with two significant figures below ten and whole
/// units above: `950`, `12 k`, `4.9 M`, `610 M`, `1.1 G`.
pub fn si(x: f64) -> String {
    if !x.is_finite() || x < 0.0 {
        return "-".to_string();
    }
    const UNITS: [(f64, &str); 4] = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    for (scale, unit) in UNITS {
        if x >= scale * 0.9995 {
            let v = x / scale;
            return if v < 9.95 {
                format!("{v:.1} {unit}")
            } else {
                format!("{v:.0} {unit}")
            };
        }
    }
    format!("{x:.0}")
}

/// A rate per second: `1.1 G/s`.
pub fn rate(per_second: f64) -> String {
    format!("{}/s", si(per_second))
}

/// A duration in words: `0.4 s`, `12 s`, `3 min 5 s`, `2 h 12 min`.
pub fn duration(seconds: f64) -> String {
    if !seconds.is_finite() || seconds < 0.0 {
        return "-".to_string();
    }
    if seconds < 10.0 {
        return format!("{seconds:.1} s");
    }
    let s = seconds.round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, (s % 3600) / 60),
    }
}

/// How far a run is, said on stderr.
pub struct Progress {
    how: How,
}

enum How {
    Off,
    Bar(Bar),
    Lines {
        total: u64,
        done: AtomicU64,
        start: Instant,
        last: Mutex<Instant>,
    },
}

impl Progress {
    /// Nothing shown.
    pub fn off() -> Progress {
        Progress { how: How::Off }
    }

    /// Progress over `total` trials: a bar on a terminal (for at least
    /// [`BAR_FROM_TRIALS`] trials), else a line every [`LINE_EVERY`] once
    /// the run has lasted that long; nothing unless `show`.
    pub fn new(total: u64, show: bool) -> Progress {
        if !show || total == 0 {
            return Progress::off();
        }
        if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            if total < BAR_FROM_TRIALS {
                return Progress::off();
            }
            let b = Bar::new(total, trials);
            return Progress { how: How::Bar(b) };
        }
        let now = Instant::now();
        Progress {
            how: How::Lines {
                total,
                done: AtomicU64::new(0),
                start: now,
                last: Mutex::new(now),
            },
        }
    }

    /// Counts `n` more trials done.
    pub fn inc(&self, n: u64) {
        match &self.how {
            How::Off => {}
            How::Bar(b) => b.inc(n),
            How::Lines {
                total,
                done,
                start,
                last,
            } => {
                let done = done.fetch_add(n, Ordering::Relaxed) + n;
                let now = Instant::now();
                let Ok(mut last) = last.try_lock() else {
                    return;
                };
                if now.duration_since(*last) < LINE_EVERY {
                    return;
                }
                *last = now;
                eprintln!("{}", line(done, *total, now.duration_since(*start)));
            }
        }
    }

    /// Clears the bar, if any.
    pub fn finish(self) {
        if let How::Bar(b) = self.how {
            b.finish_and_clear();
        }
    }
}

/// The words after the bar: `12 M/100 M trials (1.2 M/s, 1 min 13 s left)`.
fn trials(done: u64, total: u64, elapsed: Duration, _: &str) -> String {
    let (per, left) = pace(done, total, elapsed);
    let left = left.map_or_else(|| "-".to_string(), duration);
    format!(
        "{}/{} trials ({}, {left} left)",
        si(done as f64),
        si(total as f64),
        rate(per)
    )
}

/// Trials per second so far, and the seconds the rest would take at that
/// rate (`None` before any trial is done).
fn pace(done: u64, total: u64, elapsed: Duration) -> (f64, Option<f64>) {
    let secs = elapsed.as_secs_f64();
    let per = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    let left = (per > 0.0).then(|| total.saturating_sub(done) as f64 / per);
    (per, left)
}

/// One progress line: `12 M of 100 M trials (12%), 1.1 G/s, about 5.0 s left`.
pub fn line(done: u64, total: u64, elapsed: Duration) -> String {
    let (per, left) = pace(done, total, elapsed);
    let mut out = format!(
        "{} of {} trials ({:.0}%)",
        si(done as f64),
        si(total as f64),
        100.0 * done as f64 / total.max(1) as f64
    );
    if let Some(left) = left {
        let _ = write!(out, ", {}, about {} left", rate(per), duration(left));
    }
    out
}

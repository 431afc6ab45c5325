//! Telling a person how a long run is going: the engine counts its trials
//! into a [`Meter`] its caller starts ([`ShowProgress`]), and the words a
//! meter shows (counts and rates in SI units, durations, the time left).
//! The core draws nothing: the library's meter draws a bar with an ETA on
//! a terminal, or a line every few seconds without one.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

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

/// What a run tells of its trials as it goes. The engine counts into it
/// and finishes it; what it shows, and where, is the caller's (the library
/// draws a bar on a terminal or writes lines on stderr; the core draws
/// nothing).
pub trait Meter: Send + Sync {
    /// Counts `n` more trials done (called from the worker threads).
    fn inc(&self, n: u64);
    /// The run is over (or failed): clears what was shown. May be called
    /// more than once.
    fn finish(&self);
}

/// How a run shows its progress: starts a [`Meter`] for a run of a given
/// number of trials (`None` from it: nothing shown for that run).
#[derive(Clone)]
pub struct ShowProgress(Arc<MeterStart>);

/// What [`ShowProgress`] calls with a run's planned trials.
type MeterStart = dyn Fn(u64) -> Option<Box<dyn Meter>> + Send + Sync;

impl ShowProgress {
    /// Shows progress through the meters `start` gives for a run's
    /// planned trials.
    pub fn new(start: impl Fn(u64) -> Option<Box<dyn Meter>> + Send + Sync + 'static) -> Self {
        ShowProgress(Arc::new(start))
    }
}

impl std::fmt::Debug for ShowProgress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ShowProgress")
    }
}

/// How far a run is: the meter the run's [`ShowProgress`] started, or
/// nothing. Finished when dropped, so that a failed run clears it too.
pub struct Progress {
    meter: Option<Box<dyn Meter>>,
}

impl Progress {
    /// Nothing shown.
    pub fn off() -> Progress {
        Progress { meter: None }
    }

    /// Progress over `total` trials, shown by `show` (nothing without it,
    /// or for no trials).
    pub fn new(total: u64, show: Option<&ShowProgress>) -> Progress {
        let meter = show.filter(|_| total > 0).and_then(|s| (s.0)(total));
        Progress { meter }
    }

    /// Counts `n` more trials done.
    #[inline]
    pub fn inc(&self, n: u64) {
        if let Some(m) = &self.meter {
            m.inc(n);
        }
    }

    /// Clears what was shown, if anything.
    pub fn finish(self) {
        drop(self);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(m) = &self.meter {
            m.finish();
        }
    }
}

/// The words after a progress bar: `12 M/100 M trials (1.2 M/s, 1 min 13 s left)`.
pub fn trials(done: u64, total: u64, elapsed: Duration) -> String {
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

//! The throughput floors: times every guarded kernel (`common/kernels.rs`)
//! and a reference (raw xoshiro256++ words) in the same run, divides each
//! kernel's resolutions per second by the reference's draws per second, and
//! fails when a ratio is below its floor in `floors.toml`.
//!
//! A ratio to a reference timed in the same run on the same core cancels
//! the machine's speed and most of its load; each floor is 0.7 of the
//! kernel's median ratio when it was set, so a kernel 1.5 times slower
//! fails while the noise of a ratio in CPU time of one thread does not. Run it with
//! `cargo bench -p pikeshot-benches --bench floors [-- --samples N --ms T]`;
//! `benches/README.md` says how the floors were set and how to raise them.

use std::process::ExitCode;
use std::time::{Duration, Instant};

#[path = "common/kernels.rs"]
mod kernels;

use kernels::{Runner, guarded, reference};

/// The floors, beside this file.
const FLOORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/floors.toml");

/// The time the running thread has spent on a core: a thread that waits
/// for a core (a busy machine) does not count that wait.
#[cfg(target_os = "linux")]
fn cpu_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    assert!(ok, "the thread's CPU clock is readable on Linux");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Elsewhere, wall time (the ratio to the reference still cancels most of
/// the load).
#[cfg(not(target_os = "linux"))]
fn cpu_time() -> Duration {
    thread_local!(static START: Instant = Instant::now());
    START.with(|s| s.elapsed())
}

/// Keeps this thread on the core it is on, so that a sample is not split
/// between two cores' caches.
#[cfg(target_os = "linux")]
fn pin() {
    // SAFETY: plain libc calls on a zeroed cpu_set_t owned here.
    unsafe {
        let cpu = libc::sched_getcpu();
        if cpu >= 0 {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu as usize, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn pin() {}

/// Resolutions per second of CPU time, calling `r` for at least `time`.
fn rate(r: &mut Runner, time: Duration) -> f64 {
    let start = cpu_time();
    let mut done = 0u64;
    loop {
        done += r();
        let spent = cpu_time() - start;
        if spent >= time {
            return done as f64 / spent.as_secs_f64();
        }
    }
}

/// The median of a few values.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Rates in words: `1.76 G/s`.
fn si(x: f64) -> String {
    let (v, unit) = match x {
        x if x >= 1e9 => (x / 1e9, "G"),
        x if x >= 1e6 => (x / 1e6, "M"),
        x if x >= 1e3 => (x / 1e3, "k"),
        x => (x, ""),
    };
    format!("{v:.3} {unit}/s")
}

/// A ratio or floor with four significant figures: `1.983`, `0.01325`,
/// `1.981e-6`.
fn figure(x: f64) -> String {
    if x == 0.0 || x >= 1e-3 {
        let digits = (3 - x.abs().log10().floor() as i32).clamp(0, 6) as usize;
        format!("{x:.digits$}")
    } else {
        format!("{x:.3e}")
    }
}

/// `--samples N` and `--ms T` (cargo's own `--bench` is ignored).
fn options() -> Result<(usize, Duration), String> {
    let (mut samples, mut ms) = (5usize, 40u64);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .and_then(|v| v.parse::<u64>().ok())
                .filter(|&v| v > 0)
                .ok_or_else(|| format!("{name} takes a whole number above 0"))
        };
        match a.as_str() {
            "--samples" => samples = value("--samples")? as usize,
            "--ms" => ms = value("--ms")?,
            "--bench" => {}
            other => {
                return Err(format!(
                    "unknown argument {other}; accepted: --samples N, --ms T"
                ));
            }
        }
    }
    Ok((samples, Duration::from_millis(ms)))
}

/// Reads `floors.toml`: kernel name to floor.
fn floors() -> Result<toml::Table, String> {
    let text = std::fs::read_to_string(FLOORS).map_err(|e| format!("{FLOORS}: {e}"))?;
    text.parse::<toml::Table>()
        .map_err(|e| format!("{FLOORS}: {e}"))
}

fn main() -> ExitCode {
    let (samples, time) = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let table = match floors() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let all = guarded();
    for name in table.keys() {
        if !all.iter().any(|g| g.name == name) {
            eprintln!("error: {FLOORS} names {name}, which is no guarded kernel");
            return ExitCode::from(2);
        }
    }
    pin();
    let started = Instant::now();
    let mut reference = reference();
    rate(&mut reference, time);
    println!(
        "{:<22} {:<38} {:>14} {:>10} {:>10}  verdict",
        "kernel", "one resolution", "per CPU second", "ratio", "floor"
    );
    let mut failed = Vec::new();
    let mut refs = Vec::new();
    for g in &all {
        let Some(floor) = table
            .get(g.name)
            .and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)))
        else {
            eprintln!("error: {FLOORS} has no floor for {}", g.name);
            return ExitCode::from(2);
        };
        let mut k = (g.build)();
        // Warm-up: the tables into the cache, the core's clock up.
        rate(&mut k, time / 2);
        let (mut ratios, mut rates) = (Vec::new(), Vec::new());
        for _ in 0..samples {
            // The reference either side of the kernel: a change of load
            // during the sample weighs on both.
            let before = rate(&mut reference, time / 2);
            let r = rate(&mut k, time);
            let after = rate(&mut reference, time / 2);
            let reference_rate = (before + after) / 2.0;
            refs.push(reference_rate);
            ratios.push(r / reference_rate);
            rates.push(r);
        }
        let (ratio, r) = (median(ratios), median(rates));
        let pass = ratio >= floor;
        if !pass {
            failed.push(g.name);
        }
        println!(
            "{:<22} {:<38} {:>14} {:>10} {:>10}  {}",
            g.name,
            g.what,
            si(r),
            figure(ratio),
            figure(floor),
            if pass { "pass" } else { "FAIL" }
        );
    }
    println!(
        "reference: raw xoshiro256++ words, {} (median); {samples} samples of {} ms a kernel, {:.1} s in all",
        si(median(refs)),
        time.as_millis(),
        started.elapsed().as_secs_f64()
    );
    if failed.is_empty() {
        println!("floors: all {} kernels at or above their floors", all.len());
        ExitCode::SUCCESS
    } else {
        println!(
            "floors: FAILED for {}: below 0.7 of the median ratio measured when the floor was \
             set (see benches/README.md)",
            failed.join(", ")
        );
        ExitCode::from(1)
    }
}

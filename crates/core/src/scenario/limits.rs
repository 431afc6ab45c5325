//! Every limit on what a scenario or the command line may ask for, in one
//! place, so that `pikeshot list`, the README and the checks agree.
//!
//! A limit is checked where the input is read and refused with a located
//! error (file, line or `--set`, key, the largest value accepted).

/// Largest scenario file read, in bytes (10 MB).
pub const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

/// Most variants a `[sweep]` may expand to.
pub const MAX_VARIANTS: usize = 10_000;

/// Most `[units.NAME]` tables in a scenario.
pub const MAX_UNITS: usize = 200;

/// Most `[[course]]` tables in a scenario.
pub const MAX_COURSES: usize = 200;

/// Most steps in one course.
pub const MAX_STEPS: usize = 100;

/// Most trials per course and variant, wherever the number comes from
/// (`--trials`, `trials` in the file, `--set trials=`, `--max-trials`).
pub const MAX_TRIALS: u64 = 10_000_000_000;

/// Largest seed (`--seed`, `seed` in the file, `--set seed=`): the largest
/// whole number a TOML file can hold.
pub const MAX_SEED: u64 = i64::MAX as u64;

/// Most worker threads (`--threads`). Results do not depend on it.
pub use crate::engine::MAX_THREADS;

/// Most characters in a name: the scenario's `name`, a course's `name`, a
/// unit's `[units.NAME]`. Names label every row of the outputs, so a
/// longer one is refused (a scenario file may hold 10 MB).
pub const MAX_NAME_CHARS: usize = 200;

/// Most segments in a `--set` or `[sweep]` key path (`units.a.terrain` has
/// three; `course[1].steps[0].column` five).
pub const MAX_KEY_DEPTH: usize = 32;

/// Keys that one run reads once, not per variant: a `[sweep]` over them is
/// refused.
pub const UNSWEPT_KEYS: &[&str] = &["trials", "seed", "name", "system", "description"];

/// The limits as `(what, value)` lines, for `pikeshot list` and the README.
pub fn lines() -> Vec<(&'static str, String)> {
    vec![
        (
            "scenario file size",
            format!("{MAX_FILE_BYTES} bytes (10 MB); a regular file"),
        ),
        ("units per scenario", MAX_UNITS.to_string()),
        ("courses per scenario", MAX_COURSES.to_string()),
        ("steps per course", MAX_STEPS.to_string()),
        (
            "states per course",
            format!(
                "{} (distinct unit states a course may reach; over it, the error names the most `repeat.turns` that fit; Sword & Spear bounds them before building)",
                crate::engine::chain::MAX_NODES
            ),
        ),
        (
            "links per course",
            format!(
                "{} (a course's states times the outcomes each one rolls)",
                crate::engine::chain::MAX_LINKS
            ),
        ),
        (
            "results per course",
            format!(
                "{} (combinations of outcome and measure values a course reaches)",
                crate::outcome::MAX_LEAVES
            ),
        ),
        ("sweep variants", MAX_VARIANTS.to_string()),
        (
            "name length",
            format!(
                "{MAX_NAME_CHARS} characters (scenario, course and unit names; a unit name needs a letter or digit)"
            ),
        ),
        (
            "key path segments",
            format!("{MAX_KEY_DEPTH} (in --set and [sweep] keys)"),
        ),
        ("trials per course", format!("1 to {MAX_TRIALS}")),
        ("seed", format!("0 to {MAX_SEED}")),
        (
            "threads",
            format!("1 to {MAX_THREADS} (default: one per core)"),
        ),
    ]
}

/// The limits block of `pikeshot list`.
pub fn describe() -> String {
    let mut out = String::from("limits (larger input is refused with a located error):\n");
    for (what, v) in lines() {
        out.push_str(&format!("  {what:<24} {v}\n"));
    }
    out
}

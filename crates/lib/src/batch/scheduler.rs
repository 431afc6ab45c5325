//! `--shard auto`: which shard this process is, read from the environment
//! a scheduler gives each task.
//!
//! - Slurm job arrays: `SLURM_ARRAY_TASK_ID`, with `SLURM_ARRAY_TASK_MIN`,
//!   `SLURM_ARRAY_TASK_MAX` and `SLURM_ARRAY_TASK_STEP` (default 1) or
//!   `SLURM_ARRAY_TASK_COUNT`. Task ids `MIN, MIN+STEP, …, MAX` are shards
//!   `1, 2, …, N`, so an array may start anywhere and step by any amount.
//! - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` (from 0), with the
//!   shard count from `--shards N` or `PIKESHOT_SHARDS` (the Job's
//!   `completions`, which Kubernetes does not pass on).
//! - Anything else (a CI matrix): `PIKESHOT_SHARD=I/N`.
//!
//! Exactly one of the three must name a shard; two that disagree, or
//! numbers that do not fit together, are refused with what was found.

use super::Shard;

/// Where a shard was read from, for messages.
const SOURCES: &str = "SLURM_ARRAY_TASK_ID (a Slurm job array), JOB_COMPLETION_INDEX (a Kubernetes Indexed Job, with --shards N or PIKESHOT_SHARDS) or PIKESHOT_SHARD=I/N";

/// The shard the environment names. `var` reads a variable (the process
/// environment in use: `|k| std::env::var(k).ok()`); `shards` is
/// `--shards`, the count an Indexed Job needs. The error says which
/// variable is missing or wrong and what is accepted.
pub fn from_env(
    var: impl Fn(&str) -> Option<String>,
    shards: Option<u32>,
) -> Result<Shard, String> {
    let get = |k: &str| var(k).filter(|v| !v.trim().is_empty());
    let mut found: Vec<(&str, Shard)> = Vec::new();
    if let Some(id) = get("SLURM_ARRAY_TASK_ID") {
        found.push(("SLURM_ARRAY_TASK_ID", slurm(&id, &get)?));
    }
    if let Some(index) = get("JOB_COMPLETION_INDEX") {
        found.push(("JOB_COMPLETION_INDEX", kubernetes(&index, &get, shards)?));
    }
    if let Some(text) = get("PIKESHOT_SHARD") {
        let s = Shard::parse(&text).map_err(|e| format!("PIKESHOT_SHARD: {e}"))?;
        found.push(("PIKESHOT_SHARD", s));
    }
    match found.as_slice() {
        [] => Err(format!(
            "--shard auto: the environment names no shard; set {SOURCES}, or give --shard I/N"
        )),
        [(_, s)] => Ok(*s),
        [(a, s), rest @ ..] => match rest.iter().find(|(_, t)| t != s) {
            None => Ok(*s),
            Some((b, t)) => Err(format!(
                "--shard auto: {a} names shard {}/{} but {b} names {}/{}; unset one",
                s.index, s.count, t.index, t.count
            )),
        },
    }
}

fn number(name: &str, text: &str) -> Result<i64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("--shard auto: {name} is `{text}`, not a whole number"))
}

/// A Slurm array task's shard.
fn slurm(id: &str, get: &impl Fn(&str) -> Option<String>) -> Result<Shard, String> {
    let id = number("SLURM_ARRAY_TASK_ID", id)?;
    let read = |k: &str| get(k).map(|v| number(k, &v)).transpose();
    let min = read("SLURM_ARRAY_TASK_MIN")?;
    let max = read("SLURM_ARRAY_TASK_MAX")?;
    let step = read("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1);
    let count = read("SLURM_ARRAY_TASK_COUNT")?;
    let Some(min) = min else {
        return Err("--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_MIN is not (run as a job array, sbatch --array)".into());
    };
    if step < 1 {
        return Err(format!(
            "--shard auto: SLURM_ARRAY_TASK_STEP is {step}; accepted: 1 or more"
        ));
    }
    let n = match (max, count) {
        (Some(max), Some(count)) => {
            let n = (max - min) / step + 1;
            if max < min || n != count {
                return Err(format!(
                    "--shard auto: SLURM_ARRAY_TASK_MIN={min}, MAX={max} and STEP={step} make {} tasks but SLURM_ARRAY_TASK_COUNT is {count}",
                    n.max(0)
                ));
            }
            n
        }
        (Some(max), None) if max >= min => (max - min) / step + 1,
        (Some(max), None) => {
            return Err(format!(
                "--shard auto: SLURM_ARRAY_TASK_MAX={max} is below SLURM_ARRAY_TASK_MIN={min}"
            ));
        }
        (None, Some(count)) => count,
        (None, None) => {
            return Err("--shard auto: SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_MAX nor SLURM_ARRAY_TASK_COUNT is".into());
        }
    };
    if id < min || (id - min) % step != 0 || (id - min) / step >= n {
        return Err(format!(
            "--shard auto: SLURM_ARRAY_TASK_ID={id} is not one of the {n} tasks from {min} by {step}"
        ));
    }
    shard((id - min) / step + 1, n, "SLURM_ARRAY_TASK_COUNT")
}

/// A Kubernetes Indexed Job's shard.
fn kubernetes(
    index: &str,
    get: &impl Fn(&str) -> Option<String>,
    shards: Option<u32>,
) -> Result<Shard, String> {
    let index = number("JOB_COMPLETION_INDEX", index)?;
    let from_env = get("PIKESHOT_SHARDS")
        .map(|v| number("PIKESHOT_SHARDS", &v))
        .transpose()?;
    let n = match (shards.map(i64::from), from_env) {
        (Some(a), Some(b)) if a != b => {
            return Err(format!(
                "--shard auto: --shards is {a} but PIKESHOT_SHARDS is {b}"
            ));
        }
        (Some(a), _) | (None, Some(a)) => a,
        (None, None) => {
            return Err("--shard auto: JOB_COMPLETION_INDEX is set but the shard count is not; give --shards N or set PIKESHOT_SHARDS to the Job's completions".into());
        }
    };
    if n < 1 || index < 0 || index >= n {
        return Err(format!(
            "--shard auto: JOB_COMPLETION_INDEX={index} is not an index of {n} shards (0 to {})",
            n - 1
        ));
    }
    shard(index + 1, n, "the shard count")
}

fn shard(index: i64, count: i64, what: &str) -> Result<Shard, String> {
    let count = u32::try_from(count).map_err(|_| {
        format!(
            "--shard auto: {what} {count} is out of range (1 to {})",
            u32::MAX
        )
    })?;
    Ok(Shard {
        index: index as u32,
        count,
    })
}

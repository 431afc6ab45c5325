//! `run.json`: a record of what produced a scenario's folder — pikeshot's
//! version, the command line, the scenario file and its SHA-256, every
//! `--set`, seed, trials, exact or not, the method, the plots drawn, kernel and the variant labels. It has
//! no timestamp and leaves out `--threads`, `--shard`, `--shards` and `--out` (which
//! change no figure), so the same run gives the same bytes on any thread
//! count, sharded or not, wherever it is written.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Name of the record in a scenario's folder.
pub const RUN_JSON: &str = "run.json";

/// What `run.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// pikeshot's version.
    pub pikeshot: String,
    /// The command line, without the program path, `--threads`, `--shard`
    /// and `--out`.
    pub command: Vec<String>,
    /// The scenario file as given.
    pub scenario: String,
    /// SHA-256 of the scenario file's bytes, in hex.
    pub sha256: String,
    /// Every `--set`, in order.
    pub sets: Vec<String>,
    /// Master seed.
    pub seed: u64,
    /// Trials per course.
    pub trials: u64,
    /// Whether exact distributions were asked for.
    pub exact: bool,
    /// How the figures were found: `monte-carlo`, `exact` (no trial: every
    /// probability exact) or `both`.
    pub method: String,
    /// Which plots were drawn: `all`, `summary` or `none`.
    pub plots: String,
    /// Kernel mode.
    pub kernel: String,
    /// The variant labels, in run order (one empty label without a sweep).
    pub variants: Vec<String>,
}

/// Hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The command line of this process without the program, any
/// `--threads`/`-j`, `--shard`, `--shards` and `--out`/`-o` (none changes a scenario's
/// folder: a shard's folders equal the unsharded run's, and a report
/// written elsewhere is the same report). An argument that is not UTF-8 (a
/// path) is recorded with U+FFFD for its bad bytes.
pub fn command_line() -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = false;
    for a in std::env::args_os().skip(1) {
        let a = a.to_string_lossy().into_owned();
        if skip {
            skip = false;
            continue;
        }
        if ["--threads", "-j", "--shard", "--shards", "--out", "-o"].contains(&a.as_str()) {
            skip = true;
            continue;
        }
        if ["--threads=", "--shard=", "--shards=", "--out="]
            .iter()
            .any(|p| a.starts_with(p))
        {
            continue;
        }
        out.push(a);
    }
    out
}

impl RunRecord {
    /// The record as pretty JSON with a final newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = serde_json::to_vec_pretty(self).expect("plain data serialises");
        b.push(b'\n');
        b
    }
}

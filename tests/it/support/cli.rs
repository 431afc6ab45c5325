//! Running the `pikeshot` binary from the repository root.

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `pikeshot ARGS` in the repository root and returns what it did.
pub fn pikeshot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pikeshot"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs")
}

/// Runs `pikeshot ARGS` and asserts it succeeded (showing its stderr if not).
#[track_caller]
pub fn pikeshot_ok(args: &[&str]) -> Output {
    let o = pikeshot(args);
    assert!(o.status.success(), "{}", stderr(&o));
    o
}

/// Runs `pikeshot ARGS`, asserts it succeeded with each of `says` on
/// stdout, and returns that stdout.
#[track_caller]
pub fn pikeshot_says(args: &[&str], says: &[&str]) -> String {
    let out = stdout(&pikeshot_ok(args));
    for s in says {
        assert!(out.contains(s), "`{s}` not in: {out}");
    }
    out
}

/// What the run printed on stdout.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What the run printed on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The exit code.
pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exited")
}

/// Runs `pikeshot run SCENARIO ARGS... --out OUT` and returns what it did.
pub fn run_into(scenario: impl AsRef<Path>, args: &[&str], out: &Path) -> Output {
    let scenario = scenario.as_ref().to_str().unwrap();
    let mut all = vec!["run", scenario];
    all.extend_from_slice(args);
    all.extend(["--out", out.to_str().unwrap()]);
    pikeshot(&all)
}

/// Runs `pikeshot run SCENARIO ARGS... --out OUT` and asserts it succeeded.
#[track_caller]
pub fn run_to(scenario: impl AsRef<Path>, args: &[&str], out: &Path) -> Output {
    let o = run_into(scenario, args, out);
    assert!(o.status.success(), "{}", stderr(&o));
    o
}

/// A run's output folder: `out` inside a fresh temporary folder, both
/// removed when this is dropped. It derefs to the output folder's path,
/// which no run has written yet.
pub struct TempOut {
    tmp: tempfile::TempDir,
    out: PathBuf,
}

impl TempOut {
    /// The temporary folder that holds the output folder.
    pub fn dir(&self) -> &Path {
        self.tmp.path()
    }

    /// The path `name` beside the output folder, in the same temporary
    /// folder (another run's `--out`, a scenario file).
    pub fn beside(&self, name: &str) -> PathBuf {
        self.dir().join(name)
    }

    /// Writes `text` to the file `name` beside the output folder (a
    /// scenario to run into it) and returns the file's path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.beside(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl AsRef<Path> for TempOut {
    fn as_ref(&self) -> &Path {
        &self.out
    }
}

impl Deref for TempOut {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.out
    }
}

/// A fresh [`TempOut`]: an output folder no run has written yet.
pub fn temp_out() -> TempOut {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    TempOut { tmp, out }
}

/// Runs `pikeshot run SCENARIO ARGS... --out OUT` into a fresh
/// [`TempOut`], asserts it succeeded, and returns the folder and what the
/// run did.
#[track_caller]
pub fn run_fresh(scenario: impl AsRef<Path>, args: &[&str]) -> (TempOut, Output) {
    let out = temp_out();
    let o = run_to(scenario, args, &out);
    (out, o)
}

/// Runs `pikeshot run SCENARIO -q --out OUT` on a scenario that must be
/// refused as bad input: asserts exit code 2 and returns the stderr.
#[track_caller]
pub fn run_refused(scenario: &Path, out: &Path) -> String {
    run_refused_saying(scenario, &["-q"], out, &[])
}

/// Runs `pikeshot run SCENARIO ARGS... --out OUT`, asserts it was refused
/// as bad input (exit code 2) with each of `says` on stderr, and returns
/// that stderr.
#[track_caller]
pub fn run_refused_saying(
    scenario: impl AsRef<Path>,
    args: &[&str],
    out: &Path,
    says: &[&str],
) -> String {
    let o = run_into(scenario, args, out);
    let err = stderr(&o);
    assert_eq!(code(&o), 2, "{err}");
    for s in says {
        assert!(err.contains(s), "`{s}` not in: {err}");
    }
    err
}

/// Writes `text` to `DIR/bad.toml` and runs it as [`run_refused`] does:
/// asserts exit code 2 and returns the stderr (which names `bad.toml`).
#[track_caller]
pub fn run_refused_text(dir: &Path, text: &str, out: &Path) -> String {
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, text).unwrap();
    run_refused(&bad, out)
}

/// Runs `pikeshot ARGS`, asserts it was refused as bad input (exit code 2)
/// with a message on stderr that contains each of `says`, and returns that
/// stderr.
#[track_caller]
pub fn pikeshot_refused(args: &[&str], says: &[&str]) -> String {
    pikeshot_exits(args, 2, says)
}

/// Runs `pikeshot ARGS`, asserts it exited with `exit` and printed each of
/// `says` on stderr, and returns that stderr.
#[track_caller]
pub fn pikeshot_exits(args: &[&str], exit: i32, says: &[&str]) -> String {
    let o = pikeshot(args);
    let err = stderr(&o);
    assert_eq!(code(&o), exit, "{err}");
    for s in says {
        assert!(err.contains(s), "`{s}` not in: {err}");
    }
    err
}

/// Runs `pikeshot diff SCENARIO --from sfo --to series --exact --out OUT
/// ARGS...` (the Musket & Pike card comparison, exact) and returns what it
/// did.
pub fn diff_cards(scenario: &Path, out: &Path, args: &[&str]) -> Output {
    let mut all = vec![
        "diff",
        scenario.to_str().unwrap(),
        "--from",
        "sfo",
        "--to",
        "series",
        "--exact",
        "--out",
        out.to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    pikeshot(&all)
}

//! Running the `pikeshot` binary from the repository root.

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

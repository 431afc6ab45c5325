//! Located errors: the file, line and key an input error names.

use pikeshot::error::InputError;

/// The 1-based line of the LAST line of `text` that starts (after
/// indentation) with `KEY =`.
#[track_caller]
pub fn key_line(text: &str, key: &str) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with(&format!("{key} =")))
        .map(|(i, _)| i + 1)
        .last()
        .unwrap_or_else(|| panic!("no line for {key}"))
}

/// The 1-based line of the first line of `text` that starts (after
/// indentation) with `needle`, searching from the first line containing
/// `after` (from the top if no line does).
#[track_caller]
pub fn line_after(text: &str, after: &str, needle: &str) -> usize {
    let start = text.lines().position(|l| l.contains(after)).unwrap_or(0);
    text.lines()
        .enumerate()
        .skip(start)
        .find(|(_, l)| l.trim_start().starts_with(needle))
        .unwrap_or_else(|| panic!("`{needle}` not in the text"))
        .0
        + 1
}

/// The 1-based line of the first line of `text` containing `needle`.
#[track_caller]
pub fn line_containing(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("`{needle}` not in the text"))
}

/// Asserts an input error names `key`, `line` and (when given) `file`, and
/// that its message contains `says`.
#[track_caller]
pub fn assert_located(e: &InputError, file: Option<&str>, key: &str, line: usize, says: &str) {
    assert_eq!(e.key.as_deref(), Some(key), "{e}");
    assert_eq!(e.line, Some(line), "{e}");
    if let Some(file) = file {
        assert_eq!(e.file.as_deref(), Some(file), "{e}");
    }
    assert!(e.to_string().contains(says), "`{says}` not in: {e}");
}

/// Asserts `r` is an input error (from `file`, when given) about key `key` of the first step of the
/// first course (`course[0].steps[0].KEY`), on the line of `text` that sets
/// it (see [`key_line`]), in `file` when given, saying `says`.
#[track_caller]
pub fn assert_step_err<T: std::fmt::Debug>(
    file: Option<&str>,
    r: Result<T, InputError>,
    text: &str,
    key: &str,
    says: &str,
) -> InputError {
    let e = r.expect_err("an input error");
    assert_located(
        &e,
        file,
        &format!("course[0].steps[0].{key}"),
        key_line(text, key),
        says,
    );
    e
}

/// Asserts every row `(input, key, says)` of a table-driven test of refused
/// input: the scenario text `text(input)`, built by `build`, is refused as
/// `check(result, text, key, says)` asserts (for example
/// [`assert_step_err`]); a failing row is named.
#[track_caller]
pub fn assert_each_refused<T>(
    rows: &[(&str, &str, &str)],
    text: impl Fn(&str) -> String,
    build: impl Fn(&str) -> Result<T, InputError>,
    check: impl Fn(Result<T, InputError>, &str, &str, &str),
) {
    for &(input, key, says) in rows {
        let t = text(input);
        let row = std::panic::AssertUnwindSafe(|| check(build(&t), &t, key, says));
        if let Err(panic) = std::panic::catch_unwind(row) {
            eprintln!("refused input row failed: {input:?} (key `{key}`)");
            std::panic::resume_unwind(panic);
        }
    }
}

/// [`assert_step_err`] on text read as `s.toml` (as
/// [`super::step::step_from_text`] reads it), in the order
/// [`assert_each_refused`] checks a row.
#[track_caller]
pub fn assert_step_err_in_s_toml<T: std::fmt::Debug>(
    r: Result<T, InputError>,
    text: &str,
    key: &str,
    says: &str,
) {
    assert_step_err(Some("s.toml"), r, text, key, says);
}

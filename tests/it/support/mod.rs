//! Helpers shared by every test module, one copy of each: building a
//! scenario from text through the public run path, exact probabilities of a
//! course, Monte Carlo against exact under both kernels, located errors, the
//! CLI, CSV files and comparing floats.

#![allow(dead_code)]

pub mod cli;
pub mod course;
pub mod explain;
pub mod hakkaa;
pub mod http;
pub mod located;
pub mod monte_carlo;
pub mod mpbs;
pub mod report;
pub mod scenario;
pub mod snaphance;
pub mod step;
pub mod sword_spear;
pub mod webdriver;

use std::path::{Path, PathBuf};

use pikeshot::Procedure;
use pikeshot::engine::exact::{DEFAULT_BUDGET, exact};
use pikeshot::error::InputError;
use pikeshot::stats;

/// Two probabilities computed two ways agree to rounding.
pub const EPS: f64 = 1e-12;

/// Whether two probabilities agree to rounding ([`EPS`]).
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < EPS
}

/// Asserts two probabilities agree to rounding ([`EPS`]).
#[track_caller]
pub fn assert_close(got: f64, want: f64) {
    assert!(
        close(got, want),
        "got {got}, want {want} (diff {})",
        got - want
    );
}

/// Asserts two lists of probabilities have the same length and agree
/// element by element to rounding ([`EPS`]).
#[track_caller]
pub fn assert_all_close(a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len(), "{a:?} vs {b:?}");
    for (x, y) in a.iter().zip(b) {
        assert!(close(*x, *y), "{a:?} vs {b:?}");
    }
}

/// A CSV file's header and rows, as strings.
pub fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows = r
        .records()
        .map(|rec| rec.unwrap().iter().map(str::to_string).collect())
        .collect();
    (header, rows)
}

/// The names of the entries of `dir`, sorted.
pub fn file_names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The names of the plots in `dir` (PNG and SVG), sorted.
pub fn image_names(dir: &Path) -> Vec<String> {
    file_names(dir)
        .into_iter()
        .filter(|f| f.ends_with(".png") || f.ends_with(".svg"))
        .collect()
}

/// Every file under `dir`, hidden ones included (relative path → bytes).
pub fn files(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut std::collections::BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                let rel = p.strip_prefix(base).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = std::collections::BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The index of the column `name` in a CSV header (panics, naming it, when
/// there is none).
pub fn col(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"))
}

/// Asserts `got` is within `tol` of `want`.
#[track_caller]
pub fn assert_near(got: f64, want: f64, tol: f64) {
    assert!(
        (got - want).abs() <= tol,
        "{got} vs {want} (tolerance {tol})"
    );
}

/// Asserts `text` ends with `tail`, showing the whole text where not.
#[track_caller]
pub fn assert_ends_with(text: &str, tail: &str) {
    assert!(text.ends_with(tail), "`{tail}` does not end: {text}");
}

/// Asserts `f` turns each input into the text beside it, naming the input
/// where it does not (a case table of a formatting function).
#[track_caller]
pub fn assert_texts<T: Copy + std::fmt::Debug>(f: impl Fn(T) -> String, cases: &[(T, &str)]) {
    for &(input, want) in cases {
        assert_eq!(f(input), want, "from {input:?}");
    }
}

/// The exact leaf probabilities of a procedure, enumerated within the
/// engine's default budget.
#[track_caller]
pub fn exact_probs<P: Procedure>(p: &P) -> Vec<f64> {
    exact(p, DEFAULT_BUDGET).unwrap_or_else(|e| panic!("no exact answer: {e:?}"))
}

/// The exact probability of each outcome of a procedure, in space order.
#[track_caller]
pub fn outcome_probs<P: Procedure>(p: &P) -> Vec<f64> {
    stats::outcome_probs(p.space(), &exact_probs(p))
}

/// The exact distribution of measure `name` of a procedure (index =
/// value - min).
#[track_caller]
pub fn measure_probs<P: Procedure>(p: &P, name: &str) -> Vec<f64> {
    let m = p
        .space()
        .measure_index(name)
        .unwrap_or_else(|| panic!("no {name}"));
    stats::measure_probs(p.space(), m, &exact_probs(p))
}

/// Unwraps a result, panicking with the input error's message.
#[track_caller]
pub fn ok<T>(r: Result<T, InputError>) -> T {
    r.unwrap_or_else(|e| panic!("unexpected error: {e}"))
}

/// The folder of the shipped scenarios, `scenarios/` in the repository.
pub fn shipped_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios")
}

/// The text of shipped scenario `scenarios/FOLDER/NAME`.
#[track_caller]
pub fn shipped(folder: &str, name: &str) -> String {
    let p = shipped_root().join(folder).join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The scenario files (`.toml`) under `scenarios/FOLDER` at any depth, or
/// under `scenarios/` itself for `""`, sorted.
#[track_caller]
pub fn shipped_files(folder: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&shipped_root().join(folder), &mut out);
    out.sort();
    out
}

/// The normal quantile of a two-sided 95% interval.
pub const Z: f64 = 1.959_963_984_540_054;

/// The two-sided 95% Wilson score interval for `k` successes in `n`
/// trials, computed here independently of `pikeshot::stats`.
pub fn wilson(k: f64, n: f64) -> (f64, f64) {
    let p = k / n;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The element of the JSON array `array` whose `key` is `value` (panics,
/// naming both, where none is).
#[track_caller]
pub fn json_find<'v>(
    array: &'v serde_json::Value,
    key: &str,
    value: &str,
) -> &'v serde_json::Value {
    array
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {array}"))
        .iter()
        .find(|e| e[key] == value)
        .unwrap_or_else(|| panic!("no {key} {value} in {array}"))
}

/// The string `key` of each element of the JSON array `array`, in order
/// (panics, naming the key, where an element has none).
#[track_caller]
pub fn json_strs<'v>(array: &'v serde_json::Value, key: &str) -> Vec<&'v str> {
    array
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {array}"))
        .iter()
        .map(|e| {
            e[key]
                .as_str()
                .unwrap_or_else(|| panic!("no string {key} in {e}"))
        })
        .collect()
}

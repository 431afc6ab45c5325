//! The test layout itself: every test lives in this binary.

use std::path::Path;

/// `[lib] test = false` (the crates' manifests) means a `#[cfg(test)]`
/// module or a `#[test]` in a crate's `src/` would compile in no build and
/// never run: refuse it, so a test written there is moved here instead of
/// silently skipped.
#[test]
fn src_holds_no_tests_since_cargo_never_runs_them() {
    fn walk(dir: &Path, found: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, found);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                for (i, line) in text.lines().enumerate() {
                    let l = line.trim_start();
                    if l.starts_with("#[cfg(test)]") || l.starts_with("#[test]") {
                        found.push(format!("{}:{}", p.display(), i + 1));
                    }
                }
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for dir in ["src", "crates/core/src", "crates/lib/src"] {
        walk(&root.join(dir), &mut found);
    }
    assert!(
        found.is_empty(),
        "tests in a crate's src/ never run ([lib] test = false); move them to tests/it: {found:?}"
    );
}

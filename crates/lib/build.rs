//! Embeds every shipped scenario for the page: walks the repository's `scenarios/` and
//! writes `shipped.rs` into `OUT_DIR`, the list `serve::assets::SHIPPED`
//! (path under `scenarios/`, `include_str!` of the file), sorted by path,
//! so that a scenario added to the folder is offered without naming it
//! in the code.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    // A directory here is scanned for any change below it.
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    walk(&root, &mut files);
    let mut named: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(&root).expect("under scenarios/");
            let name = rel
                .components()
                .map(|c| c.as_os_str().to_str().expect("a UTF-8 scenario path"))
                .collect::<Vec<_>>()
                .join("/");
            (name, f)
        })
        .collect();
    named.sort();
    let mut out = String::from(
        "/// Every shipped scenario: (path under `scenarios/`, text), sorted by\n\
         /// path; written by the library's build script from the folder.\n\
         pub const SHIPPED: &[(&str, &str)] = &[\n",
    );
    for (name, file) in &named {
        let file = file.canonicalize().expect("a readable scenario");
        writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            file.display().to_string()
        )
        .expect("a String takes writes");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("shipped.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

/// Every `.toml` file under `dir`, at any depth.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a readable directory entry").path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|x| x == "toml") {
            out.push(path);
        }
    }
}

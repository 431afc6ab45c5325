//! The throughput floors CI checks (issue 14, item 8): `benches/floors.toml`
//! gives a floor to every kernel `benches/floors.rs` times and names no
//! other, each floor says where it came from, and every guarded kernel
//! builds from what the repository ships. (No timing is asserted here.)

use std::collections::BTreeSet;
use std::path::Path;

// The kernels, as the floors bench builds them (the file uses only pikeshot).
#[path = "../../benches/common/kernels.rs"]
#[allow(dead_code)]
mod kernels;

fn floors_text() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/floors.toml");
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn every_guarded_kernel_has_a_floor_and_every_floor_a_kernel() {
    let table: toml::Table = floors_text().parse().expect("floors.toml is TOML");
    let floors: BTreeSet<&str> = table.keys().map(String::as_str).collect();
    let guarded: BTreeSet<&str> = kernels::guarded().iter().map(|g| g.name).collect();
    assert_eq!(
        guarded.len(),
        kernels::guarded().len(),
        "two guarded kernels share a name"
    );
    let unfloored: Vec<_> = guarded.difference(&floors).collect();
    let unknown: Vec<_> = floors.difference(&guarded).collect();
    assert!(
        unfloored.is_empty(),
        "kernels without a floor: {unfloored:?}"
    );
    assert!(unknown.is_empty(), "floors naming no kernel: {unknown:?}");
    for (name, v) in &table {
        let f = v
            .as_float()
            .unwrap_or_else(|| panic!("{name}: the floor is a number with a point, got {v}"));
        assert!(f > 0.0 && f.is_finite(), "{name}: floor {f}");
    }
}

#[test]
fn every_floor_says_where_it_came_from() {
    for line in floors_text().lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (_, comment) = line
            .split_once('#')
            .unwrap_or_else(|| panic!("a floor without a comment: {line}"));
        assert!(
            comment.trim_start().starts_with("0.7 of "),
            "the comment gives the median ratio the floor is 0.7 of: {line}"
        );
    }
}

#[test]
fn every_guarded_kernel_builds_and_resolves() {
    let mut reference = kernels::reference();
    assert!(reference() > 0);
    for g in kernels::guarded() {
        let mut run = (g.build)();
        assert!(run() > 0, "{} resolved nothing", g.name);
    }
}

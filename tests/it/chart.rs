//! Charts as text: aligned columns and notes (`systems::chart`).

use pikeshot::systems::chart::*;

#[test]
fn renders_aligned_columns() {
    let c = Chart {
        id: "t",
        title: "T".into(),
        rule: "1.0",
        headers: vec!["Die".into(), "Result".into()],
        rows: vec![
            vec!["≤0".into(), "Miss".into()],
            vec!["9+".into(), "2".into()],
        ],
        notes: vec!["+1 note".into()],
    };
    let s = c.render();
    assert!(s.contains("| Die | Result |"), "{s}");
    assert!(s.contains("| ≤0  | Miss   |"), "{s}");
    assert!(s.ends_with("  +1 note\n"));
}

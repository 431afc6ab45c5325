//! Located key errors: lines of nested keys, ranges, unknown keys and syntax errors (`scenario::fields`).

use pikeshot::scenario::fields::*;

const TEXT: &str =
    "name = \"x\"\n\n[units.tercio]\nkind = \"heavy-infantry\"\nmorale = 11\nmorael = 6\n";

#[test]
fn lines_are_found_for_nested_keys() {
    let (src, _) = Source::parse("s.toml", TEXT).unwrap();
    assert_eq!(src.line("name"), Some(1));
    assert_eq!(src.line("units.tercio.kind"), Some(4));
    assert_eq!(src.line("units.tercio.nothing"), src.line("units.tercio"));
}

#[test]
fn out_of_range_and_unknown_keys_are_located() {
    let (src, t) = Source::parse("s.toml", TEXT).unwrap();
    let unit = t["units"]["tercio"].as_table().unwrap();
    let mut f = Fields::new(&src, "units.tercio", unit);
    let e = f.int("morale", 2, 8).unwrap_err();
    assert_eq!(e.line, Some(5));
    assert!(e.to_string().contains("from 2 to 8"), "{e}");
    let mut f = Fields::new(&src, "units.tercio", unit);
    f.string("kind").unwrap();
    f.int("morale", 2, 20).unwrap();
    let e = f.finish().unwrap_err();
    assert_eq!(e.line, Some(6));
    assert_eq!(e.suggestion.as_deref(), Some("morale"));
}

#[test]
fn syntax_errors_have_lines() {
    let e = Source::parse("s.toml", "a = 1\nb = [\n").unwrap_err();
    assert!(e.line.is_some());
    assert!(e.to_string().starts_with("s.toml:"), "{e}");
}

//! `pikeshot list mpbs` names every value the readers accept: for each card,
//! the unit kinds, guns, TEC hex rows and hexsides it lists are exactly the
//! names the scenario reader accepts (which it states when it refuses a
//! name it does not know).

use crate::support::cli::{pikeshot_ok, pikeshot_refused, stdout};

/// The names a `list mpbs` line `"{what} ({edition}): a, b, c"` gives.
fn listed(list: &str, what: &str, edition: &str) -> Vec<String> {
    let head = format!("{what} ({edition}): ");
    let line = list
        .lines()
        .find_map(|l| l.strip_prefix(head.as_str()))
        .unwrap_or_else(|| panic!("no `{head}` line in:\n{list}"));
    let mut names: Vec<String> = line.split(", ").map(String::from).collect();
    names.sort();
    names
}

/// The names the reader accepts for `key` on `edition`'s card: what it
/// says when refusing a name no card has.
fn accepted(key: &str, edition: &str) -> Vec<String> {
    let set = format!("{key}=no-such-name");
    let err = pikeshot_refused(
        &[
            "explain",
            "scenarios/mpbs/artillery-falcon.toml",
            "--set",
            &format!("edition={edition}"),
            "--set",
            &set,
        ],
        &["accepted: "],
    );
    let line = err
        .lines()
        .find_map(|l| l.trim().strip_prefix("accepted: "))
        .expect("an accepted line");
    let mut names: Vec<String> = line.split(", ").map(String::from).collect();
    names.sort();
    names
}

#[test]
fn list_names_every_unit_kind_gun_and_terrain_the_readers_accept() {
    let list = stdout(&pikeshot_ok(&["list", "mpbs"]));
    for edition in ["sfo", "series"] {
        for (what, key) in [
            ("unit kinds", "units.target.kind"),
            ("guns", "units.battery.gun"),
            ("terrain", "units.target.terrain"),
            ("hexsides", "units.target.hexside"),
        ] {
            assert_eq!(
                listed(&list, what, edition),
                accepted(key, edition),
                "{what} on the {edition} card"
            );
        }
    }
    // The names the cards' rows answer to besides their own.
    assert!(listed(&list, "unit kinds", "sfo").contains(&"light-infantry".to_string()));
    for alias in ["garden", "vineyard"] {
        assert!(listed(&list, "terrain", "series").contains(&alias.to_string()));
    }
}

//! The registry of rule systems: every system lists, prints its charts
//! under every edition, and every shipped scenario of it builds through the
//! public run path. Also: the scenario syntax every system shares, and the
//! old spellings it refuses with a message naming the new one.

mod keys;
mod labels;
mod list;
mod toy;

use crate::support::scenario::input_error;
use crate::support::{shipped_files, shipped_root};

use pikeshot::run::{self, RunPlan};
use pikeshot::scenario::Overrides;
use pikeshot::systems::Registry;

#[test]
fn ids_are_unique_and_found() {
    let ids: Vec<&str> = Registry::shipped()
        .systems()
        .iter()
        .map(|s| s.id())
        .collect();
    for (i, id) in ids.iter().enumerate() {
        assert!(!ids[..i].contains(id), "{id} twice");
        assert_eq!(Registry::shipped().find(id).unwrap().id(), *id);
    }
    let e = Registry::shipped()
        .find("snaphanse")
        .map(|s| s.id())
        .unwrap_err();
    assert_eq!(e.suggestion.as_deref(), Some("snaphance"), "{e}");
}

#[test]
fn every_system_lists_and_prints_its_charts() {
    for s in Registry::shipped().systems() {
        let l = Registry::shipped().list(Some(s.id())).unwrap();
        assert!(l.starts_with(&format!("{} — {}", s.id(), s.name())), "{l}");
        assert!(!s.procedures().is_empty(), "{}", s.id());
        for p in s.procedures() {
            assert!(
                l.contains(&format!("  {} (", p.name)),
                "{}: {}",
                s.id(),
                p.name
            );
        }
        for k in s.rules_keys() {
            assert!(l.contains(k.key), "{}: [rules] {}", s.id(), k.key);
        }
        for c in s.stop_conditions() {
            assert!(l.contains(c.name), "{}: stop {}", s.id(), c.name);
        }
        assert_eq!(s.max_turns() == 0, s.stop_conditions().is_empty());
        let editions: Vec<Option<&str>> = if s.editions().is_empty() {
            vec![None]
        } else {
            s.editions().iter().map(|e| Some(e.id)).collect()
        };
        for ed in editions {
            let charts = s.charts(ed);
            assert!(!charts.is_empty(), "{} {ed:?}", s.id());
            let all = Registry::shipped().tables(s.id(), ed, None).unwrap();
            for c in &charts {
                assert!(all.contains(&c.render()), "{} {ed:?} {}", s.id(), c.id);
                let one = Registry::shipped().tables(s.id(), ed, Some(c.id)).unwrap();
                assert!(one.starts_with(&c.title), "{} {}", s.id(), c.id);
            }
        }
        if s.editions().is_empty() {
            let e = Registry::shipped()
                .tables(s.id(), Some("sfo"), None)
                .unwrap_err();
            assert!(e.to_string().contains("no editions"), "{e}");
        } else {
            let e = Registry::shipped()
                .tables(s.id(), Some("nope"), None)
                .unwrap_err();
            assert!(e.to_string().contains("unknown edition"), "{e}");
        }
    }
    let all = Registry::shipped().list(None).unwrap();
    for s in Registry::shipped().systems() {
        assert!(all.contains(&Registry::shipped().list(Some(s.id())).unwrap()));
    }
}

#[test]
fn every_shipped_scenario_builds() {
    for s in Registry::shipped().systems() {
        let files = shipped_files(s.id());
        assert!(!files.is_empty(), "no scenario of {}", s.id());
        for f in files {
            let p = run::prepare(&f, &RunPlan::default())
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert_eq!(p.id.system, s.id(), "{}", f.display());
            assert!(!p.courses.is_empty(), "{}", f.display());
            assert_eq!(!p.id.editions.is_empty(), !s.editions().is_empty());
        }
    }
    // Every scenario folder is a system's.
    for e in std::fs::read_dir(shipped_root()).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            let name = p.file_name().unwrap().to_str().unwrap();
            assert!(Registry::shipped().find(name).is_ok(), "scenarios/{name}");
        }
    }
}

/// The bad-input error of a scenario text.
#[track_caller]
fn refused(text: &str) -> pikeshot::error::InputError {
    input_error("t.toml", text)
}

const HAKKAA_UNITS: &str = "[units.a]\ntype = \"mi\"\ntq = 8\nsteps = 4\nfp = 2\n\n[units.b]\ntype = \"hi\"\ntq = 9\nsteps = 4\n";
const FIRE: &str = "steps = [{ procedure = \"fire\", firer = \"a\", target = \"b\" }]";

#[test]
fn old_spellings_are_refused_naming_the_new_one() {
    // Hakkaa: the readings switches moved to [rules].
    for (key, value) in [("tq_modifier_mode", "roll"), ("double_results", "one-test")] {
        let t = format!(
            "system = \"hakkaa\"\n{key} = \"{value}\"\n{HAKKAA_UNITS}\n[[course]]\nname = \"c\"\n{FIRE}\n"
        );
        let e = refused(&t);
        assert_eq!(e.key.as_deref(), Some(key), "{e}");
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.to_string().contains("in the `[rules]` table"), "{e}");
    }
    // Hakkaa: `turns` and `stop_when` became `repeat`.
    for old in ["turns = 3", "stop_when = [\"target-fled\"]"] {
        let t = format!(
            "system = \"hakkaa\"\n{HAKKAA_UNITS}\n[[course]]\nname = \"c\"\n{old}\n{FIRE}\n"
        );
        let e = refused(&t);
        let key = old.split(' ').next().unwrap();
        assert_eq!(e.key.as_deref(), Some(&*format!("course[0].{key}")), "{e}");
        assert!(e.to_string().contains("repeat = { turns = N"), "{e}");
    }
    // Snaphance: [readings] became [rules].
    let t = "system = \"snaphance\"\n\n[readings]\nfives = \"each\"\n\n[units.a]\nkind = \"pike\"\n\n[units.d]\nkind = \"pike\"\n\n[[course]]\nname = \"c\"\nsteps = [{ procedure = \"melee\", attacker = \"a\", defender = \"d\" }]\n";
    let e = refused(t);
    assert_eq!(e.key.as_deref(), Some("readings"), "{e}");
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.to_string().contains("the `[rules]` table"), "{e}");
}

#[test]
fn own_and_enemy_are_two_units_in_every_system() {
    let texts = [
        format!(
            "system = \"hakkaa\"\n{HAKKAA_UNITS}\n[[course]]\nname = \"c\"\nown = \"a\"\nenemy = \"a\"\n{FIRE}\n"
        ),
        "system = \"mpbs\"\nedition = \"series\"\n\n[units.a]\nkind = \"heavy-infantry\"\nmorale = 7\nstrength = 8\n\n[units.b]\nkind = \"heavy-infantry\"\nmorale = 7\nstrength = 8\n\n[[course]]\nname = \"c\"\nown = \"b\"\nenemy = \"b\"\nsteps = [{ procedure = \"musketry\", firer = \"a\", target = \"b\" }]\n".to_string(),
    ];
    for t in texts {
        let e = refused(&t);
        assert_eq!(e.key.as_deref(), Some("course[0].enemy"), "{e}");
        assert!(e.to_string().contains("name the same unit"), "{e}");
    }
    let t = format!(
        "system = \"hakkaa\"\n{HAKKAA_UNITS}\n[[course]]\nname = \"c\"\nown = \"aa\"\n{FIRE}\n"
    );
    let e = refused(&t);
    assert!(e.to_string().contains("no unit named \"aa\""), "{e}");
    assert_eq!(e.accepted.as_deref(), Some("a, b"), "{e}");
    assert_eq!(e.key.as_deref(), Some("course[0].own"), "{e}");
}

#[test]
fn every_listed_rules_key_is_read_and_its_default_changes_nothing() {
    // What `list` says of [rules] is data beside the reader: each key it
    // names must be accepted with its default, and give the numbers the
    // scenario gives without it.
    for s in Registry::shipped().systems() {
        let files = shipped_files(s.id());
        let file = &files[0];
        let exact = |sets: Vec<String>| -> Vec<Vec<f64>> {
            let req = RunPlan {
                overrides: Overrides::parse(&sets).unwrap(),
                ..RunPlan::default()
            };
            let p = run::prepare(file, &req).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            p.courses
                .iter()
                .map(|c| c.kernel.exact(10_000_000).unwrap())
                .collect()
        };
        let plain = exact(Vec::new());
        for k in s.rules_keys() {
            let d = k
                .default
                .unwrap_or_else(|| panic!("{}: [rules] {} has no default", s.id(), k.key));
            let set = format!("rules.{}={d}", k.key);
            assert_eq!(exact(vec![set.clone()]), plain, "{}: --set {set}", s.id());
        }
        let e = run::prepare(
            file,
            &RunPlan {
                overrides: Overrides::parse(&["rules.no_such_switch=true"]).unwrap(),
                ..RunPlan::default()
            },
        )
        .err()
        .unwrap_or_else(|| panic!("{}: [rules] accepted an unknown key", s.id()));
        // Refused as an unknown key of [rules], or, for a system without
        // switches, as an unknown table `rules`.
        let want = if s.rules_keys().is_empty() {
            "unknown key `rules`"
        } else {
            "unknown key `no_such_switch`"
        };
        assert!(e.to_string().contains(want), "{e}");
    }
}

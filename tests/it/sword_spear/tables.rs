//! Sword & Spear charts against the card, cell by cell: the movement table,
//! Fresh Status, the no-impetus list, and every chart as `pikeshot tables`
//! prints it; `pikeshot list` and the command line end to end.

use crate::support::cli::{pikeshot, run_refused_text, run_to};

use pikeshot::systems::Registry;
use pikeshot::systems::sword_spear::melee::NO_IMPETUS;
use pikeshot::systems::sword_spear::troops::{Class, MOVEMENT, Move, Terrain, Troop};
use pikeshot::systems::sword_spear::{self, step};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn movement_table_every_cell() {
    use Move::{Blank, Dash, Du, NotAllowed};
    // Troop type: Open, Rough, Difficult, Obstacle, as on the card.
    let card: [(&str, [Move; 4]); 14] = [
        ("Heavy foot", [Du(2), Du(2), Du(1), Du(-1)]),
        ("Medium foot", [Du(3), Du(3), Du(2), Du(-1)]),
        ("Light foot", [Du(3), Du(3), Du(3), Dash]),
        ("Cavalry", [Du(4), Du(2), Du(1), Du(-1)]),
        ("Light horse", [Du(5), Du(3), Du(2), Du(-1)]),
        ("Chariots", [Du(4), Du(1), NotAllowed, NotAllowed]),
        ("Swarms", [Du(3), Du(3), Du(2), Dash]),
        ("Beasts", [Du(4), Du(3), Du(2), Du(-1)]),
        ("Large Beasts", [Du(3), Du(2), Du(1), Du(-1)]),
        ("Monsters", [Du(3), Du(3), Du(2), Blank]),
        ("Hero (Mtd)", [Du(5), Du(4), Du(3), Dash]),
        ("Hero (Foot)", [Du(3), Du(3), Du(3), Dash]),
        ("War wagons", [Du(1), Du(0), NotAllowed, NotAllowed]),
        ("Artillery", [Du(0), Du(0), NotAllowed, NotAllowed]),
    ];
    assert_eq!(MOVEMENT.len(), card.len());
    for (row, (label, cells)) in MOVEMENT.iter().zip(card) {
        assert_eq!(row.label, label);
        assert_eq!(row.movement, cells, "{label}");
    }
    assert_eq!(Troop::HeavyFoot.movement(Terrain::Difficult), Some(1));
    assert_eq!(Troop::Chariots.movement(Terrain::Difficult), None);
    assert!(!Troop::WarWagons.can_move(Terrain::Rough));
    assert!(Troop::WarWagons.can_move(Terrain::Open));
    assert!(!Troop::Artillery.can_move(Terrain::Open));
}

#[test]
fn families_as_read() {
    use Troop::*;
    let foot = [HeavyFoot, MediumFoot, LightFoot, HeroFoot];
    let mounted = [Cavalry, LightHorse, Chariots, HeroMounted];
    let beasts = [Beasts, LargeBeasts];
    for &t in Troop::ALL {
        let want = if foot.contains(&t) {
            Class::Foot
        } else if mounted.contains(&t) {
            Class::Mounted
        } else if beasts.contains(&t) {
            Class::Beasts
        } else {
            Class::Other
        };
        assert_eq!(t.class(), want, "{t}");
        assert_eq!(
            t.default_skirmisher(),
            matches!(t, LightFoot | LightHorse),
            "{t}"
        );
    }
}

#[test]
fn every_chart_renders_from_the_library_and_the_cli() {
    let charts = sword_spear::charts();
    let ids: Vec<&str> = charts.iter().map(|c| c.id).collect();
    assert_eq!(
        ids,
        [
            "command-distance",
            "risk-to-commanders",
            "discipline-adjustments",
            "movement",
            "fresh-status",
            "activation",
            "combat-process",
            "armour",
            "shooting-weapons",
            "melee-dice",
            "no-impetus",
        ]
    );
    let all = Registry::shipped()
        .tables("sword-and-spear", None, None)
        .unwrap();
    for c in &charts {
        assert!(all.contains(&c.title), "{}", c.title);
    }
    // (chart, lines it prints)
    let printed: [(&str, &[&str]); 5] = [
        (
            "movement",
            &["| Chariots     | 4    | 1     | n/a       | n/a      |"],
        ),
        (
            "shooting-weapons",
            &[
                "| Longbow      | 5           | Heavily armoured or armoured target reduced by one level of protection",
                "| Artillery    | 10          | Ignores all armour and cover. Cannot move and shoot",
            ],
        ),
        (
            "risk-to-commanders",
            &[
                "| Routed with pursuit by mounted | 5+           |",
                "| Otherwise                      | 6            |",
            ],
        ),
        (
            "command-distance",
            &["| Captain   | 4  |", "| General   | 8  |"],
        ),
        (
            "discipline-adjustments",
            &[
                "| Commander with Unit*      | -1         |",
                "| In difficult terrain**    | +1         |",
            ],
        ),
    ];
    for (chart, lines) in printed {
        let t = Registry::shipped()
            .tables("sword-and-spear", None, Some(chart))
            .unwrap();
        for line in lines {
            assert!(t.contains(line), "{chart}: {line}\n{t}");
        }
    }
    let n = Registry::shipped()
        .tables("sword-and-spear", None, Some("no-impetus"))
        .unwrap();
    for (_, t, _) in NO_IMPETUS {
        assert!(n.contains(t), "{t}");
    }
    // --edition is refused: the sheet has one card.
    let e = Registry::shipped()
        .tables("sword-and-spear", Some("series"), None)
        .unwrap_err();
    assert!(e.to_string().contains("no editions"), "{e}");
    // An unknown chart names the known ones.
    let e = Registry::shipped()
        .tables("sword-and-spear", None, Some("movment"))
        .unwrap_err();
    assert!(e.to_string().contains("did you mean `movement`"), "{e}");

    let o = pikeshot(&["tables", "sword-and-spear", "armour"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("Effect of Armour"));
    let o = pikeshot(&["tables", "sword-and-spear", "--edition", "sfo"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("drop `--edition sfo`"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn list_names_procedures_keys_and_outcomes() {
    assert!(
        Registry::shipped()
            .systems()
            .iter()
            .any(|s| s.id() == "sword-and-spear")
    );
    let l = Registry::shipped().list(Some("sword-and-spear")).unwrap();
    for p in step::PROCEDURES {
        assert!(l.contains(&format!("  {} (", p.name)), "{}", p.name);
        for k in p.keys {
            assert!(l.contains(k.key), "{}.{}", p.name, k.key);
        }
        for o in p.outcomes {
            assert!(l.contains(o), "{o}");
        }
    }
    for name in [
        "activation",
        "discipline-test",
        "shooting",
        "melee",
        "commander-risk",
    ] {
        assert!(step::PROCEDURES.iter().any(|p| p.name == name), "{name}");
    }
    // A melee until one side routs is a repeated `melee`, not a procedure.
    assert!(!step::PROCEDURES.iter().any(|p| p.name == "engagement"));
    assert!(l.contains("either-routs"), "{l}");
    assert!(l.contains("later_rounds_impetus"), "{l}");
    assert!(l.contains("troop types: heavy-foot, medium-foot"), "{l}");
    assert!(l.contains(
        "missile weapons: bow, longbow, crossbow, sling, javelin, firearm, artillery, magic"
    ));
    assert!(l.contains("charts (pikeshot tables sword-and-spear): command-distance"));
    let o = pikeshot(&["list", "sword-and-spear"]);
    assert!(o.status.success());
    assert_eq!(text(&o.stdout).trim_end(), l.trim_end());
}

#[test]
fn a_scenario_runs_end_to_end() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    let args = ["--trials", "20000", "--exact", "-q"];
    run_to(
        "scenarios/sword-and-spear/longbow-vs-heavily-armoured.toml",
        &args,
        &out,
    );
    let csv = std::fs::read_to_string(out.join("outcomes.csv")).unwrap();
    assert!(csv.contains("one volley at 5 DU,target-routs"), "{csv}");
    assert!(
        csv.contains("\"activate, then shoot with any bonus\",stopped-not-activated"),
        "{csv}"
    );
    let m = std::fs::read_to_string(out.join("measures.csv")).unwrap();
    assert!(m.contains("hits-inflicted"), "{m}");
    // A bad key exits 2 with the file and line.
    let e = run_refused_text(
        tmp.path(),
        "name = \"t\"\nsystem = \"sword-and-spear\"\n[units.a]\ntroop = \"cavalry\"\ndiscipline = 3\nstrength = 3\nweapon = \"bow\"\n[units.b]\ntroop = \"heavy-foot\"\ndiscipline = 3\nstrength = 4\n[[course]]\nname = \"c\"\nsteps = [{ procedure = \"shooting\", firer = \"a\", target = \"b\", range = 6 }]\n",
        &out,
    );
    assert!(
        e.contains("bad.toml:14:") && e.contains("out of range"),
        "{e}"
    );
}

/// The card's Activating Units says only "Units are activated in order.
/// Active player moves first if Action Dice number are equal."; the chart
/// adds no order of its own (no "lowest die first").
#[test]
fn the_activation_chart_states_the_order_as_the_card_prints_it() {
    let charts = sword_spear::charts();
    let chart = charts.iter().find(|c| c.id == "activation").unwrap();
    let note = chart
        .notes
        .iter()
        .find(|n| n.starts_with("Units are activated in order"))
        .expect("the card's order note");
    assert!(
        note.contains("the active player moves first if Action Dice are equal"),
        "{note}"
    );
    assert!(!note.to_lowercase().contains("lowest"), "{note}");
    assert!(!note.to_lowercase().contains("highest"), "{note}");
}

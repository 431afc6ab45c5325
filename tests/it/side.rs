//! Whose side (issue 12, item 2): every course's own and enemy units are
//! reported, and a comparison read from different sides is refused before
//! anything runs unless every course names its pair.

use crate::support::cli::{pikeshot_ok, pikeshot_refused, run_fresh, run_to, stdout, temp_out};
use crate::support::{col as column, read_csv};

/// Two courses of one scenario, the second read from the other unit's
/// side unless `own`/`enemy` say otherwise.
fn mixed(named: &str) -> String {
    format!(
        r#"name = "mixed"
system = "mpbs"
edition = "series"
trials = 2000

[units.cuirassiers]
kind = "cuirassier"
morale = 7
strength = 4
order = "charge"

[units.pike]
kind = "heavy-infantry"
morale = 6
strength = 8

[[course]]
name = "charge"
{named}
steps = [{{ procedure = "close-combat", attacker = "cuirassiers", defender = "pike" }}]

[[course]]
name = "fire then charge"
{named}
steps = [
  {{ procedure = "musketry", firer = "pike", target = "cuirassiers", column = "front", reaction_fire = true }},
  {{ procedure = "close-combat", attacker = "cuirassiers", defender = "pike" }},
]
"#
    )
}

#[test]
fn a_comparison_read_from_different_sides_is_refused_with_the_fix() {
    let out = temp_out();
    let file = out.write("mixed.toml", &mixed(""));
    let e = pikeshot_refused(
        &[
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        &[
            "mixed.toml",
            "course \"charge\"",
            "course \"fire then charge\"",
            "own = \"cuirassiers\", enemy = \"pike\"",
            "own = \"pike\", enemy = \"cuirassiers\"",
            "`own` and `enemy` in every [[course]]",
        ],
    );
    // Located at the course read from the other side (its `[[course]]`).
    let text = mixed("");
    let line = text
        .lines()
        .position(|l| l == "name = \"fire then charge\"")
        .expect("the second course");
    assert!(e.contains(&format!("mixed.toml:{line}: ")), "{e}");
    // Refused before anything ran: nothing written.
    assert!(!out.join("summary.csv").exists());

    // Named in every course, the same comparison runs, from that side.
    std::fs::write(&file, mixed("own = \"cuirassiers\"\nenemy = \"pike\"")).unwrap();
    let o = run_to(&file, &["--plots", "none"], &out);
    assert!(stdout(&o).contains("cuirassiers vs pike"), "{}", stdout(&o));
    let csv = std::fs::read_to_string(out.join("comparison.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let own = header.iter().position(|h| *h == "own").expect("own column");
    let enemy = header
        .iter()
        .position(|h| *h == "enemy")
        .expect("enemy column");
    let mut rows = 0;
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!((f[own], f[enemy]), ("cuirassiers", "pike"), "{l}");
        rows += 1;
    }
    assert!(rows > 0);
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(summary.lines().next().unwrap().ends_with(",own,enemy"));
}

#[test]
fn the_cuirassier_comparison_reads_from_the_cuirassiers_side() {
    let (out, _) = run_fresh(
        "scenarios/mpbs/cuirassiers-vs-pike.toml",
        &[
            "--exact",
            "--trials",
            "1000",
            "--plots",
            "none",
            "--set",
            "edition=series",
            "--set",
            "units.pike.terrain=woods",
        ],
    );
    let (header, rows) = read_csv(&out.join("comparison.csv"));
    let col = |name: &str| column(&header, name);
    let row = rows
        .iter()
        .find(|r| {
            r[col("course")] == "charge through reaction fire"
                && r[col("measure")].contains("enemy-broken")
        })
        .unwrap_or_else(|| panic!("no row in {rows:?}"));
    assert_eq!(
        (row[col("own")].as_str(), row[col("enemy")].as_str()),
        ("cuirassiers", "pike"),
        "{row:?}"
    );
    // The exact figure from the cuirassiers' side (20.4%), not the pike's (48.9%).
    let exact: f64 = row[col("exact")].parse().unwrap();
    assert!((exact - 0.204).abs() < 0.001, "{row:?}");
}

/// The sides are checked before anything runs, so the report's CSV files
/// say all this test asks (`--plots none`: the plots cost 80% of its time).
#[test]
fn every_shipped_scenario_reads_each_comparison_from_one_side() {
    let out = temp_out();
    pikeshot_ok(&[
        "report",
        "scenarios",
        "--trials",
        "200",
        "--plots",
        "none",
        "--out",
        out.to_str().unwrap(),
    ]);
}

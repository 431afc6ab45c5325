//! A sweep written as it runs (issue 14, item 3): more variants than
//! `--stream-sweeps-above` (hidden; 1,000 by default) and `run` writes
//! every table gzip-compressed, block by block, with the same rows as the
//! run that holds its variants, and only the sweep charts. Small sweeps
//! here, with the threshold lowered.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::support::cli::{run_refused_saying, run_to, stdout};
use crate::support::file_names as names;

/// Charge-or-salvo's brigade against the tercio (see `sweep::scenario`),
/// with its engagement "keep firing" too, swept over the tercio's morale
/// (`morale`) and both cards, with a target on one course.
fn scenario(dir: &Path, morale: &str) -> PathBuf {
    super::sweep::scenario(
        dir,
        &format!(
            r#""units.tercio.morale" = {morale}
edition = ["series", "sfo"]

[[course]]
name = "keep firing"
steps = [
  {{ procedure = "musketry", firer = "swedes", target = "tercio", column = "front" }},
  {{ procedure = "musketry", firer = "tercio", target = "swedes", column = "front" }},
]
repeat = {{ turns = 3, until = ["enemy-broken", "own-broken"] }}

[[expect]]
course = "charge now"
measure = "p-enemy-broken-or-eliminated"
at_least = 0.1
"#
        ),
    )
}

fn gunzip(path: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_end(&mut bytes)
        .unwrap();
    bytes
}

const TABLES: [&str; 6] = [
    "outcomes.csv",
    "measures.csv",
    "summary.csv",
    "comparison.csv",
    "engagements.csv",
    "sweep.csv",
];

#[test]
fn a_streamed_sweep_writes_the_tables_of_a_held_one_compressed_and_only_the_sweep_charts() {
    let tmp = tempfile::tempdir().unwrap();
    let file = scenario(tmp.path(), "[5, 6, 7]");
    for method in ["both", "exact"] {
        let (held, streamed) = (tmp.path().join("held"), tmp.path().join("streamed"));
        run_to(
            &file,
            &["--method", method, "--plots", "summary", "-q"],
            &held,
        );
        let o = run_to(
            &file,
            &["--method", method, "--stream-sweeps-above", "2"],
            &streamed,
        );
        assert!(
            stdout(&o).contains("6 variants, too many to print"),
            "{}",
            stdout(&o)
        );
        for t in TABLES {
            let plain = std::fs::read(held.join(t)).unwrap();
            assert_eq!(
                gunzip(&streamed.join(format!("{t}.gz"))),
                plain,
                "{method}: {t}"
            );
        }
        assert_eq!(
            std::fs::read(held.join("expect.csv")).unwrap(),
            std::fs::read(streamed.join("expect.csv")).unwrap(),
            "{method}: the targets, checked block by block"
        );
        let got = names(&streamed);
        assert!(got.contains(&"timing.csv.gz".to_string()), "{got:?}");
        assert!(!got.iter().any(|n| n.ends_with(".csv") && n != "expect.csv"));
        // The sweep charts, drawn from the key outcomes kept, are the held
        // run's; no variant's own chart is drawn.
        let charts: Vec<&String> = got.iter().filter(|n| n.ends_with(".png")).collect();
        assert!(!charts.is_empty());
        for c in &charts {
            assert!(c.starts_with("sweep--"), "{c}");
            assert_eq!(
                std::fs::read(streamed.join(c)).unwrap(),
                std::fs::read(held.join(c)).unwrap(),
                "{method}: {c}"
            );
        }
        let record = std::fs::read_to_string(streamed.join("run.json")).unwrap();
        assert!(record.contains("\"plots\": \"summary\""), "{record}");
    }
}

#[test]
fn a_streamed_sweep_is_byte_identical_on_one_thread_and_on_three() {
    let tmp = tempfile::tempdir().unwrap();
    let file = scenario(tmp.path(), "[4, 5, 6, 7, 8]");
    let (one, three) = (tmp.path().join("one"), tmp.path().join("three"));
    let args = ["--method", "both", "--stream-sweeps-above", "1", "-q"];
    run_to(&file, &[&args[..], &["--threads", "1"]].concat(), &one);
    run_to(&file, &[&args[..], &["--threads", "3"]].concat(), &three);
    assert_eq!(names(&one), names(&three));
    for n in names(&one) {
        if n == "timing.csv.gz" {
            continue;
        }
        assert_eq!(
            std::fs::read(one.join(&n)).unwrap(),
            std::fs::read(three.join(&n)).unwrap(),
            "{n}"
        );
    }
}

#[test]
fn a_variant_that_fails_late_in_a_sweep_leaves_no_folder_streamed_or_held() {
    let tmp = tempfile::tempdir().unwrap();
    // The third morale is out of range: variants 5 and 6 fail, after the
    // first four have run (the first variant alone is built up front).
    let file = scenario(tmp.path(), "[5, 6, 60]");
    for extra in [&["--stream-sweeps-above", "1"][..], &[]] {
        let out = tmp.path().join("out");
        let mut args = vec!["-q", "--method", "exact"];
        args.extend_from_slice(extra);
        run_refused_saying(&file, &args, &out, &["units.tercio.morale", "60"]);
        assert!(!out.exists(), "{extra:?}");
        assert_eq!(names(tmp.path()), ["swept.toml"], "{extra:?}");
    }
}

#[test]
fn every_plot_of_a_streamed_sweep_is_refused_before_anything_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let file = scenario(tmp.path(), "[5, 6, 7]");
    let out = tmp.path().join("out");
    run_refused_saying(
        &file,
        &["-q", "--plots", "all", "--stream-sweeps-above", "5"],
        &out,
        &["--plots all", "6 variants", "--plots summary"],
    );
    assert!(!out.exists());
}

//! Output folders (issue 12, item 6; issue 13, item 6): a run replaces its
//! folder whole, a kill leaves the previous folder whole, a second run into
//! a busy folder is refused, pikeshot never deletes or mixes into a user's
//! folder, `report` prunes only the folders it wrote, and names that would
//! clash (two stems alike, `summary.csv.toml`, long wide names) get
//! distinct, short enough files and folders.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::batch::SWEPT;
use crate::support::cli::{
    code, pikeshot, pikeshot_ok, pikeshot_refused, run_fresh, run_to, stderr,
};
use crate::support::{col, file_names, files, read_csv};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The names in `dir` that are pikeshot's temporaries or locks (not its
/// markers).
fn leftovers(dir: &Path) -> Vec<String> {
    file_names(dir)
        .into_iter()
        .filter(|n| {
            n.starts_with(".pikeshot-") && n != ".pikeshot-output" && n != ".pikeshot-report"
        })
        .collect()
}

/// Asserts `dir` holds none of pikeshot's temporaries or locks.
#[track_caller]
fn assert_no_leftovers(dir: &Path) {
    let left = leftovers(dir);
    assert!(left.is_empty(), "{left:?}");
}

/// A small scenario of one close combat, named `course`.
fn charge(course: &str) -> String {
    let head = concat!(
        r#"name = "charge"
system = "mpbs"
edition = "series"
seed = 7
trials = 2000

"#,
        crate::mpbs_horse_and_foot!()
    );
    format!(
        "{head}\n[[course]]\nname = \"{course}\"\n{}",
        crate::mpbs_charge_step!()
    )
}

/// A long run of the shipped charge-or-salvo into `out`, as a child process.
fn spawn_long(out: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_pikeshot"))
        .args([
            "run",
            "scenarios/mpbs/charge-or-salvo.toml",
            "--kernel",
            "direct",
            "-n",
            "400000000",
            "-j",
            "1",
            "-q",
            "--out",
            s(out),
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawns")
}

#[test]
fn two_scenarios_run_into_one_out_leave_only_the_seconds_files() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let first = tmp.path().join("first.toml");
    let second = tmp.path().join("second.toml");
    fs::write(&first, charge("first course")).unwrap();
    fs::write(&second, charge("second course")).unwrap();
    pikeshot_ok(&["run", s(&first), "-q", "--out", s(&out)]);
    assert!(out.join("first-course.png").is_file());
    pikeshot_ok(&["run", s(&second), "-q", "--out", s(&out)]);
    // The same files as the second scenario alone in a fresh folder.
    let fresh = tmp.path().join("fresh");
    pikeshot_ok(&["run", s(&second), "-q", "--out", s(&fresh)]);
    let names = |d: &Path| files(d).into_keys().collect::<Vec<_>>();
    assert_eq!(names(&out), names(&fresh));
    assert!(!out.join("first-course.png").exists());
    assert_no_leftovers(tmp.path());

    // A sweep over both cards, then one card pinned: no plot of the sweep
    // survives.
    let swept = tmp.path().join("swept.toml");
    fs::write(&swept, SWEPT).unwrap();
    let q = tmp.path().join("q");
    pikeshot_ok(&["run", s(&swept), "-q", "--out", s(&q)]);
    assert!(files(&q).keys().any(|n| n.contains("sfo")));
    run_to(s(&swept), &["--set", "edition=series", "-q"], &q);
    let left: Vec<String> = files(&q)
        .into_keys()
        .filter(|n| n.contains("sfo"))
        .collect();
    assert!(left.is_empty(), "files of the sweep survived: {left:?}");
}

#[test]
fn a_killed_run_leaves_the_previous_folder_whole_and_the_next_removes_its_temporaries() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let scenario = tmp.path().join("c.toml");
    fs::write(&scenario, charge("previous")).unwrap();
    pikeshot_ok(&["run", s(&scenario), "-q", "--out", s(&out)]);
    let before = files(&out);
    // Killed while parsing, building, running: each time the folder is
    // exactly what it was (a stale lock from the kill does not block the
    // next attempt).
    for ms in [0u64, 30, 150, 600] {
        let mut child = spawn_long(&out);
        std::thread::sleep(Duration::from_millis(ms));
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(
            files(&out) == before,
            "killed after {ms} ms: the folder changed"
        );
    }
    // The next run removes what the kills left beside the folder.
    pikeshot_ok(&["run", s(&scenario), "-q", "-n", "500", "--out", s(&out)]);
    assert_no_leftovers(tmp.path());
    assert!(out.join("previous.png").is_file());
    assert!(files(&out) != before, "the new run replaced the folder");
}

#[test]
fn a_second_run_into_a_busy_folder_is_refused_and_a_dead_runs_lock_is_not() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("busy");
    let mut child = spawn_long(&out);
    // Wait for the first run to take the lock.
    let start = Instant::now();
    while !leftovers(tmp.path()).iter().any(|n| n.ends_with(".lock")) {
        assert!(start.elapsed() < Duration::from_secs(60), "no lock taken");
        std::thread::sleep(Duration::from_millis(20));
    }
    let scenario = tmp.path().join("c.toml");
    fs::write(&scenario, charge("second")).unwrap();
    let o = pikeshot(&["run", s(&scenario), "-q", "--out", s(&out)]);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let msg = stderr(&o);
    assert!(
        msg.contains("being written by another pikeshot run"),
        "{msg}"
    );
    assert!(msg.contains("busy"), "{msg}");
    assert!(msg.contains("wait for that run to finish"), "{msg}");
    // The lock of the killed run is stale: the next run takes it over.
    pikeshot_ok(&["run", s(&scenario), "-q", "--out", s(&out)]);
    assert!(out.join("second.png").is_file());
    assert_no_leftovers(tmp.path());
}

#[test]
fn a_folder_of_the_users_is_refused_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let scenario = tmp.path().join("c.toml");
    fs::write(&scenario, charge("c")).unwrap();
    let mine = tmp.path().join("mine");
    fs::create_dir(&mine).unwrap();
    fs::write(mine.join("notes.txt"), "mine").unwrap();
    pikeshot_refused(
        &["run", s(&scenario), "-q", "--out", s(&mine)],
        &["mine", "did not write", "choose another folder"],
    );
    assert_eq!(files(&mine).len(), 1);
    assert_no_leftovers(tmp.path());

    // A report refuses a folder whose top-level names are the user's...
    let dir = tmp.path().join("s");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("c.toml"), charge("c")).unwrap();
    let theirs = tmp.path().join("theirs");
    fs::create_dir(&theirs).unwrap();
    fs::write(theirs.join("index.html"), "my page").unwrap();
    pikeshot_refused(&["report", s(&dir), "--out", s(&theirs)], &["index.html"]);
    assert_eq!(fs::read(theirs.join("index.html")).unwrap(), b"my page");
    // ... and a run's folder (a report is not mixed into it).
    pikeshot_ok(&["report", s(&dir), "--out", s(&tmp.path().join("mine2"))]);
    let run_dir = tmp.path().join("r");
    pikeshot_ok(&["run", s(&scenario), "-q", "--out", s(&run_dir)]);
    pikeshot_refused(&["report", s(&dir), "--out", s(&run_dir)], &["single run"]);
}

#[test]
fn report_prunes_only_the_folders_of_scenarios_it_wrote_that_are_gone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s");
    let out = tmp.path().join("reports");
    fs::create_dir_all(dir.join("b")).unwrap();
    fs::write(dir.join("a.toml"), charge("a")).unwrap();
    fs::write(dir.join("b/c.toml"), charge("c")).unwrap();
    // The user's README at the top, as in the repository's reports/.
    fs::create_dir(&out).unwrap();
    fs::write(out.join("README.md"), "readme").unwrap();
    pikeshot_ok(&["report", s(&dir), "--out", s(&out)]);
    assert!(out.join("b/c/outcomes.csv").is_file());
    // The user adds files; a run writes beside; a scenario goes away.
    fs::create_dir(out.join("mine")).unwrap();
    fs::write(out.join("mine/notes.txt"), "mine").unwrap();
    fs::write(out.join("b/keep.txt"), "mine").unwrap();
    let run_dir = out.join("single");
    pikeshot_ok(&["run", s(&dir.join("a.toml")), "-q", "--out", s(&run_dir)]);
    fs::remove_file(dir.join("b/c.toml")).unwrap();
    pikeshot_ok(&["report", s(&dir), "--out", s(&out)]);
    assert!(
        !out.join("b/c").exists(),
        "the gone scenario's folder stays"
    );
    assert_eq!(fs::read(out.join("b/keep.txt")).unwrap(), b"mine");
    assert_eq!(fs::read(out.join("mine/notes.txt")).unwrap(), b"mine");
    assert_eq!(fs::read(out.join("README.md")).unwrap(), b"readme");
    assert!(
        run_dir.join("a.png").is_file(),
        "a run's folder was removed"
    );
    assert!(out.join("a/outcomes.csv").is_file());
    let (_, rows) = read_csv(&out.join("scenarios.csv"));
    assert_eq!(rows.len(), 1);
    assert_no_leftovers(&out);
}

#[test]
fn scenarios_whose_folders_would_clash_get_distinct_folders() {
    // Two stems alike in one run.
    let (out, _) = run_fresh(
        "scenarios/hakkaa/fire-or-charge.toml",
        &[
            "scenarios/snaphance/fire-or-charge.toml",
            "-n",
            "2000",
            "--plots",
            "none",
            "-q",
        ],
    );
    for sys in ["hakkaa", "snaphance"] {
        let rec = fs::read_to_string(out.join(format!("{sys}-fire-or-charge/run.json"))).unwrap();
        assert!(
            rec.contains(&format!("scenarios/{sys}/fire-or-charge.toml")),
            "{rec}"
        );
    }
    // In a report: a scenario named like a top-level file, and a scenario
    // whose folder would hold another's.
    let dir = out.beside("s");
    fs::create_dir_all(dir.join("a")).unwrap();
    fs::write(dir.join("summary.csv.toml"), charge("x")).unwrap();
    fs::write(dir.join("a.toml"), charge("y")).unwrap();
    fs::write(dir.join("a/b.toml"), charge("z")).unwrap();
    let rep = out.beside("rep");
    pikeshot_ok(&["report", s(&dir), "--plots", "none", "--out", s(&rep)]);
    let (h, rows) = read_csv(&rep.join("scenarios.csv"));
    let folder = col(&h, "folder");
    let folders: Vec<&str> = rows.iter().map(|r| r[folder].as_str()).collect();
    assert_eq!(folders, ["a/b", "a-2", "summary.csv-2"]);
    for f in &folders {
        assert!(rep.join(f).join("outcomes.csv").is_file(), "{f}");
    }
    let (sh, _) = read_csv(&rep.join("summary.csv"));
    assert_eq!(sh[0], "file");
    // Again: the same folders, replaced.
    pikeshot_ok(&["report", s(&dir), "--plots", "none", "--out", s(&rep)]);
    assert!(rep.join("a/b/outcomes.csv").is_file());
    assert!(rep.join("a-2/outcomes.csv").is_file());
}

#[test]
fn long_wide_and_alike_course_names_get_short_distinct_file_names() {
    let tmp = tempfile::tempdir().unwrap();
    // 60 letters of four bytes each, twice, differing only at the end.
    let wide: String = "𝔸".repeat(59);
    let text = charge(&format!("{wide}𝔹")).replace(
        "[[course]]",
        &format!(
            "[[course]]\nname = \"{wide}ℂ\"\nsteps = [{{ procedure = \"close-combat\", attacker = \"horse\", defender = \"foot\" }}]\n\n[[course]]"
        ),
    );
    let scenario = tmp.path().join("wide.toml");
    fs::write(&scenario, text).unwrap();
    let out = tmp.path().join("o");
    pikeshot_ok(&["run", s(&scenario), "-q", "--out", s(&out)]);
    let pngs: Vec<PathBuf> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png") && !s(p).contains("comparison"))
        .collect();
    // Each course's histogram and its at-least chart.
    assert_eq!(pngs.len(), 4, "{pngs:?}");
    assert_eq!(
        pngs.iter()
            .filter(|p| s(p).ends_with("-at-least.png"))
            .count(),
        2,
        "{pngs:?}"
    );
    for p in &pngs {
        let name = p.file_name().unwrap().len();
        assert!(name <= 100, "{} is {name} bytes", p.display());
    }
    let distinct: std::collections::BTreeSet<&PathBuf> = pngs.iter().collect();
    assert_eq!(distinct.len(), pngs.len(), "{pngs:?}");
}

#[test]
fn a_pinned_variant_draws_the_same_numbers_as_inside_the_sweep() {
    let tmp = tempfile::tempdir().unwrap();
    let swept = tmp.path().join("swept.toml");
    fs::write(&swept, SWEPT).unwrap();
    let sweep = tmp.path().join("sweep");
    let pinned = tmp.path().join("pinned");
    pikeshot_ok(&[
        "run",
        s(&swept),
        "-q",
        "--plots",
        "none",
        "--out",
        s(&sweep),
    ]);
    // The second card: its variants come after the first card's in the
    // sweep, first when pinned.
    run_to(
        s(&swept),
        &["--set", "edition=series", "-q", "--plots", "none"],
        &pinned,
    );
    for f in ["outcomes.csv", "measures.csv"] {
        let (h, all) = read_csv(&sweep.join(f));
        let (h2, one) = read_csv(&pinned.join(f));
        assert_eq!(h, h2);
        let v = col(&h, "variant");
        // The sweep's series rows, labelled as the pinned run labels them.
        let want: Vec<Vec<String>> = all
            .into_iter()
            .filter(|r| r[v] == "edition=series")
            .map(|mut r| {
                r[v].clear();
                r
            })
            .collect();
        assert_eq!(want.len(), one.len());
        for (a, b) in one.iter().zip(&want) {
            assert_eq!(a, b, "{f}: the pinned variants differ from the sweep's");
        }
    }
}

//! Odd names, odd paths and kills (issue 26, items 5 to 9): a path that is
//! not UTF-8 runs; a unit name without a letter or digit, or whose id is
//! another's, is refused at its line; a name over the limit is refused
//! and a huge bad value is quoted short; `--out` may be a link to a
//! folder; a read-only old folder is refused by name and blocks no other
//! folder; a killed `report` or `merge` leaves the old report whole or the
//! new one whole, never a mix.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::cli::{code, stderr};
use crate::support::read_csv;

/// Runs the binary with `args` (any bytes) in the repository root.
fn pikeshot_os(args: &[OsString]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pikeshot"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs")
}

fn os(s: &str) -> OsString {
    OsString::from(s)
}

/// `dir` joined with a name made of `bytes` (not UTF-8).
fn odd(dir: &Path, bytes: &[u8]) -> PathBuf {
    dir.join(OsString::from_vec(bytes.to_vec()))
}

/// A small Musket & Pike scenario of one close combat, named `name`.
fn charge(name: &str) -> String {
    format!(
        "name = \"{name}\"\nsystem = \"mpbs\"\nedition = \"series\"\nseed = 7\ntrials = 500\n\n{}\n[[course]]\nname = \"charge\"\n{}",
        crate::mpbs_horse_and_foot!(),
        crate::mpbs_charge_step!()
    )
}

/// A Snaphance scenario whose tercio is named `unit` and fires twice (a
/// two-step course: a stand destroyed before the second step gets an
/// outcome named after it).
fn two_volleys(unit: &str) -> String {
    format!(
        r#"name = "two volleys"
system = "snaphance"

[units."{unit}"]
kind = "tercio"
strength = 6

[units.target]
kind = "pike-and-shot"
strength = 6

[[course]]
name = "two"
steps = [
  {{ procedure = "fire", firer = "{unit}", target = "target" }},
  {{ procedure = "fire", firer = "{unit}", target = "target" }},
]
"#
    )
}

#[test]
fn paths_that_are_not_utf8_run_and_report_skips_such_a_file_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let scenario = odd(tmp.path(), b"charge-\xff.toml");
    fs::write(&scenario, charge("odd path")).unwrap();
    let out = odd(tmp.path(), b"out-\xfe");
    let o = pikeshot_os(&[
        os("run"),
        scenario.clone().into_os_string(),
        os("-q"),
        os("-n"),
        os("200"),
        os("--out"),
        out.clone().into_os_string(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(out.join("outcomes.csv").is_file());

    // A folder of scenarios holding one whose name is not UTF-8: the others
    // are reported, the odd one named on stderr.
    let dir = tmp.path().join("s");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("good.toml"), charge("good")).unwrap();
    fs::write(odd(&dir, b"bad-\xff.toml"), charge("bad")).unwrap();
    let report = tmp.path().join("r");
    let o = pikeshot_os(&[
        os("report"),
        dir.into_os_string(),
        os("-q"),
        os("-n"),
        os("200"),
        os("--out"),
        report.clone().into_os_string(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stderr(&o).contains("not UTF-8"), "{}", stderr(&o));
    assert!(stderr(&o).contains("bad-"), "{}", stderr(&o));
    let (_, rows) = read_csv(&report.join("scenarios.csv"));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0][0], "good.toml");
}

#[test]
fn unit_names_without_a_letter_or_alike_as_ids_are_refused_at_their_line() {
    let tmp = tempfile::tempdir().unwrap();
    for (k, unit) in ["-", "!!", "_"].into_iter().enumerate() {
        let file = tmp.path().join(format!("u{k}.toml"));
        fs::write(&file, two_volleys(unit)).unwrap();
        let out = tmp.path().join(format!("o{k}"));
        for cmd in ["run", "explain"] {
            let mut args = vec![cmd, file.to_str().unwrap()];
            if cmd == "run" {
                args.extend(["-q", "--out", out.to_str().unwrap()]);
            }
            let o = crate::support::cli::pikeshot(&args);
            let err = stderr(&o);
            assert_eq!(code(&o), 2, "{cmd} `{unit}`: {err}");
            // `[units."-"]` is line 4 of the file.
            let at = format!("u{k}.toml:4: `units.{unit}`");
            assert!(err.contains(&at), "{cmd} `{unit}`: {err}");
            assert!(err.contains("no letter or digit"), "{err}");
            assert!(err.contains("accepted:"), "{err}");
            assert!(!out.exists(), "exit 2 wrote {}", out.display());
        }
    }
    // Two names alike once made ids: `a b` and `A-B` both give `a-b`.
    let file = tmp.path().join("alike.toml");
    let text = format!(
        "{}\n[units.\"A-B\"]\nkind = \"shot\"\nstrength = 4\n",
        two_volleys("a b")
    );
    fs::write(&file, text).unwrap();
    let o = crate::support::cli::pikeshot(&["explain", file.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(code(&o), 2, "{err}");
    assert!(err.contains("alike.toml:19: `units.A-B`"), "{err}");
    assert!(
        err.contains("\"a b\" and \"A-B\" both give the id `a-b`"),
        "{err}"
    );
}

#[test]
fn a_name_over_the_limit_is_refused_and_a_huge_bad_value_is_quoted_short() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    // 200 characters are accepted, 201 refused at the line of the name.
    let fits = tmp.path().join("fits.toml");
    fs::write(&fits, charge(&"é".repeat(200))).unwrap();
    let o = crate::support::cli::pikeshot(&[
        "run",
        fits.to_str().unwrap(),
        "-q",
        "-n",
        "200",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let long = tmp.path().join("long.toml");
    let name = "N".repeat(3 << 20);
    fs::write(&long, charge(&name)).unwrap();
    let other = tmp.path().join("o2");
    let o = crate::support::cli::pikeshot(&[
        "run",
        long.to_str().unwrap(),
        "-q",
        "--out",
        other.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(code(&o), 2, "{}", &err[..err.len().min(500)]);
    assert!(err.contains("long.toml:1: `name`"), "{}", &err[..500]);
    assert!(err.contains("at most 200 characters"), "{}", &err[..500]);
    assert!(err.len() < 2000, "stderr of {} bytes", err.len());
    assert!(!other.exists());
    // A course name too.
    let text = charge("c").replace("name = \"charge\"", &format!("name = \"{name}\""));
    fs::write(&long, text).unwrap();
    let o = crate::support::cli::pikeshot(&["explain", long.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("`course[0].name`"), "{}", stderr(&o));

    // A value of a megabyte: quoted as its first 200 characters and its
    // length.
    let big = "Q".repeat(1 << 20);
    let text = charge("big").replacen("kind = \"cuirassier\"", &format!("kind = \"{big}\""), 1);
    fs::write(&long, text).unwrap();
    let o = crate::support::cli::pikeshot(&["explain", long.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(code(&o), 2, "{}", &err[..err.len().min(500)]);
    assert!(err.len() < 4000, "stderr of {} bytes", err.len());
    assert!(
        err.contains(&format!("{}… (1048576 bytes)", "Q".repeat(200))),
        "{err}"
    );
}

#[test]
fn out_may_be_a_link_to_a_folder_which_is_replaced_and_the_link_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let scenario = tmp.path().join("c.toml");
    fs::write(&scenario, charge("linked")).unwrap();
    let real = tmp.path().join("real");
    fs::create_dir(&real).unwrap();
    let link = tmp.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    for n in ["200", "300"] {
        let o = crate::support::cli::pikeshot(&[
            "run",
            scenario.to_str().unwrap(),
            "-q",
            "-n",
            n,
            "--out",
            link.to_str().unwrap(),
        ]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(real.join("outcomes.csv").is_file());
    }
    let left: Vec<String> = crate::support::file_names(tmp.path())
        .into_iter()
        .filter(|n| n.starts_with(".pikeshot-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Runs the binary with `args`, as user `nobody` when this test runs as
/// root (for whom no folder is read-only).
fn as_user(args: &[&str]) -> Output {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    let bin = env!("CARGO_BIN_EXE_pikeshot");
    let mut cmd = if root {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin]);
        c
    } else {
        Command::new(bin)
    };
    cmd.args(args).output().expect("runs")
}

#[test]
fn a_read_only_old_folder_is_refused_by_name_and_blocks_no_other_folder() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o777)).unwrap();
    let scenario = tmp.path().join("c.toml");
    fs::write(&scenario, charge("read-only")).unwrap();
    let s = scenario.to_str().unwrap();
    let x = tmp.path().join("x");
    let o = as_user(&["run", s, "-q", "-n", "200", "--out", x.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let before = crate::support::files(&x);
    fs::set_permissions(&x, fs::Permissions::from_mode(0o555)).unwrap();
    let o = as_user(&["run", s, "-q", "-n", "300", "--out", x.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(code(&o), 2, "{err}");
    assert!(
        err.contains(&format!("{} is read-only", x.display())),
        "{err}"
    );
    assert!(err.contains("chmod"), "{err}");
    assert_eq!(crate::support::files(&x), before, "the old folder changed");
    // Nothing left beside it; another folder of the same parent runs.
    let y = tmp.path().join("y");
    let o = as_user(&["run", s, "-q", "-n", "200", "--out", y.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let left: Vec<String> = crate::support::file_names(tmp.path())
        .into_iter()
        .filter(|n| n.starts_with(".pikeshot-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    fs::set_permissions(&x, fs::Permissions::from_mode(0o755)).unwrap();
}

/// What a reader sees in `dir`: every file by relative path and its bytes,
/// leaving out pikeshot's hidden temporaries and locks (a killed run's,
/// which the next run removes), and `timing.csv` (which differs from run
/// to run).
fn visible(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with(".pikeshot-p") || name.ends_with(".lock") || name == "timing.csv" {
                continue;
            }
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                walk(base, &p, out);
            } else {
                let rel = p.strip_prefix(base).unwrap().to_string_lossy().into_owned();
                out.insert(rel, fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// SplitMix64, for the seeded kill times.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Runs `args` (a `report` or `merge` into `out`) to the end, timed.
fn run_timed(args: &[String]) -> Duration {
    let start = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_pikeshot"))
        .args(args)
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
    start.elapsed()
}

/// Kills `new` (a command writing `out`) at `kills` seeded points of its
/// run, mostly late (where it commits), after `old` has written `out`;
/// each time `out` must read exactly as `old` left it or as `new` does.
fn assert_killed_whole(out: &Path, old: &[String], new: &[String], kills: usize, seed: u64) {
    run_timed(new);
    let new_tree = visible(out);
    let took = run_timed(old);
    let old_tree = visible(out);
    assert_ne!(old_tree, new_tree);
    let mut state = seed;
    let (mut saw_old, mut saw_new) = (0, 0);
    for k in 0..kills {
        // Between 30% and 150% of a whole run (which varies with the load).
        let frac = 0.3 + (splitmix(&mut state) % 1000) as f64 / 1000.0 * 1.2;
        let mut child = Command::new(env!("CARGO_BIN_EXE_pikeshot"))
            .args(new)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(took.mul_f64(frac));
        let _ = child.kill();
        child.wait().unwrap();
        let now = visible(out);
        if now == old_tree {
            saw_old += 1;
        } else if now == new_tree {
            saw_new += 1;
            run_timed(old);
        } else {
            let differ: Vec<&String> = now
                .keys()
                .chain(old_tree.keys())
                .filter(|f| now.get(*f) != old_tree.get(*f) && now.get(*f) != new_tree.get(*f))
                .take(10)
                .collect();
            panic!("kill {k} after {frac:.2} of a run: a mixed folder, {differ:?}");
        }
    }
    eprintln!("{kills} kills: {saw_old} left the old folder, {saw_new} the new");
}

/// A folder of three small scenarios, and an output folder holding the
/// user's files (many, so that linking them into the new report takes a
/// while: kills land in the commit).
fn report_setup(tmp: &Path) -> (PathBuf, PathBuf) {
    let dir = tmp.join("s");
    fs::create_dir_all(dir.join("b")).unwrap();
    for f in ["a.toml", "b/c.toml", "d.toml"] {
        fs::write(dir.join(f), charge(f)).unwrap();
    }
    let out = tmp.join("reports");
    fs::create_dir_all(out.join("mine")).unwrap();
    fs::write(out.join("README.md"), "the user's").unwrap();
    for k in 0..2000 {
        fs::write(out.join(format!("mine/{k}.txt")), k.to_string()).unwrap();
    }
    (dir, out)
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_killed_report_leaves_the_old_report_whole_or_the_new_one() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, out) = report_setup(tmp.path());
    let (d, o) = (dir.to_str().unwrap(), out.to_str().unwrap());
    let report = |seed: &str| {
        strings(&[
            "report", d, "-q", "-n", "300", "--plots", "none", "--seed", seed, "--out", o,
        ])
    };
    assert_killed_whole(&out, &report("1"), &report("2"), 14, 26);
    // What the user put there is still theirs.
    assert_eq!(fs::read(out.join("README.md")).unwrap(), b"the user's");
    assert_eq!(fs::read(out.join("mine/1999.txt")).unwrap(), b"1999");
}

#[test]
fn a_killed_merge_leaves_the_old_merge_whole_or_the_new_one() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, out) = report_setup(tmp.path());
    let d = dir.to_str().unwrap();
    let shards = |seed: &str| -> Vec<String> {
        (1..=2)
            .map(|i| {
                let s = tmp.path().join(format!("shard-{seed}-{i}"));
                run_timed(&strings(&[
                    "report",
                    d,
                    "-q",
                    "-n",
                    "300",
                    "--plots",
                    "none",
                    "--seed",
                    seed,
                    "--shard",
                    &format!("{i}/2"),
                    "--out",
                    s.to_str().unwrap(),
                ]));
                s.to_str().unwrap().to_string()
            })
            .collect()
    };
    let merge = |shards: Vec<String>| {
        let mut a = strings(&["merge"]);
        a.extend(shards);
        a.extend(strings(&["--out", out.to_str().unwrap()]));
        a
    };
    let (old, new) = (merge(shards("1")), merge(shards("2")));
    assert_killed_whole(&out, &old, &new, 14, 27);
    assert_eq!(fs::read(out.join("mine/7.txt")).unwrap(), b"7");
}

//! Shards run by a scheduler (`--shard auto`) and merged in any order and
//! any tree (`batch::scheduler`, `batch::merge`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use pikeshot::batch::{self, ReportRequest, Shard, merge, scheduler};
use pikeshot::run::RunPlan;
use pikeshot::run::RunRequest;
use std::num::NonZeroUsize;

use super::{assert_same_report, s, temp_folder, write};
use crate::support::cli::{pikeshot_ok, pikeshot_refused, stderr};
use crate::support::files;

/// `from_env` over the variables `vars` and `--shards`.
fn env(vars: &[(&str, &str)], shards: Option<u32>) -> Result<Shard, String> {
    let map: BTreeMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    scheduler::from_env(|k| map.get(k).cloned(), shards)
}

fn shard(index: u32, count: u32) -> Shard {
    Shard { index, count }
}

#[test]
fn auto_shards_come_from_slurm_kubernetes_or_an_explicit_pair() {
    // Slurm: --array=0-7 (MIN 0, MAX 7, COUNT 8): task 0 is shard 1/8.
    let slurm = |id: &str, min: &str, max: &str, step: Option<&str>, count: Option<&str>| {
        let mut v = vec![
            ("SLURM_ARRAY_TASK_ID", id),
            ("SLURM_ARRAY_TASK_MIN", min),
            ("SLURM_ARRAY_TASK_MAX", max),
        ];
        v.extend(step.map(|s| ("SLURM_ARRAY_TASK_STEP", s)));
        v.extend(count.map(|c| ("SLURM_ARRAY_TASK_COUNT", c)));
        env(&v, None)
    };
    assert_eq!(slurm("0", "0", "7", None, Some("8")), Ok(shard(1, 8)));
    assert_eq!(slurm("7", "0", "7", None, None), Ok(shard(8, 8)));
    // --array=1-1000: any start.
    assert_eq!(
        slurm("1000", "1", "1000", None, Some("1000")),
        Ok(shard(1000, 1000))
    );
    // --array=5-17:4 is tasks 5, 9, 13, 17: task 13 is shard 3/4.
    assert_eq!(
        slurm("13", "5", "17", Some("4"), Some("4")),
        Ok(shard(3, 4))
    );
    // Only the count, no MAX.
    let only_count = env(
        &[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "5"),
        ],
        None,
    );
    assert_eq!(only_count, Ok(shard(2, 5)));
    // Kubernetes: JOB_COMPLETION_INDEX from 0, the count from --shards or
    // PIKESHOT_SHARDS.
    assert_eq!(
        env(&[("JOB_COMPLETION_INDEX", "0")], Some(8)),
        Ok(shard(1, 8))
    );
    assert_eq!(
        env(
            &[("JOB_COMPLETION_INDEX", "7"), ("PIKESHOT_SHARDS", "8")],
            None
        ),
        Ok(shard(8, 8))
    );
    // A CI matrix.
    assert_eq!(env(&[("PIKESHOT_SHARD", "3/4")], None), Ok(shard(3, 4)));
    // Two sources that agree are one shard.
    assert_eq!(
        env(
            &[("PIKESHOT_SHARD", "1/8"), ("JOB_COMPLETION_INDEX", "0")],
            Some(8)
        ),
        Ok(shard(1, 8))
    );

    // Refused, each naming what is wrong.
    let refused = |r: Result<Shard, String>, says: &str| {
        let e = r.expect_err(says);
        assert!(e.contains(says), "`{says}` not in: {e}");
    };
    refused(env(&[], None), "names no shard");
    refused(env(&[("PIKESHOT_SHARD", "")], None), "names no shard");
    refused(
        slurm("6", "5", "17", Some("4"), None),
        "SLURM_ARRAY_TASK_ID=6 is not one of the 4 tasks",
    );
    refused(
        slurm("18", "0", "17", None, None),
        "is not one of the 18 tasks",
    );
    refused(
        slurm("3", "0", "7", None, Some("9")),
        "make 8 tasks but SLURM_ARRAY_TASK_COUNT is 9",
    );
    refused(
        slurm("3", "0", "7", Some("0"), None),
        "SLURM_ARRAY_TASK_STEP is 0",
    );
    refused(
        slurm("x", "0", "7", None, None),
        "SLURM_ARRAY_TASK_ID is `x`",
    );
    refused(
        env(&[("SLURM_ARRAY_TASK_ID", "3")], None),
        "SLURM_ARRAY_TASK_MIN is not",
    );
    refused(
        env(
            &[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "0")],
            None,
        ),
        "neither SLURM_ARRAY_TASK_MAX nor SLURM_ARRAY_TASK_COUNT",
    );
    refused(
        env(&[("JOB_COMPLETION_INDEX", "2")], None),
        "give --shards N or set PIKESHOT_SHARDS",
    );
    refused(
        env(&[("JOB_COMPLETION_INDEX", "8")], Some(8)),
        "not an index of 8 shards",
    );
    refused(
        env(
            &[("JOB_COMPLETION_INDEX", "1"), ("PIKESHOT_SHARDS", "4")],
            Some(8),
        ),
        "--shards is 8 but PIKESHOT_SHARDS is 4",
    );
    refused(env(&[("PIKESHOT_SHARD", "9/8")], None), "PIKESHOT_SHARD");
    refused(
        env(
            &[("PIKESHOT_SHARD", "2/8"), ("JOB_COMPLETION_INDEX", "0")],
            Some(8),
        ),
        "JOB_COMPLETION_INDEX names shard 1/8 but PIKESHOT_SHARD names 2/8",
    );
}

/// Environment variables, name and value.
type Vars<'a> = &'a [(&'a str, &'a str)];

/// `pikeshot ARGS` with the environment variables `vars` added.
fn pikeshot_env(args: &[&str], vars: &[(&str, &str)]) -> std::process::Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pikeshot"));
    c.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    for k in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_MAX",
        "SLURM_ARRAY_TASK_STEP",
        "SLURM_ARRAY_TASK_COUNT",
        "JOB_COMPLETION_INDEX",
        "PIKESHOT_SHARDS",
        "PIKESHOT_SHARD",
    ] {
        c.env_remove(k);
    }
    c.envs(vars.iter().copied());
    c.output().expect("runs")
}

#[test]
fn report_shard_auto_is_the_shard_the_scheduler_names() {
    let (tmp, dir) = temp_folder();
    let given = tmp.path().join("given");
    pikeshot_ok(&[
        "report",
        s(&dir),
        "--out",
        s(&given),
        "--trials",
        "2000",
        "--shard",
        "2/3",
    ]);
    let cases: [(Vars, &[&str]); 3] = [
        (
            &[
                ("SLURM_ARRAY_TASK_ID", "12"),
                ("SLURM_ARRAY_TASK_MIN", "10"),
                ("SLURM_ARRAY_TASK_MAX", "14"),
                ("SLURM_ARRAY_TASK_STEP", "2"),
                ("SLURM_ARRAY_TASK_COUNT", "3"),
            ],
            &[],
        ),
        (&[("JOB_COMPLETION_INDEX", "1")], &["--shards", "3"]),
        (&[("PIKESHOT_SHARD", "2/3")], &[]),
    ];
    for (k, (vars, more)) in cases.iter().enumerate() {
        let out = tmp.path().join(format!("auto-{k}"));
        let mut args = vec![
            "report",
            s(&dir),
            "--out",
            s(&out),
            "--trials",
            "2000",
            "--shard",
            "auto",
        ];
        args.extend_from_slice(more);
        let o = pikeshot_env(&args, vars);
        assert!(o.status.success(), "{vars:?}: {}", stderr(&o));
        assert_same_report(&given, &out);
    }
    // No shard named: exit 2, nothing written.
    let none = tmp.path().join("none");
    let o = pikeshot_env(
        &["report", s(&dir), "--out", s(&none), "--shard", "auto"],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("SLURM_ARRAY_TASK_ID"), "{}", stderr(&o));
    assert!(!none.exists());
}

/// The options every in-process report of these tests runs with.
fn request(dir: &Path, out: &Path, shard: Option<Shard>) -> ReportRequest {
    ReportRequest {
        dir: dir.to_path_buf(),
        out: out.to_path_buf(),
        run: RunRequest {
            plan: RunPlan {
                trials: Some(3000),
                seed: Some(11),
                threads: NonZeroUsize::new(1),
                max_trials: Some(100_000_000),
                exact_budget: Some(10_000_000),
                ..RunPlan::default()
            },
            ..RunRequest::default()
        },
        shard,
        json: false,
    }
}

/// Reports shard `i` of `n` of `dir` into `root/shard-i`.
fn run_shard(dir: &Path, root: &Path, i: u32, n: u32) -> PathBuf {
    let out = root.join(format!("shard-{i}"));
    batch::report(&request(dir, &out, Some(shard(i, n)))).unwrap();
    out
}

/// Merges `inputs` (partially unless `last`) into a new folder under `root`.
fn merge_into(inputs: &[PathBuf], root: &Path, name: &str, last: bool) -> PathBuf {
    let out = root.join(name);
    merge::merge(inputs, &out, !last).unwrap();
    out
}

/// The three scenarios reported whole, then as `n` shards merged as a tree
/// of fan-in `fan` (every group's inputs reversed), then all `n` in one
/// flat merge in reverse order: every merge gives the whole report's bytes.
fn merges_match(n: u32, fan: usize) {
    let (tmp, dir) = temp_folder();
    let whole = tmp.path().join("whole");
    batch::report(&request(&dir, &whole, None)).unwrap();
    let shards = tmp.path().join("shards");
    let mut level: Vec<PathBuf> = (1..=n).map(|i| run_shard(&dir, &shards, i, n)).collect();

    let flat: Vec<PathBuf> = level.iter().rev().cloned().collect();
    assert_same_report(&whole, &merge_into(&flat, tmp.path(), "flat", true));

    let mut depth = 0;
    while level.len() > 1 {
        depth += 1;
        let groups: Vec<Vec<PathBuf>> = level
            .chunks(fan)
            .map(|g| g.iter().rev().cloned().collect())
            .collect();
        let last = groups.len() == 1;
        level = groups
            .iter()
            .enumerate()
            .map(|(k, g)| merge_into(g, tmp.path(), &format!("level-{depth}-{k}"), last))
            .collect();
    }
    if n == 1 {
        level = vec![merge_into(&level, tmp.path(), "one", true)];
    }
    assert!(!level[0].join(batch::SHARD_JSON).exists());
    assert_same_report(&whole, &level[0]);
}

#[test]
fn one_shard_merges_into_the_unsharded_report() {
    merges_match(1, 2);
}

#[test]
fn eight_shards_merge_as_a_tree_into_the_unsharded_report() {
    // ((8 7) (6 5)) ((4 3) (2 1)): three levels of pairs.
    merges_match(8, 2);
}

#[test]
fn a_thousand_shards_merge_as_a_tree_into_the_unsharded_report() {
    // 1,000 -> 100 -> 10 -> 1, each merge of 10 inputs in reverse order.
    merges_match(1000, 10);
}

#[test]
fn a_shard_rerun_after_a_kill_writes_the_same_bytes() {
    let (tmp, dir) = temp_folder();
    let first = tmp.path().join("first");
    let args = |out: &Path| {
        vec![
            "report".to_string(),
            s(&dir).to_string(),
            "--out".into(),
            s(out).to_string(),
            "--trials".into(),
            "400000".into(),
            "--shard".into(),
            "1/2".into(),
        ]
    };
    let a = args(&first);
    pikeshot_ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    // Killed part-way (wherever that falls), then run again into the same
    // folder: the same bytes as the run never killed.
    let again = tmp.path().join("again");
    let b = args(&again);
    let mut child = Command::new(env!("CARGO_BIN_EXE_pikeshot"))
        .args(&b)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
    pikeshot_ok(&b.iter().map(String::as_str).collect::<Vec<_>>());
    assert_same_report(&first, &again);
}

#[test]
fn merging_refuses_shards_that_differ_or_are_missing_or_repeated_naming_which() {
    let (tmp, dir) = temp_folder();
    let root = tmp.path();
    let shards: Vec<PathBuf> = (1..=8).map(|i| run_shard(&dir, root, i, 8)).collect();
    let x = root.join("x");
    let merge_refused = |inputs: &[&Path], more: &[&str], says: &[&str]| {
        let mut args = vec!["merge"];
        args.extend(inputs.iter().map(|p| s(p)));
        args.extend(["--out", s(&x)]);
        args.extend_from_slice(more);
        pikeshot_refused(&args, says);
        assert!(!x.exists(), "nothing written");
    };
    let all: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();

    // Missing shards are named as ranges.
    let some: Vec<&Path> = all
        .iter()
        .copied()
        .filter(|p| {
            !["shard-3", "shard-5", "shard-6"]
                .iter()
                .any(|n| p.ends_with(n))
        })
        .collect();
    merge_refused(&some, &[], &["missing shards 3/8, 5-6/8", "--partial"]);
    // A shard given twice, directly or inside a partial merge.
    let part = root.join("part");
    pikeshot_ok(&[
        "merge",
        s(&shards[1]),
        s(&shards[2]),
        "--partial",
        "--out",
        s(&part),
    ]);
    let mut twice = all.clone();
    twice.push(&part);
    merge_refused(&twice, &[], &["shard 2/8 is given twice"]);

    // Another seed, another count, another version, another file.
    let other = root.join("other");
    let mut req = request(&dir, &other, Some(shard(3, 8)));
    req.run.plan.seed = Some(12);
    batch::report(&req).unwrap();
    merge_refused(
        &[all[0], &other],
        &["--partial"],
        &["their run options differ", "--seed (11 against 12)"],
    );

    let nine = root.join("nine");
    batch::report(&request(&dir, &nine, Some(shard(3, 9)))).unwrap();
    merge_refused(
        &[all[0], &nine],
        &["--partial"],
        &["shard counts differ (8 against 9)"],
    );

    let json = shards[3].join(batch::SHARD_JSON);
    let text = std::fs::read_to_string(&json).unwrap();
    let version = format!("\"pikeshot\": \"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(text.contains(&version));
    std::fs::write(&json, text.replace(&version, "\"pikeshot\": \"0.0.1\"")).unwrap();
    merge_refused(&all, &[], &["different pikeshot versions", "0.0.1"]);
    std::fs::write(&json, &text).unwrap();

    let edited = root.join("edited");
    let copy = root.join("copy");
    copy_dir(&dir, &copy);
    let charge = std::fs::read_to_string(copy.join("charge.toml")).unwrap();
    write(&copy, "charge.toml", &format!("{charge}\n# edited\n"));
    batch::report(&request(&copy, &edited, Some(shard(2, 8)))).unwrap();
    merge_refused(
        &[all[0], &edited],
        &["--partial"],
        &["charge.toml was not the same file"],
    );

    // Every shard, once: merged.
    pikeshot_ok(&[
        "merge",
        s(&shards[7]),
        s(&part),
        s(&shards[0]),
        s(&shards[3]),
        s(&shards[4]),
        s(&shards[5]),
        s(&shards[6]),
        "--out",
        s(&x),
    ]);
    assert!(files(&x).contains_key("scenarios.csv"));
}

fn copy_dir(from: &Path, to: &Path) {
    for (name, bytes) in files(from) {
        let p = to.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

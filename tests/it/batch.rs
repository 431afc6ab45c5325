//! Batch reports end to end through the command line: `report` over a
//! folder (index.html well-formed, every link resolving, byte-identical
//! reruns), `[[expect]]` targets and `--check` exit codes, shards and
//! `merge`, `diff` between the two Musket & Pike cards, `--format json`
//! and shell completions.
//!
//! Scenario folders are written into temporary folders and run with
//! 20 000 trials, to keep the suite fast on two cores.

mod cluster;
mod decision_page;
mod explain_page;
mod html;
mod selection;
mod sweep_page;

use crate::support::cli::{
    code, diff_cards, pikeshot, pikeshot_exits, pikeshot_ok, pikeshot_refused, run_to, stderr,
    stdout,
};
use crate::support::{col, files, json_find, read_csv};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let p = dir.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(&p, text).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `pikeshot run SCENARIO --out OUT --check -q`: asserts it exited with
/// `exit`.
#[track_caller]
fn run_check(scenario: &Path, out: &Path, exit: i32) {
    pikeshot_exits(
        &[
            "run",
            s(scenario),
            "--out",
            s(out),
            "--check",
            "-q",
            "--method",
            "monte-carlo",
        ],
        exit,
        &[],
    );
}

/// Cuirassiers charge heavy infantry, or the infantry fires at them; no sweep.
const CHARGE: &str = concat!(
    r#"name = "Cuirassiers against foot"
system = "mpbs"
edition = "series"
seed = 7
trials = 20000

"#,
    crate::mpbs_horse_and_foot!(),
    r#"terrain = "clear"

[[course]]
name = "charge"
own = "horse"
enemy = "foot"
"#,
    crate::mpbs_charge_step!(),
    r#"
[[course]]
name = "volley"
own = "foot"
enemy = "horse"
steps = [{ procedure = "musketry", firer = "foot", target = "horse", column = "front" }]
"#
);

/// Both cards, a salvo then a charge, and an engagement of three turns.
pub(crate) const SWEPT: &str = r#"name = "Salvo or trade fire, both cards"
system = "mpbs"
edition = "series"
seed = 11
trials = 20000

[units.swedes]
kind = "heavy-infantry"
morale = 7
strength = 6
order = "charge"

[units.tercio]
kind = "heavy-infantry"
morale = 6
strength = 10
hexes = 2

[[course]]
name = "salvo, then charge"
steps = [
  { procedure = "musketry", firer = "swedes", target = "tercio", column = "salvo" },
  { procedure = "close-combat", attacker = "swedes", defender = "tercio", fired_salvo = true },
]

[[course]]
name = "trade fire"
steps = [
  { procedure = "musketry", firer = "swedes", target = "tercio", column = "front" },
  { procedure = "musketry", firer = "tercio", target = "swedes", column = "front" },
]
repeat = { turns = 3, until = ["enemy-broken", "own-broken"] }

[sweep]
edition = ["sfo", "series"]
"#;

/// Dragoons' light fire.
const LIGHT: &str = r#"name = "Light infantry fire"
system = "mpbs"
edition = "sfo"
seed = 3
trials = 20000

[units.skirmishers]
kind = "dragoons"
morale = 6
strength = 2

[units.foot]
kind = "heavy-infantry"
morale = 6
strength = 8

[[course]]
name = "skirmish"
steps = [{ procedure = "light-fire", firer = "skirmishers", target = "foot" }]
"#;

/// A folder of three scenarios, one nested two deep.
fn folder(dir: &Path) {
    write(dir, "charge.toml", CHARGE);
    write(dir, "fire/salvo.toml", SWEPT);
    write(dir, "fire/light/skirmish.toml", LIGHT);
    // Not scenarios: another extension, a hidden file.
    write(dir, "notes.txt", "not a scenario");
    write(dir, ".hidden.toml", "not = \"read\"");
}

/// The folder of three scenarios, `scenarios` in a fresh temporary folder
/// (returned with it, for the reports to go beside it).
fn temp_folder() -> (TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("scenarios");
    folder(&dir);
    (tmp, dir)
}

/// [`temp_folder`], the charge with one target appended: the volley
/// misses at most `at_most` of the time.
fn temp_folder_with_target(at_most: f64) -> (TempDir, PathBuf) {
    let (tmp, dir) = temp_folder();
    let target =
        format!("[[expect]]\ncourse = \"volley\"\noutcome = \"miss\"\nat_most = {at_most}\n");
    write(&dir, "charge.toml", &with_targets(&target));
    (tmp, dir)
}

/// Asserts two report folders hold the same files with the same bytes,
/// `timing.csv` (wall-clock seconds) aside.
fn assert_same_report(a: &Path, b: &Path) {
    let fa = files(a);
    let fb = files(b);
    let names_a: BTreeSet<&String> = fa.keys().collect();
    let names_b: BTreeSet<&String> = fb.keys().collect();
    assert_eq!(names_a, names_b, "the two reports hold different files");
    for (name, bytes) in &fa {
        if name.ends_with("timing.csv") {
            continue;
        }
        assert!(fb[name] == *bytes, "{name} differs");
    }
}

/// A minimal HTML reader: checks that every non-void element is closed in
/// order, and returns the `id`s and every `href`/`src`.
fn parse_html(text: &str) -> (BTreeSet<String>, Vec<String>) {
    const VOID: [&str; 6] = ["meta", "img", "br", "hr", "link", "input"];
    let mut stack: Vec<String> = Vec::new();
    let mut ids = BTreeSet::new();
    let mut links = Vec::new();
    let mut i = 0;
    while let Some(lt) = text[i..].find('<') {
        let start = i + lt;
        let end = start
            + text[start..]
                .find('>')
                .unwrap_or_else(|| panic!("unclosed tag at byte {start}"));
        let tag = &text[start + 1..end];
        i = end + 1;
        assert!(!tag.contains('<'), "`<` inside a tag: {tag}");
        if tag.starts_with('!') {
            assert!(tag.eq_ignore_ascii_case("!DOCTYPE html"), "{tag}");
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack
                .pop()
                .unwrap_or_else(|| panic!("</{name}> closes nothing"));
            assert_eq!(open, name, "</{name}> closes <{open}>");
            continue;
        }
        let name = tag.split_whitespace().next().unwrap().to_string();
        // Attribute values: name="value" pairs, quotes balanced.
        assert_eq!(tag.matches('"').count() % 2, 0, "unbalanced quotes: {tag}");
        let mut rest = &tag[name.len()..];
        while let Some(eq) = rest.find("=\"") {
            let attr = rest[..eq].trim().rsplit(' ').next().unwrap().to_string();
            let close = rest[eq + 2..].find('"').unwrap();
            let value = rest[eq + 2..eq + 2 + close].to_string();
            match attr.as_str() {
                "id" => {
                    assert!(ids.insert(value.clone()), "duplicate id {value}");
                }
                "href" | "src" => links.push(value),
                _ => {}
            }
            rest = &rest[eq + 2 + close + 1..];
        }
        if name == "style" {
            // CSS holds no markup; skip to its end.
            let close = text[i..].find("</style>").expect("style closed");
            assert!(!text[i..i + close].contains('<'));
            i += close;
        }
        if !VOID.contains(&name.as_str()) {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
    (ids, links)
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// Asserts `index.html` in `out` is well-formed and every link and image
/// resolves: a fragment to an id, anything else to an existing file,
/// relative to the page and inside the report.
fn assert_index_resolves(out: &Path) -> String {
    let text = fs::read_to_string(out.join("index.html")).unwrap();
    let (ids, links) = parse_html(&text);
    assert!(!links.is_empty());
    for link in &links {
        let link = unescape(link);
        assert!(
            !link.contains("://") && !link.starts_with('/') && !link.contains(".."),
            "not a relative link inside the report: {link}"
        );
        if let Some(id) = link.strip_prefix('#') {
            assert!(ids.contains(id), "no element with id {id}");
            continue;
        }
        let path = out.join(percent_decode(&link));
        assert!(path.is_file(), "{link} does not resolve");
    }
    text
}

#[test]
fn report_writes_a_folder_per_scenario_and_an_index_whose_links_resolve() {
    let (tmp, dir) = temp_folder();
    let out = tmp.path().join("reports");
    pikeshot_ok(&["report", s(&dir), "--out", s(&out), "--exact"]);

    // One folder per scenario, mirroring its path; the hidden file and the
    // text file are not scenarios.
    for f in ["charge", "fire/salvo", "fire/light/skirmish"] {
        for name in [
            "outcomes.csv",
            "measures.csv",
            "summary.csv",
            "comparison.csv",
            "plots.csv",
        ] {
            assert!(out.join(f).join(name).is_file(), "{f}/{name}");
        }
    }
    assert!(out.join("fire/salvo/engagements.csv").is_file());
    assert!(!out.join(".hidden").exists());

    // The manifest, in sorted order.
    let (h, rows) = read_csv(&out.join("scenarios.csv"));
    let files: Vec<&str> = rows.iter().map(|r| r[col(&h, "file")].as_str()).collect();
    assert_eq!(
        files,
        vec!["charge.toml", "fire/light/skirmish.toml", "fire/salvo.toml"]
    );
    assert_eq!(rows[2][col(&h, "folder")], "fire/salvo");

    // The cross-scenario summary: every scenario's rows, `file` first, in
    // the tidy columns of a scenario's summary.
    let (h, rows) = read_csv(&out.join("summary.csv"));
    assert_eq!(
        &h[..6],
        ["file", "scenario", "variant", "course", "trials", "seed"]
    );
    assert_eq!(
        &h[6..],
        [
            "kind", "id", "value", "ci_low", "ci_high", "exact", "own", "enemy"
        ]
    );
    let per: usize = ["charge", "fire/salvo", "fire/light/skirmish"]
        .iter()
        .map(|f| read_csv(&out.join(f).join("summary.csv")).1.len())
        .sum();
    assert_eq!(rows.len(), per);
    let mut courses: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| {
            (
                r[0].clone(),
                r[col(&h, "variant")].clone(),
                r[col(&h, "course")].clone(),
            )
        })
        .collect();
    courses.dedup();
    assert_eq!(courses.len(), 2 + 4 + 1);
    let is_turns = |r: &&Vec<String>| r[col(&h, "kind")] == "mean" && r[col(&h, "id")] == "turns";
    let salvo: Vec<&Vec<String>> = rows
        .iter()
        .filter(|r| r[0] == "fire/salvo.toml" && r[col(&h, "course")] == "trade fire")
        .filter(is_turns)
        .collect();
    assert_eq!(salvo.len(), 2);
    assert!(salvo.iter().all(|r| !r[col(&h, "value")].is_empty()));
    assert!(
        !rows
            .iter()
            .filter(|r| r[0] == "charge.toml")
            .any(|r| is_turns(&r))
    );
    // Its values are the scenario's own, byte for byte.
    let (sh, srows) = read_csv(&out.join("charge/summary.csv"));
    let hits = |hh: &[String], r: &&Vec<String>| {
        r[col(hh, "kind")] == "mean" && r[col(hh, "id")] == "hits-inflicted"
    };
    let mine = srows.iter().find(|r| hits(&sh, r)).unwrap();
    let copied = rows
        .iter()
        .find(|r| r[0] == "charge.toml" && hits(&h, r))
        .unwrap();
    assert_eq!(
        copied[col(&h, "value")],
        mine[col(&sh, "value")],
        "summary value copied"
    );

    // The page: well-formed, every link and image resolving, each
    // scenario's tables and plots present.
    let page = assert_index_resolves(&out);
    assert!(!page.contains("http://") && !page.contains("https://"));
    assert!(!page.contains("<script"));
    for name in [
        "Cuirassiers against foot",
        "Salvo or trade fire, both cards",
        "Light infantry fire",
        "P(enemy broken or eliminated)",
        "edition=sfo",
        "fire/salvo/edition-sfo--trade-fire-cumulative.png",
        "charge/comparison.png",
        "charge/charge.svg",
    ] {
        assert!(page.contains(name), "index.html lacks {name}");
    }
    // Exact beside simulated: an outcome row of the charge with both.
    let (oh, orows) = read_csv(&out.join("charge/outcomes.csv"));
    let r = &orows[0];
    let sim = format!(
        "{:.2}%",
        r[col(&oh, "probability")].parse::<f64>().unwrap() * 100.0
    );
    let ex = format!(
        "{:.3}%",
        r[col(&oh, "exact")].parse::<f64>().unwrap() * 100.0
    );
    let row = format!(
        "<tr><td>{}</td><td class=\"num\">{sim}</td>",
        r[col(&oh, "label")]
    );
    let at = page.find(&row).expect("outcome row in the page");
    assert!(page[at..at + 300].contains(&ex), "exact beside simulated");

    // The same inputs give the same bytes (timing.csv aside), and the page
    // does not depend on timing.csv.
    let again = tmp.path().join("again");
    pikeshot_ok(&["report", s(&dir), "--out", s(&again), "--exact"]);
    assert_same_report(&out, &again);
}

#[test]
fn report_refuses_bad_input_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s");
    write(&dir, "a.toml", CHARGE);
    write(
        &dir,
        "b.toml",
        &CHARGE.replace("terrain = \"clear\"", "terrain = \"wods\""),
    );
    let out = tmp.path().join("out");
    pikeshot_refused(
        &["report", s(&dir), "--out", s(&out)],
        &["b.toml:", "did you mean `woods`?"],
    );
    assert!(!out.join("a").exists(), "nothing written before validation");

    let empty = tmp.path().join("empty");
    fs::create_dir_all(&empty).unwrap();
    pikeshot_refused(
        &["report", s(&empty), "--out", s(&out)],
        &["no scenario files"],
    );
    pikeshot_refused(&["report", s(&dir.join("a.toml"))], &["is not a folder"]);
    pikeshot_refused(&["report", s(&dir), "--shard", "3/2"], &[]);
}

/// The scenario with `[[expect]]` entries appended.
fn with_targets(targets: &str) -> String {
    format!("{CHARGE}\n{targets}")
}

/// The charge's P(enemy broken or eliminated) from `run --format json`:
/// (value, ci_low, ci_high, exact).
fn charge_key(dir: &Path) -> (f64, f64, f64, f64) {
    let p = write(dir, "probe/charge.toml", CHARGE);
    let out = dir.join("probe-out");
    let o = run_to(&p, &["--exact", "--format", "json"], &out);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let course = &doc["scenarios"][0]["courses"][0];
    assert_eq!(course["course"], "charge");
    let key = json_find(
        &course["key_outcomes"],
        "name",
        "p-enemy-broken-or-eliminated",
    );
    let f = |k: &str| key[k].as_f64().unwrap();
    (f("value"), f("ci_low"), f("ci_high"), f("exact"))
}

/// A target on the charge's P(enemy broken or eliminated) with `bound`
/// (`at_least = 0.4`, `at_most = 0.5`).
fn charge_target(bound: &str) -> String {
    format!(
        "[[expect]]\ncourse = \"charge\"\nmeasure = \"p-enemy-broken-or-eliminated\"\n{bound}\n"
    )
}

/// `tmp/NAME/charge.toml`, the charge with `targets` appended: its folder.
fn targets_folder(tmp: &Path, name: &str, targets: &str) -> PathBuf {
    let dir = tmp.join(name);
    write(&dir, "charge.toml", &with_targets(targets));
    dir
}

/// `pikeshot report DIR --out OUT --check MORE...`, on the scenarios'
/// Monte Carlo trials (`--method monte-carlo`) unless MORE has `--exact`:
/// asserts it exited with `exit` and said each of `says` on stderr, and
/// returns that stderr.
#[track_caller]
fn report_check(dir: &Path, out: &Path, more: &[&str], exit: i32, says: &[&str]) -> String {
    let mut args = vec!["report", s(dir), "--out", s(out), "--check"];
    if !more.contains(&"--exact") {
        args.extend(["--method", "monte-carlo"]);
    }
    args.extend(more);
    pikeshot_exits(&args, exit, says)
}

fn verdicts(out: &Path) -> Vec<(String, String)> {
    let (h, rows) = read_csv(&out.join("expect.csv"));
    rows.iter()
        .map(|r| (r[col(&h, "verdict")].clone(), r[col(&h, "basis")].clone()))
        .collect()
}

#[test]
fn check_passes_fails_and_judges_borderline_targets_by_their_basis() {
    let tmp = tempfile::tempdir().unwrap();
    let (value, lo, hi, exact) = charge_key(tmp.path());
    assert!(lo < value && value < hi);

    // Passing: wide targets around every figure.
    let dir = targets_folder(
        tmp.path(),
        "pass",
        &format!(
            r#"
[[expect]]
course = "charge"
measure = "p-enemy-broken-or-eliminated"
at_least = {}
at_most = {}

[[expect]]
course = "volley"
outcome = "miss"
at_most = 0.9

[[expect]]
course = "volley"
measure = "mean:hits-inflicted"
at_least = 0.01
"#,
            (lo - 0.05).max(0.0),
            (hi + 0.05).min(1.0)
        ),
    );
    let out = tmp.path().join("pass-out");
    report_check(&dir, &out, &[], 0, &["3 checked, 3 passed"]);
    assert!(
        verdicts(&out)
            .iter()
            .all(|(v, b)| v == "pass" && b == "monte-carlo")
    );
    assert_index_resolves(&out);
    // The same file through `run --check`.
    run_check(&dir.join("charge.toml"), &tmp.path().join("run-out"), 0);
    assert!(tmp.path().join("run-out/expect.csv").is_file());

    // Failing: a target the whole interval misses; exit 1 with a table
    // naming the target, the measured value and its interval.
    let bound = (hi + 0.02).min(0.999);
    let dir = targets_folder(
        tmp.path(),
        "fail",
        &charge_target(&format!("at_least = {bound}")),
    );
    let out = tmp.path().join("fail-out");
    report_check(
        &dir,
        &out,
        &[],
        1,
        &[
            "FAILED",
            &format!("p-enemy-broken-or-eliminated >= {bound}"),
            &format!("{value:.4}"),
            &format!("[{lo:.4}, {hi:.4}]"),
            "fail (monte-carlo)",
        ],
    );
    assert_eq!(verdicts(&out), vec![("fail".into(), "monte-carlo".into())]);
    // Without --check the report is written and the exit code is 0.
    pikeshot_ok(&["report", s(&dir), "--out", s(&out)]);
    // The page lists the failed target first.
    let page = assert_index_resolves(&out);
    assert!(page.contains("Failed targets"));
    // `run --check` fails alike.
    run_check(&dir.join("charge.toml"), &tmp.path().join("run-fail"), 1);

    // Borderline: a bound inside the Monte Carlo interval with the exact
    // value outside it. Judged on the interval it passes; judged on the
    // exact value (--exact) it fails.
    let target = if exact < hi - 1e-4 {
        let b = (exact.max(lo) + hi) / 2.0;
        assert!(exact < b && lo < b && b < hi);
        format!("at_least = {b}")
    } else {
        let b = (lo + exact.min(hi)) / 2.0;
        assert!(b < exact && lo < b && b < hi);
        format!("at_most = {b}")
    };
    let dir = targets_folder(tmp.path(), "borderline", &charge_target(&target));
    let out = tmp.path().join("borderline-mc");
    report_check(&dir, &out, &[], 0, &["1 borderline"]);
    assert_eq!(
        verdicts(&out),
        vec![("borderline".into(), "monte-carlo".into())]
    );
    let out = tmp.path().join("borderline-exact");
    report_check(&dir, &out, &["--exact"], 1, &["fail (exact)"]);
    assert_eq!(verdicts(&out), vec![("fail".into(), "exact".into())]);
}

#[test]
fn targets_are_validated_with_located_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: [(&str, &[&str]); 10] = [
        (
            "[[expect]]\ncourse = \"charg\"\noutcome = \"miss\"\nat_most = 0.5\n",
            &[
                "`expect[0].course`",
                "no course named \"charg\"",
                "did you mean `charge`?",
            ],
        ),
        (
            "[[expect]]\ncourse = \"volley\"\noutcome = \"mis\"\nat_most = 0.5\n",
            &[
                "`expect[0].outcome`",
                "has no outcome \"mis\"",
                "did you mean `miss`?",
            ],
        ),
        (
            "[[expect]]\ncourse = \"volley\"\nmeasure = \"expected-hits-inflictd\"\nat_least = 1\n",
            &[
                "unknown measure",
                "did you mean `expected-hits-inflicted`?",
                "mean:hits-inflicted",
            ],
        ),
        (
            "[[expect]]\ncourse = \"volley\"\nmeasure = \"p-enemy-broken-or-eliminated\"\nat_least = 40\n",
            &["40 is not a probability", "from 0 to 1"],
        ),
        (
            "[[expect]]\ncourse = \"volley\"\noutcome = \"miss\"\n",
            &["no bound", "at_least"],
        ),
        (
            "[[expect]]\ncourse = \"volley\"\noutcome = \"miss\"\nat_most = 0.5\nat_mots = 0.4\n",
            &["unknown key `at_mots`", "did you mean `at_most`?"],
        ),
        (
            "[[expect]]\ncourse = \"volley\"\noutcome = \"miss\"\nvariant = \"edition=sfo\"\nat_most = 0.5\n",
            &["`edition` is not swept"],
        ),
        (
            // A card label where an id belongs: the id to write.
            "[[expect]]\ncourse = \"volley\"\noutcome = \"1 hit\"\nat_most = 0.5\n",
            &[
                "`expect[0].outcome`",
                "`outcome = \"1 hit\"` is the card's label: `[[expect]]` names an outcome by its id, \"1-hit\"",
            ],
        ),
        (
            // A key outcome as the terminal labels it: the id to write.
            "[[expect]]\ncourse = \"volley\"\nmeasure = \"P(enemy broken or eliminated)\"\nat_least = 0.1\n",
            &[
                "`expect[0].measure`",
                "is the label the terminal shows: `[[expect]]` names a key outcome by its id, \"p-enemy-broken-or-eliminated\"",
            ],
        ),
        (
            // A measure named without `mean:`: the id to write.
            "[[expect]]\ncourse = \"volley\"\nmeasure = \"hits inflicted\"\nat_least = 0.1\n",
            &[
                "`expect[0].measure`",
                "`[[expect]]` pins its mean as \"mean:hits-inflicted\"",
            ],
        ),
    ];
    // The line of each entry's first key in the file.
    let line = CHARGE.lines().count() + 3;
    for (k, (targets, expect)) in cases.iter().enumerate() {
        let p = write(tmp.path(), &format!("c{k}.toml"), &with_targets(targets));
        let o = pikeshot(&[
            "run",
            s(&p),
            "--trials",
            "2000",
            "-q",
            "--out",
            s(&tmp.path().join("o")),
        ]);
        assert_eq!(code(&o), 2, "{targets}");
        let err = stderr(&o);
        assert!(err.contains(&format!("c{k}.toml:")), "{err}");
        for e in *expect {
            assert!(err.contains(e), "{targets}: {err}");
        }
        // `course` is the entry's first key, `outcome` its second.
        if k < 2 {
            assert!(err.contains(&format!("c{k}.toml:{}:", line + k)), "{err}");
        }
    }
    // A sweep over a target is refused; a variant filter names the sweep.
    let p = write(
        tmp.path(),
        "swept.toml",
        &format!(
            "{SWEPT}\n[[expect]]\ncourse = \"trade fire\"\nvariant = \"edition=sfoo\"\nmeasure = \"expected-turns\"\nat_most = 3\n"
        ),
    );
    pikeshot_refused(
        &["run", s(&p), "-q", "--out", s(&tmp.path().join("o"))],
        &["did you mean `sfo`?"],
    );
    let p = write(
        tmp.path(),
        "swept2.toml",
        &SWEPT.replace(
            "edition = [\"sfo\", \"series\"]",
            "edition = [\"sfo\", \"series\"]\n\"expect[0].at_least\" = [0.1, 0.2]",
        ),
    );
    pikeshot_refused(
        &["run", s(&p), "-q", "--out", s(&tmp.path().join("o"))],
        &["targets cannot be swept"],
    );
}

#[test]
fn variant_filters_pick_their_variants_and_follow_set() {
    let tmp = tempfile::tempdir().unwrap();
    let text = format!(
        "{SWEPT}\n[[expect]]\ncourse = \"trade fire\"\nvariant = \"edition=sfo\"\nmeasure = \"expected-turns\"\nat_least = 1\nat_most = 3\n\n[[expect]]\ncourse = \"salvo, then charge\"\noutcome = \"defender-eliminated\"\nat_least = 0\n"
    );
    let p = write(tmp.path(), "swept.toml", &text);
    let out = tmp.path().join("o");
    pikeshot_ok(&["run", s(&p), "-q", "--out", s(&out), "--check"]);
    let (h, rows) = read_csv(&out.join("expect.csv"));
    let got: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r[col(&h, "entry")].clone(), r[col(&h, "variant")].clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("0".into(), "edition=sfo".into()),
            ("1".into(), "edition=sfo".into()),
            ("1".into(), "edition=series".into()),
        ]
    );
    // Pinning the other card on the command line leaves expect[0] nothing to check.
    let out = tmp.path().join("o2");
    pikeshot_ok(&[
        "run",
        s(&p),
        "-q",
        "--out",
        s(&out),
        "--set",
        "edition=series",
    ]);
    let (h, rows) = read_csv(&out.join("expect.csv"));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0][col(&h, "entry")], "1");
}

#[test]
fn shards_merge_into_exactly_the_unsharded_report() {
    let (tmp, dir) = temp_folder_with_target(0.01);
    let full = tmp.path().join("full");
    pikeshot_ok(&["report", s(&dir), "--out", s(&full), "--exact"]);

    let shard = |i: u32| tmp.path().join(format!("shard-{i}"));
    for i in 1..=2 {
        pikeshot_ok(&[
            "report",
            s(&dir),
            "--out",
            s(&shard(i)),
            "--exact",
            "--shard",
            &format!("{i}/2"),
        ]);
        assert!(shard(i).join("shard.json").is_file());
        assert_index_resolves(&shard(i));
    }
    // Round robin over the sorted list: 1 and 3 in shard 1, 2 in shard 2.
    assert!(shard(1).join("charge/outcomes.csv").is_file());
    assert!(shard(1).join("fire/salvo/outcomes.csv").is_file());
    assert!(shard(2).join("fire/light/skirmish/outcomes.csv").is_file());
    assert!(!shard(2).join("charge").exists());
    // Timing differs from run to run; nothing at the top level reads it.
    for i in 1..=2 {
        for (name, _) in files(&shard(i)) {
            if name.ends_with("timing.csv") {
                fs::write(shard(i).join(&name), "scenario\ngarbage\n").unwrap();
            }
        }
    }

    // Shards in any order; the failed target makes --check exit 1.
    let merged = tmp.path().join("merged");
    pikeshot_exits(
        &[
            "merge",
            s(&shard(2)),
            s(&shard(1)),
            "--out",
            s(&merged),
            "--check",
        ],
        1,
        &["miss <= 0.01"],
    );
    assert_same_report(&full, &merged);
    assert!(!merged.join("shard.json").exists());

    // Shards that do not make one report are refused.
    pikeshot_refused(
        &["merge", s(&shard(1)), "--out", s(&tmp.path().join("x"))],
        &["missing shard 2/2"],
    );
    pikeshot_refused(
        &[
            "merge",
            s(&shard(1)),
            s(&shard(1)),
            "--out",
            s(&tmp.path().join("x")),
        ],
        &["given twice"],
    );
    pikeshot_refused(
        &["merge", s(&full), "--out", s(&tmp.path().join("x"))],
        &["no shard.json"],
    );
    let other = tmp.path().join("other");
    pikeshot_ok(&[
        "report",
        s(&dir),
        "--out",
        s(&other),
        "--shard",
        "2/2",
        "--trials",
        "5000",
    ]);
    pikeshot_refused(
        &[
            "merge",
            s(&shard(1)),
            s(&other),
            "--out",
            s(&tmp.path().join("x")),
        ],
        &["run options"],
    );
    assert!(!tmp.path().join("x").exists(), "nothing written");
}

#[test]
fn diff_shows_each_outcome_moving_between_the_cards() {
    let tmp = tempfile::tempdir().unwrap();
    let p = write(tmp.path(), "salvo.toml", SWEPT);
    let out = tmp.path().join("diff");
    let o = diff_cards(&p, &out, &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let table = stdout(&o);
    for want in [
        "sfo → series",
        "== salvo, then charge",
        "== trade fire",
        "change",
        "exact change",
        "P(enemy broken or eliminated)",
        "expected turns",
    ] {
        assert!(table.contains(want), "{want}:\n{table}");
    }
    for f in ["diff.csv", "diff.png", "diff.svg"] {
        assert!(out.join(f).is_file(), "{f}");
    }
    let svg = fs::read_to_string(out.join("diff.svg")).unwrap();
    assert!(svg.contains("<title>sfo → series: Salvo or trade fire, both cards</title>"));
    // The chart names outcomes by the card's label, not the id.
    assert!(svg.contains("Defender eliminated"));
    // Sampled: each bar has its interval, the exact change its diamond.
    assert!(svg.contains("95% interval of the change"));
    assert!(svg.contains("exact change"));

    let (h, rows) = read_csv(&out.join("diff.csv"));
    let num = |r: &Vec<String>, c: &str| r[col(&h, c)].parse::<f64>().unwrap();
    assert!(!rows.is_empty());
    for r in &rows {
        assert_eq!(r[col(&h, "from_edition")], "sfo");
        assert_eq!(r[col(&h, "to_edition")], "series");
        // The change is to − from, with to and from inside their intervals.
        let ch = num(r, "to") - num(r, "from");
        assert!((num(r, "change") - ch).abs() < 2e-6, "{r:?}");
        assert!(num(r, "change_ci_low") <= num(r, "change") + 1e-9);
        assert!(num(r, "change") <= num(r, "change_ci_high") + 1e-9);
        let ex = num(r, "to_exact") - num(r, "from_exact");
        assert!((num(r, "exact_change") - ex).abs() < 2e-10, "{r:?}");
    }
    // Each side's outcomes are a distribution.
    for course in ["salvo, then charge", "trade fire"] {
        for side in ["from_exact", "to_exact"] {
            let total: f64 = rows
                .iter()
                .filter(|r| r[col(&h, "course")] == course && r[col(&h, "kind")] == "outcome")
                .map(|r| num(r, side))
                .sum();
            assert!((total - 1.0).abs() < 1e-9, "{course} {side}: {total}");
        }
    }

    // Each side is the scenario run under that card with the same seed
    // and method: the `from` column equals a plain run with --set
    // edition=sfo.
    let plain = tmp.path().join("plain");
    let o = run_to(
        &p,
        &["--set", "edition=sfo", "--exact", "--format", "json"],
        &plain,
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    for c in doc["scenarios"][0]["courses"].as_array().unwrap() {
        for oc in c["outcomes"].as_array().unwrap() {
            let row = rows
                .iter()
                .find(|r| {
                    r[col(&h, "course")] == c["course"].as_str().unwrap()
                        && r[col(&h, "kind")] == "outcome"
                        && r[col(&h, "name")] == oc["outcome"].as_str().unwrap()
                })
                .expect("outcome in diff.csv");
            let want = oc["probability"].as_f64().unwrap();
            assert!((num(row, "from") - want).abs() < 1e-6, "{row:?} vs {want}");
        }
    }

    // Bad editions and same editions are refused.
    pikeshot_refused(
        &["diff", s(&p), "--from", "sfoo", "--out", s(&out)],
        &["did you mean `sfo`?"],
    );
    pikeshot_refused(&["diff", s(&p), "--from", "series", "--to", "series"], &[]);
}

/// Under `--method exact` nothing is sampled: the table and chart show the
/// exact change alone, with no interval and no Monte Carlo mark, and a
/// change of exactly zero is printed as `0`.
#[test]
fn diff_under_exact_shows_exact_changes_only() {
    let tmp = tempfile::tempdir().unwrap();
    let p = write(tmp.path(), "salvo.toml", SWEPT);
    let out = tmp.path().join("diff");
    let o = pikeshot(&[
        "diff",
        s(&p),
        "--from",
        "sfo",
        "--to",
        "series",
        "--method",
        "exact",
        "--out",
        s(&out),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let table = stdout(&o);
    assert!(table.contains("exact change"), "{table}");
    for mc in ["95% interval", "[+", "[-", "[0"] {
        assert!(!table.contains(mc), "{mc}:\n{table}");
    }

    // Each outcome row prints diff.csv's exact change: `0 pp` when the two
    // cards agree exactly, else the signed change to 3 decimals; each
    // expected value (shown as its words) `0`, else 4 decimals.
    let (h, rows) = read_csv(&out.join("diff.csv"));
    let prepared = pikeshot::run::prepare(&p, &pikeshot::run::RunPlan::default()).unwrap();
    let labels: Vec<(String, String)> = prepared
        .courses
        .iter()
        .flat_map(|c| {
            let space = c.kernel.space();
            space
                .outcome_ids()
                .iter()
                .cloned()
                .zip(space.outcomes().iter().cloned())
                .collect::<Vec<_>>()
        })
        .collect();
    let (mut zeros, mut moves) = (0, 0);
    for r in &rows {
        let (outcome, name) = (r[col(&h, "kind")] == "outcome", &r[col(&h, "name")]);
        if !outcome && !name.starts_with("expected-") {
            continue;
        }
        let e: f64 = r[col(&h, "exact_change")].parse().unwrap();
        let want = match (e.abs() < 1e-12, outcome) {
            (true, true) => "0 pp".to_string(),
            (true, false) => "0".to_string(),
            (false, true) => format!("{:+.3} pp", e * 100.0),
            (false, false) => format!("{e:+.4}"),
        };
        if e.abs() < 1e-12 {
            zeros += 1;
        } else {
            moves += 1;
        }
        // The table shows an outcome by the card's label (diff.csv has
        // its id), an expected value by its words.
        let name = if outcome {
            labels
                .iter()
                .find(|(id, _)| id == name)
                .unwrap_or_else(|| panic!("no outcome {name}"))
                .1
                .clone()
        } else {
            name.replace('-', " ")
        };
        let section = table
            .split("\n== ")
            .find(|sec| sec.starts_with(r[col(&h, "course")].as_str()))
            .expect("the course's section");
        let line = section
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name}:\n{table}"));
        assert!(line.ends_with(&format!(" {want}")), "{line} vs {want}");
    }
    // Both kinds of row are exercised: the cards agree on most figures and
    // differ on the salvo's expected hits (1.5 under sfo, 1.2 under series).
    assert!(zeros > 0 && moves > 0, "{zeros} zero, {moves} moved");

    // The chart: bars only, no whiskers or diamonds, nothing sampled.
    let svg = fs::read_to_string(out.join("diff.svg")).unwrap();
    assert!(!svg.contains("95% interval of the change"));
    assert!(!svg.contains(">exact change<"));
    assert!(
        svg.contains("exact"),
        "the subtitle says how it was computed"
    );
    assert!(!svg.contains(" trials per course"));
}

#[test]
fn json_documents_parse_and_carry_outcomes_key_outcomes_and_exact() {
    let (tmp, dir) = temp_folder_with_target(0.9);
    let o = pikeshot_ok(&[
        "report",
        s(&dir),
        "--out",
        s(&tmp.path().join("o")),
        "--exact",
        "--plots",
        "none",
        "--format",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON document");
    let scenarios = doc["scenarios"].as_array().unwrap();
    let files = crate::support::json_strs(&doc["scenarios"], "file");
    assert_eq!(
        files,
        vec!["charge.toml", "fire/light/skirmish.toml", "fire/salvo.toml"]
    );
    assert_eq!(doc["targets"]["checked"], 1);
    assert_eq!(doc["targets"]["passed"], 1);
    assert_eq!(scenarios[0]["targets"][0]["verdict"], "pass");
    for sc in scenarios {
        for c in sc["courses"].as_array().unwrap() {
            let outcomes = c["outcomes"].as_array().unwrap();
            let p: f64 = outcomes
                .iter()
                .map(|o| o["probability"].as_f64().unwrap())
                .sum();
            let e: f64 = outcomes.iter().map(|o| o["exact"].as_f64().unwrap()).sum();
            assert!((p - 1.0).abs() < 1e-9 && (e - 1.0).abs() < 1e-9);
            assert_eq!(c["trials"], 20000);
            for k in c["key_outcomes"].as_array().unwrap() {
                let (v, lo, hi) = (
                    k["value"].as_f64().unwrap(),
                    k["ci_low"].as_f64().unwrap(),
                    k["ci_high"].as_f64().unwrap(),
                );
                assert!(lo <= v && v <= hi, "{k}");
            }
        }
    }
    let salvo = &scenarios[2];
    assert_eq!(salvo["courses"].as_array().unwrap().len(), 4);
    assert!(
        salvo["courses"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["engagement"] == true)
    );
}

#[test]
fn completions_are_generated_for_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let o = pikeshot_ok(&["completions", shell]);
        let text = stdout(&o);
        assert!(text.contains("pikeshot"), "{shell}");
        assert!(text.contains("report") && text.contains("merge"), "{shell}");
    }
    pikeshot_refused(&["completions", "tcsh"], &[]);
}

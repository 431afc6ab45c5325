//! `pikeshot list SYSTEM` names every value its readers accept, for every
//! system of the registry: each unit key and `[rules]` key whose listed
//! values are names (on every card) is set to a name no card has, and the
//! names the refusal says it accepts are exactly the names `list` gave.
//! Written through the command line and scenario text only.

use crate::support::cli::{pikeshot, pikeshot_ok, stderr, stdout};
use crate::support::shipped_files;

use pikeshot::systems::Registry;

/// The names a listed `accepts` text gives, per card: `"a | b | 1..=3"`
/// gives `[("", [a, b])]`, `"sfo: a | b; series: a | c"` one entry per
/// card. Ranges, `true`/`false` and "a unit name" are not names.
fn names_of(accepts: &str) -> Vec<(String, Vec<String>)> {
    let per_card = |part: &str| -> Option<(String, String)> {
        let (card, rest) = part.split_once(": ")?;
        (!card.contains(' ')).then(|| (card.to_string(), rest.to_string()))
    };
    let parts: Vec<(String, String)> = if accepts.contains(": ") {
        accepts.split("; ").filter_map(per_card).collect()
    } else {
        vec![(String::new(), accepts.to_string())]
    };
    parts
        .into_iter()
        .map(|(card, names)| {
            let mut v: Vec<String> = names
                .split(" | ")
                .map(str::trim)
                .filter(|n| {
                    !n.is_empty()
                        && !n.contains("..=")
                        && !n.contains(' ')
                        && *n != "true"
                        && *n != "false"
                })
                .map(String::from)
                .collect();
            v.sort();
            (card, v)
        })
        .filter(|(_, v)| !v.is_empty())
        .collect()
}

/// The keys `list` prints in the section headed `head` (up to the next
/// line that is not indented), each with its `accepts` text: unit keys end
/// in `(accepts: X)` (before any `; default`), `[rules]` keys start with it.
fn listed_keys(list: &str, head: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = list.lines().skip_while(|l| !l.starts_with(head)).skip(1);
    for l in lines.by_ref() {
        let Some(body) = l.strip_prefix("  ") else {
            break;
        };
        let (key, rest) = body.split_once(' ').unwrap();
        let rest = rest.trim_start();
        let accepts = if head.starts_with("unit keys") {
            let Some(a) = rest.rsplit_once("(accepts: ") else {
                continue;
            };
            a.1.trim_end_matches(')')
                .split("; default")
                .next()
                .unwrap()
                .to_string()
        } else {
            rest.split(" (default").next().unwrap().to_string()
        };
        out.push((key.to_string(), accepts));
    }
    out
}

/// Unit keys that need another key of the unit beside them, as the card
/// says (system, key, the unit key to set first): `era` is for
/// pike-and-shot stands.
const BESIDE: &[(&str, &str, &str)] = &[("snaphance", "era", "kind=pike-and-shot")];

/// The names the reader accepts at `key` (a `--set` path) of `scenario`
/// on `edition`'s card (or the file's), with `beside` set first (a path's
/// sibling key, or none), as its refusal of an unknown name lists them;
/// what it printed instead when it does not refuse so.
fn accepted(
    scenario: &str,
    edition: &str,
    key: &str,
    beside: Option<String>,
) -> Result<Vec<String>, String> {
    let set = format!("{key}=no-such-name");
    let mut args = vec!["explain", scenario];
    if let Some(b) = &beside {
        args.extend(["--set", b]);
    }
    args.extend(["--set", &set]);
    let ed = format!("edition={edition}");
    if !edition.is_empty() {
        args.extend(["--set", &ed]);
    }
    let o = pikeshot(&args);
    let err = stderr(&o);
    let line = err
        .lines()
        .find_map(|l| l.trim().strip_prefix("accepted: "))
        .filter(|_| o.status.code() == Some(2))
        .ok_or_else(|| format!("exit {:?}: {err}", o.status.code()))?;
    let mut names: Vec<String> = line
        .split(", ")
        .map(|n| n.trim_end_matches('.').to_string())
        .filter(|n| !n.contains("..=") && !n.contains(' ') && n != "true" && n != "false")
        .collect();
    names.sort();
    Ok(names)
}

/// The first unit of a scenario file's text.
fn first_unit(text: &str) -> String {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("[units.")?.strip_suffix(']'))
        .expect("a unit")
        .to_string()
}

#[test]
fn list_names_every_value_the_readers_of_every_system_accept() {
    let mut failures = Vec::new();
    let mut tried = 0;
    for s in Registry::shipped().iter() {
        let list = stdout(&pikeshot_ok(&["list", s.id()]));
        let file = shipped_files(s.id()).into_iter().next().unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        let scenario = file.to_str().unwrap();
        let unit = first_unit(&text);
        let eds: Vec<&str> = s.editions().iter().map(|e| e.id).collect();
        let sections = [
            ("unit keys", format!("units.{unit}.")),
            ("[rules] keys", "rules.".to_string()),
        ];
        for (head, prefix) in sections {
            let keys = listed_keys(&list, head);
            assert!(!keys.is_empty(), "{}: no `{head}` in list", s.id());
            for (key, accepts) in keys {
                for (card, names) in names_of(&accepts) {
                    let cards: Vec<&str> = match (card.as_str(), eds.is_empty()) {
                        ("", true) => vec![""],
                        ("", false) => eds.clone(),
                        (c, _) => vec![c],
                    };
                    for ed in cards {
                        tried += 1;
                        let beside = BESIDE
                            .iter()
                            .find(|(sys, k, _)| *sys == s.id() && *k == key)
                            .map(|(_, _, b)| format!("{prefix}{b}"));
                        match accepted(scenario, ed, &format!("{prefix}{key}"), beside) {
                            Ok(got) if got == names => {}
                            Ok(got) => failures.push(format!(
                                "{} {ed} {prefix}{key}: list gives {names:?}, the reader accepts {got:?}",
                                s.id()
                            )),
                            Err(e) => failures.push(format!(
                                "{} {ed} {prefix}{key}: an unknown name is not refused with \
                                 what is accepted: {e}",
                                s.id()
                            )),
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(tried > 20, "{tried}");
}

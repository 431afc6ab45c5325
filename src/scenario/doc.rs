//! A scenario file as a document: loading, `--set` overrides and `[sweep]`
//! expansion. System-independent; the systems read units and courses.

use std::path::{Path, PathBuf};

use super::fields::{Fields, Source, describe};
use crate::error::{Error, InputError};

/// A loaded scenario file.
#[derive(Clone, Debug)]
pub struct ScenarioFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// Line lookup for errors.
    pub source: Source,
    /// The parsed table, with `--set` overrides applied.
    pub table: toml::Table,
}

/// One point of a sweep: a label such as `units.tercio.terrain=woods` and
/// the table with those values set.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Empty when the scenario has no sweep.
    pub label: String,
    /// The scenario table of this variant (without `[sweep]`).
    pub table: toml::Table,
}

/// Most variants a sweep may expand to.
pub const MAX_VARIANTS: usize = 10_000;

impl ScenarioFile {
    /// Reads and parses a scenario file.
    pub fn load(path: &Path) -> Result<ScenarioFile, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let name = path.display().to_string();
        let (source, table) = Source::parse(&name, &text)?;
        Ok(ScenarioFile {
            path: path.to_path_buf(),
            source,
            table,
        })
    }

    /// Parses a scenario from text (for tests and tools).
    pub fn from_str(name: &str, text: &str) -> Result<ScenarioFile, InputError> {
        let (source, table) = Source::parse(name, text)?;
        Ok(ScenarioFile {
            path: PathBuf::from(name),
            source,
            table,
        })
    }

    /// The file stem, used for the default output folder.
    pub fn stem(&self) -> String {
        self.path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "scenario".into())
    }

    /// Applies `--set KEY=VALUE`. The value is read as TOML (`3`, `true`,
    /// `["a", "b"]`, `"x"`) and otherwise taken as a bare string (`woods`).
    pub fn set(&mut self, assignment: &str) -> Result<(), InputError> {
        let (key, value) = assignment.split_once('=').ok_or_else(|| {
            InputError::new(format!("`--set {assignment}` has no `=`"))
                .accepted("KEY=VALUE, e.g. --set units.tercio.terrain=woods")
        })?;
        let key = key.trim();
        let value = parse_value(value.trim());
        // A key set on the command line is pinned: it leaves the sweep.
        if let Some(toml::Value::Table(sweep)) = self.table.get_mut("sweep") {
            sweep.remove(key);
            if sweep.is_empty() {
                self.table.remove("sweep");
            }
        }
        set_path(&mut self.table, key, value).map_err(|m| {
            InputError::new(m)
                .key(key)
                .at(Some(&format!("--set {assignment}")), None)
        })?;
        self.source.mark_overridden(key);
        Ok(())
    }

    /// The variants of the scenario: one per point of the cartesian product
    /// of the `[sweep]` lists (the first key varies slowest), or the
    /// scenario itself when it has no sweep.
    pub fn variants(&self) -> Result<Vec<Variant>, InputError> {
        let mut base = self.table.clone();
        let sweep = match base.remove("sweep") {
            None => {
                return Ok(vec![Variant {
                    label: String::new(),
                    table: base,
                }]);
            }
            Some(toml::Value::Table(t)) => t,
            Some(v) => {
                return Err(self.source.locate(
                    InputError::new(format!(
                        "expected a table of key = [values], found {}",
                        describe(&v)
                    ))
                    .key("sweep"),
                    "sweep",
                ));
            }
        };
        let mut axes: Vec<(String, Vec<toml::Value>)> = Vec::new();
        for (k, v) in sweep {
            let path = format!("sweep.{k}");
            match v {
                toml::Value::Array(a) if !a.is_empty() => axes.push((k, a)),
                other => {
                    return Err(self.source.locate(
                        InputError::new(format!(
                            "a sweep takes a non-empty list of values, found {}",
                            describe(&other)
                        ))
                        .key(path.clone())
                        .accepted(format!("{k} = [value, value, ...]")),
                        &path,
                    ));
                }
            }
        }
        let total: usize = axes.iter().map(|(_, v)| v.len()).product();
        if total > MAX_VARIANTS {
            return Err(self.source.locate(
                InputError::new(format!(
                    "the sweep expands to {total} variants; at most {MAX_VARIANTS}"
                ))
                .key("sweep"),
                "sweep",
            ));
        }
        let mut out = Vec::with_capacity(total);
        for i in 0..total {
            let mut t = base.clone();
            let mut labels = Vec::new();
            let mut rest = i;
            let mut picks = vec![0usize; axes.len()];
            for (a, (_, vals)) in axes.iter().enumerate().rev() {
                picks[a] = rest % vals.len();
                rest /= vals.len();
            }
            for ((k, vals), &p) in axes.iter().zip(&picks) {
                let v = vals[p].clone();
                labels.push(format!("{k}={}", short(&v)));
                set_path(&mut t, k, v).map_err(|m| {
                    let path = format!("sweep.{k}");
                    self.source
                        .locate(InputError::new(m).key(path.clone()), &path)
                })?;
            }
            out.push(Variant {
                label: labels.join(", "),
                table: t,
            });
        }
        Ok(out)
    }

    /// A [`Fields`] reader over a variant's top-level table.
    pub fn fields<'a>(&'a self, variant: &'a Variant) -> Fields<'a> {
        Fields::new(&self.source, "", &variant.table)
    }
}

/// A value as a label: strings bare, the rest as TOML.
fn short(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Reads a `--set` value: TOML where it parses, else a bare string.
fn parse_value(s: &str) -> toml::Value {
    let doc = format!("v = {s}");
    match doc.parse::<toml::Table>() {
        Ok(mut t) => t
            .remove("v")
            .unwrap_or_else(|| toml::Value::String(s.into())),
        Err(_) => toml::Value::String(s.to_string()),
    }
}

/// One segment of a key path.
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

fn parse_path(path: &str) -> Result<Vec<Seg<'_>>, String> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (name, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if name.is_empty() {
            return Err(format!("`{path}` is not a key path"));
        }
        out.push(Seg::Key(name));
        while !rest.is_empty() {
            let close = rest
                .find(']')
                .ok_or_else(|| format!("`{path}`: unclosed `[`"))?;
            let idx = rest[1..close]
                .parse::<usize>()
                .map_err(|_| format!("`{path}`: `{}` is not a list index", &rest[1..close]))?;
            out.push(Seg::Index(idx));
            rest = &rest[close + 1..];
        }
    }
    Ok(out)
}

/// Sets the value at a dotted key path such as `units.tercio.terrain` or
/// `course[1].steps[0].column`, creating tables for missing keys.
pub fn set_path(root: &mut toml::Table, path: &str, value: toml::Value) -> Result<(), String> {
    let segs = parse_path(path)?;
    let (first, rest) = match segs.split_first() {
        Some((Seg::Key(k), rest)) => (*k, rest),
        _ => return Err(format!("`{path}` is not a key path")),
    };
    if rest.is_empty() {
        root.insert(first.to_string(), value);
        return Ok(());
    }
    let slot = root
        .entry(first.to_string())
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    set_in(slot, rest, path, value)
}

fn set_in(
    cur: &mut toml::Value,
    segs: &[Seg],
    path: &str,
    value: toml::Value,
) -> Result<(), String> {
    let Some((seg, rest)) = segs.split_first() else {
        *cur = value;
        return Ok(());
    };
    let next = match seg {
        Seg::Key(k) => {
            let t = cur.as_table_mut().ok_or_else(|| {
                format!("`{path}`: `{k}` is inside something that is not a table")
            })?;
            if rest.is_empty() {
                t.insert((*k).to_string(), value);
                return Ok(());
            }
            t.entry((*k).to_string())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()))
        }
        Seg::Index(n) => {
            let a = cur.as_array_mut().ok_or_else(|| {
                format!("`{path}`: [{n}] applies to something that is not a list")
            })?;
            let len = a.len();
            a.get_mut(*n)
                .ok_or_else(|| format!("`{path}`: index {n} is past the end of a list of {len}"))?
        }
    };
    set_in(next, rest, path, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"
name = "t"
[units.a]
terrain = "clear"
[[course]]
name = "c"
steps = [{ procedure = "x", column = "front" }]
[sweep]
"units.a.terrain" = ["clear", "woods"]
edition = ["sfo", "series"]
"#;

    #[test]
    fn sweeps_expand_as_a_cartesian_product() {
        let f = ScenarioFile::from_str("t.toml", TEXT).unwrap();
        let v = f.variants().unwrap();
        assert_eq!(v.len(), 4);
        assert_eq!(v[0].label, "units.a.terrain=clear, edition=sfo");
        assert_eq!(v[3].label, "units.a.terrain=woods, edition=series");
        assert_eq!(v[3].table["units"]["a"]["terrain"].as_str(), Some("woods"));
        assert!(!v[0].table.contains_key("sweep"));
    }

    #[test]
    fn set_overrides_nested_keys_and_list_items() {
        let mut f = ScenarioFile::from_str("t.toml", TEXT).unwrap();
        f.set("units.a.terrain=village").unwrap();
        f.set("course[0].steps[0].column=salvo").unwrap();
        f.set("trials=5000").unwrap();
        assert_eq!(f.table["units"]["a"]["terrain"].as_str(), Some("village"));
        assert_eq!(
            f.table["course"][0]["steps"][0]["column"].as_str(),
            Some("salvo")
        );
        assert_eq!(f.table["trials"].as_integer(), Some(5000));
        let e = f.set("course[3].name=x").unwrap_err();
        assert!(e.to_string().contains("past the end"), "{e}");
        // A --set of a swept key pins it: it leaves the sweep.
        let mut g = ScenarioFile::from_str("t.toml", TEXT).unwrap();
        g.set("edition=sfo").unwrap();
        let v = g.variants().unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[1].label, "units.a.terrain=woods");
        assert_eq!(v[1].table["edition"].as_str(), Some("sfo"));
        let e = f.set("nonsense").unwrap_err();
        assert!(e.to_string().contains("KEY=VALUE"), "{e}");
    }
}

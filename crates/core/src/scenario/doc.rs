//! A scenario file as a document: loading, `--set` overrides and `[sweep]`
//! expansion. System-independent; the systems read units and courses.

use std::path::{Path, PathBuf};

use super::fields::{Fields, Source, describe, shown};
use super::overrides::{Override, Overrides};
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
    /// Swept keys that `--set` pinned, with the value set (as in a label),
    /// in the order set: they are still part of each variant's identity.
    pub pinned: Vec<(String, String)>,
}

/// One point of a sweep: a label such as `units.tercio.terrain=woods` and
/// the table with those values set.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Empty when the scenario has no sweep.
    pub label: String,
    /// The variant's identity: every swept `key=value`, those pinned by
    /// `--set` included, sorted by key and joined by `, `. A variant pinned
    /// on the command line has the identity it has inside the whole sweep,
    /// so its random streams (seeded from it) are the same.
    pub identity: String,
    /// The scenario table of this variant (without `[sweep]`).
    pub table: toml::Table,
}

pub use super::limits::MAX_VARIANTS;
use super::limits::{MAX_FILE_BYTES, UNSWEPT_KEYS};

/// The unit keys whose `--set` may create a unit the file does not have
/// (every system names a unit's kind with one of them).
const CREATES_UNIT: &[&str] = &["kind", "type", "troop"];

/// The axes of a sweep: each swept key path and its values, in file order.
type Axes = Vec<(String, Vec<toml::Value>)>;

impl ScenarioFile {
    /// Reads and parses a scenario file.
    ///
    /// Refuses, naming the file, what is not a regular file (a folder,
    /// `/dev/zero`, a FIFO), a file over [`MAX_FILE_BYTES`] (read through a
    /// reader capped at that size, so a file that grows is still bounded)
    /// and text that is not UTF-8 (with the byte offset and line).
    pub fn load(path: &Path) -> Result<ScenarioFile, Error> {
        let text = read_capped(path)?;
        let name = path.display().to_string();
        let (source, table) = Source::parse(&name, &text)?;
        Ok(ScenarioFile {
            path: path.to_path_buf(),
            source,
            table,
            pinned: Vec::new(),
        })
    }

    /// The sweep's axes, checked: a table of non-empty lists, no key that is
    /// read once per run ([`UNSWEPT_KEYS`]), and at most [`MAX_VARIANTS`]
    /// points in all (counted with checked arithmetic). `None` without a
    /// sweep.
    fn axes(&self) -> Result<Option<Axes>, InputError> {
        let sweep = match self.table.get("sweep") {
            None => return Ok(None),
            Some(toml::Value::Table(t)) => t,
            Some(v) => {
                return Err(self.source.locate(
                    InputError::new(format!(
                        "expected a table of key = [values], found {}",
                        describe(v)
                    ))
                    .key("sweep")
                    .accepted("[sweep] with lines such as \"units.tercio.terrain\" = [\"clear\", \"woods\"]"),
                    "sweep",
                ));
            }
        };
        let mut axes: Axes = Vec::new();
        let mut total: usize = 1;
        for (k, v) in sweep {
            let path = format!("sweep.{k}");
            let at = |e: InputError| self.source.locate(e.key(path.clone()), &path);
            if UNSWEPT_KEYS.contains(&k.as_str()) {
                return Err(at(InputError::new(format!(
                    "`{}` is read once per run and cannot be swept",
                    super::fields::shown(k)
                ))
                .accepted(format!(
                    "a single `{k} = ...` at the top of the file (or --set {k}=...); sweep any other key"
                ))));
            }
            match v {
                toml::Value::Array(a) if !a.is_empty() => {
                    total = total
                        .checked_mul(a.len())
                        .filter(|t| *t <= MAX_VARIANTS)
                        .ok_or_else(|| {
                            at(InputError::new(format!(
                                "the sweep expands to more than {MAX_VARIANTS} variants (the limit)"
                            ))
                            .accepted(format!(
                                "a sweep whose lists' lengths multiply to at most {MAX_VARIANTS}"
                            )))
                        })?;
                    axes.push((k.clone(), a.clone()));
                }
                other => {
                    return Err(at(InputError::new(format!(
                        "a sweep takes a non-empty list of values, found {}",
                        describe(other)
                    ))
                    .accepted(format!("{} = [value, value, ...]", shown(k)))));
                }
            }
        }
        Ok(Some(axes))
    }

    /// How many variants the scenario has (1 without a sweep), checked
    /// against [`MAX_VARIANTS`].
    pub fn variant_count(&self) -> Result<usize, InputError> {
        Ok(match self.axes()? {
            None => 1,
            Some(axes) => axes.iter().map(|(_, v)| v.len()).product(),
        })
    }

    /// Variant `i` of [`ScenarioFile::variants`], built alone (so a run
    /// can hold one variant at a time).
    pub fn variant(&self, i: usize) -> Result<Variant, InputError> {
        let mut base = self.table.clone();
        base.remove("sweep");
        let Some(axes) = self.axes()? else {
            return Ok(Variant {
                label: String::new(),
                identity: self.identity(Vec::new()),
                table: base,
            });
        };
        let mut picks = vec![0usize; axes.len()];
        let mut rest = i;
        for (a, (_, vals)) in axes.iter().enumerate().rev() {
            picks[a] = rest % vals.len();
            rest /= vals.len();
        }
        let mut labels = Vec::new();
        let mut parts = Vec::new();
        for ((k, vals), &p) in axes.iter().zip(&picks) {
            let v = vals[p].clone();
            labels.push(format!("{k}={}", short(&v)));
            parts.push((k.clone(), short(&v)));
            set_path(&mut base, k, v).map_err(|m| {
                let path = format!("sweep.{k}");
                self.source
                    .locate(InputError::new(m).key(path.clone()), &path)
            })?;
        }
        Ok(Variant {
            label: labels.join(", "),
            identity: self.identity(parts),
            table: base,
        })
    }

    /// The identity of the variant whose swept values are `parts`: those
    /// and the pinned keys, sorted by key, as `key=value` joined by `, `.
    fn identity(&self, mut parts: Vec<(String, String)>) -> String {
        parts.extend(self.pinned.iter().cloned());
        parts.sort();
        parts
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Parses a scenario from text (for tests and tools).
    pub fn from_str(name: &str, text: &str) -> Result<ScenarioFile, InputError> {
        let (source, table) = Source::parse(name, text)?;
        Ok(ScenarioFile {
            path: PathBuf::from(name),
            source,
            table,
            pinned: Vec::new(),
        })
    }

    /// The file stem, used for the default output folder.
    pub fn stem(&self) -> String {
        self.path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "scenario".into())
    }

    /// Applies `--set KEY=VALUE` (read as [`Override::parse`] reads it).
    pub fn set(&mut self, assignment: &str) -> Result<(), InputError> {
        self.apply_one(&Override::parse(assignment)?)
    }

    /// Applies every override, in order.
    pub fn apply(&mut self, overrides: &Overrides) -> Result<(), InputError> {
        overrides.iter().try_for_each(|o| self.apply_one(o))
    }

    /// Applies one override: the key is pinned (it leaves the sweep), and
    /// errors in the value are located at the `--set`.
    pub fn apply_one(&mut self, o: &Override) -> Result<(), InputError> {
        let (key, value, assignment) = (o.key(), o.value().clone(), o.text());
        let at_set = |e: InputError| {
            e.key(key).at(
                Some(&format!(
                    "{} (--set {})",
                    self.source.file,
                    super::fields::shown(assignment)
                )),
                None,
            )
        };
        // `--set units.NAME.KEY=...` on a unit the file does not have is a
        // typo unless it creates the unit (its `kind` or `type`).
        let segs = parse_path(key).unwrap_or_default();
        if let [Seg::Key(top), Seg::Key(unit), Seg::Key(sub), ..] = segs.as_slice()
            && top == "units"
        {
            let (unit, sub) = (unit.as_str(), sub.as_str());
            let units = self.table.get("units").and_then(toml::Value::as_table);
            let exists = units.is_some_and(|t| t.contains_key(unit));
            if !exists && !CREATES_UNIT.contains(&sub) {
                let names: Vec<&str> = units
                    .map(|t| t.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                return Err(at_set(
                    InputError::new(format!(
                        "no unit named `{}` in the scenario",
                        super::fields::shown(unit)
                    ))
                    .one_of(unit, &names)
                    .accepted(format!(
                        "a unit of the file ({}), or a new unit created by setting its {}",
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        },
                        CREATES_UNIT.join(" or ")
                    )),
                ));
            }
        }
        // A key set on the command line is pinned: it leaves the sweep, and
        // stays part of every variant's identity.
        if self
            .table
            .get("sweep")
            .and_then(toml::Value::as_table)
            .is_some_and(|s| s.contains_key(key))
            || self.pinned.iter().any(|(k, _)| k == key)
        {
            self.pinned.retain(|(k, _)| k != key);
            self.pinned.push((key.to_string(), short(&value)));
        }
        if let Some(toml::Value::Table(sweep)) = self.table.get_mut("sweep") {
            sweep.remove(key);
            if sweep.is_empty() {
                self.table.remove("sweep");
            }
        }
        set_path(&mut self.table, key, value).map_err(|m| at_set(InputError::new(m)))?;
        // Errors name a course by its index: so is the key marked.
        self.source
            .mark_overridden(&indexed_path(&self.table, key).unwrap_or_else(|| key.to_string()));
        Ok(())
    }

    /// The variants of the scenario: one per point of the cartesian product
    /// of the `[sweep]` lists (the first key varies slowest), or the
    /// scenario itself when it has no sweep.
    pub fn variants(&self) -> Result<Vec<Variant>, InputError> {
        (0..self.variant_count()?)
            .map(|i| self.variant(i))
            .collect()
    }

    /// A [`Fields`] reader over a variant's top-level table.
    pub fn fields<'a>(&'a self, variant: &'a Variant) -> Fields<'a> {
        Fields::new(&self.source, "", &variant.table)
    }
}

/// Reads a scenario file's text: a regular file of at most
/// [`MAX_FILE_BYTES`], in UTF-8. Every refusal names the file and says what
/// is accepted.
fn read_capped(path: &Path) -> Result<String, Error> {
    use std::io::Read;
    let name = path.display().to_string();
    let refuse = |m: String| -> Error {
        InputError::new(m)
            .accepted(format!(
                "a scenario file: a regular TOML file of at most {MAX_FILE_BYTES} bytes"
            ))
            .at(Some(&name), None)
            .into()
    };
    let meta = std::fs::metadata(path)
        .map_err(|e| refuse(io_words("cannot read the scenario file", &e)))?;
    if meta.is_dir() {
        return Err(refuse("is a folder, not a scenario file (to run every scenario under a folder, use `pikeshot report`)".into()));
    }
    if !meta.is_file() {
        return Err(refuse(
            "is not a regular file (a device, a pipe or a socket); scenario files are read whole before anything runs".into(),
        ));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(refuse(format!(
            "is {} bytes, over the limit of {MAX_FILE_BYTES} bytes",
            meta.len()
        )));
    }
    let file = std::fs::File::open(path)
        .map_err(|e| refuse(io_words("cannot open the scenario file", &e)))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| refuse(io_words("cannot read the scenario file", &e)))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(refuse(format!(
            "grew past the limit of {MAX_FILE_BYTES} bytes while being read"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        InputError::new(format!(
            "is not UTF-8 text: the byte at offset {at} (0x{:02x}) does not start a valid character",
            e.as_bytes()[at]
        ))
        .accepted("a TOML file in UTF-8")
        .at(Some(&name), Some(line))
        .into()
    })
}

/// An I/O error in words, without the operating system's error number.
pub(crate) fn io_words(what: &str, e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    let why = match e.kind() {
        K::NotFound => "there is no such file".to_string(),
        K::PermissionDenied => "permission denied".to_string(),
        K::IsADirectory => "it is a folder".to_string(),
        K::NotADirectory => "a part of the path is not a folder".to_string(),
        K::InvalidData => "its content cannot be read as text".to_string(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(i) => s[..i].to_string(),
                None => s,
            }
        }
    };
    format!("{what}: {why}")
}

/// A value as a label: strings bare, the rest as TOML.
fn short(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// One segment of a key path.
enum Seg {
    /// A key of a table, or, in a list of tables such as `course`, the
    /// entry whose `name` it is.
    Key(String),
    /// An entry of a list, by position from 0.
    Index(usize),
}

/// Splits a key path into segments: keys separated by dots, each bare
/// (`units`) or quoted (`"salvo, then charge"`, which may hold dots,
/// commas and spaces; `\"` and `\\` inside), each followed by any number
/// of `[N]` indices.
fn parse_path(path: &str) -> Result<Vec<Seg>, String> {
    let bad = |why: &str| format!("`{}` is not a key path: {why}", shown(path));
    let mut out = Vec::new();
    let mut chars = path.chars().peekable();
    loop {
        // One key.
        let mut name = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    None => return Err(bad("a quoted name has no closing `\"`")),
                    Some('"') => break,
                    Some('\\') => match chars.next() {
                        Some(c @ ('"' | '\\')) => name.push(c),
                        _ => return Err(bad("in a quoted name, `\\` escapes only `\"` and `\\`")),
                    },
                    Some(c) => name.push(c),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c == '.' || c == '[' {
                    break;
                }
                name.push(c);
                chars.next();
            }
            if name.is_empty() {
                return Err(bad("a part is empty"));
            }
        }
        out.push(Seg::Key(name));
        // Its indices.
        while chars.peek() == Some(&'[') {
            chars.next();
            let mut digits = String::new();
            loop {
                match chars.next() {
                    None => return Err(format!("`{}`: unclosed `[`", shown(path))),
                    Some(']') => break,
                    Some(c) => digits.push(c),
                }
            }
            let idx = digits.parse::<usize>().map_err(|_| {
                format!(
                    "`{}`: `{}` is not a list index",
                    shown(path),
                    shown(&digits)
                )
            })?;
            out.push(Seg::Index(idx));
        }
        if out.len() > super::limits::MAX_KEY_DEPTH {
            return Err(format!(
                "the key path has more than {} parts (the limit); a scenario's keys are a few parts deep, e.g. units.tercio.terrain",
                super::limits::MAX_KEY_DEPTH
            ));
        }
        match chars.next() {
            None => return Ok(out),
            Some('.') => {}
            Some(c) => {
                return Err(bad(&format!(
                    "`{c}` after a part, where `.` or the end was expected"
                )));
            }
        }
    }
}

/// The entry of a list of tables (`[[course]]`) whose `name` is `name`; a
/// located message with did-you-mean when there is none.
fn named_entry<'v>(
    list: &'v mut [toml::Value],
    name: &str,
    path: &str,
) -> Result<&'v mut toml::Value, String> {
    let names: Vec<String> = list
        .iter()
        .filter_map(|v| v.get("name").and_then(toml::Value::as_str))
        .map(str::to_string)
        .collect();
    match list
        .iter()
        .position(|v| v.get("name").and_then(toml::Value::as_str) == Some(name))
    {
        Some(i) => Ok(&mut list[i]),
        None => Err(no_entry(name, &names, path)),
    }
}

/// "no entry named …", with the names there are and a did-you-mean.
fn no_entry(name: &str, names: &[String], path: &str) -> String {
    let hint = crate::error::did_you_mean(name, names)
        .map(|s| format!(" (did you mean \"{s}\"?)"))
        .unwrap_or_default();
    format!(
        "`{}`: no entry named \"{}\" in this list{hint}; accepted: {}, or an index such as [0]",
        shown(path),
        shown(name),
        if names.is_empty() {
            "none has a name".to_string()
        } else {
            names
                .iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(", ")
        }
    )
}

/// The value at a key path such as `units.tercio.terrain`,
/// `course[1].steps[0].column` or `course."salvo, then charge".steps[0].column`,
/// if present.
pub fn get_path<'t>(root: &'t toml::Table, path: &str) -> Option<&'t toml::Value> {
    let segs = parse_path(path).ok()?;
    let (Seg::Key(first), rest) = segs.split_first()? else {
        return None;
    };
    let mut cur = root.get(first)?;
    for seg in rest {
        cur = match (seg, cur) {
            (Seg::Key(k), toml::Value::Table(t)) => t.get(k)?,
            (Seg::Key(k), toml::Value::Array(a)) => a
                .iter()
                .find(|v| v.get("name").and_then(toml::Value::as_str) == Some(k))?,
            (Seg::Index(n), toml::Value::Array(a)) => a.get(*n)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// A key path with every entry named in a list of tables given by its
/// index instead (`course."charge now".steps[0]` → `course[0].steps[0]`),
/// keys bare, as errors name them; `None` when the path does not parse or
/// names an entry `root` lacks.
fn indexed_path(root: &toml::Table, path: &str) -> Option<String> {
    let segs = parse_path(path).ok()?;
    let mut out = String::new();
    let mut cur: Option<&toml::Value> = None;
    for seg in &segs {
        match (seg, cur) {
            (Seg::Key(k), Some(toml::Value::Array(a))) => {
                let i = a
                    .iter()
                    .position(|v| v.get("name").and_then(toml::Value::as_str) == Some(k))?;
                out.push_str(&format!("[{i}]"));
                cur = a.get(i);
            }
            (Seg::Key(k), _) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
                cur = match cur {
                    None => root.get(k),
                    Some(v) => v.get(k),
                };
            }
            (Seg::Index(n), _) => {
                out.push_str(&format!("[{n}]"));
                cur = cur.and_then(|v| v.get(*n));
            }
        }
    }
    Some(out)
}

/// Sets the value at a key path such as `units.tercio.terrain`,
/// `course[1].steps[0].column` or `course."salvo, then charge".steps[0].column`
/// (a course by its name), creating tables for missing keys.
pub fn set_path(root: &mut toml::Table, path: &str, value: toml::Value) -> Result<(), String> {
    let segs = parse_path(path)?;
    let (first, rest) = match segs.split_first() {
        Some((Seg::Key(k), rest)) => (k.as_str(), rest),
        _ => return Err(format!("`{}` is not a key path", shown(path))),
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
    let next = match (seg, cur) {
        (Seg::Key(k), toml::Value::Array(a)) => {
            let entry = named_entry(a, k, path)?;
            if rest.is_empty() {
                *entry = value;
                return Ok(());
            }
            entry
        }
        (Seg::Key(k), cur) => {
            let t = cur.as_table_mut().ok_or_else(|| {
                format!(
                    "`{}`: `{}` is inside something that is not a table",
                    shown(path),
                    shown(k)
                )
            })?;
            if rest.is_empty() {
                t.insert(k.clone(), value);
                return Ok(());
            }
            t.entry(k.clone())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()))
        }
        (Seg::Index(n), cur) => {
            let a = cur.as_array_mut().ok_or_else(|| {
                format!(
                    "`{}`: [{n}] applies to something that is not a list",
                    shown(path)
                )
            })?;
            let len = a.len();
            a.get_mut(*n).ok_or_else(|| {
                format!(
                    "`{}`: index {n} is past the end of a list of {len}",
                    shown(path)
                )
            })?
        }
    };
    set_in(next, rest, path, value)
}

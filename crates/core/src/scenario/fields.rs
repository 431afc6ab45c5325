//! Reading a scenario table key by key, with errors that point at the line.
//!
//! A [`Source`] knows the line of every key of a scenario file. A [`Fields`]
//! reader takes the keys of one table as a procedure or unit asks for them;
//! [`Fields::finish`] then refuses any key nobody asked for, naming the ones
//! that would have been accepted.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::error::InputError;

/// Where keys of a scenario came from: a file name and the line of each
/// dotted key path (`units.tercio.kind`, `course[1].steps[0].column`).
#[derive(Clone, Debug, Default)]
pub struct Source {
    /// The file name as the user gave it.
    pub file: String,
    lines: HashMap<String, usize>,
    /// Keys set from the command line (`--set`), which have no line.
    overridden: Vec<String>,
}

impl Source {
    /// Parses `text` and records the line of every key. Returns the plain
    /// table too. A syntax error is reported with its line.
    pub fn parse(file: &str, text: &str) -> Result<(Source, toml::Table), InputError> {
        // Line starts, once: a key's line is then a binary search, so a file
        // of n keys costs n log n, not n times the file.
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let line_of = |offset: usize| starts.partition_point(|&s| s <= offset.min(text.len()));
        let not_toml = |span: Option<std::ops::Range<usize>>, message: &str| {
            InputError::new(format!("not valid TOML: {}", shown(first_line(message))))
                .at(Some(file), span.map(|s| line_of(s.start)))
        };
        let spanned =
            toml::de::DeTable::parse(text).map_err(|e| not_toml(e.span(), e.message()))?;
        let mut lines = HashMap::new();
        walk_table(spanned.get_ref(), "", &line_of, &mut lines);
        let table: toml::Table =
            toml::from_str(text).map_err(|e| not_toml(e.span(), e.message()))?;
        Ok((
            Source {
                file: file.to_string(),
                lines,
                overridden: Vec::new(),
            },
            table,
        ))
    }

    /// Marks `path` as set from the command line.
    pub fn mark_overridden(&mut self, path: &str) {
        self.overridden.push(path.to_string());
    }

    /// The line of a key path, or of its nearest enclosing key that has one.
    /// A key a `[sweep]` sets is found at its line in the sweep.
    pub fn line(&self, path: &str) -> Option<usize> {
        let mut p = path;
        loop {
            if let Some(&l) = self.lines.get(&format!("sweep.{p}")) {
                return Some(l);
            }
            if let Some(&l) = self.lines.get(p) {
                return Some(l);
            }
            let cut = p.rfind(['.', '['])?;
            p = &p[..cut];
        }
    }

    /// Locates an error at `path`: the file and line, or `--set` when the
    /// key came from the command line.
    pub fn locate(&self, mut e: InputError, path: &str) -> InputError {
        // Keys come from the input: shown escaped and cut, like values.
        e.key = e.key.map(|k| shown(&k));
        if self
            .overridden
            .iter()
            .any(|o| path == o || path.starts_with(&format!("{o}.")))
        {
            return e.at(
                Some(&format!("{} (--set {})", self.file, shown(path))),
                None,
            );
        }
        // A table the file does not have, created by a `--set` below it
        // (`--set units.x.kind=...` creates unit `x`): blame that `--set`.
        if !self.lines.contains_key(path)
            && let Some(o) = self.overridden.iter().find(|o| {
                o.strip_prefix(path)
                    .is_some_and(|r| r.starts_with('.') || r.starts_with('['))
            })
        {
            return e.at(Some(&format!("{} (--set {})", self.file, shown(o))), None);
        }
        let line = self.line(path);
        e.at(Some(&self.file), line)
    }
}

/// Text from the input as it may be shown in a message: control characters
/// (newlines, escape sequences that would reach the terminal) are escaped,
/// and text longer than [`SHOWN_CHARS`] characters is cut with "…".
pub fn shown(s: &str) -> String {
    let long = s.chars().count() > SHOWN_CHARS;
    if !long && !s.chars().any(char::is_control) {
        return s.to_string();
    }
    let mut out: String = s
        .chars()
        .take(SHOWN_CHARS)
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    if long {
        out.push('…');
    }
    out
}

/// Most characters of input text a message repeats (see [`shown`]).
pub const SHOWN_CHARS: usize = 120;

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s).trim()
}

fn walk_table(
    t: &toml::de::DeTable,
    prefix: &str,
    line_of: &dyn Fn(usize) -> usize,
    out: &mut HashMap<String, usize>,
) {
    for (k, v) in t.iter() {
        let path = if prefix.is_empty() {
            k.get_ref().to_string()
        } else {
            format!("{prefix}.{}", k.get_ref())
        };
        out.entry(path.clone()).or_insert(line_of(k.span().start));
        walk_value(v.get_ref(), &path, line_of, out);
    }
}

fn walk_value(
    v: &toml::de::DeValue,
    path: &str,
    line_of: &dyn Fn(usize) -> usize,
    out: &mut HashMap<String, usize>,
) {
    match v {
        toml::de::DeValue::Table(t) => walk_table(t, path, line_of, out),
        toml::de::DeValue::Array(a) => {
            for (i, item) in a.iter().enumerate() {
                let p = format!("{path}[{i}]");
                out.entry(p.clone()).or_insert(line_of(item.span().start));
                walk_value(item.get_ref(), &p, line_of, out);
            }
        }
        _ => {}
    }
}

/// Most further unknown keys of a table listed with the first.
const ALSO_SHOWN: usize = 10;

/// Reads the keys of one table, remembering which were asked for.
///
/// A reader made by [`collect`] records the errors of single values (a
/// wrong type, a number out of range, an unknown name, unknown keys) and
/// reads on as if the key were absent, so that every such error of a file
/// is found; see [`collect`].
pub struct Fields<'a> {
    src: &'a Source,
    path: String,
    table: &'a toml::Table,
    asked: Vec<&'static str>,
    /// The errors recorded so far, shared by every reader of one file
    /// (`None`: the first error is returned, nothing is recorded).
    sink: Option<Rc<RefCell<Vec<InputError>>>>,
    /// Whether this reader recorded an error (its keys asked may then be
    /// incomplete, so [`Fields::finish`] does not call the others unknown).
    recorded_here: bool,
}

/// Reads a whole scenario table with `read`, then refuses its unknown
/// top-level keys, and reports the errors found in file order.
///
/// The reader records each error of a single value and reads on (the key
/// counted as absent); readers of independent tables (each unit, each
/// course) go on past a failed one (see `scenario::course`). An error that
/// ends reading is kept only when no error was recorded before it (it might
/// otherwise follow from a value counted as absent). When reading fails,
/// `known` top-level keys count as read, so that only keys no system reads
/// are called unknown. The error returned is the first by line, with the
/// others in [`InputError::more`].
pub fn collect<'a, T>(
    src: &'a Source,
    table: &'a toml::Table,
    known: &[&'static str],
    read: impl FnOnce(&mut Fields<'a>) -> Result<T, InputError>,
) -> Result<T, InputError> {
    let sink = Rc::new(RefCell::new(Vec::new()));
    let mut f = Fields::new(src, "", table);
    f.sink = Some(Rc::clone(&sink));
    let result = read(&mut f);
    let before = sink.borrow().len();
    if result.is_err() {
        for k in known {
            f.has(k);
        }
    }
    f.finish()?;
    let mut errors = std::mem::take(&mut *sink.borrow_mut());
    match result {
        Ok(v) if errors.is_empty() => return Ok(v),
        Ok(_) => {}
        Err(e) => {
            if before == 0 {
                errors.push(e);
            }
        }
    }
    Err(in_file_order(errors))
}

/// The errors sorted by line (those without one, from `--set`, last),
/// without repeats: the first, with the others in its `more`.
fn in_file_order(mut errors: Vec<InputError>) -> InputError {
    errors.sort_by_key(|e| e.line.unwrap_or(usize::MAX));
    let mut unique: Vec<InputError> = Vec::new();
    for e in errors {
        let seen = unique.iter().any(|u| {
            (&u.file, u.line, &u.key, &u.message) == (&e.file, e.line, &e.key, &e.message)
        });
        if !seen {
            unique.push(e);
        }
    }
    let mut first = unique.remove(0);
    first.more = unique;
    first
}

impl<'a> Fields<'a> {
    /// A reader for `table`, found at key path `path` of `src`.
    pub fn new(src: &'a Source, path: impl Into<String>, table: &'a toml::Table) -> Fields<'a> {
        Fields {
            src,
            path: path.into(),
            table,
            asked: Vec::new(),
            sink: None,
            recorded_here: false,
        }
    }

    /// A reader of `table` at `path` sharing this reader's record of errors.
    fn child(&self, path: String, table: &'a toml::Table) -> Fields<'a> {
        let mut f = Fields::new(self.src, path, table);
        f.sink = self.sink.clone();
        f
    }

    /// Whether this reader records errors and reads on (see [`collect`]).
    pub fn collecting(&self) -> bool {
        self.sink.is_some()
    }

    /// How many errors have been recorded in the whole file so far.
    pub fn recorded(&self) -> usize {
        self.sink.as_ref().map_or(0, |s| s.borrow().len())
    }

    /// Records `e` (when collecting; see [`collect`]).
    pub fn record(&self, e: InputError) {
        if let Some(s) = &self.sink {
            s.borrow_mut().push(e);
        }
    }

    /// Stops a reading that has already recorded an error (building a
    /// course from values counted as absent would be wasted work): the
    /// error returned repeats a recorded one, so it is reported once.
    pub fn stop_if_recorded(&self) -> Result<(), InputError> {
        match self.sink.as_ref().and_then(|s| s.borrow().first().cloned()) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Runs `read` returning its errors rather than recording them: for a
    /// key of several types (`true`, or a number), tried one way then the
    /// other, or whose error gains an `accepted` of its own.
    pub fn quietly<T>(
        &mut self,
        read: impl FnOnce(&mut Fields<'a>) -> Result<T, InputError>,
    ) -> Result<T, InputError> {
        let sink = self.sink.take();
        let r = read(self);
        self.sink = sink;
        r
    }

    /// The error of a single value: recorded, the key then counted as
    /// absent, when collecting; returned otherwise.
    fn value<T>(&mut self, r: Result<Option<T>, InputError>) -> Result<Option<T>, InputError> {
        match r {
            Err(e) if self.collecting() => {
                self.record(e);
                self.recorded_here = true;
                Ok(None)
            }
            r => r,
        }
    }

    /// A new reader over the same table, with nothing asked yet (to build a
    /// step again for another unit state).
    pub fn fresh(&self) -> Fields<'a> {
        self.child(self.path.clone(), self.table)
    }

    /// The key path of the table.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The full key path of `key` in this table.
    pub fn key_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// An error about `key` of this table, located at its line.
    pub fn err(&self, key: &str, message: impl Into<String>) -> InputError {
        let p = self.key_path(key);
        self.src.locate(InputError::new(message).key(p.clone()), &p)
    }

    /// The error for a required `key` that is absent. When the table has a
    /// key nobody asked for that is close to it (a typo), the error points
    /// at that key's line and suggests the right name.
    pub fn missing(&self, key: &str) -> InputError {
        // Present but refused (and recorded): that error again, reported once.
        if self.table.contains_key(key)
            && let Some(sink) = &self.sink
        {
            let k = shown(&self.key_path(key));
            if let Some(e) = sink.borrow().iter().find(|e| e.key.as_deref() == Some(&k)) {
                return e.clone();
            }
        }
        let msg = format!(
            "missing key `{key}` in `{}`",
            if self.path.is_empty() {
                "the scenario"
            } else {
                &self.path
            }
        );
        let typo = self
            .table
            .keys()
            .filter(|k| !self.asked.contains(&k.as_str()))
            .find(|k| crate::error::did_you_mean(k, &[key]).is_some());
        match typo {
            Some(t) => {
                let mut e = self.err(t, format!("{msg}; found unknown key `{t}`"));
                e.suggestion = Some(key.to_string());
                e
            }
            None => self.err(key, msg),
        }
    }

    /// Locates an error built elsewhere at `key` of this table.
    pub fn locate(&self, key: &str, e: InputError) -> InputError {
        let p = self.key_path(key);
        let e = if e.key.is_none() { e.key(p.clone()) } else { e };
        self.src.locate(e, &p)
    }

    /// The string at `key`, or the first string of a list there, without
    /// marking the key as read.
    pub fn peek_string(&self, key: &str) -> Option<String> {
        match self.table.get(key)? {
            toml::Value::String(s) => Some(s.clone()),
            toml::Value::Array(a) => a.first()?.as_str().map(str::to_string),
            _ => None,
        }
    }

    /// True when the table has `key` (and marks it as known).
    pub fn has(&mut self, key: &'static str) -> bool {
        self.asked.push(key);
        self.table.contains_key(key)
    }

    fn get(&mut self, key: &'static str) -> Option<&'a toml::Value> {
        self.asked.push(key);
        self.table.get(key)
    }

    /// A string value.
    pub fn string(&mut self, key: &'static str) -> Result<Option<String>, InputError> {
        let r = match self.get(key) {
            None => Ok(None),
            Some(toml::Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(self.err(key, format!("expected a string, found {}", describe(v)))),
        };
        self.value(r)
    }

    /// A name (the scenario's or a course's `name`): a string of at most
    /// [`MAX_NAME_CHARS`](crate::scenario::limits::MAX_NAME_CHARS)
    /// characters, a longer one refused at its line.
    pub fn name(&mut self, key: &'static str) -> Result<Option<String>, InputError> {
        let r = match self.string(key)? {
            Some(s) => check_name_length(&s)
                .map(|()| Some(s))
                .map_err(|m| self.err(key, m)),
            None => Ok(None),
        };
        self.value(r)
    }

    /// A required name (see [`Fields::name`]).
    pub fn req_name(&mut self, key: &'static str) -> Result<String, InputError> {
        self.name(key)?.ok_or_else(|| self.missing(key))
    }

    /// A required string value.
    pub fn req_string(&mut self, key: &'static str) -> Result<String, InputError> {
        self.string(key)?.ok_or_else(|| self.missing(key))
    }

    /// A value from a closed set of names: `parse` maps a name to a value,
    /// `names` lists what is accepted (for the error and "did you mean").
    pub fn named<T>(
        &mut self,
        key: &'static str,
        what: &str,
        parse: impl Fn(&str) -> Option<T>,
        names: &[&str],
    ) -> Result<Option<T>, InputError> {
        let r = match self.string(key)? {
            None => Ok(None),
            Some(s) => match parse(&s) {
                Some(v) => Ok(Some(v)),
                None => Err(self.locate(
                    key,
                    InputError::new(format!("unknown {what} \"{}\"", shown(&s))).one_of(&s, names),
                )),
            },
        };
        self.value(r)
    }

    /// An integer in `lo..=hi` (the card's range).
    pub fn int(&mut self, key: &'static str, lo: i64, hi: i64) -> Result<Option<i64>, InputError> {
        let r = match self.get(key) {
            None => Ok(None),
            Some(toml::Value::Integer(i)) if (lo..=hi).contains(i) => Ok(Some(*i)),
            Some(toml::Value::Integer(i)) => Err(self.locate(
                key,
                InputError::new(format!("{i} is outside the accepted range"))
                    .accepted(format!("a whole number from {lo} to {hi}")),
            )),
            Some(v) => Err(self.locate(
                key,
                InputError::new(format!("expected a whole number, found {}", describe(v)))
                    .accepted(format!("a whole number from {lo} to {hi}")),
            )),
        };
        self.value(r)
    }

    /// A required integer in `lo..=hi`.
    pub fn req_int(&mut self, key: &'static str, lo: i64, hi: i64) -> Result<i64, InputError> {
        self.int(key, lo, hi)?.ok_or_else(|| self.missing(key))
    }

    /// A boolean.
    pub fn bool(&mut self, key: &'static str) -> Result<Option<bool>, InputError> {
        let r = match self.get(key) {
            None => Ok(None),
            Some(toml::Value::Boolean(b)) => Ok(Some(*b)),
            Some(v) => Err(self.locate(
                key,
                InputError::new(format!("expected true or false, found {}", describe(v)))
                    .accepted("true, false"),
            )),
        };
        self.value(r)
    }

    /// A boolean that defaults to false.
    pub fn flag(&mut self, key: &'static str) -> Result<bool, InputError> {
        Ok(self.bool(key)?.unwrap_or(false))
    }

    /// A sub-table, as a reader of its own.
    pub fn table(&mut self, key: &'static str) -> Result<Option<Fields<'a>>, InputError> {
        match self.get(key) {
            None => Ok(None),
            Some(toml::Value::Table(t)) => Ok(Some(self.child(self.key_path(key), t))),
            Some(v) => Err(self.err(key, format!("expected a table, found {}", describe(v)))),
        }
    }

    /// A table of named tables (`[units.NAME]`), as (name, reader) pairs in file order.
    pub fn named_tables(
        &mut self,
        key: &'static str,
    ) -> Result<Option<Vec<(String, Fields<'a>)>>, InputError> {
        match self.get(key) {
            None => Ok(None),
            Some(toml::Value::Table(t)) => {
                let base = self.key_path(key);
                t.iter()
                    .map(|(name, v)| match v {
                        toml::Value::Table(sub) => {
                            Ok((name.clone(), self.child(format!("{base}.{name}"), sub)))
                        }
                        other => Err(self.src.locate(
                            InputError::new(format!("expected a table, found {}", describe(other)))
                                .key(format!("{base}.{name}")),
                            &format!("{base}.{name}"),
                        )),
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map(Some)
            }
            Some(v) => Err(self.err(key, format!("expected a table, found {}", describe(v)))),
        }
    }

    /// A list of tables (`[[course]]` or `steps = [{...}, {...}]`), as readers.
    pub fn table_list(&mut self, key: &'static str) -> Result<Option<Vec<Fields<'a>>>, InputError> {
        match self.get(key) {
            None => Ok(None),
            Some(toml::Value::Array(a)) => {
                let base = self.key_path(key);
                a.iter()
                    .enumerate()
                    .map(|(i, v)| {
                        let p = format!("{base}[{i}]");
                        match v {
                            toml::Value::Table(t) => Ok(self.child(p, t)),
                            other => Err(self.src.locate(
                                InputError::new(format!(
                                    "expected a table, found {}",
                                    describe(other)
                                ))
                                .key(p.clone()),
                                &p,
                            )),
                        }
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map(Some)
            }
            Some(v) => Err(self.err(
                key,
                format!("expected a list of tables, found {}", describe(v)),
            )),
        }
    }

    /// A string, or a list of strings (e.g. one attacker or several).
    pub fn strings(&mut self, key: &'static str) -> Result<Option<Vec<String>>, InputError> {
        let r = match self.get(key) {
            None => Ok(None),
            Some(toml::Value::String(s)) => Ok(Some(vec![s.clone()])),
            Some(toml::Value::Array(a)) if !a.is_empty() => a
                .iter()
                .map(|v| match v {
                    toml::Value::String(s) => Ok(s.clone()),
                    other => Err(self.err(
                        key,
                        format!("expected a list of strings, found {}", describe(other)),
                    )),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(v) => Err(self.err(
                key,
                format!(
                    "expected a string or a non-empty list of strings, found {}",
                    describe(v)
                ),
            )),
        };
        self.value(r)
    }

    /// Refuses any key that was not asked for, naming the accepted keys.
    /// A collecting reader records the error instead, and says nothing of
    /// unknown keys once it has recorded an error of its own (a value
    /// counted as absent may have left keys unasked).
    pub fn finish(&self) -> Result<(), InputError> {
        self.finish_knowing(&[])
    }

    /// As [`Fields::finish`]; a collecting reader that recorded an error of
    /// its own still refuses the keys that are none of `possible` (every key
    /// the table may have, whatever its values), which no value counted as
    /// absent can have left unasked.
    pub fn finish_knowing(&self, possible: &[&'static str]) -> Result<(), InputError> {
        if !self.collecting() {
            return self.unknown_keys(&[]);
        }
        let checked = match (self.recorded_here, possible.is_empty()) {
            (false, _) => self.unknown_keys(&[]),
            (true, true) => Ok(()),
            (true, false) => self.unknown_keys(possible),
        };
        if let Err(e) = checked {
            self.record(e);
        }
        Ok(())
    }

    /// Refuses the keys neither asked for nor in `known`.
    fn unknown_keys(&self, known: &[&'static str]) -> Result<(), InputError> {
        let mut accepted = self.asked.clone();
        accepted.extend_from_slice(known);
        accepted.sort_unstable();
        accepted.dedup();
        // Every unknown key, in file order (the table's own order is by
        // name): the first is the error, the others are listed with it.
        let mut unknown: Vec<(Option<usize>, &String)> = self
            .table
            .keys()
            .filter(|k| !accepted.contains(&k.as_str()))
            .map(|k| (self.src.line(&self.key_path(k)), k))
            .collect();
        unknown.sort_by_key(|&(line, _)| line.unwrap_or(usize::MAX));
        let Some(&(_, k)) = unknown.first() else {
            return Ok(());
        };
        let mut message = format!(
            "unknown key `{}` in {}",
            shown(k),
            if self.path.is_empty() {
                "the scenario's top level".to_string()
            } else {
                format!("`{}`", shown(&self.path))
            }
        );
        if unknown.len() > 1 {
            let mut more: Vec<String> = unknown[1..]
                .iter()
                .take(ALSO_SHOWN)
                .map(|(line, k)| match line {
                    Some(l) => format!("`{}` (line {l})", shown(k)),
                    None => format!("`{}`", shown(k)),
                })
                .collect();
            if unknown.len() - 1 > ALSO_SHOWN {
                more.push(format!("and {} more", unknown.len() - 1 - ALSO_SHOWN));
            }
            message.push_str(&format!("; also unknown: {}", more.join(", ")));
        }
        Err(self.locate(k, InputError::new(message).one_of(k, &accepted)))
    }
}

/// An error at a bare step key, from a constructor that has no [`Fields`]
/// (located later by [`relocate`]).
pub fn key_err(key: &str, message: impl Into<String>) -> InputError {
    InputError::new(message).key(key)
}

/// Locates an error from a constructor (whose `key` is a bare step key, see
/// [`key_err`]) at that key of the step `f`; without a key, at `procedure`.
pub fn relocate(f: &Fields, mut e: InputError) -> InputError {
    match e.key.take() {
        Some(k) => f.locate(&k, e),
        None => f.locate("procedure", e),
    }
}

/// A short description of a TOML value's type, for errors.
pub fn describe(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("the string \"{}\"", shown(s)),
        toml::Value::Integer(i) => format!("the number {i}"),
        toml::Value::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e16 => {
            format!(
                "the decimal number {f:.1} (write it without a decimal point or exponent, e.g. {f:.0})"
            )
        }
        toml::Value::Float(f) => format!("the decimal number {f}"),
        toml::Value::Boolean(b) => format!("{b}"),
        toml::Value::Datetime(_) => "a date".into(),
        toml::Value::Array(_) => "a list".into(),
        toml::Value::Table(_) => "a table".into(),
    }
}

/// Refuses a name longer than
/// [`MAX_NAME_CHARS`](crate::scenario::limits::MAX_NAME_CHARS): the message
/// says how long it is and what is accepted.
pub fn check_name_length(name: &str) -> Result<(), String> {
    use crate::scenario::limits::MAX_NAME_CHARS;
    let n = name.chars().count();
    if n <= MAX_NAME_CHARS {
        return Ok(());
    }
    Err(format!(
        "a name of {n} characters is too long; accepted: at most {MAX_NAME_CHARS} characters \
         (names label every row of the outputs)"
    ))
}

//! `--set KEY=VALUE`, read once into typed overrides that `run`,
//! `explain`, `serve` and the studies apply to a scenario
//! ([`super::ScenarioFile::apply`]).

use crate::error::InputError;

/// One `--set KEY=VALUE`: the key path and the value read as TOML (`3`,
/// `true`, `["a", "b"]`, `"x"`), or as a bare string where it does not
/// parse (`woods`).
#[derive(Clone, Debug, PartialEq)]
pub struct Override {
    /// As given, for records and messages (`units.pike.terrain=woods`).
    text: String,
    /// The key path, trimmed.
    key: String,
    /// The value.
    value: toml::Value,
}

impl Override {
    /// Reads `KEY=VALUE`; refused without `=`.
    pub fn parse(assignment: &str) -> Result<Override, InputError> {
        let (key, value) = assignment.split_once('=').ok_or_else(|| {
            InputError::new(format!("`--set {assignment}` has no `=`"))
                .accepted("KEY=VALUE, e.g. --set units.tercio.terrain=woods")
        })?;
        Ok(Override {
            text: assignment.to_string(),
            key: key.trim().to_string(),
            value: parse_value(value.trim()),
        })
    }

    /// The assignment as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The key path.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The value.
    pub fn value(&self) -> &toml::Value {
        &self.value
    }
}

/// Every `--set` of a command, in order (a later one wins).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides(Vec<Override>);

impl Overrides {
    /// Reads every assignment, in order; the first without `=` is refused.
    pub fn parse<S: AsRef<str>>(assignments: &[S]) -> Result<Overrides, InputError> {
        assignments
            .iter()
            .map(|s| Override::parse(s.as_ref()))
            .collect::<Result<Vec<_>, _>>()
            .map(Overrides)
    }

    /// Adds `o` after the others (it wins over an earlier one of its key).
    pub fn push(&mut self, o: Override) {
        self.0.push(o);
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each override, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Override> {
        self.0.iter()
    }

    /// The key paths set, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(Override::key)
    }

    /// Each assignment as given, in order (as `run.json` and the chart
    /// subtitles name them).
    pub fn texts(&self) -> Vec<String> {
        self.0.iter().map(|o| o.text.clone()).collect()
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

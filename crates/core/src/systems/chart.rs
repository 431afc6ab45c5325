//! Charts as transcribed, for `pikeshot tables`: a title, the rule number,
//! column headers and rows of cells, laid out like the card; and what
//! `pikeshot list` says of a procedure and each key ([`KeyDoc`]).

use std::borrow::Cow;

/// One chart of a card.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Short name used on the command line (`pikeshot tables mpbs close-combat`).
    pub id: &'static str,
    /// Title as on the card.
    pub title: String,
    /// Rule number, e.g. "11.0".
    pub rule: &'static str,
    /// Column headers.
    pub headers: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
    /// Notes printed under the chart (DRM lists, keys).
    pub notes: Vec<String>,
}

/// A chart's column headers, as written on the card.
pub fn headers(names: &[&str]) -> Vec<String> {
    names.iter().map(|&n| n.to_string()).collect()
}

/// A row of a chart: its label, then its cells.
pub fn labelled(label: impl ToString, cells: impl Iterator<Item = String>) -> Vec<String> {
    std::iter::once(label.to_string()).chain(cells).collect()
}

impl Chart {
    /// Renders the chart as an aligned text table.
    pub fn render(&self) -> String {
        let ncols = self
            .rows
            .iter()
            .map(Vec::len)
            .chain([self.headers.len()])
            .max()
            .unwrap_or(0);
        let width = |s: &str| s.chars().count();
        let mut w = vec![0usize; ncols];
        for row in std::iter::once(&self.headers).chain(&self.rows) {
            for (i, c) in row.iter().enumerate() {
                w[i] = w[i].max(width(c));
            }
        }
        let line = |row: &[String]| {
            let mut s = String::new();
            for (i, wi) in w.iter().enumerate() {
                let c = row.get(i).map(String::as_str).unwrap_or("");
                s.push_str("| ");
                s.push_str(c);
                s.push_str(&" ".repeat(wi - width(c) + 1));
            }
            s.push_str("|\n");
            s
        };
        let mut out = format!("{} ({})\n", self.title, self.rule);
        out.push_str(&line(&self.headers));
        let mut rule = String::new();
        for wi in &w {
            rule.push('|');
            rule.push_str(&"-".repeat(wi + 2));
        }
        rule.push_str("|\n");
        out.push_str(&rule);
        for r in &self.rows {
            out.push_str(&line(r));
        }
        for n in &self.notes {
            out.push_str("  ");
            out.push_str(n);
            out.push('\n');
        }
        out
    }
}

/// What `pikeshot list` says of a procedure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProcedureInfo {
    /// Name used in scenario steps (`procedure = "close-combat"`).
    pub name: &'static str,
    /// Rule number(s) on the card.
    pub rule: &'static str,
    /// One line on what it resolves.
    pub summary: &'static str,
    /// The step keys it accepts: what each means, accepts and defaults to.
    pub keys: &'static [KeyDoc],
    /// The outcome labels it reports.
    pub outcomes: &'static [&'static str],
    /// The measures it reports.
    pub measures: &'static [&'static str],
}

impl crate::explain::Heading for ProcedureInfo {
    fn name(&self) -> &str {
        self.name
    }
    fn rule(&self) -> &str {
        self.rule
    }
    fn summary(&self) -> &str {
        self.summary
    }
}

/// One key a scenario may set (a step key, a unit key, a course key or a
/// `[rules]` key): what it means, what it accepts and its default. `pikeshot
/// list` prints it and `pikeshot serve` builds the key's control from it;
/// a [`Key`](super::Key) declares it and reads it with the same values.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyDoc {
    /// The key.
    pub key: &'static str,
    /// What it accepts.
    pub kind: Kind,
    /// Its default, where one value is the default (a default that depends
    /// on the units is in `help`).
    pub default: Option<&'static str>,
    /// What it means, with its rule number where the card gives one.
    pub help: &'static str,
}

/// The names a key accepts on one edition (card): `(edition, names)`.
pub type EditionNames = (&'static str, Cow<'static, [&'static str]>);

/// What a key accepts.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// `true` or `false`.
    Bool,
    /// A whole number from `min` to `max`, both included.
    Int {
        /// Least accepted.
        min: i64,
        /// Largest accepted.
        max: i64,
    },
    /// A number with a decimal point from `min` to `max`, both included.
    Decimal {
        /// Least accepted.
        min: f64,
        /// Largest accepted.
        max: f64,
    },
    /// One of these names.
    OneOf(Cow<'static, [&'static str]>),
    /// One of these names, which differ by edition (card): `(edition, names)`.
    PerEdition(Cow<'static, [EditionNames]>),
    /// `true`, `false` or a whole number from `min` to `max`.
    BoolOrInt {
        /// Least accepted number.
        min: i64,
        /// Largest accepted number.
        max: i64,
    },
    /// `true`, `false` or one of these names.
    BoolOrOneOf(Cow<'static, [&'static str]>),
    /// One of these names or a whole number from `min` to `max`.
    OneOfOrInt {
        /// The names.
        names: Cow<'static, [&'static str]>,
        /// Least accepted number.
        min: i64,
        /// Largest accepted number.
        max: i64,
    },
    /// The name of one of the scenario's units.
    Unit,
    /// The name of one of the scenario's units, or a list of them.
    Units,
    /// Anything else, as the help says (a table, a list, a label).
    Text,
}

impl Kind {
    /// What the kind accepts, in words for `pikeshot list`: `-9..=9`,
    /// `true | false`, `front | flank | rear`, `a unit name`.
    pub fn accepts(&self) -> String {
        match self {
            Kind::Bool => "true | false".into(),
            Kind::Int { min, max } => format!("{min}..={max}"),
            Kind::Decimal { min, max } => format!("{min:?}..={max:?}"),
            Kind::OneOf(names) => names.join(" | "),
            Kind::PerEdition(by) => by
                .iter()
                .map(|(e, names)| format!("{e}: {}", names.join(" | ")))
                .collect::<Vec<_>>()
                .join("; "),
            Kind::BoolOrInt { min, max } => format!("true | false | {min}..={max}"),
            Kind::BoolOrOneOf(names) => format!("true | false | {}", names.join(" | ")),
            Kind::OneOfOrInt { names, min, max } => {
                format!("{} | {min}..={max}", names.join(" | "))
            }
            Kind::Unit => "a unit name".into(),
            Kind::Units => "a unit name or a list of them".into(),
            Kind::Text => "see the help".into(),
        }
    }
}

impl KeyDoc {
    /// A key of any kind, without a default.
    pub const fn new(key: &'static str, kind: Kind, help: &'static str) -> KeyDoc {
        KeyDoc {
            key,
            kind,
            default: None,
            help,
        }
    }
    /// `true` or `false`.
    pub const fn flag(key: &'static str, help: &'static str) -> KeyDoc {
        KeyDoc::new(key, Kind::Bool, help)
    }
    /// A whole number from `min` to `max`.
    pub const fn int(key: &'static str, min: i64, max: i64, help: &'static str) -> KeyDoc {
        KeyDoc::new(key, Kind::Int { min, max }, help)
    }
    /// One of `names`.
    pub const fn one_of(
        key: &'static str,
        names: &'static [&'static str],
        help: &'static str,
    ) -> KeyDoc {
        KeyDoc::new(key, Kind::OneOf(Cow::Borrowed(names)), help)
    }
    /// The name of one of the scenario's units.
    pub const fn unit(key: &'static str, help: &'static str) -> KeyDoc {
        KeyDoc::new(key, Kind::Unit, help)
    }
    /// Anything the help describes.
    pub const fn text(key: &'static str, help: &'static str) -> KeyDoc {
        KeyDoc::new(key, Kind::Text, help)
    }
    /// The same key with `default` as its default.
    pub const fn or(mut self, default: &'static str) -> KeyDoc {
        self.default = Some(default);
        self
    }
    /// The line of `pikeshot list` for the key, after its name: its help,
    /// then what it accepts and its default.
    pub fn describe(&self) -> String {
        let mut s = format!("{} (accepts: {}", self.help, self.kind.accepts());
        if let Some(d) = self.default {
            s.push_str(&format!("; default {d}"));
        }
        s.push(')');
        s
    }
}

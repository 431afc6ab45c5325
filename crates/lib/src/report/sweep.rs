//! A scenario's sweep as the reports see it ([`Sweep`]: each swept key
//! with its values, typed, and each variant's pick of them).
//!
//! `sweep.csv` is written by [`super::sweep_csv`]; the charts across the
//! sweep are in [`super::sweep_chart`].

/// One value of a swept key, with its type.
#[derive(Clone, Debug, PartialEq)]
pub enum SweepValue {
    /// A whole number.
    Int(i64),
    /// A number with a fraction.
    Float(f64),
    /// `true` or `false`.
    Bool(bool),
    /// A string (or any other value, as its TOML text).
    Text(String),
}

impl SweepValue {
    /// The value as a plain CSV cell and axis label: numbers as numbers
    /// (`.` decimals), strings bare.
    pub fn text(&self) -> String {
        match self {
            SweepValue::Int(i) => i.to_string(),
            SweepValue::Float(x) => {
                let s = format!("{x}");
                if s.contains(['.', 'e', 'i', 'N']) {
                    s
                } else {
                    format!("{s}.0")
                }
            }
            SweepValue::Bool(b) => b.to_string(),
            SweepValue::Text(t) => t.clone(),
        }
    }

    /// The value as a number, for a numeric axis.
    pub fn number(&self) -> Option<f64> {
        match self {
            SweepValue::Int(i) => Some(*i as f64),
            SweepValue::Float(x) if x.is_finite() => Some(*x),
            _ => None,
        }
    }
}

/// One swept key and its values, in the file's order.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepAxis {
    /// The key path, e.g. `units.tercio.terrain`.
    pub key: String,
    /// Its values, in sweep order.
    pub values: Vec<SweepValue>,
}

impl SweepAxis {
    /// Whether every value is a number (a numeric axis on the charts).
    pub fn numeric(&self) -> bool {
        self.values.iter().all(|v| v.number().is_some())
    }
}

/// One variant of a sweep: its label and the index of its value on each
/// axis.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint {
    /// The variant's label (`key=value, …`), as in every CSV file.
    pub label: String,
    /// For each axis of [`Sweep::axes`], the index of this variant's value.
    pub picks: Vec<usize>,
}

/// The sweep of a scenario run.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// The swept keys (those pinned by `--set` are not among them).
    pub axes: Vec<SweepAxis>,
    /// Every variant, in run order.
    pub points: Vec<SweepPoint>,
}

impl Sweep {
    /// The sweep of `labels` (every variant's label, in run order) over
    /// `axes`: variant `i` takes, on each axis, the digit of `i` written
    /// in the mixed radix of the axes' lengths, the last axis changing
    /// fastest (the order the scenario expands its sweep in). `None`
    /// without an axis, or when the labels do not number the product of
    /// the axes' lengths.
    pub fn new(axes: Vec<SweepAxis>, labels: Vec<String>) -> Option<Sweep> {
        let total = axes
            .iter()
            .try_fold(1usize, |t, a| t.checked_mul(a.values.len()))?;
        if axes.is_empty() || total != labels.len() {
            return None;
        }
        let points = labels
            .into_iter()
            .enumerate()
            .map(|(i, label)| {
                let mut picks = vec![0; axes.len()];
                let mut rest = i;
                for (a, axis) in axes.iter().enumerate().rev() {
                    picks[a] = rest % axis.values.len();
                    rest /= axis.values.len();
                }
                SweepPoint { label, picks }
            })
            .collect();
        Some(Sweep { axes, points })
    }

    /// The point of the variant labelled `label`.
    pub fn point(&self, label: &str) -> Option<&SweepPoint> {
        self.points.iter().find(|p| p.label == label)
    }
}

//! One figure as every report gives it: the Monte Carlo value, its 95%
//! interval and the exact value when known. A key outcome, the difference
//! of two courses' key outcomes, a side of `pikeshot diff` and a target
//! checked all carry one.

/// A value with its 95% interval and, when computed, its exact value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// Monte Carlo value (the exact value without trials; NaN when neither
    /// is known).
    pub value: f64,
    /// 95% interval (NaN bounds when there is none).
    pub ci: (f64, f64),
    /// The exact value, when known.
    pub exact: Option<f64>,
}

impl Figure {
    /// An outcome a card cannot produce: probability 0, exactly.
    pub const IMPOSSIBLE: Figure = Figure {
        value: 0.0,
        ci: (0.0, 0.0),
        exact: Some(0.0),
    };

    /// Nothing known: NaN value and bounds, no exact value.
    pub const UNKNOWN: Figure = Figure {
        value: f64::NAN,
        ci: (f64::NAN, f64::NAN),
        exact: None,
    };

    /// Whether this is an exact value with no sampling behind it
    /// (`--method exact`, or an outcome the card cannot produce): its
    /// interval is the value itself.
    pub fn is_exact_only(&self) -> bool {
        self.exact == Some(self.value) && self.ci == (self.value, self.value)
    }

    /// The highest point a chart draws of it: the top of its interval, its
    /// value or its exact value, whichever is highest (a missing exact
    /// value counts as 0).
    pub fn top(&self) -> f64 {
        self.ci.1.max(self.value).max(self.exact.unwrap_or(0.0))
    }
}

//! How a run finds its figures (`--method`): one value, so that no
//! combination of switches can ask for neither trials nor exact answers.

/// How a run finds its figures (`--method`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Monte Carlo trials only.
    #[default]
    MonteCarlo,
    /// Exact enumeration only: no trials; a course that does not enumerate
    /// within the budget is an error naming it.
    Exact,
    /// Monte Carlo trials, and the exact values beside them.
    Both,
    /// Exact for each variant whose courses all enumerate within the
    /// budget (no trials); Monte Carlo with the exact column where it fits
    /// for any other.
    Auto,
}

impl Method {
    /// The name on the command line and in `run.json`.
    pub fn name(self) -> &'static str {
        match self {
            Method::MonteCarlo => "monte-carlo",
            Method::Exact => "exact",
            Method::Both => "both",
            Method::Auto => "auto",
        }
    }

    /// The method a command line asks for: `--method` when given, else
    /// `both` under `--exact`; else `auto`, unless `--trials` or
    /// `--precision` asks for trials by name (then `monte-carlo`: the
    /// trials asked for; `--exact` adds the exact column).
    pub fn resolve(method: Option<Method>, exact: bool, trials_asked: bool) -> Method {
        match (method, exact) {
            (Some(m), _) => m,
            (None, true) => Method::Both,
            (None, false) if trials_asked => Method::MonteCarlo,
            (None, false) => Method::Auto,
        }
    }

    /// Whether exact answers are looked for (every method but
    /// `monte-carlo`).
    pub fn exact(self) -> bool {
        self != Method::MonteCarlo
    }

    /// Whether trials may be drawn (every method but `exact`; under
    /// `auto`, only for a variant with a course that does not enumerate).
    pub fn monte_carlo(self) -> bool {
        self != Method::Exact
    }

    /// Whether each variant's exact answers are found first, and a
    /// variant whose courses all have one runs no trials (`auto`).
    pub fn exact_first(self) -> bool {
        self == Method::Auto
    }
}

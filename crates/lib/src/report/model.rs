//! What a report is made from: the tallies of a scenario run, and their
//! marginals computed once for every output.

use super::figure::Figure;
use crate::engine::Tally;
use crate::outcome::{OutcomeSpace, Side};
use crate::stats;

/// One course of action of one variant, with what the runner counted.
///
/// Its marginals ([`CourseRun::stats`]) are computed once, the first time
/// an output asks, and held: the CSV files, the charts, the comparison,
/// `sweep.csv` and the targets all read the same figures.
#[derive(Clone, Debug)]
pub struct CourseRun {
    /// The sweep variant, e.g. `units.tercio.terrain=woods` (several joined
    /// with `", "`); empty without a sweep.
    pub variant: String,
    /// The course name as written in the scenario.
    pub course: String,
    /// Whose side the key outcomes are read from.
    pub side: Side,
    /// The outcome space the tally counts leaves of.
    pub space: OutcomeSpace,
    /// Leaf counts, exact leaf probabilities, timing. Read, not changed:
    /// the marginals are computed from it once.
    pub tally: Tally,
    /// The marginals, once computed.
    stats: std::sync::OnceLock<CourseStats>,
}

/// What names a scenario run wherever it is shown or written: the
/// scenario, its rule system and edition, and the master seed. A prepared
/// run ([`crate::run::Prepared`]), its result ([`ScenarioRun`]) and the
/// `--format json` document (its four fields inline) carry this one value.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RunId {
    /// The scenario's `name` (the file's stem when it has none).
    pub name: String,
    /// The rule system, e.g. `mpbs`.
    pub system: String,
    /// Every edition the variants use, in order of first use (none for a
    /// system without editions). Written as one `edition` value, the
    /// editions joined by `", "` ([`RunId::edition`]).
    #[serde(rename = "edition", serialize_with = "joined_editions")]
    pub editions: Vec<String>,
    /// The master seed of the run.
    pub seed: u64,
}

impl RunId {
    /// The editions as one value, joined by `", "` (`series, sfo` for a
    /// sweep of both); `None` for a system without editions.
    pub fn edition(&self) -> Option<String> {
        (!self.editions.is_empty()).then(|| self.editions.join(", "))
    }
}

/// Writes a run's editions as [`RunId::edition`] gives them.
fn joined_editions<S: serde::Serializer>(editions: &[String], s: S) -> Result<S::Ok, S::Error> {
    use serde::Serialize;
    (!editions.is_empty())
        .then(|| editions.join(", "))
        .serialize(s)
}

/// Everything one scenario file produced: every variant × course.
#[derive(Clone, Debug)]
pub struct ScenarioRun {
    /// Which scenario, system, edition and seed.
    pub id: RunId,
    /// The scenario file's stem (for folder names).
    pub file_stem: String,
    /// Every `--set` of the run, in order (named in chart subtitles).
    pub sets: Vec<String>,
    /// One entry per variant × course, variants outermost.
    pub courses: Vec<CourseRun>,
    /// The sweep: each swept key with its values, and each variant's
    /// values; `None` without a sweep.
    pub sweep: Option<super::sweep::Sweep>,
}

/// One outcome category of a course.
#[derive(Clone, Debug, PartialEq)]
pub struct OutcomeStat {
    /// The category id (kebab-case: CSV, JSON, `[[expect]]`).
    pub id: String,
    /// The category label (the card's words: terminal, plots, HTML).
    pub label: String,
    /// Monte Carlo count.
    pub count: u64,
    /// The probability: `count / trials` with its 95% Wilson interval, and
    /// the exact marginal probability when the tally has one; without
    /// trials (`--method exact`) the exact value, at both ends of the
    /// interval too.
    pub figure: Figure,
}

impl OutcomeStat {
    /// Whether the outcome can happen: some trial reached it, or it has no
    /// exact probability of 0. An outcome the exact enumeration finds
    /// impossible is left out of the histograms; without an exact figure,
    /// an outcome no trial reached is kept (it may be rare, and its
    /// interval says how rare).
    pub fn possible(&self) -> bool {
        self.count > 0 || self.figure.exact.is_none_or(|e| e > 0.0)
    }
}

/// One measure of a course: its distribution over `min..=max`.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasureStat {
    /// The measure id (kebab-case: CSV, JSON, `[[expect]]`).
    pub name: String,
    /// What to show for it (terminal, plots, HTML): its label, else its id.
    pub label: String,
    /// Smallest value; index `i` of every vector is value `min + i`.
    pub min: i32,
    /// Monte Carlo count of each value.
    pub counts: Vec<u64>,
    /// Probability of each value (`count / trials`; the exact one without
    /// trials, under `--method exact`).
    pub probs: Vec<f64>,
    /// `P(X >= value)` for each value.
    pub at_least: Vec<f64>,
    /// Mean value (NaN without trials unless exact).
    pub mean: f64,
    /// Exact probability of each value.
    pub exact: Option<Vec<f64>>,
    /// Exact `P(X >= value)`.
    pub exact_at_least: Option<Vec<f64>>,
    /// Exact mean.
    pub exact_mean: Option<f64>,
}

impl MeasureStat {
    /// The mean with its 95% interval: normal from the counts, or, without
    /// trials but with exact probabilities (`--method exact`), the exact
    /// mean with an interval of zero width.
    pub fn mean_ci(&self) -> (f64, (f64, f64)) {
        match self.exact_mean {
            Some(e) if self.counts.iter().all(|&c| c == 0) => (e, (e, e)),
            _ => stats::mean_ci(self.min, &self.counts),
        }
    }
    /// The mean as `summary.csv` and `sweep.csv` give it: [`MeasureStat::mean`]
    /// with the interval of [`MeasureStat::mean_ci`] and the exact mean.
    pub fn mean_figure(&self) -> Figure {
        Figure {
            value: self.mean,
            ci: self.mean_ci().1,
            exact: self.exact_mean,
        }
    }
    /// The mean as a key outcome and a target judge it: the value and
    /// interval of [`MeasureStat::mean_ci`] (the exact mean when there are
    /// no trials), with the exact mean.
    pub fn mean_estimate(&self) -> Figure {
        let (value, ci) = self.mean_ci();
        Figure {
            value,
            ci,
            exact: self.exact_mean,
        }
    }
    /// The values `min..=max`, in order.
    pub fn values(&self) -> impl Iterator<Item = i32> + '_ {
        (0..self.counts.len()).map(move |i| self.min + i as i32)
    }

    /// Whether value index `i` can happen: a Monte Carlo count or an exact
    /// probability above zero.
    pub fn possible(&self, i: usize) -> bool {
        self.counts[i] > 0 || self.exact.as_ref().is_some_and(|e| e[i] > 0.0)
    }

    /// The indices of the values an "at least" view shows: every value
    /// above the smallest that can happen, up to the largest that can.
    /// Empty for a measure that takes one value only.
    pub fn at_least_indices(&self) -> Vec<usize> {
        let first = (0..self.counts.len()).find(|&i| self.possible(i));
        let last = (0..self.counts.len()).rev().find(|&i| self.possible(i));
        match (first, last) {
            (Some(f), Some(l)) if l > f => (f + 1..=l).collect(),
            _ => Vec::new(),
        }
    }
}

/// The marginals of one course.
#[derive(Clone, Debug, PartialEq)]
pub struct CourseStats {
    /// Trials resolved.
    pub trials: u64,
    /// Every category, in the space's order.
    pub outcomes: Vec<OutcomeStat>,
    /// Every measure, in the space's order.
    pub measures: Vec<MeasureStat>,
}

impl CourseStats {
    /// Whether exact probabilities are present.
    pub fn has_exact(&self) -> bool {
        self.outcomes.iter().any(|o| o.figure.exact.is_some())
    }
    /// The measure named `name`.
    pub fn measure(&self, name: &str) -> Option<&MeasureStat> {
        self.measures.iter().find(|m| m.name == name)
    }
}

impl CourseRun {
    /// Course `course` of `variant` (empty without a sweep), read from
    /// `side`, with the `tally` counted over `space`.
    pub fn new(
        variant: String,
        course: String,
        side: Side,
        space: OutcomeSpace,
        tally: Tally,
    ) -> CourseRun {
        CourseRun {
            variant,
            course,
            side,
            space,
            tally,
            stats: std::sync::OnceLock::new(),
        }
    }

    /// Panics unless the tally was counted over this course's space (a
    /// programming error: the runner sizes counts from the same space).
    pub(crate) fn assert_tally_fits(&self) {
        assert_eq!(
            self.tally.counts.len(),
            self.space.len(),
            "tally of course {:?} does not match its outcome space",
            self.course
        );
    }

    /// The marginal distributions of this course, computed the first time
    /// they are asked for.
    ///
    /// Panics if the tally was not counted over this course's space (a
    /// programming error: the runner sizes counts from the same space).
    pub fn stats(&self) -> &CourseStats {
        self.stats.get_or_init(|| self.compute_stats())
    }

    fn compute_stats(&self) -> CourseStats {
        self.assert_tally_fits();
        let space = &self.space;
        let tally = &self.tally;
        if let Some(e) = &tally.exact {
            assert_eq!(e.len(), space.len(), "exact vector does not match space");
        }
        let n = tally.trials;
        let ratio = |k: u64| {
            if n == 0 {
                f64::NAN
            } else {
                k as f64 / n as f64
            }
        };
        // Exact only (no trial): the exact values stand in for the Monte
        // Carlo ones, with intervals of zero width (no sampling error).
        let exact_only = n == 0 && tally.exact.is_some();
        // Every marginal in one pass each over the counts and the exact
        // probabilities (a course's space is mostly leaves never reached).
        let (outcome_counts, mut measure_counts) = if n == 0 {
            // No trial, so no count: zeros, without a pass over every leaf
            // of the space (a space may have a million leaves).
            let measures = space.measures().iter();
            (
                vec![0; space.outcomes().len()],
                measures
                    .map(|m| vec![0; (m.max - m.min + 1) as usize])
                    .collect(),
            )
        } else {
            stats::marginals(space, &tally.counts)
        };
        let (exact_outcomes, mut exact_measures) = match &tally.exact {
            Some(e) => {
                let (o, m) = stats::marginals(space, e);
                (Some(o), Some(m))
            }
            None => (None, None),
        };
        let outcomes = outcome_counts
            .into_iter()
            .enumerate()
            .map(|(i, count)| {
                let exact = exact_outcomes.as_ref().map(|e| e[i]);
                let (value, ci) = match exact {
                    Some(e) if exact_only => (e, (e, e)),
                    _ => (ratio(count), stats::wilson(count, n)),
                };
                OutcomeStat {
                    id: space.outcome_ids()[i].clone(),
                    label: space.outcomes()[i].clone(),
                    count,
                    figure: Figure { value, ci, exact },
                }
            })
            .collect();
        let measures = space
            .measures()
            .iter()
            .enumerate()
            .map(|(m, meas)| {
                let counts = std::mem::take(&mut measure_counts[m]);
                let weights: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
                let exact = exact_measures.as_mut().map(|e| std::mem::take(&mut e[m]));
                let exact_at_least = exact.as_ref().map(|p| stats::at_least(p));
                let exact_mean = exact
                    .as_ref()
                    .map(|p| stats::mean(meas.min, p, p.iter().sum()));
                let (probs, at_least, mean) = match (&exact, &exact_at_least, exact_mean) {
                    (Some(p), Some(a), Some(m)) if exact_only => (p.clone(), a.clone(), m),
                    _ => {
                        let probs: Vec<f64> = counts.iter().map(|&c| ratio(c)).collect();
                        let at_least = if n == 0 {
                            probs.clone()
                        } else {
                            stats::at_least(&probs)
                        };
                        (probs, at_least, stats::mean(meas.min, &weights, n as f64))
                    }
                };
                MeasureStat {
                    name: meas.id().to_string(),
                    label: meas.display().to_string(),
                    min: meas.min,
                    at_least,
                    mean,
                    exact_at_least,
                    exact_mean,
                    counts,
                    probs,
                    exact,
                }
            })
            .collect();
        CourseStats {
            trials: n,
            outcomes,
            measures,
        }
    }
}

impl ScenarioRun {
    /// Every measure name of the run, in order of first appearance.
    pub fn measure_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for c in &self.courses {
            for m in c.space.measures() {
                if !names.contains(&m.name) {
                    names.push(m.name.clone());
                }
            }
        }
        names
    }
    /// The distinct variants, in order of first appearance.
    pub fn variants(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        let mut out: Vec<&str> = Vec::new();
        for c in &self.courses {
            if seen.insert(c.variant.as_str()) {
                out.push(&c.variant);
            }
        }
        out
    }
}

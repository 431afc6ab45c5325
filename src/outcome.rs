//! Outcome spaces: what a procedure can produce.
//!
//! A resolution ends in one *leaf*: a category (the table result, such as
//! "defender morale broken") together with the values of a few numeric
//! measures (hits, formation hits, turns…). Leaves are numbered densely, so
//! the runner only counts integers; outcome and measure distributions are
//! marginals of the leaf counts.

/// The index of a leaf in an [`OutcomeSpace`].
pub type Leaf = u32;

/// Largest number of leaves a space may have (its counters are dense).
pub const MAX_LEAVES: usize = 1 << 20;

/// A numeric measure of a resolution, with its inclusive range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measure {
    /// Name as written in measures.csv (kebab-case, e.g. `hits`).
    pub name: String,
    /// Smallest value.
    pub min: i32,
    /// Largest value.
    pub max: i32,
}

impl Measure {
    /// A measure named `name` ranging over `min..=max`.
    pub fn new(name: impl Into<String>, min: i32, max: i32) -> Measure {
        assert!(min <= max);
        Measure {
            name: name.into(),
            min,
            max,
        }
    }
    fn span(&self) -> u32 {
        (self.max - self.min + 1) as u32
    }
}

/// The categories and measures a procedure reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeSpace {
    outcomes: Vec<String>,
    measures: Vec<Measure>,
    strides: Vec<u32>,
    len: u32,
}

impl OutcomeSpace {
    /// A space with these category labels and measures.
    ///
    /// Panics if the dense leaf count would exceed [`MAX_LEAVES`]: spaces are
    /// built by procedure constructors from card-bounded ranges.
    pub fn new(outcomes: Vec<String>, measures: Vec<Measure>) -> OutcomeSpace {
        assert!(!outcomes.is_empty());
        let mut strides = Vec::with_capacity(measures.len());
        let mut len = outcomes.len() as u64;
        for m in &measures {
            strides.push(len as u32);
            len *= m.span() as u64;
            assert!(len as usize <= MAX_LEAVES, "outcome space too large");
        }
        OutcomeSpace {
            outcomes,
            measures,
            strides,
            len: len as u32,
        }
    }
    /// Convenience: labels from string slices.
    pub fn from_labels(outcomes: &[&str], measures: Vec<Measure>) -> OutcomeSpace {
        OutcomeSpace::new(outcomes.iter().map(|s| s.to_string()).collect(), measures)
    }
    /// Number of leaves (outcome × every measure value).
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// The category labels.
    pub fn outcomes(&self) -> &[String] {
        &self.outcomes
    }
    /// The measures.
    pub fn measures(&self) -> &[Measure] {
        &self.measures
    }
    /// Index of the category labelled `label`.
    pub fn outcome_index(&self, label: &str) -> Option<usize> {
        self.outcomes.iter().position(|o| o == label)
    }
    /// Index of the measure named `name`.
    pub fn measure_index(&self, name: &str) -> Option<usize> {
        self.measures.iter().position(|m| m.name == name)
    }
    /// The leaf for category `outcome` with these measure values (one per
    /// measure, in order). Values outside a measure's range are clamped to it.
    #[inline]
    pub fn leaf(&self, outcome: usize, values: &[i32]) -> Leaf {
        debug_assert!(outcome < self.outcomes.len());
        debug_assert_eq!(values.len(), self.measures.len());
        let mut l = outcome as u32;
        for ((m, &s), &v) in self.measures.iter().zip(&self.strides).zip(values) {
            let v = v.clamp(m.min, m.max);
            l += s * (v - m.min) as u32;
        }
        l
    }
    /// The category of a leaf.
    #[inline]
    pub fn outcome_of(&self, leaf: Leaf) -> usize {
        (leaf % self.outcomes.len() as u32) as usize
    }
    /// The value of measure `m` at a leaf.
    #[inline]
    pub fn value_of(&self, leaf: Leaf, m: usize) -> i32 {
        let meas = &self.measures[m];
        ((leaf / self.strides[m]) % meas.span()) as i32 + meas.min
    }
}

/// The key measures every course of action reports, by name: what the
/// comparison of courses reads, whatever the rule system.
pub mod keys {
    /// Morale state of the course's own unit at the end of the course.
    pub const OWN_MORALE: &str = "own-morale";
    /// Morale state of the enemy unit at the end of the course.
    pub const ENEMY_MORALE: &str = "enemy-morale";
    /// Hits the own side inflicted.
    pub const HITS_INFLICTED: &str = "hits-inflicted";
    /// Hits the own side took.
    pub const HITS_TAKEN: &str = "hits-taken";
    /// Formation hits the own side inflicted.
    pub const FORMATION_HITS_INFLICTED: &str = "formation-hits-inflicted";
    /// Formation hits the own side took.
    pub const FORMATION_HITS_TAKEN: &str = "formation-hits-taken";
    /// The turn an engagement stopped on (1..=N); its presence makes a course an
    /// engagement.
    pub const TURNS: &str = "turns";

    /// The morale value from which a unit counts as broken or eliminated
    /// (0 good, 1 shaken, 2 broken, 3 eliminated).
    pub const BROKEN: i32 = 2;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_round_trip() {
        let s = OutcomeSpace::from_labels(
            &["a", "b", "c"],
            vec![Measure::new("hits", 0, 2), Measure::new("turn", 1, 4)],
        );
        assert_eq!(s.len(), 3 * 3 * 4);
        let mut seen = vec![false; s.len()];
        for o in 0..3 {
            for h in 0..=2 {
                for t in 1..=4 {
                    let l = s.leaf(o, &[h, t]);
                    assert!(!seen[l as usize]);
                    seen[l as usize] = true;
                    assert_eq!(s.outcome_of(l), o);
                    assert_eq!(s.value_of(l, 0), h);
                    assert_eq!(s.value_of(l, 1), t);
                }
            }
        }
    }
}

//! Outcome spaces: what a procedure can produce.
//!
//! A resolution ends in one *leaf*: a category (the table result, such as
//! "defender morale broken") together with the values of a few numeric
//! measures (hits, formation hits, turns…). Leaves are numbered densely, so
//! the runner only counts integers; outcome and measure distributions are
//! marginals of the leaf counts.
//!
//! Naming: every outcome and measure has an *id* in kebab-case (what CSV,
//! JSON, `--set` and `[[expect]]` use) and may have a display *label* (what
//! the terminal, plots and HTML show). An outcome built from a label alone
//! gets the id [`kebab_id`] derives from it; a measure's name is its id.
//!
//! A space whose every combination of outcome and measure values would be
//! more than [`MAX_LEAVES`] (a long course: turns, hits and morale of each
//! side) is *sparse*: its leaves are numbered in the order they are first
//! asked for ([`OutcomeSpace::leaf`]), so it holds only the combinations
//! its course reaches. A space that fits is dense, numbered as above.

use std::sync::{Arc, Mutex, MutexGuard};

use rustc_hash::FxHashMap;

/// The index of a leaf in an [`OutcomeSpace`].
pub type Leaf = u32;

/// Largest number of leaves a dense space may have (its counters are
/// dense), and of leaves a sparse one may reach.
pub const MAX_LEAVES: usize = 1 << 20;

/// The kebab-case id of a display label: lower-case letters and digits,
/// every other run of characters one dash, none at either end
/// (`"1 hit + FH"` → `1-hit-fh`, `"SP lost"` → `sp-lost`). An id is its own
/// id.
pub fn kebab_id(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    for ch in label.chars().flat_map(char::to_lowercase) {
        if ch.is_alphanumeric() {
            out.push(ch);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// Whose side a course's key outcomes are read from: the `own` unit (the
/// one whose results count for the course) and the `enemy` it acts on, as
/// unit names, and whether the course named both itself (`own`/`enemy`
/// keys) rather than taking the system's default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Side {
    /// The own unit's name; empty when the course has none.
    pub own: String,
    /// The enemy unit's name; empty when the course has none.
    pub enemy: String,
    /// Whether the course named both `own` and `enemy`.
    pub named: bool,
}

impl Side {
    /// The side of the units at `own` and `enemy` of `names`.
    pub fn of(names: &[&str], own: Option<usize>, enemy: Option<usize>, named: bool) -> Side {
        let name = |i: Option<usize>| {
            i.and_then(|i| names.get(i))
                .map(|n| n.to_string())
                .unwrap_or_default()
        };
        Side {
            own: name(own),
            enemy: name(enemy),
            named,
        }
    }
    /// `own vs enemy` (or the one present), for headers and legends.
    pub fn label(&self) -> String {
        match (self.own.is_empty(), self.enemy.is_empty()) {
            (false, false) => format!("{} vs {}", self.own, self.enemy),
            (false, true) => self.own.clone(),
            (true, false) => format!("vs {}", self.enemy),
            (true, true) => String::new(),
        }
    }
}

/// A numeric measure of a resolution, with its inclusive range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measure {
    /// Id as written in measures.csv (kebab-case, e.g. `hits`).
    pub name: String,
    /// Display label (terminal, plots, HTML), when it differs from the id.
    pub label: Option<String>,
    /// Smallest value.
    pub min: i32,
    /// Largest value.
    pub max: i32,
}

impl Measure {
    /// A measure named `name` ranging over `min..=max`, labelled as
    /// [`keys::label`] says for a key measure.
    pub fn new(name: impl Into<String>, min: i32, max: i32) -> Measure {
        assert!(min <= max);
        let name = name.into();
        Measure {
            label: keys::label(&name).map(String::from),
            name,
            min,
            max,
        }
    }
    /// The same measure with a display label.
    pub fn labelled(mut self, label: impl Into<String>) -> Measure {
        self.label = Some(label.into());
        self
    }
    /// The id (kebab-case).
    pub fn id(&self) -> &str {
        &self.name
    }
    /// What to show: the label, else the id.
    pub fn display(&self) -> &str {
        self.label.as_deref().unwrap_or(&self.name)
    }
    fn span(&self) -> u32 {
        (self.max - self.min + 1) as u32
    }
}

/// The categories and measures a procedure reports.
///
/// A clone of a sparse space shares its leaves: a leaf numbered through
/// one is the same leaf in every clone.
#[derive(Clone, Debug)]
pub struct OutcomeSpace {
    outcomes: Vec<String>,
    ids: Vec<String>,
    measures: Vec<Measure>,
    strides: Vec<u32>,
    len: u32,
    /// The leaves reached, for a space too large to be dense.
    sparse: Option<Arc<Mutex<Sparse>>>,
}

/// The leaves of a sparse space: each leaf's dense index (what it would be
/// numbered if the space were dense, as a wide integer), in the order first
/// reached, and the leaf of each.
#[derive(Debug, Default)]
struct Sparse {
    /// The dense index of each leaf.
    keys: Vec<u128>,
    /// The leaf of each dense index reached.
    leaf: FxHashMap<u128, Leaf>,
}

impl PartialEq for OutcomeSpace {
    fn eq(&self, other: &OutcomeSpace) -> bool {
        let same_leaves = match (&self.sparse, &other.sparse) {
            (None, None) => self.len == other.len,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || lock(a).keys == lock(b).keys,
            _ => false,
        };
        self.outcomes == other.outcomes
            && self.ids == other.ids
            && self.measures == other.measures
            && same_leaves
    }
}

impl Eq for OutcomeSpace {}

/// The leaves of a sparse space, locked (a panic elsewhere while they were
/// held left them whole: each change is one push and one insert).
fn lock(s: &Mutex<Sparse>) -> MutexGuard<'_, Sparse> {
    s.lock().unwrap_or_else(|e| e.into_inner())
}

impl OutcomeSpace {
    /// A space with these category labels and measures.
    ///
    /// Panics if the dense leaf count would exceed [`MAX_LEAVES`], or if two
    /// labels derive the same id (`"1 hit + FH"` and `"1 hit FH"` both give
    /// `1-hit-fh`): spaces are built by procedure constructors from
    /// card-bounded ranges and card labels, so either is a programming error.
    pub fn new(outcomes: Vec<String>, measures: Vec<Measure>) -> OutcomeSpace {
        assert!(!outcomes.is_empty());
        let mut strides = Vec::with_capacity(measures.len());
        let mut len = outcomes.len() as u64;
        for m in &measures {
            strides.push(len as u32);
            len *= m.span() as u64;
            assert!(len as usize <= MAX_LEAVES, "outcome space too large");
        }
        let ids: Vec<String> = outcomes.iter().map(|o| kebab_id(o)).collect();
        for (i, id) in ids.iter().enumerate() {
            assert!(!id.is_empty(), "outcome {:?} has an empty id", outcomes[i]);
            if let Some(j) = ids[..i].iter().position(|o| o == id) {
                panic!(
                    "outcome ids collide: {:?} and {:?} both give id {id:?}",
                    outcomes[j], outcomes[i]
                );
            }
        }
        OutcomeSpace {
            outcomes,
            ids,
            measures,
            strides,
            len: len as u32,
            sparse: None,
        }
    }
    /// As [`OutcomeSpace::new`] for a space whose size comes from the input
    /// (a course's turns, strengths and steps): a space of more leaves than
    /// [`MAX_LEAVES`] is sparse (numbered as its leaves are reached), and
    /// outcome labels (made from unit names) whose ids are empty or collide
    /// are a bad-input error, not a panic. The caller locates it at the
    /// course.
    pub fn try_new(
        outcomes: Vec<String>,
        measures: Vec<Measure>,
    ) -> Result<OutcomeSpace, crate::error::InputError> {
        let len = OutcomeSpace::leaf_count(outcomes.len(), &measures);
        if len == u128::MAX {
            return Err(crate::error::InputError::new(format!(
                "this course reports {} measures, too many to number their combinations",
                measures.len()
            ))
            .accepted("fewer steps, or fewer units named"));
        }
        let ids: Vec<String> = outcomes.iter().map(|o| kebab_id(o)).collect();
        for (i, id) in ids.iter().enumerate() {
            let clash = if id.is_empty() {
                Some(format!(
                    "the outcome \"{}\" has no letter or digit to name it by",
                    outcomes[i]
                ))
            } else {
                ids[..i].iter().position(|o| o == id).map(|j| {
                    format!(
                        "the outcomes \"{}\" and \"{}\" both give the id `{id}`",
                        outcomes[j], outcomes[i]
                    )
                })
            };
            if let Some(m) = clash {
                return Err(crate::error::InputError::new(m).accepted(
                    "unit names whose outcomes can be told apart: rename a unit whose name \
                     makes an outcome of the course's own (e.g. not `x` beside `x destroyed`)",
                ));
            }
        }
        if len > MAX_LEAVES as u128 {
            return Ok(OutcomeSpace::sparse(outcomes, measures, ids));
        }
        Ok(OutcomeSpace::new(outcomes, measures))
    }

    /// A sparse space of these outcomes (whose ids are `ids`, checked) and
    /// measures: no leaf yet.
    fn sparse(outcomes: Vec<String>, measures: Vec<Measure>, ids: Vec<String>) -> OutcomeSpace {
        OutcomeSpace {
            outcomes,
            ids,
            measures,
            strides: Vec::new(),
            len: 0,
            sparse: Some(Arc::default()),
        }
    }

    /// Whether the space numbers its leaves as they are reached (see the
    /// module's documentation).
    pub fn is_sparse(&self) -> bool {
        self.sparse.is_some()
    }

    /// The dense index (as a wide integer) of the leaf for `outcome` with
    /// these values, as [`OutcomeSpace::leaf`] clamps them.
    fn key(&self, outcome: usize, values: &[i32]) -> u128 {
        let mut key = 0u128;
        for (m, &v) in self.measures.iter().zip(values).rev() {
            let v = v.clamp(m.min, m.max);
            key = key * m.span() as u128 + (v - m.min) as u128;
        }
        key * self.outcomes.len() as u128 + outcome as u128
    }

    /// The dense index of a sparse space's leaf.
    fn key_of(&self, sparse: &Mutex<Sparse>, leaf: Leaf) -> u128 {
        *lock(sparse)
            .keys
            .get(leaf as usize)
            .expect("a leaf of a sparse space was reached")
    }
    /// The leaves a space of `outcomes` categories and these measures would
    /// have (saturating): more than [`MAX_LEAVES`] does not fit.
    pub fn leaf_count(outcomes: usize, measures: &[Measure]) -> u128 {
        measures.iter().fold(outcomes as u128, |len, m| {
            len.saturating_mul(m.span() as u128)
        })
    }
    /// Convenience: labels from string slices.
    pub fn from_labels(outcomes: &[&str], measures: Vec<Measure>) -> OutcomeSpace {
        OutcomeSpace::new(outcomes.iter().map(|s| s.to_string()).collect(), measures)
    }
    /// Number of leaves (outcome × every measure value).
    #[allow(clippy::len_without_is_empty)]
    ///
    /// A sparse space has the leaves reached so far.
    pub fn len(&self) -> usize {
        match &self.sparse {
            None => self.len as usize,
            Some(s) => lock(s).keys.len(),
        }
    }
    /// The category labels.
    pub fn outcomes(&self) -> &[String] {
        &self.outcomes
    }
    /// The category ids (kebab-case), in the order of [`Self::outcomes`]:
    /// derived from the labels ([`kebab_id`]) unless set by
    /// [`Self::with_outcome_ids`].
    pub fn outcome_ids(&self) -> &[String] {
        &self.ids
    }
    /// The same space with explicit category ids, one per category.
    ///
    /// Panics when the count differs or an id is not kebab-case or repeats:
    /// ids are written by procedure constructors, not read from input.
    pub fn with_outcome_ids(mut self, ids: Vec<String>) -> OutcomeSpace {
        assert_eq!(ids.len(), self.outcomes.len(), "one id per outcome");
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(&kebab_id(id), id, "outcome id {id:?} is not kebab-case");
            assert!(!ids[..i].contains(id), "outcome id {id:?} repeats");
        }
        self.ids = ids;
        self
    }
    /// Index of the category with id `id`.
    pub fn outcome_index_by_id(&self, id: &str) -> Option<usize> {
        self.ids.iter().position(|o| o == id)
    }
    /// The id to suggest for an outcome written the old way: when `written`
    /// is not an id of this space but is one of its labels, or derives
    /// ([`kebab_id`]) one of its ids, that id.
    pub fn id_for_old_name(&self, written: &str) -> Option<&str> {
        if self.outcome_index_by_id(written).is_some() {
            return None;
        }
        self.outcome_index(written)
            .or_else(|| self.outcome_index_by_id(&kebab_id(written)))
            .map(|i| self.ids[i].as_str())
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
    /// In a sparse space, a combination not reached before becomes the next
    /// leaf.
    #[inline]
    pub fn leaf(&self, outcome: usize, values: &[i32]) -> Leaf {
        debug_assert!(outcome < self.outcomes.len());
        debug_assert_eq!(values.len(), self.measures.len());
        if let Some(s) = &self.sparse {
            let key = self.key(outcome, values);
            let mut s = lock(s);
            let next = s.keys.len() as Leaf;
            let leaf = *s.leaf.entry(key).or_insert(next);
            if leaf == next {
                s.keys.push(key);
            }
            return leaf;
        }
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
        if let Some(s) = &self.sparse {
            return (self.key_of(s, leaf) % self.outcomes.len() as u128) as usize;
        }
        (leaf % self.outcomes.len() as u32) as usize
    }
    /// The value of measure `m` at a leaf.
    #[inline]
    pub fn value_of(&self, leaf: Leaf, m: usize) -> i32 {
        let meas = &self.measures[m];
        if let Some(s) = &self.sparse {
            let mut key = self.key_of(s, leaf) / self.outcomes.len() as u128;
            for before in &self.measures[..m] {
                key /= before.span() as u128;
            }
            return (key % meas.span() as u128) as i32 + meas.min;
        }
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
    /// The step (1-based) at which a course of several steps ended; the
    /// number of its steps when it ran to its end.
    pub const ENDED_AT_STEP: &str = "ended-at-step";

    /// The label in words of a key measure (`own-morale` reads "own
    /// morale"), for every system; `None` for another id.
    pub fn label(id: &str) -> Option<&'static str> {
        Some(match id {
            OWN_MORALE => "own morale",
            ENEMY_MORALE => "enemy morale",
            HITS_INFLICTED => "hits inflicted",
            HITS_TAKEN => "hits taken",
            FORMATION_HITS_INFLICTED => "formation hits inflicted",
            FORMATION_HITS_TAKEN => "formation hits taken",
            ENDED_AT_STEP => "ended at step",
            _ => return None,
        })
    }

    /// The morale value from which a unit counts as broken or eliminated
    /// (0 good, 1 shaken, 2 broken, 3 eliminated).
    pub const BROKEN: i32 = 2;
}

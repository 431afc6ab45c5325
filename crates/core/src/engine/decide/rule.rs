//! The plan in words: the best small decision rule ("fire while the target
//! is steady and you have 2 steps or more; otherwise charge") over the
//! features of a solved decision's choices, and what it loses against the
//! full best plan, both exact.
//!
//! A rule picks one option when all of its conditions (at most
//! [`MAX_CONDITIONS`], each "feature ≤ v" or "feature ≥ v", the turn being
//! a feature too) hold, and another otherwise; "always X" is the rule of
//! no condition. Every rule of one condition is valued exactly (one pass
//! over the decision's states each), then the best rules of `n` conditions
//! are extended by one more, while the passes stay within a budget.

use rustc_hash::FxHashMap;

use super::Solved;
use crate::procedure::Procedure;

/// Most conditions a rule has.
pub const MAX_CONDITIONS: usize = 3;

/// Most state visits (rules valued times states) the search spends.
const BUDGET: usize = 50_000_000;

/// Rules of each size kept to extend by one more condition.
const BEAM: usize = 12;

/// One condition of a rule: feature `feature` (an index into the
/// decision's features; one past them is the turn) at most, or at least,
/// `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Condition {
    /// The feature tested.
    pub feature: usize,
    /// "≤" (true) or "≥" (false).
    pub at_most: bool,
    /// The value compared with.
    pub value: i32,
}

/// A decision rule: `then` when every condition holds, else `otherwise`.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// The conditions (none: always `then`).
    pub conditions: Vec<Condition>,
    /// The option picked when they all hold.
    pub then: usize,
    /// The option picked otherwise.
    pub otherwise: usize,
    /// The rule's exact value from the start.
    pub value: f64,
}

impl Rule {
    /// The option this rule picks at a choice of `features` in `turn`.
    pub fn pick(&self, features: &[i32], turn: usize) -> usize {
        let holds = self.conditions.iter().all(|c| {
            let v = features.get(c.feature).copied().unwrap_or(turn as i32);
            if c.at_most {
                v <= c.value
            } else {
                v >= c.value
            }
        });
        if holds { self.then } else { self.otherwise }
    }

    /// The rule in words: "fire while target status ≤ disordered and turn
    /// ≤ 3; otherwise charge". `names` are the features' names (the turn
    /// follows them), `value` a feature's value in words.
    pub fn words(
        &self,
        options: &[String],
        names: &[String],
        value: impl Fn(usize, i32) -> String,
    ) -> String {
        if self.conditions.is_empty() {
            return format!("always {}", options[self.then]);
        }
        let conds: Vec<String> = self
            .conditions
            .iter()
            .map(|c| {
                let name = names.get(c.feature).map_or("turn", String::as_str);
                let v = if c.feature < names.len() {
                    value(c.feature, c.value)
                } else {
                    c.value.to_string()
                };
                format!("{name} {} {v}", if c.at_most { "≤" } else { "≥" })
            })
            .collect();
        format!(
            "{} while {}; otherwise {}",
            options[self.then],
            conds.join(" and "),
            options[self.otherwise]
        )
    }
}

/// The best rule of at most [`MAX_CONDITIONS`] conditions for `solved`
/// (fewest conditions among equally good ones).
pub fn search<P: Procedure>(solved: &Solved<P>) -> Rule {
    let n = solved.options.len();
    let better = |a: f64, b: f64| solved.objective.better(a, b) && (a - b).abs() > 1e-12;
    let mut best = (0..n)
        .map(|k| Rule {
            conditions: Vec::new(),
            then: k,
            otherwise: k,
            value: solved.always[k],
        })
        .reduce(|a, b| if better(b.value, a.value) { b } else { a })
        .expect("a decision has options");
    if n < 2 || solved.choices.len() < 2 {
        return best;
    }
    let conditions = candidates(solved);
    let mut valuer = Valuer::new(solved, &conditions);
    let states = solved.states().max(1);
    let mut spent = 0usize;
    let mut frontier: Vec<Rule> = vec![Rule {
        conditions: Vec::new(),
        then: 0,
        otherwise: 0,
        value: best.value,
    }];
    for size in 1..=MAX_CONDITIONS {
        let mut found: Vec<Rule> = Vec::new();
        for base in &frontier {
            for c in &conditions {
                if base.conditions.contains(c) {
                    continue;
                }
                // Conditions in a canonical order: each set valued once.
                if base.conditions.last().is_some_and(|l| {
                    (l.feature, l.at_most, l.value) >= (c.feature, c.at_most, c.value)
                }) {
                    continue;
                }
                let mut conds = base.conditions.clone();
                conds.push(*c);
                let holds = valuer.holds(&conds, &conditions);
                let pairs: Vec<(usize, usize)> = if size == 1 {
                    (0..n)
                        .flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b)))
                        .collect()
                } else {
                    vec![(base.then, base.otherwise)]
                };
                for (then, otherwise) in pairs {
                    if spent.saturating_add(states) > BUDGET {
                        break;
                    }
                    spent += states;
                    let mut r = Rule {
                        conditions: conds.clone(),
                        then,
                        otherwise,
                        value: 0.0,
                    };
                    r.value = valuer.value(&holds, then, otherwise);
                    found.push(r);
                }
            }
        }
        if found.is_empty() {
            break;
        }
        found.sort_by(|a, b| {
            let (x, y) = (a.value, b.value);
            if solved.objective.maximise {
                y.total_cmp(&x)
            } else {
                x.total_cmp(&y)
            }
        });
        if better(found[0].value, best.value) {
            best = found[0].clone();
        }
        found.truncate(BEAM);
        frontier = found;
    }
    best
}

/// Values rules over a solved decision without allocating per rule: each
/// candidate condition's choices (where it holds) as a bit set, a rule's
/// the intersection of its conditions'; one buffer for the states' values;
/// and each plan valued once (rules that pick the same option at every
/// choice, such as "x ≤ 3" and "x ≥ 4" with the options swapped, or a
/// condition implied by another, are the same plan: the second is read
/// from the first).
struct Valuer<'a, P> {
    solved: &'a Solved<P>,
    /// For each candidate condition (in the order of `candidates`), the
    /// choices where it holds, 64 a word.
    bits: Vec<Vec<u64>>,
    /// The states' values while a plan is valued.
    scratch: Vec<f64>,
    /// The value of each plan already valued: (then, otherwise, the
    /// choices where the conditions hold).
    memo: FxHashMap<(usize, usize, Vec<u64>), f64>,
}

impl<'a, P: Procedure> Valuer<'a, P> {
    fn new(solved: &'a Solved<P>, conditions: &[Condition]) -> Self {
        let words = solved.choices.len().div_ceil(64);
        let bits = conditions
            .iter()
            .map(|c| {
                let one = Rule {
                    conditions: vec![*c],
                    then: 1,
                    otherwise: 0,
                    value: 0.0,
                };
                let mut b = vec![0u64; words];
                for (i, ch) in solved.choices.iter().enumerate() {
                    if one.pick(&ch.features, ch.turn) == 1 {
                        b[i / 64] |= 1 << (i % 64);
                    }
                }
                b
            })
            .collect();
        Valuer {
            solved,
            bits,
            scratch: Vec::new(),
            memo: FxHashMap::default(),
        }
    }

    /// The choices where every one of `conds` (candidates) holds.
    fn holds(&self, conds: &[Condition], candidates: &[Condition]) -> Vec<u64> {
        let mut out = vec![u64::MAX; self.solved.choices.len().div_ceil(64)];
        for c in conds {
            let k = candidates
                .iter()
                .position(|x| x == c)
                .expect("a rule's conditions are candidates");
            for (o, b) in out.iter_mut().zip(&self.bits[k]) {
                *o &= b;
            }
        }
        out
    }

    /// The value of the rule picking `then` where `holds`, else
    /// `otherwise`: as [`Solved::evaluate`] of that plan.
    fn value(&mut self, holds: &[u64], then: usize, otherwise: usize) -> f64 {
        let key = (then, otherwise, holds.to_vec());
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let plan = |c: usize| {
            if holds[c / 64] >> (c % 64) & 1 == 1 {
                then
            } else {
                otherwise
            }
        };
        let v = self.solved.flat.value(plan, &mut self.scratch);
        self.memo.insert(key, v);
        v
    }
}

/// Every condition worth testing: for each feature (and the turn), "≤ v"
/// for each value some choice has but the largest, "≥ v" for each but the
/// smallest.
fn candidates<P: Procedure>(solved: &Solved<P>) -> Vec<Condition> {
    let features = solved.feature_names.len();
    let mut out = Vec::new();
    for f in 0..=features {
        let mut values: Vec<i32> = solved
            .choices
            .iter()
            .map(|c| c.features.get(f).copied().unwrap_or(c.turn as i32))
            .collect();
        values.sort_unstable();
        values.dedup();
        if values.len() < 2 {
            continue;
        }
        for (i, &v) in values.iter().enumerate() {
            if i + 1 < values.len() {
                out.push(Condition {
                    feature: f,
                    at_most: true,
                    value: v,
                });
            }
            if i > 0 {
                out.push(Condition {
                    feature: f,
                    at_most: false,
                    value: v,
                });
            }
        }
    }
    out
}

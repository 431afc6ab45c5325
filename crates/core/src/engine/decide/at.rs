//! A decision explained at one state where the own side chooses (`pikeshot
//! explain --decision`): the value of every option there, the best, and
//! for the best against the runner-up the rolls that make the difference.
//!
//! An option's value at a choice is the sum, over where its turn leads (the
//! next choice, or the end), of the exact probability of getting there
//! times the value there under the best plan: value = Σ p(next) ×
//! value(next). The turn's rolls are followed from the choice through every
//! rolling state until the next choice or an end; the states the turn
//! leads to are grouped (a choice by its state, an end by its value), each
//! named by its features in words and by its most likely rolls.

use serde::Serialize;

use super::{Edge, Features, Node, Objective, Solved, Target};
use crate::error::InputError;
use crate::outcome::{Leaf, OutcomeSpace};
use crate::procedure::Procedure;

/// Which state of which decision to explain: the decision's name and the
/// state's features in words (`feature = value`, the turn among them; none
/// is the start).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExplainAt {
    /// The decision's name.
    pub decision: String,
    /// `(feature, value)` pairs the state must have, e.g. `("turn", "2")`.
    pub state: Vec<(String, String)>,
}

/// A decision explained at one choice state.
#[derive(Clone, Debug, Serialize)]
pub struct DecisionAt {
    /// The turn (1-based).
    pub turn: usize,
    /// The state: each feature's name and value in words, the turn last.
    pub state: Vec<(String, String)>,
    /// How many choice states match the state asked for (the one
    /// explained is the one the best plan reaches most often).
    pub matched: usize,
    /// The exact probability the best plan reaches this state.
    pub reach: f64,
    /// Every option at this state.
    pub options: Vec<OptionAt>,
    /// The best option (index into `options`).
    pub best: usize,
    /// The runner-up (index into `options`).
    pub runner_up: usize,
    /// Where the turn leads under the best option and the runner-up,
    /// largest difference of contribution first.
    pub difference: Vec<Difference>,
}

/// One option at a choice state.
#[derive(Clone, Debug, Serialize)]
pub struct OptionAt {
    /// The option's name.
    pub name: String,
    /// Its value here, the best plan followed afterwards.
    pub value: f64,
    /// Where its turn leads, largest contribution first; the contributions
    /// sum to `value`.
    pub leads_to: Vec<Next>,
}

/// Where an option's turn leads, and what that is worth.
#[derive(Clone, Debug, Serialize)]
pub struct Next {
    /// The next state in words: the next turn's features, or the end.
    pub after: String,
    /// The most likely rolls of the turn that lead there, in order.
    pub rolls: Vec<String>,
    /// The exact probability the turn leads there.
    pub probability: f64,
    /// The value there under the best plan (the objective's value at an
    /// end).
    pub value: f64,
    /// `probability × value`.
    pub contribution: f64,
}

/// One place the turn leads under the best option or the runner-up.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    /// The next state in words.
    pub after: String,
    /// The value there.
    pub value: f64,
    /// The probability under the best option.
    pub best: f64,
    /// The probability under the runner-up.
    pub runner_up: f64,
    /// `(best − runner_up) × value`: what this place adds to the best
    /// option's value over the runner-up's (the gains sum to the
    /// difference of their values).
    pub gain: f64,
}

/// A place a turn leads to: (its words, its value, the probability of
/// getting there, the most likely rolls that do).
type Place = (String, f64, f64, Vec<String>);

/// Where a turn ends: a choice node, or an end of this value (its bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Dest {
    /// A choice node.
    Choice(u32),
    /// An end with this value's bits.
    End(u64),
}

/// A leaf in words: its outcome's label, then each non-zero measure.
fn leaf_words(space: &OutcomeSpace, leaf: Leaf) -> String {
    let mut w = space.outcomes()[space.outcome_of(leaf)].clone();
    for (m, measure) in space.measures().iter().enumerate() {
        let v = space.value_of(leaf, m);
        if v != 0 {
            w.push_str(&format!(", {} {v}", measure.display()));
        }
    }
    w
}

/// The features of choice `c` of `solved` in words, the turn last.
fn choice_words<P, F: Features>(solved: &Solved<P>, features: &F, c: usize) -> Vec<String> {
    let ch = &solved.choices[c];
    ch.features
        .iter()
        .enumerate()
        .map(|(f, &v)| features.feature_value(f, v))
        .chain(std::iter::once(ch.turn.to_string()))
        .collect()
}

/// Where a turn that starts along `start` (an option's edge from a choice)
/// leads: each place with its probability and its most likely rolls.
fn turn_of<P: Procedure>(solved: &Solved<P>, start: Edge) -> Vec<(Dest, f64, Vec<String>)> {
    // The rolling states of the turn, each after every state leading to it
    // (depth-first post-order, reversed).
    let mut order = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    let is_roll = |n: u32| matches!(solved.nodes[n as usize], Node::Roll { .. });
    if let Edge::Node(n) = start
        && is_roll(n)
    {
        let mut stack = vec![(n, false)];
        while let Some((n, done)) = stack.pop() {
            if done {
                order.push(n);
                continue;
            }
            if !seen.insert(n) {
                continue;
            }
            stack.push((n, true));
            if let Node::Roll { edges, .. } = &solved.nodes[n as usize] {
                for (_, _, e) in edges {
                    if let Edge::Node(t) = e
                        && is_roll(*t)
                        && !seen.contains(t)
                    {
                        stack.push((*t, false));
                    }
                }
            }
        }
        order.reverse();
    }
    let dest = |e: &Edge| match e {
        Edge::Node(t) => Dest::Choice(*t),
        Edge::End(v) => Dest::End(v.to_bits()),
    };
    let mut out: std::collections::BTreeMap<Dest, (f64, f64, Vec<String>)> = Default::default();
    let mut reach: rustc_hash::FxHashMap<u32, (f64, f64, Vec<String>)> = Default::default();
    match start {
        Edge::Node(n) if is_roll(n) => {
            reach.insert(n, (1.0, 1.0, Vec::new()));
        }
        e => {
            out.insert(dest(&e), (1.0, 1.0, Vec::new()));
        }
    }
    for n in order {
        let (mass, best_p, path) = reach.remove(&n).expect("reached before it is left");
        let Node::Roll { proc, edges, .. } = &solved.nodes[n as usize] else {
            continue;
        };
        for (leaf, p, e) in edges {
            let (m, bp) = (mass * p, best_p * p);
            let slot = match e {
                Edge::Node(t) if is_roll(*t) => reach.entry(*t).or_insert((0.0, 0.0, Vec::new())),
                e => out.entry(dest(e)).or_insert((0.0, 0.0, Vec::new())),
            };
            slot.0 += m;
            if bp > slot.1 {
                slot.1 = bp;
                slot.2 = path.clone();
                slot.2.push(leaf_words(proc.space(), *leaf));
            }
        }
    }
    out.into_iter()
        .map(|(d, (m, _, path))| (d, m, path))
        .collect()
}

/// Explains `solved` at the choice state `at.state` names (the start when
/// it names nothing): each option's value and where its turn leads, and
/// the best against the runner-up. A feature the decision has not, or a
/// state it never reaches, is an error naming what it has.
pub fn explain_at<P: Procedure, F: Features>(
    solved: &Solved<P>,
    features: &F,
    at: &ExplainAt,
) -> Result<DecisionAt, InputError> {
    let mut names = solved.feature_names.clone();
    names.push("turn".to_string());
    let mut want: Vec<(usize, &str)> = Vec::new();
    for (k, v) in &at.state {
        let f = names.iter().position(|n| n == k.trim()).ok_or_else(|| {
            InputError::new(format!(
                "decision \"{}\" has no state feature \"{k}\"",
                at.decision
            ))
            .key("--state")
            .one_of(k, &names)
        })?;
        want.push((f, v.trim()));
    }
    let words: Vec<Vec<String>> = (0..solved.choices.len())
        .map(|c| choice_words(solved, features, c))
        .collect();
    // No state named is the start (choice 0, the first reached).
    let matching: Vec<usize> = if want.is_empty() {
        vec![0]
    } else {
        (0..solved.choices.len())
            .filter(|&c| want.iter().all(|(f, v)| words[c][*f] == *v))
            .collect()
    };
    let Some(&c) = matching.iter().max_by(|&&a, &&b| {
        solved.choices[a]
            .reach
            .total_cmp(&solved.choices[b].reach)
            .then(b.cmp(&a))
    }) else {
        let asked: Vec<String> = at.state.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let (f, v) = want
            .iter()
            .find(|(f, v)| !words.iter().any(|w| w[*f] == *v))
            .copied()
            .unwrap_or(want[0]);
        let mut seen: Vec<String> = words.iter().map(|w| w[f].clone()).collect();
        seen.sort();
        seen.dedup();
        return Err(InputError::new(format!(
            "decision \"{}\" never chooses in a state with {} (where it chooses, {} is one of {})",
            at.decision,
            asked.join(", "),
            names[f],
            seen.join(", ")
        ))
        .key("--state")
        .one_of(v, &seen));
    };
    let choice = &solved.choices[c];
    let node = solved
        .nodes
        .iter()
        .position(|n| matches!(n, Node::Choose { choice: i, .. } if *i as usize == c))
        .expect("every choice is a node");
    let Node::Choose { options: edges, .. } = &solved.nodes[node] else {
        unreachable!("a choice's node chooses");
    };
    let value_at = |d: Dest| match d {
        Dest::End(bits) => f64::from_bits(bits),
        Dest::Choice(n) => match &solved.nodes[n as usize] {
            Node::Choose { choice, .. } => {
                let ch = &solved.choices[*choice as usize];
                ch.values[ch.best]
            }
            Node::Roll { .. } => unreachable!("a turn ends at a choice"),
        },
    };
    let after_words = |d: Dest| match d {
        Dest::End(bits) => end_words(&solved.objective, f64::from_bits(bits)),
        Dest::Choice(n) => match &solved.nodes[n as usize] {
            Node::Choose { choice, .. } => names
                .iter()
                .zip(&words[*choice as usize])
                .map(|(n, v)| format!("{n} {v}"))
                .collect::<Vec<_>>()
                .join(", "),
            Node::Roll { .. } => unreachable!("a turn ends at a choice"),
        },
    };
    // Each option's turn by place in words: two states the features do
    // not tell apart, of one value, are one place.
    let places = |e: &Edge| -> Vec<Place> {
        let mut out: Vec<(String, f64, f64, Vec<String>, f64)> = Vec::new();
        for (d, p, rolls) in turn_of(solved, *e) {
            let (after, v) = (after_words(d), value_at(d));
            match out.iter_mut().find(|o| o.0 == after && o.1 == v) {
                Some(o) => {
                    o.2 += p;
                    if p > o.4 {
                        (o.3, o.4) = (rolls, p);
                    }
                }
                None => out.push((after, v, p, rolls, p)),
            }
        }
        out.into_iter()
            .map(|(a, v, p, r, _)| (a, v, p, r))
            .collect()
    };
    let turns: Vec<Vec<Place>> = edges.iter().map(places).collect();
    let options: Vec<OptionAt> = solved
        .options
        .iter()
        .zip(&turns)
        .zip(&choice.values)
        .map(|((name, turn), &value)| {
            let mut leads_to: Vec<Next> = turn
                .iter()
                .map(|(after, v, p, rolls)| Next {
                    after: after.clone(),
                    rolls: rolls.clone(),
                    probability: *p,
                    value: *v,
                    contribution: p * v,
                })
                .collect();
            leads_to.sort_by(|a, b| b.contribution.total_cmp(&a.contribution));
            OptionAt {
                name: name.clone(),
                value,
                leads_to,
            }
        })
        .collect();
    let best = choice.best;
    let runner_up = (0..options.len())
        .filter(|&k| k != best)
        .reduce(|a, k| {
            if solved.objective.better(options[k].value, options[a].value) {
                k
            } else {
                a
            }
        })
        .unwrap_or(best);
    let mut difference: Vec<Difference> = Vec::new();
    for (side, k) in [(0, best), (1, runner_up)] {
        for (after, v, p, _) in &turns[k] {
            let i = match difference
                .iter()
                .position(|d| d.after == *after && d.value == *v)
            {
                Some(i) => i,
                None => {
                    difference.push(Difference {
                        after: after.clone(),
                        value: *v,
                        best: 0.0,
                        runner_up: 0.0,
                        gain: 0.0,
                    });
                    difference.len() - 1
                }
            };
            if side == 0 {
                difference[i].best += p;
            } else {
                difference[i].runner_up += p;
            }
        }
    }
    for d in &mut difference {
        d.gain = (d.best - d.runner_up) * d.value;
    }
    difference.sort_by(|a, b| b.gain.abs().total_cmp(&a.gain.abs()));
    Ok(DecisionAt {
        turn: choice.turn,
        state: names.iter().cloned().zip(words[c].clone()).collect(),
        matched: matching.len(),
        reach: choice.reach,
        options,
        best,
        runner_up,
        difference,
    })
}

/// An end in words: whether it is one of the objective's outcomes, or the
/// measure's value there.
fn end_words(objective: &Objective, v: f64) -> String {
    match &objective.target {
        Target::Outcome(o) if v != 0.0 => format!("the end in {}", o.join(" or ")),
        Target::Outcome(o) => format!("the end, not in {}", o.join(" or ")),
        Target::Measure(m) => format!("the end with {m} {v}"),
    }
}

//! Words for people, ids for machines: every outcome and measure of every
//! registered system has a label a reader can read (the card's result
//! names), not its kebab-case id; the id stays what CSV, JSON, `--set` and
//! `[[expect]]` use. Every procedure of every system (under each edition)
//! and every shipped scenario is built through the public run path and
//! each course's outcome space read.

use std::collections::BTreeSet;

use pikeshot::engine::KernelMode;
use pikeshot::run::{self, RunPlan};
use pikeshot::systems::Registry;

use super::keys::{scenario, system_editions};
use crate::support::scenario::try_prepare;
use crate::support::shipped_files;

/// Whether `id` is machine-shaped: kebab-case with a dash or a digit (a
/// single plain word such as `miss` reads as a word already).
fn machine_shaped(id: &str) -> bool {
    id.contains('-') || id.chars().any(|c| c.is_ascii_digit())
}

/// Every outcome and measure of `p`'s courses whose label is its id, as
/// `system: what id`, into `bad`; the count of names looked at, returned.
fn unlabelled(system: &str, p: &run::Prepared, bad: &mut BTreeSet<String>) -> usize {
    let mut seen = 0;
    for c in &p.courses {
        let space = c.kernel.space();
        for (label, id) in space.outcomes().iter().zip(space.outcome_ids()) {
            seen += 1;
            if machine_shaped(id) && label == id {
                bad.insert(format!("{system}: outcome {id}"));
            }
        }
        for m in space.measures() {
            seen += 1;
            if machine_shaped(m.id()) && m.display() == m.id() {
                bad.insert(format!("{system}: measure {}", m.id()));
            }
        }
    }
    seen
}

#[test]
fn every_outcome_and_measure_of_every_system_has_a_label_in_words() {
    let mut bad = BTreeSet::new();
    let mut seen = 0;
    for (sys, base, ed) in system_editions() {
        for proc in sys.procedures() {
            let text = scenario(base, ed, proc.name, &[]);
            let p = try_prepare("labels.toml", &text, KernelMode::Auto)
                .unwrap_or_else(|e| panic!("{} {ed} {}: {e}", sys.id(), proc.name));
            seen += unlabelled(sys.id(), &p, &mut bad);
        }
    }
    for s in Registry::shipped().iter() {
        for f in shipped_files(s.id()) {
            let p = run::prepare(&f, &RunPlan::default())
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            seen += unlabelled(s.id(), &p, &mut bad);
        }
    }
    assert!(
        bad.is_empty(),
        "{} names show their id as the label:\n{}",
        bad.len(),
        bad.into_iter().collect::<Vec<_>>().join("\n")
    );
    assert!(seen > 200, "{seen}");
}

//! The `[rules]` table of a Hakkaa Päälle scenario: the switches over the
//! readings of [`tq::Readings`](super::tq::Readings) (docs/rules/hakkaa.md
//! section 2).

use super::tq::Readings;
use crate::systems::rules::{RulesTable, Switches};

/// How TQ modifiers apply and how the double results read.
impl RulesTable for Readings {
    fn switches(s: &mut Switches<Self>) {
        s.named(
            "tq_modifier_mode",
            "TQ modifier mode",
            "row: the modifiers shift the grade row; roll: they shift the 2d6 roll",
            |d| &mut d.tq_mode,
        );
        s.named(
            "double_results",
            "reading of 2 LC and 2 C",
            "two-tests: 2 LC and 2 C are two results, each tested; one-test: one test on the row",
            |d| &mut d.double_results,
        );
    }
}

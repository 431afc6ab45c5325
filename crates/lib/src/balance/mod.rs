//! What makes a fight fair: `pikeshot balance` (the value of one or more
//! keys that brings a figure to a target) and `pikeshot sensitivity`
//! (which key decides the fight), and the fix suggested for a failing
//! `[[expect]]` target.
//!
//! Both run versions of one scenario, each the scenario with a few `--set`s
//! on top (a sweep pinned to one variant first), exactly wherever every
//! course enumerates and by Monte Carlo with 95% intervals otherwise
//! ([`eval::Study`]). The keys they move are the scenario's ordered keys
//! ([`knobs()`]): every unit, step, course and `[rules]` key its system
//! declares with an order (a whole-number range, a switch, names in the
//! card's order), read from the same key declarations `pikeshot list` and
//! the readers use.

pub mod chart;
pub mod eval;
pub mod knobs;
pub mod output;
pub mod sensitivity;
pub mod solve;
pub mod suggest;
pub mod target;

pub use eval::{Basis, Study, StudyRequest};
pub use knobs::{Knob, knobs};
pub use output::{balance_text, sensitivity_text, write_balance, write_sensitivity};
pub use sensitivity::{Sensitivity, sensitivity};
pub use solve::{Answer, Balance, balance};
pub use suggest::{Suggestion, suggest};
pub use target::Goal;

//! pikeshot: the odds for pike-and-shot wargames.
//!
//! Rule procedures from the player aid cards are written once, generic over
//! [`dice::Dice`], and resolved two ways: Monte Carlo with
//! [`dice::Sampler`] in parallel chunks ([`engine`]), and exactly with
//! [`dice::Enumerator`]. Scenario files ([`scenario`]) name the units and the
//! courses of action; [`report`] writes the distributions as CSV, plots and a
//! terminal table.

#![warn(missing_docs)]
// Input errors carry file, line, key and accepted values; they are cold and
// returned once per run, so their size does not matter.
#![allow(clippy::result_large_err)]

pub mod batch;
pub mod dice;
pub mod engine;
pub mod error;
pub mod explain;
pub mod outcome;
pub mod procedure;
pub mod report;
pub mod run;
pub mod scenario;
pub mod serve;
pub mod stats;
pub mod systems;
pub mod targets;

pub use dice::{Dice, Enumerator, Pool, Sampler};
pub use error::{Error, InputError, Result};
pub use outcome::{Leaf, Measure, OutcomeSpace};
pub use procedure::Procedure;

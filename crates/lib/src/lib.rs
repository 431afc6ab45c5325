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

#[doc(inline)]
pub use pikeshot_core::{dice, engine, error, outcome, procedure, scenario, stats, systems};

pub mod balance;
pub mod batch;
pub mod report;
pub mod run;
pub mod serve;
pub mod targets;

/// `pikeshot explain`: why a probability is what it is. The model, the walk
/// over a course's states and the text layout are
/// [`pikeshot_core::explain`]'s; reading a scenario file and writing the
/// explanation's folder ([`run`]) are this crate's.
pub mod explain {
    #[doc(inline)]
    pub use pikeshot_core::explain::*;

    pub mod decision;
    pub mod run;

    pub use run::{ExplainRequest, explain_file, explain_path};
}

pub use dice::{Dice, Enumerator, Pool, Sampler};
pub use error::{Error, InputError, Result};
pub use outcome::{Leaf, Measure, OutcomeSpace};
pub use procedure::Procedure;

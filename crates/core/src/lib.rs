//! pikeshot-core: the half of pikeshot that resolves rolls — dice, the
//! engine, outcomes, scenario reading, the rule systems and their
//! explanations. The `pikeshot` library re-exports every module of it under
//! the same path (`pikeshot::engine`, `pikeshot::systems`, …) and adds what
//! runs once per scenario (report, run, batch, serve, targets); use it
//! through `pikeshot`.
//!
//! Rule procedures from the player aid cards are written once, generic over
//! [`dice::Dice`], and resolved two ways: Monte Carlo with
//! [`dice::Sampler`] in parallel chunks ([`engine`]), and exactly with
//! [`dice::Enumerator`].

#![warn(missing_docs)]
// Input errors carry file, line, key and accepted values; they are cold and
// returned once per run, so their size does not matter.
#![allow(clippy::result_large_err)]

pub mod dice;
pub mod engine;
pub mod error;
pub mod explain;
pub mod outcome;
pub mod procedure;
pub mod scenario;
pub mod stats;
pub mod systems;

pub use dice::{Dice, Enumerator, Pool, Sampler};
pub use error::{Error, InputError, Result};
pub use outcome::{Leaf, Measure, OutcomeSpace};
pub use procedure::Procedure;

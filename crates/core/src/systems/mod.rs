//! Rule systems, one folder each: tables as data, one file per procedure.
//! Every system implements [`RuleSystem`]; a [`Registry`] holds systems
//! (the shipped four are [`Registry::shipped`]) and answers `list`,
//! `tables` and the lookup of a scenario's `system`.

pub mod chart;
pub mod hakkaa;
pub mod key;
pub mod lookup;
pub mod mpbs;
pub(crate) mod named;
pub mod registry;
pub mod rules;
mod shipped;
pub mod snaphance;
pub mod sword_spear;

pub use chart::{Chart, KeyDoc, Kind, ProcedureInfo};
pub use key::Key;
pub use lookup::Registry;
pub use registry::{BuiltCourses, EditionInfo, Repeats, RuleSystem, StopInfo};

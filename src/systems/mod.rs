//! Rule systems, one folder each: tables as data, one file per procedure.

pub mod chart;
pub mod mpbs;

pub use chart::{Chart, ProcedureInfo};

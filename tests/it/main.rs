//! The integration tests: one test binary, so the library is linked once.
//!
//! Modules mirror `src/`: one folder per rule system (`mpbs`, `hakkaa`,
//! `snaphance`, `sword_spear`) with a file per concern, then the engine, the
//! CLI, batch reports, report rendering and the registry of rule systems. Helpers live once, in `support`.
//! Run one module with `cargo test --test it mpbs::fire`.

#![allow(clippy::result_large_err)]

mod support;

mod batch;
mod cli;
mod cost;
mod course_names;
mod engine;
mod fuzz;
mod hakkaa;
mod inputs;
mod method;
mod mpbs;
mod record;
mod registry;
mod report;
mod report_compare;
mod side;
mod snaphance;
mod sword_spear;

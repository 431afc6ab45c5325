//! The integration tests: one test binary, so the library is linked once.
//!
//! Modules mirror the crates' sources: one folder per rule system (`mpbs`,
//! `hakkaa`, `snaphance`, `sword_spear`) with a file per concern, then the
//! engine, the CLI, batch reports, report rendering and the registry of rule
//! systems. Helpers live once, in `support`. The crates hold no tests
//! (`[lib] test = false`; `layout` checks it), so the library is compiled
//! once for `cargo test`.
//! Run one module with `cargo test --test it mpbs::fire`.

#![allow(clippy::result_large_err)]

mod support;

mod balance;
mod batch;
mod bench_floors;
mod chart;
mod cli;
mod cost;
mod course_names;
mod dice;
mod engine;
mod error;
mod explain;
mod folders;
mod fuzz;
mod guide;
mod hakkaa;
mod hostile_output;
mod inputs;
mod layout;
mod method;
mod mpbs;
mod outcome;
mod record;
mod registry;
mod report;
mod report_compare;
mod report_views;
mod scenario;
mod serve;
mod side;
mod snaphance;
mod stats;
mod sword_spear;
mod targets;
mod validation;

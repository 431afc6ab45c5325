//! Scenario files: TOML schema, validation, `--set` overrides, sweeps.

pub mod fields;

pub use fields::{Fields, Source};

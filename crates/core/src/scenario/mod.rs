//! Scenario files: TOML schema, validation, `--set` overrides, sweeps.

pub mod course;
pub mod decision;
pub mod doc;
pub mod fields;
pub mod limits;
pub mod overrides;
pub mod staged;

pub use doc::{ScenarioFile, Variant};
pub use fields::{Fields, Source};
pub use overrides::{Override, Overrides};

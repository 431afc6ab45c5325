//! The scenario file: sweeps, `--set` overrides and located key errors.

mod doc;
mod fields;
mod order;

//! What `POST /api/decide` computes for the page's "best plan" panel: a
//! scenario's `[[decision]]`s solved through `pikeshot decide`'s own path
//! ([`crate::run::decide::decide_file`]). The handler (`routes`) runs it
//! under the limits every computation has: the body's size and deadline,
//! the time limit, and at most
//! [`MAX_RUNNING`](super::limits::MAX_RUNNING) computations at once.
//! Nothing is written to disk.

use serde::Deserialize;

use super::compute::{SCENARIO_NAME, scenario_text};
use super::error_body::ErrorBody;
use crate::run::decide::{Decisions, decide_file};
use crate::scenario::{Overrides, ScenarioFile};

/// What the page asks of `POST /api/decide`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct DecideBody {
    /// The scenario as TOML text; or
    pub toml: Option<String>,
    /// the scenario as the JSON mirror of its TOML document.
    pub doc: Option<toml::Table>,
    /// `--set KEY=VALUE` overrides.
    #[serde(default)]
    pub sets: Vec<String>,
}

/// Solves the decisions of the scenario `body` holds, as `pikeshot decide
/// --format json` does (the same document).
pub fn solve(body: DecideBody) -> Result<Decisions, ErrorBody> {
    let text = scenario_text(body.toml, body.doc)?;
    let file = ScenarioFile::from_str(SCENARIO_NAME, &text)?;
    let overrides = Overrides::parse(&body.sets)?;
    Ok(decide_file(file, &overrides)?)
}

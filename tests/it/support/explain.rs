//! `pikeshot explain` from the tests: through the CLI as JSON, or through
//! the public path from scenario text.

use serde_json::Value;

use crate::support::cli::{pikeshot_ok, stdout};
use pikeshot::explain::{self, ExplainRequest, Explanation};
use pikeshot::scenario::ScenarioFile;

/// `pikeshot explain ARGS --format json`, parsed.
#[track_caller]
pub fn json(args: &[&str]) -> Value {
    let mut a = vec!["explain"];
    a.extend_from_slice(args);
    a.extend(["--format", "json"]);
    let o = pikeshot_ok(&a);
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("not JSON: {e}"))
}

/// The explanation of a scenario text (file `t.toml`).
#[track_caller]
pub fn explained(text: &str) -> Explanation {
    let f = ScenarioFile::from_str("t.toml", text).unwrap();
    explain::explain_file(f, &ExplainRequest::default()).unwrap_or_else(|e| panic!("{e}"))
}

//! `pikeshot explain` from the tests: through the CLI as JSON, or through
//! the public path from scenario text.

use std::path::PathBuf;
use std::sync::OnceLock;

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

/// Every shipped scenario file (`scenarios/<system>/*.toml`, sorted) with
/// its explanation under the default request, worked out once for all the
/// tests that check them (explaining every shipped scenario takes a
/// second or two).
pub fn shipped_explained() -> &'static [(PathBuf, Explanation)] {
    static ALL: OnceLock<Vec<(PathBuf, Explanation)>> = OnceLock::new();
    ALL.get_or_init(|| {
        // Relative to the repository (`scenarios/...`), as a user names them.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        super::shipped_files("")
            .into_iter()
            .map(|f| {
                let f = f.strip_prefix(root).unwrap().to_path_buf();
                let e = explain::explain_path(&f, &ExplainRequest::default())
                    .unwrap_or_else(|err| panic!("{}: {err}", f.display()));
                (f, e)
            })
            .collect()
    })
}

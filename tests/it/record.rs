//! `run.json` (issue 12, item 5): a record of the run in every output
//! folder, with no timestamp, the same bytes on any thread count.

use crate::support::cli::{run_to, temp_out};

#[test]
fn run_json_records_the_run_and_is_identical_across_thread_counts() {
    let out = temp_out();
    let mut got = Vec::new();
    for threads in ["1", "2"] {
        run_to(
            "scenarios/mpbs/cuirassiers-vs-pike.toml",
            &[
                "--trials",
                "3000",
                "--threads",
                threads,
                "--set",
                "edition=sfo",
            ],
            &out,
        );
        got.push(std::fs::read(out.join("run.json")).unwrap());
    }
    assert_eq!(got[0], got[1], "run.json differs between --threads 1 and 2");
    let v: serde_json::Value = serde_json::from_slice(&got[0]).unwrap();
    assert_eq!(v["pikeshot"], env!("CARGO_PKG_VERSION"));
    assert_eq!(v["scenario"], "scenarios/mpbs/cuirassiers-vs-pike.toml");
    assert_eq!(v["sets"], serde_json::json!(["edition=sfo"]));
    assert_eq!(v["seed"], 1632);
    assert_eq!(v["trials"], 3000);
    assert_eq!(v["exact"], false);
    assert_eq!(v["kernel"], "auto");
    assert_eq!(v["variants"].as_array().unwrap().len(), 5);
    assert!(!String::from_utf8_lossy(&got[0]).contains("threads"));
    // The SHA-256 of the file's bytes, computed independently of the record.
    use sha2::{Digest, Sha256};
    let bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios/mpbs/cuirassiers-vs-pike.toml"),
    )
    .unwrap();
    let hex: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(v["sha256"], hex.as_str());
    assert_eq!(hex.len(), 64);
}

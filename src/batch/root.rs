//! The top folder of a report (`report`, `merge`): claimed before any work,
//! its scenario folders named so that none clashes, and pruned of the
//! folders of scenarios that are gone.
//!
//! The top folder is not replaced whole (it may hold the user's own files,
//! such as `reports/README.md`): pikeshot writes its top-level files and
//! one folder per scenario into it, each folder replaced whole
//! ([`crate::report::replace::NewFolder`]). It holds [`ROOT_MARKER`] once
//! a report was written there; a folder without it that already holds a
//! file of the names a report writes is refused, and so is a folder a run
//! wrote (a report is not mixed into it).

use std::fs;
use std::path::{Path, PathBuf};

use super::site::{EXPECT, INDEX, MANIFEST, SUMMARY};
use super::{SHARD_JSON, folder_of};
use crate::error::{Error, InputError};
use crate::report::replace::{self, Lock};

/// The marker of a report's top folder.
pub const ROOT_MARKER: &str = ".pikeshot-report";

/// The names a report writes at its top level.
pub const TOP_FILES: [&str; 5] = [MANIFEST, SUMMARY, EXPECT, INDEX, SHARD_JSON];

/// The folder of every scenario file of `files` (sorted, relative paths):
/// its path without `.toml` ([`folder_of`]), unless that is a top-level
/// file's name (`summary.csv.toml`), the folder that holds another
/// scenario's folder (`a.toml` beside `a/b.toml`) or already taken: then
/// `-2`, `-3`… are added. Computed over the whole list, so that every shard
/// names a scenario's folder as the unsharded report does.
pub fn folders(files: &[String]) -> Vec<String> {
    let base: Vec<String> = files.iter().map(|f| folder_of(f)).collect();
    // Every folder that holds another scenario's folder.
    let mut holders: Vec<String> = Vec::new();
    for b in &base {
        let mut p = b.as_str();
        while let Some((head, _)) = p.rsplit_once('/') {
            holders.push(head.to_string());
            p = head;
        }
    }
    let taken_by_top = |f: &str| !f.contains('/') && TOP_FILES.contains(&f);
    let mut out: Vec<String> = Vec::with_capacity(files.len());
    for b in &base {
        let mut name = b.clone();
        let mut k = 2;
        while taken_by_top(&name) || holders.contains(&name) || out.contains(&name) {
            name = format!("{b}-{k}");
            k += 1;
        }
        out.push(name);
    }
    out
}

/// Claims the top folder `out` before any work: takes its lock, refuses a
/// folder a run wrote and a folder (without [`ROOT_MARKER`]) that holds a
/// file of the names a report writes, creates it, removes temporaries of
/// killed runs and marks it. The lock is held until the returned value is
/// dropped.
pub fn claim(out: &Path) -> Result<Lock, Error> {
    let lock = Lock::take(out)?;
    let refuse = |why: String| -> Error {
        InputError::new(format!("{} {why}", out.display()))
            .key("--out")
            .accepted(
                "a new or empty folder, or one a report was written to; \
                 move your files elsewhere or choose another folder",
            )
            .into()
    };
    if out.exists() && !out.is_dir() {
        return Err(refuse(
            "is not a folder: a report is written into a folder".into(),
        ));
    }
    if replace::is_ours(out) {
        return Err(refuse(
            "holds the outputs of a single run; a report is not mixed into them".into(),
        ));
    }
    if out.is_dir() && !out.join(ROOT_MARKER).is_file() {
        let clash: Vec<&str> = TOP_FILES
            .into_iter()
            .filter(|f| out.join(f).exists())
            .collect();
        if !clash.is_empty() {
            return Err(refuse(format!(
                "holds {} that pikeshot did not write; a report would overwrite {}",
                clash.join(", "),
                if clash.len() == 1 { "it" } else { "them" }
            )));
        }
    }
    fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    replace::remove_stale(out)?;
    fs::write(
        out.join(ROOT_MARKER),
        "This folder holds a report written by pikeshot: its top-level files and the \
         scenario folders holding .pikeshot-output are replaced by the next report.\n",
    )
    .map_err(|e| Error::io(out, e))?;
    Ok(lock)
}

/// Removes, under `out`, every folder a report wrote whose scenario is not
/// in `keep` (relative folder paths), and the folders left empty by that.
/// Nothing else is touched: the user's files and folders, and the folders
/// of `pikeshot run`, stay.
pub fn prune(out: &Path, keep: &[String]) -> Result<(), Error> {
    prune_in(out, "", keep).map(|_| ())
}

/// Prunes `dir` (at `rel` under the top folder); returns whether it removed
/// anything.
fn prune_in(dir: &Path, rel: &str, keep: &[String]) -> Result<bool, Error> {
    let mut removed = false;
    let entries = fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut subdirs: Vec<(PathBuf, String)> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let ty = entry.file_type().map_err(|e| Error::io(entry.path(), e))?;
        if ty.is_dir() {
            let r = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            subdirs.push((entry.path(), r));
        }
    }
    for (path, r) in subdirs {
        let stale = replace::is_kind(&path, "report") && !keep.contains(&r);
        if stale {
            // Its own files go; folders of other scenarios inside it stay.
            for entry in fs::read_dir(&path).map_err(|e| Error::io(&path, e))? {
                let entry = entry.map_err(|e| Error::io(&path, e))?;
                if entry.file_type().is_ok_and(|t| !t.is_dir()) {
                    fs::remove_file(entry.path()).map_err(|e| Error::io(entry.path(), e))?;
                }
            }
            removed = true;
        }
        let inner = prune_in(&path, &r, keep)?;
        if (stale || inner) && fs::read_dir(&path).is_ok_and(|mut d| d.next().is_none()) {
            fs::remove_dir(&path).map_err(|e| Error::io(&path, e))?;
            removed = true;
        }
    }
    Ok(removed)
}

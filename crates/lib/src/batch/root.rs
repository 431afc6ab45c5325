//! The top folder of a report (`report`, `merge`): claimed before any work,
//! its scenario folders named so that none clashes, and pruned of the
//! folders of scenarios that are gone.
//!
//! The top folder may hold the user's own files, such as
//! `reports/README.md`. A report writes its top-level files and one folder
//! per scenario ([`crate::report::replace::NewFolder`]) into a new top
//! folder ([`NewRoot`]), links in the user's files and folders from the
//! old one, and swaps it in whole: a killed report leaves the old report
//! or the new one, never a mix. The top folder holds [`ROOT_MARKER`] once
//! a report was written there; a folder without it that already holds a
//! file of the names a report writes is refused, and so is a folder a run
//! wrote (a report is not mixed into it).

use std::fs;
use std::path::{Path, PathBuf};

use super::site::{EXPECT, INDEX, MANIFEST, SUMMARY};
use super::{SHARD_JSON, folder_of};
use crate::error::{Error, InputError};
use crate::report::replace::{self, Lock, NewFolder};

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
    let (_, parent, name) = replace::absolute(out)?;
    replace::restore(&parent, &name, &replace::tag_of(out)?)?;
    replace::remove_stale(&parent)?;
    replace::remove_stale(out)?;
    fs::write(
        out.join(ROOT_MARKER),
        "This folder holds a report written by pikeshot: its top-level files and the \
         scenario folders holding .pikeshot-output are replaced by the next report.\n",
    )
    .map_err(|e| Error::io(out, e))?;
    Ok(lock)
}

/// A report's top folder being written: a hidden temporary sibling of it,
/// which receives the top-level files and every scenario's new folder, then
/// what the old top folder holds that the report does not replace (hard
/// linked, not copied), and is swapped in whole ([`NewRoot::commit`]). A report
/// killed at any point leaves the old report whole or the new one whole.
/// Dropped uncommitted, the temporary is removed.
pub struct NewRoot {
    /// The top folder as the user gave it.
    out: PathBuf,
    /// The top folder itself (absolute, a link to it resolved).
    real: PathBuf,
    /// The temporary.
    tmp: PathBuf,
    /// The short tag of the folder's name, which its temporaries carry.
    tag: String,
    committed: bool,
}

impl NewRoot {
    /// Makes the temporary beside the top folder `out` (claimed already,
    /// see [`claim`]).
    pub fn begin(out: &Path) -> Result<NewRoot, Error> {
        let (real, parent, _) = replace::absolute(out)?;
        let tag = replace::tag_of(out)?;
        let tmp = parent.join(replace::temp_name(&format!("{tag}.new")));
        replace::remove_all(&tmp).map_err(|e| Error::io(&tmp, e))?;
        fs::create_dir(&tmp).map_err(|e| Error::io(out, e))?;
        Ok(NewRoot {
            out: out.to_path_buf(),
            real,
            tmp,
            tag,
            committed: false,
        })
    }

    /// Where the top level is written until the commit.
    pub fn path(&self) -> &Path {
        &self.tmp
    }

    /// `paths` under the temporary, as they are once committed.
    pub fn final_paths(&self, paths: Vec<PathBuf>) -> Vec<PathBuf> {
        paths
            .into_iter()
            .map(|p| match p.strip_prefix(&self.tmp) {
                Ok(rel) => self.out.join(rel),
                Err(_) => p,
            })
            .collect()
    }

    /// Puts every scenario's new folder (with its folder path relative to
    /// the top) in the temporary, then links in what the old top folder
    /// holds that this report does not write: the user's files and
    /// folders, the folders of `pikeshot run`, and not the old top-level
    /// files, nor any folder a report wrote for a scenario (those of
    /// scenarios that are gone are dropped, with folders left empty by
    /// that). Then swaps the temporary in, in one step.
    pub fn commit(mut self, folders: Vec<(NewFolder, String)>) -> Result<(), Error> {
        let written: Vec<String> = folders.iter().map(|(_, f)| f.clone()).collect();
        for (folder, rel) in folders {
            folder.move_to(&self.tmp.join(&rel))?;
        }
        if self.real.is_dir() {
            mirror(&self.real, &self.tmp, "", &written, true)?;
            copy_mode(&self.real, &self.tmp)?;
        }
        replace::swap_in(&self.tmp, &self.real, &self.tag).map_err(|e| Error::io(&self.out, e))?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for NewRoot {
    fn drop(&mut self) {
        if !self.committed {
            let _ = replace::remove_all(&self.tmp);
        }
    }
}

/// Whether `name` is a temporary or a lock pikeshot made (never carried
/// into a new top folder).
fn is_temporary(name: &str) -> bool {
    name.starts_with(".pikeshot-p") || (name.starts_with(".pikeshot-") && name.ends_with(".lock"))
}

/// Links into `to` (at `rel` under the top folder) what `from` holds that a
/// report does not replace (see [`NewRoot::commit`]); `files` is false in
/// a folder a report wrote for a scenario that is gone (only the folders
/// in it are kept). Returns whether it left anything out.
fn mirror(
    from: &Path,
    to: &Path,
    rel: &str,
    written: &[String],
    files: bool,
) -> Result<bool, Error> {
    let mut left_out = false;
    for entry in fs::read_dir(from).map_err(|e| Error::io(from, e))? {
        let entry = entry.map_err(|e| Error::io(from, e))?;
        let os_name = entry.file_name();
        let name = os_name.to_string_lossy();
        let (src, dst) = (entry.path(), to.join(&os_name));
        let r = if rel.is_empty() {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        };
        let top_file = rel.is_empty() && TOP_FILES.contains(&name.as_ref());
        if is_temporary(&name) || top_file || written.contains(&r) {
            continue;
        }
        let ty = entry.file_type().map_err(|e| Error::io(&src, e))?;
        if ty.is_dir() {
            let stale = replace::is_kind(&src, "report");
            match fs::create_dir(&dst) {
                Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                    return Err(Error::io(&dst, e));
                }
                _ => {}
            }
            let inner = mirror(&src, &dst, &r, written, !stale)?;
            if (stale || inner) && fs::read_dir(&dst).is_ok_and(|mut d| d.next().is_none()) {
                fs::remove_dir(&dst).map_err(|e| Error::io(&dst, e))?;
                left_out = true;
            } else {
                copy_mode(&src, &dst)?;
            }
        } else if !files {
            left_out = true;
        } else {
            link(&src, &dst)?;
        }
    }
    Ok(left_out)
}

/// Makes `dst` the same file as `src`: a hard link, never a copy. A file
/// that cannot be linked (on another file system, mounted inside the top
/// folder) is an error naming it: the old report then stays as it was.
fn link(src: &Path, dst: &Path) -> Result<(), Error> {
    fs::hard_link(src, dst).map_err(|e| Error::io(src, e))
}

/// Gives the folder `dst` the permissions of `src`.
fn copy_mode(src: &Path, dst: &Path) -> Result<(), Error> {
    let perms = fs::metadata(src)
        .map_err(|e| Error::io(src, e))?
        .permissions();
    fs::set_permissions(dst, perms).map_err(|e| Error::io(dst, e))
}

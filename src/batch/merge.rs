//! `pikeshot merge`: the outputs of every shard of a report combined into
//! exactly what the unsharded report writes.
//!
//! Each shard's output holds `shard.json` ([`ShardRecord`]: its number, the
//! shard count, the whole sorted scenario list and the run options) and a
//! `scenarios.csv` naming the folders it wrote. The merge checks that the
//! shards belong together (same count, same list, same options, every
//! shard once, each holding exactly its slice), copies every scenario's
//! folder into the output in the order of the list, and rebuilds the top
//! level from them ([`site::stage`]), without `shard.json`. The output is
//! replaced whole, as `report` does ([`root::NewRoot`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::root;
use super::site::{self, Entry, Site};
use super::{SHARD_JSON, Shard, ShardRecord};
use crate::error::{Error, InputError};
use crate::report::Staging;
use crate::report::replace::NewFolder;

/// A shard's output, read.
struct ShardDir {
    dir: PathBuf,
    record: ShardRecord,
    entries: Vec<Entry>,
}

fn read_shard(dir: &Path) -> Result<ShardDir, Error> {
    let path = super::site::required_file(
        dir,
        SHARD_JSON,
        "a shard's output",
        " (write one with `pikeshot report DIR --shard I/N`)",
    )?;
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
    let record: ShardRecord = serde_json::from_str(&text).map_err(|e| {
        Error::from(InputError::new(format!(
            "{}: not a shard record: {e}",
            path.display()
        )))
    })?;
    let entries = site::read_manifest(dir)?;
    Ok(ShardDir {
        dir: dir.to_path_buf(),
        record,
        entries,
    })
}

/// The files a scenario folder holds (not hidden, not folders: a nested
/// scenario's folder is copied for that scenario), sorted.
fn folder_files(dir: &Path) -> Result<Vec<String>, Error> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let ty = entry.file_type().map_err(|e| Error::io(entry.path(), e))?;
        if !name.starts_with('.') && ty.is_file() {
            out.push(name);
        }
    }
    out.sort();
    Ok(out)
}

/// Merges the shard outputs in `shards` into `out` and returns what the top
/// level holds. Every shard is checked before anything is written.
pub fn merge(shards: &[PathBuf], out: &Path) -> Result<Site, Error> {
    if shards.is_empty() {
        return Err(InputError::new("merge needs at least one shard's output").into());
    }
    let read: Vec<ShardDir> = shards
        .iter()
        .map(|d| read_shard(d))
        .collect::<Result<_, _>>()?;
    let first = &read[0].record;
    let mut seen: BTreeSet<u32> = BTreeSet::new();
    for s in &read {
        let r = &s.record;
        let differs = |what: &str| -> Error {
            InputError::new(format!(
                "{} and {} are shards of different reports: their {what} differ",
                read[0].dir.display(),
                s.dir.display()
            ))
            .into()
        };
        if r.of != first.of {
            return Err(differs("shard counts"));
        }
        if r.scenarios != first.scenarios {
            return Err(differs("scenario lists"));
        }
        if r.options != first.options {
            return Err(differs("run options (--trials, --seed, --exact, --set, …)"));
        }
        if r.shard == 0 || r.shard > r.of {
            return Err(InputError::new(format!(
                "{}: shard {} of {} is out of range",
                s.dir.display(),
                r.shard,
                r.of
            ))
            .into());
        }
        if !seen.insert(r.shard) {
            return Err(InputError::new(format!(
                "shard {}/{} is given twice ({})",
                r.shard,
                r.of,
                s.dir.display()
            ))
            .into());
        }
        // The shard holds exactly its slice, in order.
        let shard = Shard {
            index: r.shard,
            count: r.of,
        };
        let want: Vec<&String> = r
            .scenarios
            .iter()
            .enumerate()
            .filter(|(k, _)| shard.takes(*k))
            .map(|(_, f)| f)
            .collect();
        let have: Vec<&String> = s.entries.iter().map(|e| &e.file).collect();
        if want != have {
            return Err(InputError::new(format!(
                "{}: its {} does not list the scenarios of shard {}/{}",
                s.dir.display(),
                site::MANIFEST,
                r.shard,
                r.of
            ))
            .into());
        }
    }
    let missing: Vec<String> = (1..=first.of)
        .filter(|i| !seen.contains(i))
        .map(|i| format!("{i}/{}", first.of))
        .collect();
    if !missing.is_empty() {
        return Err(InputError::new(format!(
            "missing shard{} {}",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        ))
        .into());
    }
    if let Ok(o) = out.canonicalize() {
        for s in &read {
            if s.dir.canonicalize().is_ok_and(|d| d == o) {
                return Err(InputError::new(format!(
                    "--out {} is one of the shards; merge into a new folder",
                    out.display()
                ))
                .key("--out")
                .into());
            }
        }
    }

    // Every scenario, in the order of the list, with the shard holding it.
    let mut entries: Vec<(Entry, &Path)> = Vec::new();
    for file in &first.scenarios {
        let (e, dir) = read
            .iter()
            .find_map(|s| {
                s.entries
                    .iter()
                    .find(|e| e.file == *file)
                    .map(|e| (e.clone(), s.dir.as_path()))
            })
            .expect("every scenario is in exactly one checked shard");
        let files = folder_files(&dir.join(&e.folder))?;
        if files.is_empty() {
            return Err(Error::io(
                dir.join(&e.folder),
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "the scenario's folder is empty",
                ),
            ));
        }
        entries.push((e, dir));
    }
    let _lock = root::claim(out)?;
    let mut claimed = Vec::with_capacity(entries.len());
    for (e, dir) in &entries {
        let from = dir.join(&e.folder);
        let new = NewFolder::begin(&out.join(&e.folder), "--out", "report")?;
        let mut staging = Staging::new(new.path())?;
        for name in folder_files(&from)? {
            let p = from.join(&name);
            let bytes = std::fs::read(&p).map_err(|err| Error::io(&p, err))?;
            staging.bytes(&name, &bytes)?;
        }
        staging.commit()?;
        claimed.push(new);
    }
    let dirs: Vec<PathBuf> = claimed.iter().map(|c| c.path().to_path_buf()).collect();
    let entries: Vec<Entry> = entries.into_iter().map(|(e, _)| e).collect();
    let new_root = root::NewRoot::begin(out)?;
    let mut site = site::stage(new_root.path(), &entries, &dirs, &[])?.commit()?;
    site.written = new_root.final_paths(site.written);
    let folders: Vec<String> = entries.iter().map(|e| e.folder.clone()).collect();
    new_root.commit(claimed.into_iter().zip(folders).collect())?;
    Ok(site)
}

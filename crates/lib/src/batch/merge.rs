//! `pikeshot merge`: the outputs of every shard of a report combined into
//! exactly what the unsharded report writes.
//!
//! Each shard's output holds `shard.json` ([`ShardRecord`]: the shards it
//! holds, the shard count, the whole sorted scenario list with each file's
//! SHA-256, the run options and pikeshot's version) and a `scenarios.csv`
//! naming the folders it wrote. The merge checks that the inputs belong
//! together (same version, count, list, files and options, naming the
//! first difference; every shard once, each input holding exactly its
//! shards' scenarios), copies every scenario's folder into the output in
//! the order of the list, and rebuilds the top level from them
//! ([`top::stage`]). Holding every shard, the output is the unsharded
//! report, without `shard.json`; a `--partial` merge of some shards writes
//! a `shard.json` naming them all and merges again like a shard, so
//! merging is associative and order-free: any tree of merges over the
//! shards, in any order, gives the unsharded report's bytes. Every folder
//! is replaced whole, as `report` does ([`root::NewRoot`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::root;
use super::site::{self, Entry};
use super::top::{self, Site};
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

/// The first way two shard records differ, in words, or `None` when they
/// are shards of one report.
fn difference(a: &ShardRecord, b: &ShardRecord) -> Option<String> {
    if a.pikeshot != b.pikeshot {
        let v = |s: &str| {
            if s.is_empty() {
                "an older pikeshot".to_string()
            } else {
                format!("pikeshot {s}")
            }
        };
        return Some(format!(
            "they were written by different pikeshot versions ({} against {})",
            v(&a.pikeshot),
            v(&b.pikeshot)
        ));
    }
    if a.of != b.of {
        return Some(format!(
            "their shard counts differ ({} against {})",
            a.of, b.of
        ));
    }
    if a.scenarios != b.scenarios {
        let only = |x: &ShardRecord, y: &ShardRecord| {
            x.scenarios
                .iter()
                .find(|f| !y.scenarios.contains(f))
                .cloned()
        };
        return Some(match (only(a, b), only(b, a)) {
            (Some(f), _) => format!("their scenario lists differ ({f} is only in the first)"),
            (None, Some(f)) => format!("their scenario lists differ ({f} is only in the second)"),
            (None, None) => "their scenario lists differ (in order)".to_string(),
        });
    }
    if let Some((f, _)) = a
        .scenarios
        .iter()
        .zip(a.sha256.iter().zip(&b.sha256))
        .find(|(_, (x, y))| x != y)
    {
        return Some(format!(
            "their scenario files differ: {f} was not the same file (SHA-256)"
        ));
    }
    if a.options != b.options {
        let va = serde_json::to_value(&a.options).expect("plain data serialises");
        let vb = serde_json::to_value(&b.options).expect("plain data serialises");
        let mut keys: Vec<String> = Vec::new();
        if let (Some(ma), Some(mb)) = (va.as_object(), vb.as_object()) {
            for (k, x) in ma {
                if mb.get(k) != Some(x) {
                    keys.push(format!(
                        "--{} ({x} against {})",
                        k.replace('_', "-"),
                        mb.get(k).unwrap_or(&serde_json::Value::Null)
                    ));
                }
            }
        }
        return Some(format!("their run options differ: {}", keys.join(", ")));
    }
    None
}

/// Merges the shard outputs in `shards` into `out` and returns what the top
/// level holds. Every shard is checked before anything is written.
///
/// Each input is one shard's output or a partial merge; they may come in
/// any order. Without `partial` they must hold every shard of the report
/// once, and the output is the unsharded report; with it, any shards
/// (each once), and the output is a partial merge holding them all, which
/// merges again like a shard: merges of merges give the same bytes.
pub fn merge(shards: &[PathBuf], out: &Path, partial: bool) -> Result<Site, Error> {
    if shards.is_empty() {
        return Err(InputError::new("merge needs at least one shard's output").into());
    }
    let read: Vec<ShardDir> = shards
        .iter()
        .map(|d| read_shard(d))
        .collect::<Result<_, _>>()?;
    let first = &read[0].record;
    // Which input holds each shard.
    let mut holder: BTreeMap<u32, &Path> = BTreeMap::new();
    for s in &read {
        let r = &s.record;
        if let Some(why) = difference(first, r) {
            return Err(InputError::new(format!(
                "{} and {} are shards of different reports: {why}",
                read[0].dir.display(),
                s.dir.display()
            ))
            .into());
        }
        if r.sha256.len() != r.scenarios.len() {
            return Err(InputError::new(format!(
                "{}: its {SHARD_JSON} has {} SHA-256 digests for {} scenarios",
                s.dir.display(),
                r.sha256.len(),
                r.scenarios.len()
            ))
            .into());
        }
        let list = r.shard_list();
        if list.is_empty() || list.windows(2).any(|w| w[0] >= w[1]) {
            return Err(InputError::new(format!(
                "{}: its {SHARD_JSON} does not list its shards in ascending order",
                s.dir.display()
            ))
            .into());
        }
        for &i in &list {
            if i == 0 || i > r.of {
                return Err(InputError::new(format!(
                    "{}: shard {i} of {} is out of range",
                    s.dir.display(),
                    r.of
                ))
                .into());
            }
            if let Some(other) = holder.insert(i, &s.dir) {
                return Err(InputError::new(format!(
                    "shard {i}/{} is given twice ({} and {})",
                    r.of,
                    other.display(),
                    s.dir.display()
                ))
                .into());
            }
        }
        // The input holds exactly its shards' scenarios, in order.
        let want: Vec<&String> = r
            .scenarios
            .iter()
            .enumerate()
            .filter(|(k, _)| {
                list.iter().any(|&i| {
                    Shard {
                        index: i,
                        count: r.of,
                    }
                    .takes(*k)
                })
            })
            .map(|(_, f)| f)
            .collect();
        let have: Vec<&String> = s.entries.iter().map(|e| &e.file).collect();
        if want != have {
            return Err(InputError::new(format!(
                "{}: its {} does not list the scenarios of shard {}",
                s.dir.display(),
                site::MANIFEST,
                r.describe()
            ))
            .into());
        }
    }
    let missing: Vec<u32> = (1..=first.of).filter(|i| !holder.contains_key(i)).collect();
    if !missing.is_empty() && !partial {
        let named = ShardRecord {
            shards: ShardRecord::ranges(&missing),
            ..first.clone()
        };
        return Err(InputError::new(format!(
            "missing shard{} {} (merge what you have with --partial, and the rest later)",
            if missing.len() == 1 { "" } else { "s" },
            named.describe()
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

    // Every scenario held, in the order of the list, with the input
    // holding it.
    let mut entries: Vec<(Entry, &Path)> = Vec::new();
    for file in &first.scenarios {
        let Some((e, dir)) = read.iter().find_map(|s| {
            s.entries
                .iter()
                .find(|e| e.file == *file)
                .map(|e| (e.clone(), s.dir.as_path()))
        }) else {
            // In a shard not given (a partial merge).
            continue;
        };
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
    let extra = if missing.is_empty() {
        Vec::new()
    } else {
        let held: Vec<u32> = holder.keys().copied().collect();
        let record = ShardRecord {
            shards: ShardRecord::ranges(&held),
            ..first.clone()
        };
        let mut bytes = serde_json::to_vec_pretty(&record).expect("plain data serialises");
        bytes.push(b'\n');
        vec![(SHARD_JSON, bytes)]
    };
    let new_root = root::NewRoot::begin(out)?;
    let mut site = top::stage(new_root.path(), &entries, &dirs, &extra)?.commit()?;
    site.written = new_root.final_paths(site.written);
    let folders: Vec<String> = entries.iter().map(|e| e.folder.clone()).collect();
    new_root.commit(claimed.into_iter().zip(folders).collect())?;
    Ok(site)
}

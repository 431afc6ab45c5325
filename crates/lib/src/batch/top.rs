//! The top level of a report's folder, staged from its scenario folders:
//! `scenarios.csv`, `summary.csv`, `expect.csv` and `index.html`.

use std::path::{Path, PathBuf};

use super::html;
use super::site::{
    EXPECT, Entry, Folder, INDEX, MANIFEST, MANIFEST_HEADER, SUMMARY, checks, expect_header,
    read_folder, summary,
};
use crate::error::Error;
use crate::report::Staging;
use crate::report::csv::stage as stage_csv;
use crate::targets::CheckRow;

/// What [`stage`] staged and [`Top::commit`] put in place.
pub struct Site {
    /// Paths written, in order.
    pub written: Vec<PathBuf>,
    /// Every target checked, across scenarios.
    pub checks: Vec<CheckRow>,
}

/// The top level of a report, staged in its folder and not yet in place.
pub struct Top {
    staging: Staging,
    checks: Vec<CheckRow>,
}

impl Top {
    /// Renames the staged files into place.
    pub fn commit(self) -> Result<Site, Error> {
        Ok(Site {
            written: self.staging.commit()?,
            checks: self.checks,
        })
    }
}

/// Stages the top level of a report in `out` from the scenario folders
/// `dirs` (one per entry, wherever they are while being written):
/// `scenarios.csv`, `summary.csv`, `expect.csv`, `index.html`, and the
/// `extra` files given (e.g. a shard's `shard.json`).
pub fn stage(
    out: &Path,
    entries: &[Entry],
    dirs: &[PathBuf],
    extra: &[(&str, Vec<u8>)],
) -> Result<Top, Error> {
    let folders: Vec<Folder> = dirs
        .iter()
        .map(|d| read_folder(d))
        .collect::<Result<_, _>>()?;
    let mut staging = Staging::new(out)?;
    let manifest: Vec<Vec<String>> = entries.iter().map(Entry::record).collect();
    stage_csv(
        &mut staging,
        MANIFEST,
        &MANIFEST_HEADER.map(String::from),
        &manifest,
    )?;
    let (h, rows) = summary(entries, &folders);
    stage_csv(&mut staging, SUMMARY, &h, &rows)?;
    let (expect_rows, checks) = checks(entries, &folders);
    stage_csv(&mut staging, EXPECT, &expect_header(), &expect_rows)?;
    let page = html::page(entries, &folders, &checks);
    staging.bytes(INDEX, page.as_bytes())?;
    for (name, bytes) in extra {
        staging.bytes(name, bytes)?;
    }
    Ok(Top { staging, checks })
}

//! Writing files whole or not at all.
//!
//! Every output is first written to a hidden temporary file in the output
//! folder itself (so the final rename stays on one file system); once every
//! output of the run has been staged, all are flushed to disk (several at
//! once) and each is renamed over its final name. A failure anywhere removes the temporaries and names the
//! file concerned.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::Error;

/// Distinguishes temporaries made by several stagings of one process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A hidden temporary name in `dir` that ends like `name` (plotters picks the
/// image encoder from the extension).
fn temp_path(dir: &Path, name: &str) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    dir.join(super::replace::temp_name(&format!("{n}.{name}")))
}

/// Creates `dir` (and its parents) if missing.
fn create_dir(dir: &Path) -> Result<(), Error> {
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))
}

/// Fails fast, leaving no file behind, when files cannot be written in `dir`.
///
/// Creates `dir` if it is missing, then writes and removes a small probe
/// file. A CLI calls this before a long run.
pub fn check_writable(dir: &Path) -> Result<(), Error> {
    create_dir(dir)?;
    let probe = temp_path(dir, "probe");
    let result = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .and_then(|mut f| f.write_all(b"pikeshot"));
    // Whether or not the write succeeded, the probe must not stay.
    let _ = fs::remove_file(&probe);
    result.map_err(|e| Error::io(dir, e))
}

/// Files staged in one output folder, renamed into place by
/// [`Staging::commit`]; dropped uncommitted, it removes its temporaries.
pub struct Staging {
    dir: PathBuf,
    /// (temporary, final) pairs in staging order.
    files: Vec<(PathBuf, PathBuf)>,
}

impl Staging {
    /// Starts staging into `dir`, creating it if missing.
    pub fn new(dir: &Path) -> Result<Staging, Error> {
        create_dir(dir)?;
        Ok(Staging {
            dir: dir.to_path_buf(),
            files: Vec::new(),
        })
    }

    /// The output folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The final path of `name`, refusing a name staged twice.
    fn claim(&self, name: &str) -> Result<PathBuf, Error> {
        let target = self.dir.join(name);
        if self.files.iter().any(|(_, t)| *t == target) {
            return Err(Error::io(
                target,
                io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    "file staged twice in one report",
                ),
            ));
        }
        Ok(target)
    }

    /// Stages `bytes` as the file `name`.
    pub fn bytes(&mut self, name: &str, bytes: &[u8]) -> Result<(), Error> {
        self.with_path(name, |tmp| {
            let mut f = OpenOptions::new().write(true).create_new(true).open(tmp)?;
            f.write_all(bytes)
        })
    }

    /// Stages the file `name` by letting `write` create it at a temporary
    /// path (which ends like `name`). Whatever `write` leaves there on
    /// failure is removed.
    pub fn with_path(
        &mut self,
        name: &str,
        write: impl FnOnce(&Path) -> io::Result<()>,
    ) -> Result<(), Error> {
        let target = self.claim(name)?;
        let tmp = temp_path(&self.dir, name);
        let result = write(&tmp);
        match result {
            Ok(()) => {
                self.files.push((tmp, target));
                Ok(())
            }
            Err(e) => {
                let _ = fs::remove_file(&tmp);
                Err(Error::io(target, e))
            }
        }
    }

    /// Opens the file `name` for writing piece by piece (a large sweep's
    /// tables, written as its variants finish): it is staged at once, so
    /// that whatever happens it is removed with the other temporaries
    /// unless committed; [`StagedFile::finish`] must be called before
    /// [`Staging::commit`].
    pub fn open(&mut self, name: &str) -> Result<StagedFile, Error> {
        let target = self.claim(name)?;
        let tmp = temp_path(&self.dir, name);
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|e| Error::io(&target, e))?;
        self.files.push((tmp, target.clone()));
        Ok(StagedFile {
            out: io::BufWriter::with_capacity(1 << 16, file),
            target,
        })
    }

    /// Renames every staged file over its final name, in staging order, and
    /// returns the final paths. On a failed rename the remaining temporaries
    /// are removed; files already renamed are complete.
    pub fn commit(mut self) -> Result<Vec<PathBuf>, Error> {
        // On failure, dropping `self` removes every temporary.
        self.sync()?;
        let files = std::mem::take(&mut self.files);
        let mut done = Vec::with_capacity(files.len());
        let mut iter = files.into_iter();
        for (tmp, target) in iter.by_ref() {
            if let Err(e) = fs::rename(&tmp, &target) {
                let _ = fs::remove_file(&tmp);
                for (rest, _) in iter {
                    let _ = fs::remove_file(rest);
                }
                return Err(Error::io(target, e));
            }
            done.push(target);
        }
        Ok(done)
    }
}

/// How many files are flushed to disk at once by [`Staging::commit`].
const SYNC_AT_ONCE: usize = 8;

impl Staging {
    /// Flushes every staged file to disk, several at once: waiting for the
    /// disk once per file, one after the other, was most of the wall time
    /// of a small run, and a file system commits overlapping flushes
    /// together. Names the first file that could not be flushed.
    fn sync(&self) -> Result<(), Error> {
        let sync_part = |part: &[(PathBuf, PathBuf)]| {
            part.iter().find_map(|(tmp, target)| {
                File::open(tmp)
                    .and_then(|f| f.sync_all())
                    .err()
                    .map(|e| (target.clone(), e))
            })
        };
        let per = self.files.len().div_ceil(SYNC_AT_ONCE).max(1);
        let failed = std::thread::scope(|s| {
            let mut inline = None;
            let mut handles = Vec::new();
            for part in self.files.chunks(per) {
                match std::thread::Builder::new().spawn_scoped(s, move || sync_part(part)) {
                    Ok(h) => handles.push(h),
                    // No thread to spare: flush this part here.
                    Err(_) => inline = inline.or_else(|| sync_part(part)),
                }
            }
            let joined = handles.into_iter().find_map(|h| h.join().ok().flatten());
            inline.or(joined)
        });
        match failed {
            Some((target, e)) => Err(Error::io(target, e)),
            None => Ok(()),
        }
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        for (tmp, _) in &self.files {
            let _ = fs::remove_file(tmp);
        }
    }
}

/// A file of a [`Staging`] written piece by piece ([`Staging::open`]).
pub struct StagedFile {
    out: io::BufWriter<File>,
    target: PathBuf,
}

impl StagedFile {
    /// The file's final path (for error messages).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flushes what is buffered; the staging flushes it to disk and renames
    /// it into place when committed.
    pub fn finish(mut self) -> Result<(), Error> {
        self.out.flush().map_err(|e| Error::io(&self.target, e))
    }
}

impl Write for StagedFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

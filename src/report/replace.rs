//! Replacing an output folder whole.
//!
//! A run never writes into the folder it replaces. It takes the folder's
//! lock (a sibling file made with `create_new`, holding the process id, so
//! a second run into the same folder is refused and a lock left by a killed
//! process is recognised as stale), writes everything into a hidden
//! temporary sibling ([`NewFolder`]) and, once every file is there, swaps
//! it in: on Linux with one atomic exchange (`renameat2`
//! `RENAME_EXCHANGE`), elsewhere with two renames. A run killed at any
//! point leaves the previous folder whole; its temporaries (named with its
//! process id) are removed by the next run that finds the process gone.
//!
//! Only folders pikeshot wrote are replaced or removed: each holds a marker
//! file, [`MARKER`]. A non-empty folder without it is refused, so a
//! user's files are never deleted.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::engine::stream_id;
use crate::error::{Error, InputError};

/// The marker file in every folder pikeshot writes (hidden, so reports and
/// merges do not list it).
pub const MARKER: &str = ".pikeshot-output";

/// Writes the marker into `dir`, naming the command that wrote the folder
/// (`run`, `report`, `diff`, `merge`): `report` removes only folders of its
/// own kind that no longer have a scenario.
pub fn mark(dir: &Path, kind: &str) -> Result<(), Error> {
    let text = format!(
        "This folder was written by `pikeshot {kind}`. The next run into it replaces it whole:\n\
         keep your own files elsewhere.\n"
    );
    fs::write(dir.join(MARKER), text).map_err(|e| Error::io(dir, e))
}

/// Whether `dir` is a folder written by `pikeshot kind` (see [`mark`]).
pub fn is_kind(dir: &Path, kind: &str) -> bool {
    fs::read_to_string(dir.join(MARKER)).is_ok_and(|t| t.contains(&format!("`pikeshot {kind}`")))
}

/// The prefix of every temporary and lock pikeshot leaves beside a folder.
const PREFIX: &str = ".pikeshot-";

/// `path` made absolute (without resolving links), so that its parent and
/// name are known; refuses a path without a last name (`/`, `..`).
fn absolute(dir: &Path) -> Result<(PathBuf, PathBuf, String), Error> {
    let abs = std::path::absolute(dir).map_err(|e| Error::io(dir, e))?;
    let name = abs.file_name().map(|n| n.to_string_lossy().into_owned());
    match (abs.parent(), name) {
        (Some(parent), Some(name)) if name != ".." => Ok((abs.clone(), parent.to_path_buf(), name)),
        _ => Err(InputError::new(format!(
            "{} cannot be an output folder: it has no name of its own",
            dir.display()
        ))
        .key("--out")
        .accepted("a folder with a name, e.g. --out reports/mine")
        .into()),
    }
}

/// A short, fixed tag for a folder name (its temporaries and lock stay
/// short whatever the name's length).
fn tag(name: &str) -> String {
    format!("{:016x}", stream_id(name))
}

/// Whether the process `pid` is running.
fn alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    #[cfg(target_os = "linux")]
    {
        Path::new(&format!("/proc/{pid}")).exists()
    }
    #[cfg(all(unix, not(target_os = "linux")))]
    {
        std::process::Command::new("kill")
            .args(["-0", &pid.to_string()])
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// The start time of process `pid` (Linux: field 22 of `/proc/PID/stat`),
/// which tells a process apart from a later one given the same id.
fn start_time(pid: u32) -> Option<String> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19).map(str::to_string)
}

/// The process id a temporary's name carries: `.pikeshot-p<pid>-…`.
fn temp_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(PREFIX)?.strip_prefix('p')?;
    let end = rest.find(|c: char| !c.is_ascii_digit())?;
    rest[..end].parse().ok()
}

/// The name of a temporary made by this process (see [`remove_stale`]).
pub(crate) fn temp_name(rest: &str) -> String {
    format!("{PREFIX}p{}-{rest}", std::process::id())
}

/// Removes the temporaries in `dir` left by processes that are gone (a
/// killed run): files and folders named `.pikeshot-p<pid>-…`.
pub fn remove_stale(dir: &Path) -> Result<(), Error> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = temp_pid(&name) else { continue };
        if alive(pid) {
            continue;
        }
        let path = entry.path();
        let removed = match entry.file_type() {
            Ok(t) if t.is_dir() => fs::remove_dir_all(&path),
            _ => fs::remove_file(&path),
        };
        match removed {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    Ok(())
}

/// Puts back the previous folder `name` in `parent` when a run was killed
/// between the two renames of a swap (where there is no atomic exchange):
/// the folder is missing and its old copy, whole, waits under a temporary
/// name of a process that is gone.
fn restore(parent: &Path, name: &str, tag: &str) -> Result<(), Error> {
    let dir = parent.join(name);
    if fs::symlink_metadata(&dir).is_ok() {
        return Ok(());
    }
    let Ok(entries) = fs::read_dir(parent) else {
        return Ok(());
    };
    let suffix = format!("-{tag}.old");
    for entry in entries.flatten() {
        let n = entry.file_name().to_string_lossy().into_owned();
        if n.ends_with(&suffix) && temp_pid(&n).is_some_and(|p| !alive(p)) {
            return fs::rename(entry.path(), &dir).map_err(|e| Error::io(&dir, e));
        }
    }
    Ok(())
}

/// Whether `dir` is a folder pikeshot wrote (it holds [`MARKER`]).
pub fn is_ours(dir: &Path) -> bool {
    dir.join(MARKER).is_file()
}

/// Refuses `dir` unless pikeshot may replace it: missing, an empty folder,
/// or a folder holding [`MARKER`]. `what` names the flag or report the
/// folder comes from, for the message.
pub fn check_replaceable(dir: &Path, what: &str) -> Result<(), Error> {
    let meta = match fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(dir, e)),
    };
    let refuse = |why: &str| -> Error {
        InputError::new(format!("{} {why}", dir.display()))
            .key(what)
            .accepted(format!(
                "a new or empty folder, or one pikeshot wrote (it holds {MARKER}); \
                 move your files elsewhere or choose another folder"
            ))
            .into()
    };
    if !meta.is_dir() {
        return Err(refuse(
            "is not a folder: the outputs of a run are written into a folder",
        ));
    }
    if is_ours(dir) {
        return Ok(());
    }
    let mut entries = fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    if entries.next().is_some() {
        return Err(refuse(
            "holds files pikeshot did not write: it replaces a folder whole and will not delete them",
        ));
    }
    Ok(())
}

/// The lock of an output folder, held while a run writes it; removed when
/// dropped.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
}

impl Lock {
    /// Takes the lock of `dir` (a sibling file, created with `create_new`,
    /// holding this process's id and start time). A lock whose process is
    /// gone is stale and taken over; one held by a running process is a
    /// clear error naming the folder, the process and what to do.
    pub fn take(dir: &Path) -> Result<Lock, Error> {
        let (abs, parent, name) = absolute(dir)?;
        fs::create_dir_all(&parent).map_err(|e| Error::io(&parent, e))?;
        let path = parent.join(format!("{PREFIX}{}.lock", tag(&name)));
        let me = std::process::id();
        let content = format!("{me} {}\n", start_time(me).unwrap_or_default());
        for _ in 0..2 {
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut f) => {
                    f.write_all(content.as_bytes())
                        .map_err(|e| Error::io(&path, e))?;
                    return Ok(Lock { path });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    if let Some(holder) = holder(&path) {
                        return Err(InputError::new(format!(
                            "{} is being written by another pikeshot run (process {holder})",
                            abs.display()
                        ))
                        .accepted(format!(
                            "wait for that run to finish, or write elsewhere with --out; \
                             if no pikeshot is running, remove {}",
                            path.display()
                        ))
                        .into());
                    }
                    // Stale: its process is gone.
                    match fs::remove_file(&path) {
                        Ok(()) => {}
                        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                        Err(e) => return Err(Error::io(&path, e)),
                    }
                }
                Err(e) => return Err(Error::io(&path, e)),
            }
        }
        Err(Error::io(
            &path,
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                "another run took the lock at the same moment",
            ),
        ))
    }
}

/// The process holding the lock file at `path`, if it is still running.
/// A lock that cannot be read, or was only just created and is still
/// empty, is taken as held (by process "unknown") for a few seconds.
fn holder(path: &Path) -> Option<String> {
    let text = fs::read_to_string(path).unwrap_or_default();
    let mut parts = text.split_whitespace();
    let Some(pid) = parts.next().and_then(|p| p.parse::<u32>().ok()) else {
        let young = fs::metadata(path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age.as_secs() < 5);
        return young.then(|| "unknown".to_string());
    };
    if !alive(pid) {
        return None;
    }
    // The same id given to a later process is not the lock's holder.
    match (parts.next(), start_time(pid)) {
        (Some(recorded), Some(now)) if recorded != now => None,
        _ => Some(pid.to_string()),
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// A folder being written: a hidden temporary sibling of its final place,
/// holding [`MARKER`], swapped in whole by [`NewFolder::commit`]. Dropped
/// uncommitted, it is removed (and so are its lock and temporaries).
#[derive(Debug)]
pub struct NewFolder {
    dir: PathBuf,
    tmp: PathBuf,
    parent: PathBuf,
    name: String,
    tag: String,
    what: String,
    committed: bool,
    _lock: Lock,
}

impl NewFolder {
    /// Starts replacing `dir`: takes its lock, checks that it may be
    /// replaced ([`check_replaceable`]; `what` names the flag or folder it
    /// came from), removes temporaries of killed runs beside it, and makes
    /// the temporary folder with its marker (naming the command `kind`).
    /// Everything that can fail before the outputs are written fails here,
    /// before any work.
    pub fn begin(dir: &Path, what: &str, kind: &str) -> Result<NewFolder, Error> {
        let lock = Lock::take(dir)?;
        let (_, parent, name) = absolute(dir)?;
        let tag = tag(&name);
        restore(&parent, &name, &tag)?;
        check_replaceable(dir, what)?;
        remove_stale(&parent)?;
        let tmp = parent.join(temp_name(&format!("{tag}.new")));
        match fs::remove_dir_all(&tmp) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&tmp, e)),
        }
        fs::create_dir(&tmp).map_err(|e| Error::io(dir, e))?;
        let folder = NewFolder {
            dir: dir.to_path_buf(),
            tmp,
            parent,
            name,
            tag,
            what: what.to_string(),
            committed: false,
            _lock: lock,
        };
        mark(&folder.tmp, kind)?;
        Ok(folder)
    }

    /// Where the outputs are written until the commit.
    pub fn path(&self) -> &Path {
        &self.tmp
    }

    /// The folder's final place.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Swaps the new folder in place of the old one (if any), which is
    /// then removed, and releases the lock.
    pub fn commit(mut self) -> Result<(), Error> {
        let dir = self.parent.join(&self.name);
        let exists = fs::symlink_metadata(&dir).is_ok();
        if exists {
            // A marker may have gone, or files come, since `begin`: check again.
            check_replaceable(&self.dir, &self.what)?;
        }
        // Where the old folder ends up, to be removed.
        let old = if !exists {
            fs::rename(&self.tmp, &dir).map_err(|e| Error::io(&self.dir, e))?;
            None
        } else if exchange(&self.tmp, &dir).is_ok() {
            Some(self.tmp.clone())
        } else {
            let old = self.parent.join(temp_name(&format!("{}.old", self.tag)));
            fs::rename(&dir, &old).map_err(|e| Error::io(&self.dir, e))?;
            if let Err(e) = fs::rename(&self.tmp, &dir) {
                let _ = fs::rename(&old, &dir);
                return Err(Error::io(&self.dir, e));
            }
            Some(old)
        };
        self.committed = true;
        match old.map(|o| (fs::remove_dir_all(&o), o)) {
            Some((Err(e), o)) if e.kind() != io::ErrorKind::NotFound => Err(Error::io(o, e)),
            _ => Ok(()),
        }
    }
}

impl Drop for NewFolder {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.tmp);
        }
    }
}

/// Exchanges two paths atomically (Linux `renameat2` with
/// `RENAME_EXCHANGE`); an error where the platform or file system cannot.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let ca = CString::new(a.as_os_str().as_bytes()).map_err(io::Error::other)?;
    let cb = CString::new(b.as_os_str().as_bytes()).map_err(io::Error::other)?;
    // SAFETY: both paths are valid NUL-terminated strings that live across
    // the call; renameat2 reads them and touches no other memory.
    let r = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Exchanges two paths atomically: not available here, so the caller
/// falls back to two renames.
#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "no atomic exchange on this platform",
    ))
}

//! Replacing an output folder whole.
//!
//! A run never writes into the folder it replaces. It takes the folder's
//! lock (a sibling file made with `create_new`, holding the process id, so
//! a second run into the same folder is refused and a lock left by a killed
//! process is recognised as stale), writes everything into a hidden
//! temporary sibling ([`NewFolder`]) and, once every file is there, swaps
//! it in (`swap_in`): on Linux with one atomic exchange (`renameat2`
//! `RENAME_EXCHANGE`, through rustix), elsewhere with two renames. A run
//! killed at any point leaves the previous folder whole; its temporaries
//! (named with its process id) are removed by the next run that finds the
//! process gone. A folder given as a symbolic link is the folder it links
//! to. An old folder that cannot be removed (read-only) is refused before
//! any work, naming it.
//!
//! Only folders pikeshot wrote are replaced or removed: each holds a marker
//! file, [`MARKER`]. A non-empty folder without it is refused, so a
//! user's files are never deleted.

use std::ffi::{OsStr, OsString};
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

/// `dir` itself, or, when it is a symbolic link to a folder, the folder it
/// links to (the folder that is replaced; the link stays).
fn resolved(dir: &Path) -> PathBuf {
    let link = fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink());
    match link && dir.is_dir() {
        true => fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()),
        false => dir.to_path_buf(),
    }
}

/// `path` made absolute (a link to a folder resolved, see [`resolved`]),
/// so that its parent and name are known; refuses a path without a last
/// name (`/`, `..`).
pub(crate) fn absolute(dir: &Path) -> Result<(PathBuf, PathBuf, OsString), Error> {
    let abs = std::path::absolute(resolved(dir)).map_err(|e| Error::io(dir, e))?;
    let name = abs.file_name().map(OsStr::to_os_string);
    match (abs.parent(), name) {
        (Some(parent), Some(name)) if name != OsStr::new("..") => {
            Ok((abs.clone(), parent.to_path_buf(), name))
        }
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
/// short whatever the name's length or encoding).
fn tag(name: &OsStr) -> String {
    format!("{:016x}", stream_id(&name.to_string_lossy()))
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
/// killed run): files and folders named `.pikeshot-p<pid>-…`. One that
/// cannot be removed is left (see `remove_all`): it must not stop a run
/// into another folder beside it.
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
        let _ = remove_all(&entry.path());
    }
    Ok(())
}

/// Removes `path` (a file, a link, or a folder and all it holds); a folder
/// that refuses (read-only) is made writable by its owner and removed
/// again. A path already gone is not an error.
pub(crate) fn remove_all(path: &Path) -> io::Result<()> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    if !meta.is_dir() {
        return fs::remove_file(path);
    }
    match fs::remove_dir_all(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            make_writable(path);
            match fs::remove_dir_all(path) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
                r => r,
            }
        }
        _ => Ok(()),
    }
}

/// Gives the owner write and search permission on `dir` and every folder
/// in it (best effort: what fails is left as it is).
fn make_writable(dir: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(m) = fs::symlink_metadata(dir)
            && m.is_dir()
        {
            let mode = m.permissions().mode();
            let _ = fs::set_permissions(dir, fs::Permissions::from_mode(mode | 0o700));
            if let Ok(entries) = fs::read_dir(dir) {
                for e in entries.flatten() {
                    if e.file_type().is_ok_and(|t| t.is_dir()) {
                        make_writable(&e.path());
                    }
                }
            }
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// The first folder of `dir` (itself, or one inside it) whose entries this
/// process may not remove, which stops it being replaced.
fn read_only(dir: &Path) -> Option<PathBuf> {
    #[cfg(unix)]
    {
        use rustix::fs::{Access, access};
        if !fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
            return None;
        }
        if access(dir, Access::WRITE_OK | Access::EXEC_OK).is_err() {
            return Some(dir.to_path_buf());
        }
        fs::read_dir(dir).ok()?.flatten().find_map(|e| {
            e.file_type()
                .is_ok_and(|t| t.is_dir())
                .then(|| read_only(&e.path()))
                .flatten()
        })
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        None
    }
}

/// Puts back the previous folder `name` in `parent` when a run was killed
/// between the two renames of a swap (where there is no atomic exchange):
/// the folder is missing and its old copy, whole, waits under a temporary
/// name of a process that is gone.
pub(crate) fn restore(parent: &Path, name: &OsStr, tag: &str) -> Result<(), Error> {
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
    let shown = dir;
    let dir = &resolved(dir);
    let meta = match fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(dir, e)),
    };
    let refuse = |why: &str| -> Error {
        InputError::new(format!("{} {why}", shown.display()))
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
    if let Some(ro) = read_only(dir) {
        let inside = match ro == *dir {
            true => String::new(),
            false => format!(" (its folder {} is)", ro.display()),
        };
        return Err(InputError::new(format!(
            "{} is read-only{inside}: pikeshot replaces an output folder whole and could not remove the old one",
            shown.display()
        ))
        .key(what)
        .accepted(format!(
            "a folder pikeshot may remove: make it writable (chmod -R u+w {}) or choose another folder",
            shown.display()
        ))
        .into());
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
    name: OsString,
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
        if fs::symlink_metadata(&dir).is_ok() {
            // A marker may have gone, or files come, since `begin`: check again.
            check_replaceable(&self.dir, &self.what)?;
        }
        swap_in(&self.tmp, &dir, &self.tag).map_err(|e| Error::io(&self.dir, e))?;
        self.committed = true;
        Ok(())
    }

    /// Moves the new folder, whole, to `to` (inside another folder being
    /// written, which is swapped in later) instead of committing it here.
    /// `to`'s parent folders are made as needed; nothing is at `to` yet.
    pub(crate) fn move_to(mut self, to: &Path) -> Result<(), Error> {
        if let Some(p) = to.parent() {
            fs::create_dir_all(p).map_err(|e| Error::io(p, e))?;
        }
        fs::rename(&self.tmp, to).map_err(|e| Error::io(&self.dir, e))?;
        self.committed = true;
        Ok(())
    }
}

/// Puts the folder `tmp` (a hidden sibling of `dir`) in place of `dir` and
/// removes the old `dir`, if any. On Linux one atomic exchange; elsewhere
/// (or where the file system cannot) two renames, the old folder first
/// moved to a temporary named with this process and `tag`, whence
/// [`restore`] puts it back if this process is killed between the two. On
/// failure the old folder is back in place and `tmp` is left to its maker
/// to remove. The old folder's removal is best effort: what is left is a
/// temporary of this process, which the next run removes.
pub(crate) fn swap_in(tmp: &Path, dir: &Path, tag: &str) -> io::Result<()> {
    let old = if fs::symlink_metadata(dir).is_err() {
        fs::rename(tmp, dir)?;
        return Ok(());
    } else if exchange(tmp, dir).is_ok() {
        tmp.to_path_buf()
    } else {
        let parent = dir.parent().unwrap_or(Path::new("."));
        let old = parent.join(temp_name(&format!("{tag}.old")));
        fs::rename(dir, &old)?;
        if let Err(e) = fs::rename(tmp, dir) {
            let _ = fs::rename(&old, dir);
            return Err(e);
        }
        old
    };
    let _ = remove_all(&old);
    Ok(())
}

/// The short tag of the folder `dir`'s name, as its temporaries carry it.
pub(crate) fn tag_of(dir: &Path) -> Result<String, Error> {
    let (_, _, name) = absolute(dir)?;
    Ok(tag(&name))
}

impl Drop for NewFolder {
    fn drop(&mut self) {
        if !self.committed {
            let _ = remove_all(&self.tmp);
        }
    }
}

/// Exchanges two paths atomically (Linux `renameat2` with
/// `RENAME_EXCHANGE`); an error where the platform or file system cannot.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).map_err(io::Error::from)
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

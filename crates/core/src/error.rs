//! Errors and where they point.
//!
//! Bad input names the file, the line, the key and what would be accepted;
//! the CLI maps it to exit code 2, as it does a path the user named that is
//! missing or unusable. Any other failed read or write (a full disk), or a
//! failure of the program itself, is not bad input: it exits 3
//! ([`Error::exit_code`]).

use std::fmt;
use std::path::PathBuf;

/// What went wrong, for the user.
#[derive(Debug)]
pub enum Error {
    /// Bad input: a scenario file, a `--set`, a command-line value.
    Input(Box<InputError>),
    /// A file could not be read or written.
    Io {
        /// The file or folder concerned.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The program could not do its work for a reason that is not the
    /// input's fault, e.g. the worker threads could not start.
    Internal {
        /// What could not be done.
        what: String,
        /// The underlying failure, if any.
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
    /// A run stopped by its caller before it was complete
    /// ([`crate::engine::control::RunControl::stop`]): no figures, never a
    /// partial answer.
    Stopped,
}

/// Exit code for bad input (a scenario, `--set` or command-line value).
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for a file that cannot be read or written, or an internal failure.
pub const EXIT_FAILURE: u8 = 3;

/// A result with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Bad input, located as precisely as it can be.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InputError {
    /// The scenario file, or a description such as `--set`.
    pub file: Option<String>,
    /// 1-based line in `file`.
    pub line: Option<usize>,
    /// The dotted key, e.g. `units.tercio.kind`.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
    /// What would be accepted instead.
    pub accepted: Option<String>,
    /// A close match, for "did you mean".
    pub suggestion: Option<String>,
    /// Further errors of the same file, in file order after this one
    /// (`scenario::fields::collect`); the first [`SHOWN_ERRORS`] are shown.
    pub more: Vec<InputError>,
}

/// Most errors of one file a message shows, the first included.
pub const SHOWN_ERRORS: usize = 10;

impl InputError {
    /// An error with only a message.
    pub fn new(message: impl Into<String>) -> InputError {
        InputError {
            message: message.into(),
            ..InputError::default()
        }
    }
    /// Sets the key.
    pub fn key(mut self, key: impl Into<String>) -> InputError {
        self.key = Some(key.into());
        self
    }
    /// Sets what would be accepted.
    pub fn accepted(mut self, accepted: impl Into<String>) -> InputError {
        self.accepted = Some(accepted.into());
        self
    }
    /// Sets the accepted names and a did-you-mean from them for `given`.
    pub fn one_of<S: AsRef<str>>(mut self, given: &str, names: &[S]) -> InputError {
        self.accepted = Some(
            names
                .iter()
                .map(|s| s.as_ref())
                .collect::<Vec<_>>()
                .join(", "),
        );
        if let Some(s) = did_you_mean(given, names) {
            self.suggestion = Some(s);
        }
        self
    }
    /// Sets the file and line, keeping any already set.
    pub fn at(mut self, file: Option<&str>, line: Option<usize>) -> InputError {
        if self.file.is_none() {
            self.file = file.map(str::to_string);
        }
        if self.line.is_none() {
            self.line = line;
        }
        self
    }
}

/// Most characters of a value an error quotes (a key, a name, a value
/// between quotes); a longer one is cut there, with "… (N bytes)".
pub const MAX_QUOTED: usize = 200;

/// Most characters of one part of an error (its message, what is
/// accepted), quoted values already cut.
const MAX_PART: usize = 2000;

/// `s` cut to its first `max` characters, with "… (N bytes)" naming its
/// whole length, when it is longer.
pub fn clip(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => std::borrow::Cow::Borrowed(s),
        Some((end, _)) => format!("{}… ({} bytes)", &s[..end], s.len()).into(),
    }
}

/// `text` with every value between quotes (`` ` `` or `"`) cut to
/// [`MAX_QUOTED`] characters, and the whole to [`MAX_PART`] (see [`clip`]).
fn clip_quoted(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= MAX_QUOTED {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::new();
    let mut inside = false;
    let mut start = 0;
    let ends = text
        .match_indices(['`', '"'])
        .map(|(i, q)| (i, Some(q)))
        .chain([(text.len(), None)]);
    for (end, quote) in ends {
        let part = &text[start..end];
        out.push_str(&if inside {
            clip(part, MAX_QUOTED)
        } else {
            std::borrow::Cow::Borrowed(part)
        });
        if let Some(q) = quote {
            out.push_str(q);
        }
        inside = !inside;
        start = end + 1;
    }
    clip(&out, MAX_PART).into_owned().into()
}

impl From<InputError> for Error {
    fn from(e: InputError) -> Error {
        Error::Input(Box::new(e))
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "{}:{line}: ", clip(file, MAX_QUOTED))?,
            (Some(file), None) => write!(f, "{}: ", clip(file, MAX_QUOTED))?,
            _ => {}
        }
        if let Some(k) = &self.key {
            write!(f, "`{}`: ", clip(k, MAX_QUOTED))?;
        }
        write!(f, "{}", clip_quoted(&self.message))?;
        if let Some(a) = &self.accepted {
            write!(f, "\n  accepted: {}", clip_quoted(a))?;
        }
        if let Some(s) = &self.suggestion {
            write!(f, "\n  did you mean `{}`?", clip(s, MAX_QUOTED))?;
        }
        for e in self.more.iter().take(SHOWN_ERRORS - 1) {
            write!(f, "\n{e}")?;
        }
        if self.more.len() >= SHOWN_ERRORS {
            write!(f, "\nand {} more", self.more.len() + 1 - SHOWN_ERRORS)?;
        }
        Ok(())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(e) => e.fmt(f),
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Internal { what, source } => match source {
                Some(s) => write!(f, "{what}: {s}"),
                None => write!(f, "{what}"),
            },
            Error::Stopped => write!(f, "the run was stopped before it was complete"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Input(_) | Error::Stopped => None,
            Error::Io { source, .. } => Some(source),
            Error::Internal { source, .. } => source
                .as_deref()
                .map(|s| s as &(dyn std::error::Error + 'static)),
        }
    }
}

impl Error {
    /// An I/O error about `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }
    /// Shorthand for an input error with a message.
    pub fn input(message: impl Into<String>) -> Error {
        InputError::new(message).into()
    }
    /// An internal failure: `what` could not be done because of `source`.
    pub fn internal(
        what: impl Into<String>,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Error {
        Error::Internal {
            what: what.into(),
            source: Some(source.into()),
        }
    }
    /// The process exit code for this error: [`EXIT_BAD_INPUT`] (2) for bad
    /// input, a path the user named included (missing, not a folder, not
    /// permitted); [`EXIT_FAILURE`] (3) for any other failed read or write
    /// (a full disk, say) and for an internal failure.
    pub fn exit_code(&self) -> u8 {
        use std::io::ErrorKind as K;
        match self {
            Error::Input(_) => EXIT_BAD_INPUT,
            Error::Io { source, .. } => match source.kind() {
                K::NotFound
                | K::NotADirectory
                | K::IsADirectory
                | K::PermissionDenied
                | K::AlreadyExists
                | K::InvalidFilename => EXIT_BAD_INPUT,
                _ => EXIT_FAILURE,
            },
            Error::Internal { .. } | Error::Stopped => EXIT_FAILURE,
        }
    }
    /// Whether this is a write to a closed pipe (e.g. `pikeshot list | head`),
    /// which ends the program quietly rather than as a failure.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

/// The closest of `names` to `given`, if it is close enough to suggest
/// (edit distance at most a third of the longer word, and at most 3; two
/// neighbouring letters swapped count as one edit, so "mbps" suggests
/// "mpbs").
pub fn did_you_mean<S: AsRef<str>>(given: &str, names: &[S]) -> Option<String> {
    let g = given.to_ascii_lowercase();
    names
        .iter()
        .map(|n| {
            (
                strsim::osa_distance(&g, &n.as_ref().to_ascii_lowercase()),
                n.as_ref(),
            )
        })
        .filter(|(d, n)| *d > 0 && *d <= 3 && *d * 3 <= n.len().max(g.len()))
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n.to_string())
}

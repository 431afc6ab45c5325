//! A key declared once: [`Key<T>`] holds what a key means, accepts and
//! defaults to (its [`KeyDoc`], which `pikeshot list`, the page's controls,
//! `balance` and `sensitivity` read) and is the key's only reader, whose
//! bounds, names and default are the declared ones.

use std::borrow::Cow;
use std::marker::PhantomData;

use super::named::NameSet;
use super::{KeyDoc, Kind};
use crate::error::InputError;
use crate::scenario::Fields;

/// One scenario key of type `T` (a whole number `i64`, a `bool`, or a
/// closed set of names): its declaration and its reader.
///
/// Declare it as a constant (`const MORALE: Key<i64> = Key::int(...)`);
/// list its [`doc`](Key::doc) where the keys of its table are listed, and
/// read it with `read`, `require` or `get`, which check the declared range
/// or names and fall back on the declared default.
#[derive(Debug)]
pub struct Key<T> {
    key: &'static str,
    shape: Shape,
    default: Option<&'static str>,
    help: &'static str,
    /// What a value of the key is, in an error ("unknown formation \"x\"").
    what: &'static str,
    _value: PhantomData<fn() -> T>,
}

impl<T> Clone for Key<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Key<T> {}

/// What a [`Key`] accepts (the [`Kind`] of its doc).
#[derive(Clone, Copy, Debug)]
enum Shape {
    Int { min: i64, max: i64 },
    Bool,
    Names(&'static [&'static str]),
}

impl<T> Key<T> {
    const fn of(key: &'static str, shape: Shape, what: &'static str, help: &'static str) -> Key<T> {
        Key {
            key,
            shape,
            default: None,
            help,
            what,
            _value: PhantomData,
        }
    }

    /// The same key with `default` as its default (as `list` shows it, and
    /// as `get` reads it when the key is absent).
    pub const fn or(mut self, default: &'static str) -> Key<T> {
        self.default = Some(default);
        self
    }

    /// What the key means, accepts and defaults to: what `pikeshot list`
    /// prints and the page builds the key's control from.
    pub const fn doc(&self) -> KeyDoc {
        let kind = match self.shape {
            Shape::Int { min, max } => Kind::Int { min, max },
            Shape::Bool => Kind::Bool,
            Shape::Names(names) => Kind::OneOf(Cow::Borrowed(names)),
        };
        KeyDoc {
            key: self.key,
            kind,
            default: self.default,
            help: self.help,
        }
    }

    /// The key's name.
    pub const fn name(&self) -> &'static str {
        self.key
    }
}

impl Key<i64> {
    /// A whole number from `min` to `max`, both included.
    pub const fn int(key: &'static str, min: i64, max: i64, help: &'static str) -> Key<i64> {
        Key::of(key, Shape::Int { min, max }, "", help)
    }

    /// The declared range.
    pub const fn range(&self) -> (i64, i64) {
        match self.shape {
            Shape::Int { min, max } => (min, max),
            _ => (0, 0),
        }
    }

    /// The value, if given; a value outside the range is refused, naming it.
    pub fn read(&self, f: &mut Fields) -> Result<Option<i64>, InputError> {
        let (min, max) = self.range();
        f.int(self.key, min, max)
    }

    /// The value; its absence is refused.
    pub fn require(&self, f: &mut Fields) -> Result<i64, InputError> {
        self.read(f)?.ok_or_else(|| f.missing(self.key))
    }

    /// The value, or the declared default when absent (0 without one).
    pub fn get(&self, f: &mut Fields) -> Result<i64, InputError> {
        Ok(self.read(f)?.unwrap_or_else(|| self.default()))
    }

    /// The declared default (0 without one).
    pub fn default(&self) -> i64 {
        self.default
            .and_then(|d| d.parse().ok())
            .unwrap_or_default()
    }
}

impl Key<bool> {
    /// `true` or `false`.
    pub const fn flag(key: &'static str, help: &'static str) -> Key<bool> {
        Key::of(key, Shape::Bool, "", help)
    }

    /// The value, if given.
    pub fn read(&self, f: &mut Fields) -> Result<Option<bool>, InputError> {
        f.bool(self.key)
    }

    /// The value, or the declared default when absent (`false` without
    /// one).
    pub fn get(&self, f: &mut Fields) -> Result<bool, InputError> {
        Ok(self.read(f)?.unwrap_or_else(|| self.default()))
    }

    /// The declared default (`false` without one).
    pub fn default(&self) -> bool {
        self.default == Some("true")
    }
}

impl<T: NameSet> Key<T> {
    /// One of `T`'s names; `what` names the set in an error.
    pub const fn one_of(key: &'static str, what: &'static str, help: &'static str) -> Key<T> {
        Key::of(key, Shape::Names(T::NAMES), what, help)
    }

    /// One of `T`'s values named by `names` (those a scenario may give,
    /// listed in an error); `what` names the set in an error.
    pub const fn some_of(
        key: &'static str,
        what: &'static str,
        names: &'static [&'static str],
        help: &'static str,
    ) -> Key<T> {
        Key::of(key, Shape::Names(names), what, help)
    }

    /// The names listed as accepted.
    pub const fn names(&self) -> &'static [&'static str] {
        match self.shape {
            Shape::Names(names) => names,
            _ => &[],
        }
    }

    /// The value, if given; an unknown name is refused, listing the names.
    pub fn read(&self, f: &mut Fields) -> Result<Option<T>, InputError> {
        f.named(self.key, self.what, T::from_name, self.names())
    }

    /// The value; its absence is refused, listing the names.
    pub fn require(&self, f: &mut Fields) -> Result<T, InputError> {
        self.read(f)?
            .ok_or_else(|| f.missing(self.key).one_of("", self.names()))
    }

    /// The value, or the declared default when absent.
    pub fn get(&self, f: &mut Fields) -> Result<T, InputError> {
        match self.read(f)? {
            Some(v) => Ok(v),
            None => Ok(self.default()),
        }
    }

    /// The declared default.
    ///
    /// # Panics
    ///
    /// When the key declares no default that is one of `T`'s names (a
    /// declaration the registry's tests refuse).
    pub fn default(&self) -> T {
        self.default
            .and_then(T::from_name)
            .expect("a named key read with `get` declares a default among its names")
    }
}

//! `named_enum!`: a closed set of names read from scenario files, shared by
//! every rule system (unit kinds, formations, readings, weapons…).

/// Declares a closed set of names read from scenario files: the enum, its
/// `ALL` values in card order, `name()`, `from_name()`, `names()` and
/// `Display`.
macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($(#[$vm])* $var),+ }
        impl $name {
            /// Every value, in card order.
            pub const ALL: &'static [$name] = &[$($name::$var),+];
            /// Every scenario-file name, in card order (for key metadata).
            pub const NAMES: &'static [&'static str] = &[$($s),+];
            /// The name used in scenario files.
            pub fn name(self) -> &'static str { match self { $($name::$var => $s),+ } }
            /// Parses a scenario-file name.
            pub fn from_name(s: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|v| v.name() == s)
            }
            /// All scenario-file names.
            pub fn names() -> Vec<&'static str> { Self::ALL.iter().map(|v| v.name()).collect() }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(self.name()) }
        }
        impl $crate::systems::named::NameSet for $name {
            const NAMES: &'static [&'static str] = $name::NAMES;
            fn name(self) -> &'static str { $name::name(self) }
            fn from_name(s: &str) -> Option<$name> { $name::from_name(s) }
            fn names() -> Vec<&'static str> { $name::names() }
        }
    };
}
pub(crate) use named_enum;

/// Declares a system's stop conditions of `repeat.until` as one list of
/// `Variant = "name": "meaning"`: the enum (a [`named_enum!`], in that
/// order, each variant documented by its meaning) and `STOPS`, the
/// [`StopInfo`](crate::systems::StopInfo) of each in the same order (the
/// `stops` of the system's [`Repeats`](crate::systems::Repeats), which
/// `pikeshot list` prints and `until` is read by), so the names, the enum
/// and what `list` says of them cannot drift apart.
macro_rules! stop_enum {
    ($(#[$m:meta])* $name:ident { $($var:ident = $s:literal : $meaning:literal),+ $(,)? }) => {
        $crate::systems::named::named_enum! {
            $(#[$m])*
            $name { $(#[doc = $meaning] $var = $s),+ }
        }
        impl $name {
            /// What each stop condition means, in [`ALL`](Self::ALL) order.
            pub const STOPS: &'static [$crate::systems::StopInfo] =
                &[$($crate::systems::StopInfo::new($s, $meaning)),+];
        }
        impl $crate::scenario::course::StopSet for $name {
            const ALL: &'static [$name] = $name::ALL;
        }
    };
}
pub(crate) use stop_enum;

/// A closed set of names declared by [`named_enum!`].
pub trait NameSet: Copy {
    /// Every scenario-file name, in card order.
    const NAMES: &'static [&'static str];
    /// The name used in scenario files.
    fn name(self) -> &'static str;
    /// Parses a scenario-file name.
    fn from_name(s: &str) -> Option<Self>;
    /// All scenario-file names.
    fn names() -> Vec<&'static str>;
}

/// Reads optional key `key` of `f` as one of the names of `T` (`what` names
/// the set in the error, which lists the names there are).
pub fn read<T: NameSet>(
    f: &mut crate::scenario::Fields,
    key: &'static str,
    what: &str,
) -> Result<Option<T>, crate::error::InputError> {
    f.named(key, what, T::from_name, &T::names())
}

/// Reads required key `key` of `f` as one of the names of `T`: as [`read`],
/// and a missing key is an error listing the names there are.
pub fn require<T: NameSet>(
    f: &mut crate::scenario::Fields,
    key: &'static str,
    what: &str,
) -> Result<T, crate::error::InputError> {
    read(f, key, what)?.ok_or_else(|| f.missing(key).one_of("", &T::names()))
}

/// Declares a system's step type: one enum over its procedures, whose
/// [`Procedure`](crate::procedure::Procedure) impl forwards `space`,
/// `resolve` and `exact` to the procedure inside, so a procedure's own exact
/// method is used whether it stands alone or is a step of a course. Also
/// declares `PROCEDURES`, what `pikeshot list` says of each step.
macro_rules! step_enum {
    ($(#[$m:meta])* $name:ident { $($var:ident($ty:ty, $info:expr)),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug)]
        pub enum $name {
            $(
                #[doc = concat!("See [`", stringify!($ty), "`].")]
                $var($ty)
            ),+
        }

        impl $crate::procedure::Procedure for $name {
            fn space(&self) -> &$crate::outcome::OutcomeSpace {
                match self { $($name::$var(p) => p.space()),+ }
            }
            #[inline]
            fn resolve<D: $crate::dice::Dice>(&self, dice: &mut D) -> $crate::outcome::Leaf {
                match self { $($name::$var(p) => p.resolve(dice)),+ }
            }
            fn exact(
                &self,
                budget: u64,
            ) -> Option<Result<Vec<f64>, $crate::dice::EnumerationError>> {
                match self { $($name::$var(p) => p.exact(budget)),+ }
            }
        }

        /// Every procedure a scenario step can name, with what `list` says of it.
        pub const PROCEDURES: &[$crate::systems::ProcedureInfo] = &[$($info),+];
    };
}
pub(crate) use step_enum;

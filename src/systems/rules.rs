//! The `[rules]` table of a system without editions: its switches, each a
//! reading of what the card leaves open, declared once ([`RulesTable`]) for
//! both what `pikeshot list` says of them and the reader. The table is
//! optional, each key sets one reading over its default, and unknown keys
//! are refused.

use super::KeyDoc;
use super::named::{NameSet, read};
use super::registry::{flag, named};
use crate::error::InputError;
use crate::scenario::Fields;
use std::convert::Infallible;

/// One pass over a system's switches: each switch's key, what it means and
/// the field of the readings `R` it sets.
pub trait Switches<R> {
    /// Why the pass stops early.
    type Error;
    /// A switch naming one of `T`'s values (`what` names the set in an
    /// error, which lists the names there are).
    fn named<T: NameSet>(
        &mut self,
        key: &'static str,
        what: &str,
        meaning: &'static str,
        field: fn(&mut R) -> &mut T,
    ) -> Result<(), Self::Error>;
    /// A switch that is `true` or `false`.
    fn flag(
        &mut self,
        key: &'static str,
        meaning: &'static str,
        field: fn(&mut R) -> &mut bool,
    ) -> Result<(), Self::Error>;
}

/// A system's readings as its `[rules]` table sets them: the default
/// readings and the switches over them, from which [`keys`](Self::keys)
/// and [`read`](Self::read) follow.
pub trait RulesTable: Default + Sized {
    /// Passes every switch to `s`, in the order `pikeshot list` prints them.
    fn switches<S: Switches<Self>>(s: &mut S) -> Result<(), S::Error>;

    /// The `[rules]` keys: what each accepts, its default and what it means.
    fn keys() -> Vec<KeyDoc> {
        let mut docs = Docs {
            defaults: Self::default(),
            keys: Vec::new(),
        };
        match Self::switches(&mut docs) {
            Ok(()) => docs.keys,
            Err(never) => match never {},
        }
    }

    /// Reads the scenario's optional `[rules]` table: the default readings
    /// with each switch given put over them; a key that is not a switch is
    /// refused.
    fn read(f: &mut Fields) -> Result<Self, InputError> {
        let Some(mut table) = f.table("rules")? else {
            return Ok(Self::default());
        };
        let mut reader = Reader {
            table: &mut table,
            readings: Self::default(),
        };
        Self::switches(&mut reader)?;
        let readings = reader.readings;
        table.finish()?;
        Ok(readings)
    }
}

/// The switches as `list` describes them, with the defaults' names.
struct Docs<R> {
    defaults: R,
    keys: Vec<KeyDoc>,
}

impl<R> Switches<R> for Docs<R> {
    type Error = Infallible;
    fn named<T: NameSet>(
        &mut self,
        key: &'static str,
        _what: &str,
        meaning: &'static str,
        field: fn(&mut R) -> &mut T,
    ) -> Result<(), Infallible> {
        let default = field(&mut self.defaults).name();
        self.keys.push(named(key, T::NAMES, default, meaning));
        Ok(())
    }
    fn flag(
        &mut self,
        key: &'static str,
        meaning: &'static str,
        field: fn(&mut R) -> &mut bool,
    ) -> Result<(), Infallible> {
        self.keys
            .push(flag(key, *field(&mut self.defaults), meaning));
        Ok(())
    }
}

/// The switches read from a `[rules]` table into readings.
struct Reader<'t, 'a, R> {
    table: &'t mut Fields<'a>,
    readings: R,
}

impl<R> Switches<R> for Reader<'_, '_, R> {
    type Error = InputError;
    fn named<T: NameSet>(
        &mut self,
        key: &'static str,
        what: &str,
        _meaning: &'static str,
        field: fn(&mut R) -> &mut T,
    ) -> Result<(), InputError> {
        if let Some(v) = read(self.table, key, what)? {
            *field(&mut self.readings) = v;
        }
        Ok(())
    }
    fn flag(
        &mut self,
        key: &'static str,
        _meaning: &'static str,
        field: fn(&mut R) -> &mut bool,
    ) -> Result<(), InputError> {
        if let Some(v) = self.table.bool(key)? {
            *field(&mut self.readings) = v;
        }
        Ok(())
    }
}

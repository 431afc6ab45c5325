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

/// A system's readings as its `[rules]` table sets them: the default
/// readings and the switches over them, from which [`keys`](Self::keys)
/// and [`read`](Self::read) follow.
pub trait RulesTable: Default {
    /// Passes every switch to `s`, in the order `pikeshot list` prints them.
    fn switches(s: &mut Switches<'_, '_, Self>);

    /// The `[rules]` keys: what each accepts, its default and what it means.
    fn keys() -> Vec<KeyDoc> {
        let mut s = Switches::new(None);
        Self::switches(&mut s);
        s.keys
    }

    /// Reads the scenario's optional `[rules]` table: the default readings
    /// with each switch given put over them; a key that is not a switch is
    /// refused.
    fn read(f: &mut Fields) -> Result<Self, InputError> {
        let Some(mut table) = f.table("rules")? else {
            return Ok(Self::default());
        };
        let mut s = Switches::new(Some(&mut table));
        Self::switches(&mut s);
        if let Some(e) = s.error {
            return Err(e);
        }
        let readings = s.readings;
        table.finish()?;
        Ok(readings)
    }
}

/// One pass over a system's switches: each described (its [`KeyDoc`],
/// with the default reading) and, when there is a `[rules]` table, read
/// into the readings `R`.
pub struct Switches<'t, 'a, R> {
    readings: R,
    table: Option<&'t mut Fields<'a>>,
    keys: Vec<KeyDoc>,
    /// The first switch given a value it does not accept; the pass reads
    /// no further key once it is set.
    error: Option<InputError>,
}

impl<'t, 'a, R: Default> Switches<'t, 'a, R> {
    fn new(table: Option<&'t mut Fields<'a>>) -> Self {
        Switches {
            readings: R::default(),
            table,
            keys: Vec::new(),
            error: None,
        }
    }

    /// The table to read the next switch from: none when describing, or
    /// after a switch was refused.
    fn table(&mut self) -> Option<&mut Fields<'a>> {
        match self.error {
            None => self.table.as_deref_mut(),
            Some(_) => None,
        }
    }

    /// A switch `key` naming one of `T`'s values, which sets `field` of the
    /// readings (`what` names the set in an error, which lists the names
    /// there are; `meaning` is what `list` says of it).
    pub fn named<T: NameSet>(
        &mut self,
        key: &'static str,
        what: &str,
        meaning: &'static str,
        field: fn(&mut R) -> &mut T,
    ) {
        let default = field(&mut self.readings).name();
        self.keys.push(named(key, T::NAMES, default, meaning));
        if let Some(table) = self.table() {
            match read(table, key, what) {
                Ok(Some(v)) => *field(&mut self.readings) = v,
                Ok(None) => {}
                Err(e) => self.error = Some(e),
            }
        }
    }

    /// A switch `key` that is `true` or `false`, which sets `field`.
    pub fn flag(
        &mut self,
        key: &'static str,
        meaning: &'static str,
        field: fn(&mut R) -> &mut bool,
    ) {
        self.keys
            .push(flag(key, *field(&mut self.readings), meaning));
        if let Some(table) = self.table() {
            match table.bool(key) {
                Ok(Some(v)) => *field(&mut self.readings) = v,
                Ok(None) => {}
                Err(e) => self.error = Some(e),
            }
        }
    }
}

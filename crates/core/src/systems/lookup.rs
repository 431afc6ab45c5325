//! A [`Registry`]: the rule systems a command knows, found by id. The
//! shipped four are [`Registry::shipped`]; a test may build its own. Every
//! public path that names a system by id (reading a scenario's `system`,
//! `list`, `tables`, building courses) looks it up in a registry, so
//! nothing here names a system.

use std::fmt;

use super::chart::Chart;
use super::registry::{BuiltCourses, RuleSystem};
use crate::engine::KernelMode;
use crate::error::{Error, InputError};
use crate::scenario::Fields;

/// The rule systems a command knows, in the order `pikeshot list` prints
/// them. Ids are looked up first to last: a registry should not hold two
/// systems of one id.
#[derive(Clone, Copy)]
pub struct Registry {
    systems: &'static [&'static dyn RuleSystem],
}

impl fmt::Debug for Registry {
    /// The ids, in order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.ids()).finish()
    }
}

impl Registry {
    /// A registry of `systems`, in the order given.
    pub const fn new(systems: &'static [&'static dyn RuleSystem]) -> Registry {
        Registry { systems }
    }

    /// Every system, in order.
    pub fn systems(&self) -> &'static [&'static dyn RuleSystem] {
        self.systems
    }

    /// Every system, in order.
    pub fn iter(&self) -> impl Iterator<Item = &'static dyn RuleSystem> {
        self.systems.iter().copied()
    }

    /// The ids of every system.
    pub fn ids(&self) -> Vec<&'static str> {
        self.iter().map(|s| s.id()).collect()
    }

    /// The rule system `id`, or an error naming the known ones.
    pub fn find(&self, id: &str) -> Result<&'static dyn RuleSystem, InputError> {
        self.iter().find(|s| s.id() == id).ok_or_else(|| {
            InputError::new(format!("unknown rule system \"{id}\"")).one_of(id, &self.ids())
        })
    }

    /// Reads a scenario's `system` key: the rule system it names, or an
    /// error naming the known ones.
    pub fn read_system(&self, f: &mut Fields) -> Result<&'static dyn RuleSystem, InputError> {
        let ids = self.ids();
        f.named(
            "system",
            "rule system",
            |s| self.iter().find(|x| x.id() == s),
            &ids,
        )?
        .ok_or_else(|| f.missing("system").one_of("", &ids))
    }

    /// Every edition name of every system, without repeats (for the
    /// command line's `--edition` help and completions).
    pub fn all_editions(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for e in self.iter().flat_map(|s| s.editions()) {
            if !out.contains(&e.id) {
                out.push(e.id);
            }
        }
        out
    }

    /// Builds the courses of a scenario variant for `system`, reading its
    /// system-specific top-level keys from `f`.
    pub fn build_courses(
        &self,
        system: &str,
        f: &mut Fields,
        mode: KernelMode,
    ) -> Result<BuiltCourses, InputError> {
        self.find(system)?.build_courses(f, mode)
    }

    /// What `pikeshot list` prints for one system or all.
    pub fn list(&self, system: Option<&str>) -> Result<String, Error> {
        match system {
            None => Ok(self.iter().map(|s| s.list()).collect::<Vec<_>>().join("\n")),
            Some(id) => Ok(self.find(id)?.list()),
        }
    }

    /// The charts of a system as text, all or one by id.
    pub fn tables(
        &self,
        system: &str,
        edition: Option<&str>,
        table: Option<&str>,
    ) -> Result<String, Error> {
        let sys = self.find(system)?;
        let ed = edition_of(sys, edition)?;
        let charts = sys.charts(ed);
        let chosen: Vec<&Chart> = match table {
            None => charts.iter().collect(),
            Some(id) => {
                let found: Vec<&Chart> = charts.iter().filter(|c| c.id == id).collect();
                if found.is_empty() {
                    let ids: Vec<&str> = charts.iter().map(|c| c.id).collect();
                    return Err(InputError::new(format!(
                        "no chart \"{id}\" on this card{}",
                        if edition.is_some() {
                            " (edition as given)"
                        } else {
                            ""
                        }
                    ))
                    .key("TABLE")
                    .one_of(id, &ids)
                    .into());
                }
                found
            }
        };
        Ok(chosen
            .iter()
            .map(|c| c.render())
            .collect::<Vec<_>>()
            .join("\n"))
    }

    /// The line `pikeshot tables` prints first for a system with editions,
    /// naming the card printed and how to print the others, e.g. `Musket &
    /// Pike Battle Series: the series card (…); --edition sfo for the
    /// other`. `None` for a system without editions.
    pub fn card_line(&self, system: &str, edition: Option<&str>) -> Result<Option<String>, Error> {
        let sys = self.find(system)?;
        let Some(ed) = edition_of(sys, edition)? else {
            return Ok(None);
        };
        let eds = sys.editions();
        let card = eds.iter().find(|e| e.id == ed).map_or("", |e| e.card);
        let others: Vec<String> = eds
            .iter()
            .filter(|e| e.id != ed)
            .map(|e| format!("--edition {}", e.id))
            .collect();
        Ok(Some(format!(
            "{}: the {ed} card ({card}); {} for the other{}",
            sys.name(),
            others.join(" or "),
            if others.len() > 1 { "s" } else { "" }
        )))
    }
}

/// Checks `edition` against `sys`'s editions; `None` gives its default.
pub fn edition_of(
    sys: &dyn RuleSystem,
    edition: Option<&str>,
) -> Result<Option<&'static str>, Error> {
    let eds = sys.editions();
    match edition {
        None => Ok(sys.default_edition()),
        Some(e) if eds.is_empty() => Err(InputError::new(format!(
            "{} has no editions; drop `--edition {e}`",
            sys.name()
        ))
        .key("--edition")
        .into()),
        Some(e) => {
            let names: Vec<&str> = eds.iter().map(|x| x.id).collect();
            eds.iter()
                .find(|x| x.id == e)
                .map(|x| Some(x.id))
                .ok_or_else(|| {
                    InputError::new(format!("unknown edition \"{e}\""))
                        .key("--edition")
                        .one_of(e, &names)
                        .into()
                })
        }
    }
}

//! Rule systems, one folder each: tables as data, one file per procedure.
//! Every system implements [`RuleSystem`] and is one line of [`SYSTEMS`];
//! `tables`, `list` and `build_courses` below loop over that list.

pub mod chart;
pub mod hakkaa;
pub mod key;
pub mod mpbs;
pub(crate) mod named;
pub mod registry;
pub mod rules;
pub mod snaphance;
pub mod sword_spear;

pub use chart::{Chart, KeyDoc, Kind, ProcedureInfo};
pub use key::Key;
pub use registry::{BuiltCourses, EditionInfo, Repeats, RuleSystem, SYSTEMS, StopInfo, find};

use crate::engine::KernelMode;
use crate::error::{Error, InputError};
use crate::scenario::Fields;

/// Builds the courses of a scenario variant for `system`, reading its
/// system-specific top-level keys from `f`.
pub fn build_courses(
    system: &str,
    f: &mut Fields,
    mode: KernelMode,
) -> Result<BuiltCourses, InputError> {
    find(system)?.build_courses(f, mode)
}

/// The charts of a system as text, all or one by id.
pub fn tables(system: &str, edition: Option<&str>, table: Option<&str>) -> Result<String, Error> {
    let sys = find(system)?;
    let ed = registry::edition_of(sys, edition)?;
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
/// Pike Battle Series: the series card (…); --edition sfo for the other`.
/// `None` for a system without editions.
pub fn card_line(system: &str, edition: Option<&str>) -> Result<Option<String>, Error> {
    let sys = find(system)?;
    let Some(ed) = registry::edition_of(sys, edition)? else {
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

/// What `pikeshot list` prints for one system or all.
pub fn list(system: Option<&str>) -> Result<String, Error> {
    match system {
        None => Ok(SYSTEMS
            .iter()
            .map(|s| s.list())
            .collect::<Vec<_>>()
            .join("\n")),
        Some(id) => Ok(find(id)?.list()),
    }
}

/// Lists procedures for `list`, one block each.
pub fn describe_procedures(procs: &[ProcedureInfo]) -> String {
    let mut out = String::new();
    for p in procs {
        out.push_str(&format!("  {} ({}): {}\n", p.name, p.rule, p.summary));
        for k in p.keys {
            out.push_str(&format!("      {:<24} {}\n", k.key, k.describe()));
        }
        // Ids for `[[expect]]`, each with the card's label where it differs.
        let outcomes: Vec<String> = p
            .outcomes
            .iter()
            .map(|label| {
                let id = crate::outcome::kebab_id(label);
                if id == *label {
                    id
                } else {
                    format!("{id} (\"{label}\")")
                }
            })
            .collect();
        out.push_str(&format!("      outcomes: {}\n", outcomes.join(", ")));
        if !p.measures.is_empty() {
            out.push_str(&format!("      measures: {}\n", p.measures.join(", ")));
        }
    }
    out
}

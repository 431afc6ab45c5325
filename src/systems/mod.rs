//! Rule systems, one folder each: tables as data, one file per procedure.

pub mod chart;
pub mod hakkaa;
pub mod mpbs;
pub mod snaphance;
pub mod sword_spear;

pub use chart::{Chart, ProcedureInfo};

use crate::engine::{Kernel, KernelMode};
use crate::error::{Error, InputError};
use crate::scenario::Fields;

/// The rule systems a scenario's `system` may name.
pub const SYSTEMS: &[&str] = &["mpbs", "hakkaa", "snaphance", "sword-and-spear"];

/// Courses built from a scenario variant.
pub struct BuiltCourses {
    /// The edition, for systems that have editions.
    pub edition: Option<String>,
    /// (course name, kernel), in file order.
    pub courses: Vec<(String, Box<dyn Kernel>)>,
}

/// Builds the courses of a scenario variant for `system`, reading its
/// system-specific top-level keys from `f`.
pub fn build_courses(
    system: &str,
    f: &mut Fields,
    mode: KernelMode,
) -> Result<BuiltCourses, InputError> {
    match system {
        "mpbs" => {
            let b = mpbs::scenario::build(f, mode)?;
            Ok(BuiltCourses {
                edition: Some(b.edition.name().to_string()),
                courses: b.courses,
            })
        }
        "hakkaa" => hakkaa::scenario::build_courses(f, mode),
        "sword-and-spear" => sword_spear::scenario::build(f, mode),
        "snaphance" => snaphance::scenario::build(f, mode),
        other => {
            Err(InputError::new(format!("unknown rule system \"{other}\"")).one_of(other, SYSTEMS))
        }
    }
}

fn unknown_system(s: &str) -> Error {
    InputError::new(format!("unknown rule system \"{s}\""))
        .one_of(s, SYSTEMS)
        .into()
}

/// The charts of a system as text, all or one by id.
pub fn tables(system: &str, edition: Option<&str>, table: Option<&str>) -> Result<String, Error> {
    let charts = match system {
        "mpbs" => {
            let names: Vec<&str> = mpbs::Edition::ALL.iter().map(|e| e.name()).collect();
            let ed = match edition {
                None => mpbs::Edition::Series,
                Some(e) => mpbs::Edition::from_name(e).ok_or_else(|| {
                    Error::from(
                        InputError::new(format!("unknown edition \"{e}\""))
                            .key("--edition")
                            .one_of(e, &names),
                    )
                })?,
            };
            mpbs::charts(ed)
        }
        "hakkaa" => hakkaa::charts_for(edition)?,
        "sword-and-spear" => sword_spear::charts_for(edition)?,
        "snaphance" => snaphance::charts_for(edition)?,
        other => return Err(unknown_system(other)),
    };
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

/// What `pikeshot list` prints for one system or all.
pub fn list(system: Option<&str>) -> Result<String, Error> {
    match system {
        None => Ok(SYSTEMS
            .iter()
            .map(|s| list(Some(s)))
            .collect::<Result<Vec<_>, _>>()?
            .join("\n")),
        Some("mpbs") => Ok(mpbs::list()),
        Some("hakkaa") => Ok(hakkaa::list()),
        Some("sword-and-spear") => Ok(sword_spear::list()),
        Some("snaphance") => Ok(snaphance::list()),
        Some(other) => Err(unknown_system(other)),
    }
}

/// Lists procedures for `list`, one block each.
pub fn describe_procedures(procs: &[ProcedureInfo]) -> String {
    let mut out = String::new();
    for p in procs {
        out.push_str(&format!("  {} ({}): {}\n", p.name, p.rule, p.summary));
        for (k, meaning) in p.keys {
            out.push_str(&format!("      {k:<24} {meaning}\n"));
        }
        out.push_str(&format!("      outcomes: {}\n", p.outcomes.join(", ")));
        if !p.measures.is_empty() {
            out.push_str(&format!("      measures: {}\n", p.measures.join(", ")));
        }
    }
    out
}

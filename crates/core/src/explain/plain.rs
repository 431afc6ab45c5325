//! The explanation every course has, whatever its rule system: the course
//! as one roll, read from its kernel alone. Its dice (found by enumerating
//! every path of die results), its table (each path: the faces rolled and
//! the result they give, when there are few), and the exact probability
//! of each result. A rule system's `explain` gives it by default; a
//! system enriches it with each step's modifiers and their sources.

use super::{Case, CourseExplanation, Explained, Face, Roll, StepExplanation, dice_named, results};
use crate::dice::Path;
use crate::engine::Kernel;
use crate::engine::exact::DEFAULT_BUDGET;
use crate::outcome::Side;

/// Most die paths enumerated to name a course's dice.
const PATH_BUDGET: u64 = 4_096;

/// Most die paths listed one by one as the roll's table (three d6).
pub const MAX_TABLE_ROWS: usize = 216;

/// Every course of a scenario variant explained from its kernel, with the
/// edition read; `courses` and `sides` as a system's `build_courses` made
/// them.
pub fn explained(
    edition: Option<String>,
    courses: &[(String, Box<dyn Kernel>)],
    sides: &[Side],
) -> Explained {
    Explained {
        edition,
        courses: courses
            .iter()
            .zip(sides)
            .map(|((name, k), side)| course(name, side, k.as_ref()))
            .collect(),
    }
}

/// One course explained as one roll: its dice, its table of die paths and
/// the exact probability of each result.
pub fn course(name: &str, side: &Side, kernel: &dyn Kernel) -> CourseExplanation {
    let space = kernel.space();
    let mut roll = Roll::new("", name, "", Vec::new());
    match kernel.die_paths(PATH_BUDGET) {
        Some(Ok(paths)) => {
            roll.dice = dice_named(paths.iter().map(|(p, _)| p.sides.as_slice()));
            if paths.len() <= MAX_TABLE_ROWS {
                roll.faces = paths
                    .iter()
                    .map(|(path, leaf)| {
                        let faces = faces(path);
                        Face {
                            modified: faces.clone(),
                            faces,
                            row: "-".into(),
                            result: space.outcomes()[space.outcome_of(*leaf)].clone(),
                            note: None,
                        }
                    })
                    .collect();
            } else {
                roll.notes.push(format!(
                    "{} paths of die results: too many to list one by one",
                    paths.len()
                ));
            }
        }
        Some(Err(_)) => {
            roll.dice = format!("several dice (more than {PATH_BUDGET} paths of die results)");
        }
        None => roll.dice = "the course's dice (not itemised)".into(),
    }
    let outcomes = match kernel.exact(DEFAULT_BUDGET) {
        Ok(p) => results(space, &p),
        Err(e) => {
            roll.notes.push(format!("no exact results: {e}"));
            Vec::new()
        }
    };
    CourseExplanation {
        name: name.to_string(),
        own: side.own.clone(),
        enemy: side.enemy.clone(),
        steps: vec![StepExplanation {
            title: format!("course {name}: every roll, as one"),
            procedure: name.to_string(),
            rule: String::new(),
            p_reached: 1.0,
            results: outcomes.clone(),
            cases: vec![Case {
                p_reached: 1.0,
                state: Vec::new(),
                roll,
                results: outcomes.clone(),
                triggers: Vec::new(),
            }],
        }],
        outcomes,
    }
}

/// The faces of one path as the dice read them (`5, 2`); a pool's or a
/// pick's entry as its index among the choices (`pick 3`).
fn faces(path: &Path) -> String {
    path.rolls
        .iter()
        .zip(&path.sides)
        .map(|(r, s)| {
            if *s == 0 {
                format!("pick {}", r + 1)
            } else {
                (r + 1).to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

//! One procedure's step read straight from scenario text, for the tests that
//! pin its keys and their located errors: every `[units.NAME]` through the
//! system's unit reader, then the first course's first step.

use pikeshot::error::InputError;
use pikeshot::scenario::{Fields, Source};

/// Reads every `[units.NAME]` of a parsed file with `unit` (none when the
/// file has no `[units]`).
fn read_units<U>(
    src: &Source,
    table: &toml::Table,
    unit: impl Fn(&str, &mut Fields) -> Result<U, InputError>,
) -> Result<Vec<U>, InputError> {
    let mut units = Vec::new();
    if let Some(t) = table.get("units").and_then(|u| u.as_table()) {
        for (name, v) in t {
            let mut f = Fields::new(src, format!("units.{name}"), v.as_table().unwrap());
            units.push(unit(name, &mut f)?);
            f.finish()?;
        }
    }
    Ok(units)
}

/// The units of scenario text `text` (file `s.toml`), each read by `unit`.
pub fn units_from_text<U>(
    text: &str,
    unit: impl Fn(&str, &mut Fields) -> Result<U, InputError>,
) -> Result<Vec<U>, InputError> {
    let (src, table) = Source::parse("s.toml", text)?;
    read_units(&src, &table, unit)
}

/// The first step of the first course of `text` (file `s.toml`), built by
/// `step` after its `procedure` key is read, over the units read by `unit`.
pub fn step_from_text<U, T>(
    text: &str,
    unit: impl Fn(&str, &mut Fields) -> Result<U, InputError>,
    step: impl FnOnce(&mut Fields, &[U]) -> Result<T, InputError>,
) -> Result<T, InputError> {
    let (src, table) = Source::parse("s.toml", text)?;
    let units = read_units(&src, &table, unit)?;
    let t = table["course"][0]["steps"][0].as_table().unwrap();
    let mut f = Fields::new(&src, "course[0].steps[0]", t);
    f.req_string("procedure")?;
    step(&mut f, &units)
}

/// A scenario text of `units` and one course "c" whose one step is `step`
/// (`key = value` lines, so each key has its own line).
pub fn one_step_doc(units: &str, step: &str) -> String {
    format!("name = \"t\"\n\n{units}\n[[course]]\nname = \"c\"\n\n[[course.steps]]\n{step}\n")
}

/// A procedure without its own `exact` method, so that exact answers come
/// from the plain enumerator (to check the procedure's method against it).
#[derive(Clone)]
pub struct Plain<P>(pub P);

impl<P: pikeshot::Procedure> pikeshot::Procedure for Plain<P> {
    fn space(&self) -> &pikeshot::outcome::OutcomeSpace {
        self.0.space()
    }
    fn resolve<D: pikeshot::dice::Dice>(&self, dice: &mut D) -> pikeshot::outcome::Leaf {
        self.0.resolve(dice)
    }
    fn exact(&self, _: u64) -> Option<Result<Vec<f64>, pikeshot::dice::EnumerationError>> {
        None
    }
}

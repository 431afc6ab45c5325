//! Snaphance steps read straight from scenario text, for the tests that pin
//! a procedure's keys and their located errors.

use pikeshot::error::InputError;
use pikeshot::scenario::Fields;
use pikeshot::systems::snaphance::{Readings, Stand};

use super::step::{one_step_doc, step_from_text};

/// A scenario text of `units` and one step of `procedure` with `keys`
/// (`key = value` lines).
pub fn step_doc(units: &str, procedure: &str, keys: &str) -> String {
    one_step_doc(units, &format!("procedure = \"{procedure}\"\n{keys}"))
}

/// The first step of the first course of `text`, read by `from_step` over
/// its stands under the default readings.
pub fn step<P>(
    text: &str,
    from_step: impl FnOnce(&mut Fields, &[Stand], &Readings) -> Result<P, InputError>,
) -> Result<P, InputError> {
    step_from_text(text, Stand::from_fields, |f, units| {
        from_step(f, units, &Readings::default())
    })
}

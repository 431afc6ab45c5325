//! Snaphance steps read straight from scenario text, for the tests that pin
//! a procedure's keys and their located errors.

use pikeshot::error::InputError;
use pikeshot::scenario::Fields;
use pikeshot::systems::snaphance::{Readings, Stand};

use super::located::{assert_each_refused, assert_step_err_in_s_toml};
use super::step::{one_step_doc, step_from_text};

/// A scenario text of `units` and one step of `procedure` with `keys`
/// (`key = value` lines).
fn step_doc(units: &str, procedure: &str, keys: &str) -> String {
    one_step_doc(units, &format!("procedure = \"{procedure}\"\n{keys}"))
}

/// The first step of the first course of `text`, read by `from_step` over
/// its stands under the default readings.
fn step<P>(
    text: &str,
    from_step: impl FnOnce(&mut Fields, &[Stand], &Readings) -> Result<P, InputError>,
) -> Result<P, InputError> {
    step_from_text(text, Stand::from_fields, |f, units| {
        from_step(f, units, &Readings::default())
    })
}

/// The step of `procedure` with `keys` over `units` (as [`step_doc`] writes
/// it), read by `from_step` (as [`step`] reads it).
pub fn procedure_step<P>(
    units: &str,
    procedure: &str,
    keys: &str,
    from_step: impl FnOnce(&mut Fields, &[Stand], &Readings) -> Result<P, InputError>,
) -> Result<P, InputError> {
    step(&step_doc(units, procedure, keys), from_step)
}

/// Asserts each refusal `(keys, key, says)` of `cases`: the step of
/// `procedure` with `keys` over `units`, read by `from_step`, is refused at
/// `course[0].steps[0].KEY` on the line that sets it, saying `says`.
#[track_caller]
pub fn assert_procedure_refusals<P: std::fmt::Debug>(
    units: &str,
    procedure: &str,
    from_step: impl Fn(&mut Fields, &[Stand], &Readings) -> Result<P, InputError>,
    cases: &[(&str, &str, &str)],
) {
    assert_each_refused(
        cases,
        |keys| step_doc(units, procedure, keys),
        |text| step(text, &from_step),
        assert_step_err_in_s_toml,
    );
}

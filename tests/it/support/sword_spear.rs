//! Sword & Spear steps read straight from scenario text, for the tests that
//! pin a procedure's keys and their located errors.

use pikeshot::error::InputError;
use pikeshot::scenario::Fields;
use pikeshot::systems::sword_spear::unit::Unit;

use super::located::{assert_each_refused, assert_step_err_in_s_toml};
use super::step::{one_step_doc, step_from_text};

/// The first step of the first course of `text`, read by `from_step` over
/// its units.
pub fn build<T>(
    text: &str,
    from_step: impl FnOnce(&mut Fields, &[Unit]) -> Result<T, InputError>,
) -> Result<T, InputError> {
    step_from_text(text, Unit::from_fields, from_step)
}

/// Asserts each refusal `(keys, key, says)` of `cases`: the step of
/// `procedure` with `keys` over `units` (as [`one_step_doc`] writes it),
/// read by `from_step`, is refused at `course[0].steps[0].KEY` on the line
/// that sets it, saying `says`.
#[track_caller]
pub fn assert_procedure_refusals<T: std::fmt::Debug>(
    units: &str,
    procedure: &str,
    from_step: impl Fn(&mut Fields, &[Unit]) -> Result<T, InputError>,
    cases: &[(&str, &str, &str)],
) {
    assert_each_refused(
        cases,
        |keys| one_step_doc(units, &format!("procedure = \"{procedure}\"\n{keys}")),
        |text| build(text, &from_step),
        assert_step_err_in_s_toml,
    );
}

//! Continuation (4.3): the roll, its input and its step keys.

use super::*;
use crate::systems::Key;

order_procedure! {
    /// Continuation (4.3): the wing continues its activation on success.
    Continuation(ContinuationInput)
}

/// Everything a Continuation roll (4.3) depends on.
#[derive(Clone, Debug, PartialEq)]
pub struct ContinuationInput {
    /// The order, leaders, WC adjacent to an enemy, cavalry wing.
    pub activation: Activation,
    /// A second attempt.
    pub second_attempt: bool,
    /// NGBG: Landskrona (series card).
    pub landskrona: bool,
    /// Any further DRM.
    pub extra_drm: i8,
}

impl ContinuationInput {
    /// Reads the step's keys.
    fn read(f: &mut Fields) -> Result<ContinuationInput, InputError> {
        Ok(ContinuationInput {
            activation: Activation::read(f)?,
            second_attempt: SECOND_ATTEMPT.get(f)?,
            landskrona: LANDSKRONA.get(f)?,
            extra_drm: read_extra(f)?,
        })
    }
}

/// `second_attempt`, declared once: its doc and its reader.
pub(crate) const SECOND_ATTEMPT: Key<bool> =
    Key::flag("second_attempt", "true: a second attempt, +1");

/// `landskrona`, declared once: its doc and its reader.
pub(crate) const LANDSKRONA: Key<bool> = Key::flag(
    "landskrona",
    "true: NGBG all rolls during Landskrona, +1 (series only)",
);

/// What `pikeshot list` shows of `continuation`.
pub const CONTINUATION_INFO: ProcedureInfo = ProcedureInfo {
    name: "continuation",
    rule: "4.3",
    summary: "Continuation: d10 + DRM ≤ the current order's number (Charge 0-3, Make Ready 0-2, Receive Charge 0-1, Rally NA)",
    keys: activation_keys![SECOND_ATTEMPT.doc(), LANDSKRONA.doc(),],
    outcomes: OUTCOMES,
    measures: &[],
};

impl Continuation {
    /// Builds the roll. Errors (keyed by the bare step key): a Rally order
    /// (NA), a modifier the edition's card lacks.
    pub fn new(edition: Edition, input: &ContinuationInput) -> Result<Continuation, InputError> {
        let d = &ORDERS_DRMS[edition as usize];
        let (number, mut mods) =
            input
                .activation
                .start(continuation_number, "Continuation Table (4.3)", d)?;
        key_flag_mod(
            &mut mods,
            input.second_attempt,
            "second_attempt",
            "second attempt",
            d.second_attempt,
        );
        edition_only(
            &mut mods,
            input.landskrona,
            "landskrona",
            "NGBG: Landskrona",
            d.landskrona,
            edition,
        )?;
        Ok(Continuation::checked(number, mods, input.extra_drm))
    }
}

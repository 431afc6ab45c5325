//! Preemption (4.4): the roll, its input and its step keys.

use super::*;
use crate::systems::Key;

order_procedure! {
    /// Preemption (4.4): the wing activates out of turn on success.
    Preemption(PreemptionInput)
}

/// Everything a Preemption roll (4.4) depends on.
#[derive(Clone, Debug, PartialEq)]
pub struct PreemptionInput {
    /// The order, leaders, WC adjacent to an enemy, cavalry wing.
    pub activation: Activation,
    /// The WC is marked No Continue.
    pub wc_no_continue: bool,
    /// Any further DRM.
    pub extra_drm: i8,
}

impl PreemptionInput {
    /// Reads the step's keys.
    fn read(f: &mut Fields) -> Result<PreemptionInput, InputError> {
        Ok(PreemptionInput {
            activation: Activation::read(f)?,
            wc_no_continue: WC_NO_CONTINUE.get(f)?,
            extra_drm: read_extra(f)?,
        })
    }
}

/// `wc_no_continue`, declared once: its doc and its reader.
pub(crate) const WC_NO_CONTINUE: Key<bool> =
    Key::flag("wc_no_continue", "true: the WC is marked No Continue, +1");

/// What `pikeshot list` shows of `preemption`.
pub const PREEMPTION_INFO: ProcedureInfo = ProcedureInfo {
    name: "preemption",
    rule: "4.4",
    summary: "Preemption: d10 + DRM ≤ the current order's number (Charge 0-4, Make Ready 0-3, Receive Charge 0-2, Rally NA)",
    keys: activation_keys![WC_NO_CONTINUE.doc()],
    outcomes: OUTCOMES,
    measures: &[],
};

impl Preemption {
    /// Builds the roll. Errors (keyed by the bare step key): a Rally order (NA).
    pub fn new(edition: Edition, input: &PreemptionInput) -> Result<Preemption, InputError> {
        let d = &ORDERS_DRMS[edition as usize];
        let (number, mut mods) =
            input
                .activation
                .start(preemption_number, "Preemption Table (4.4)", d)?;
        key_flag_mod(
            &mut mods,
            input.wc_no_continue,
            "wc_no_continue",
            "WC marked No Continue",
            d.wc_no_continue,
        );
        Ok(Preemption::checked(number, mods, input.extra_drm))
    }
}

//! The record of a procedure's DRMs: each labelled with its rule and
//! source, summed and limited ([`Modifiers`]), and the keyed error its
//! assembly returns ([`Fail`]).

use super::*;

/// The DRMs of a procedure, each labelled with its rule and source, with
/// their total. `pikeshot explain` reads this same record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// Each DRM considered, in card order, with its label and source; one
    /// that could not apply is kept with `applied = false` and the reason.
    pub breakdown: Vec<Term>,
    /// Their sum.
    pub total: i32,
    /// The sum after the table's limits (close combat: −4..=+4).
    pub clamped: i32,
}

impl Modifiers {
    /// The DRM labelled `label`, if it applies.
    pub fn get(&self, label: &str) -> Option<i32> {
        self.breakdown
            .iter()
            .find(|t| t.applied && t.label == label)
            .map(|t| t.value)
    }
    /// One line per DRM and the total, for display.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        for t in self.breakdown.iter().filter(|t| t.applied) {
            s.push_str(&format!("{:+} {}\n", t.value, t.label));
        }
        if self.total == self.clamped {
            s.push_str(&format!("= {:+}\n", self.total));
        } else {
            s.push_str(&format!(
                "= {:+} (limited to {:+})\n",
                self.total, self.clamped
            ));
        }
        s
    }
    /// Records an applied DRM.
    pub(crate) fn push(&mut self, label: &str, rule: &str, drm: i32, source: Source) {
        self.breakdown.push(Term::new(label, rule, drm, source));
    }
    /// Records a term as it is (applied or not).
    pub(crate) fn record(&mut self, t: Term) {
        self.breakdown.push(t);
    }
    /// Records the step's `extra_drm` (any further DRM), unless 0. Errors
    /// (keyed `extra_drm`): a DRM outside -9..=9.
    pub(crate) fn push_extra(&mut self, extra_drm: i32) -> Result<(), Fail> {
        if !(-9..=9).contains(&extra_drm) {
            return Err((
                "extra_drm",
                InputError::new(format!("extra DRM {extra_drm}"))
                    .accepted("a whole number from -9 to 9"),
            ));
        }
        let t = crate::explain::key_term("extra DRM", "extra_drm", extra_drm);
        self.breakdown.extend(t);
        Ok(())
    }
    /// Sums the applied terms into `total`, and `clamped` within `limit`.
    pub(crate) fn finish(&mut self, limit: Option<i32>) {
        self.total = crate::explain::sum(&self.breakdown);
        self.clamped = limit.map_or(self.total, |l| self.total.clamp(-l, l));
    }
}

/// An error with the step key it belongs to.
pub(crate) type Fail = (&'static str, InputError);

/// A [`Fail`] at step key `key`.
pub(super) fn fail(key: &'static str, message: impl Into<String>) -> Fail {
    (key, InputError::new(message))
}

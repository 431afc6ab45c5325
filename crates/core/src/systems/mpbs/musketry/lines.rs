//! The DRM lines the Heavy Infantry Musketry and the Light Infantry and
//! Cavalry Fire tables share (10.0), as terms: the firer's formation,
//! Advancing or Retreating Fire, NGBG Halmstad, and the target's formation,
//! TEC and `extra_drm`. Each table supplies its own values as a
//! [`FireLineDrms`].

use super::super::Formation;
use super::super::input::{key_err, ngbg_drm};
use super::{Edition, FireLineDrms, FireMode, FireWho, tec_and_extra_terms};
use crate::error::InputError;
use crate::explain::{Source, Term};

impl FireLineDrms {
    /// The firer's formation line: Formation Shaken, Formation Broken or
    /// Open Order.
    pub(crate) fn firer_formation_term(&self, formation: Formation, firer: &str) -> Option<Term> {
        let (label, v, what) = match formation {
            Formation::Shaken => (
                "firer Formation Shaken",
                self.formation_shaken,
                "in Formation Shaken",
            ),
            Formation::Broken => (
                "firer Formation Broken",
                self.formation_broken,
                "in Formation Broken",
            ),
            Formation::OpenOrder => ("firer Open Order", self.open_order, "in Open Order"),
            _ => return None,
        };
        Some(Term::new(
            label,
            "10.0",
            v as i32,
            Source::unit(format!("{firer} is {what}")),
        ))
    }

    /// The Advancing or Retreating Fire line (10.3.2, 10.3.4): an error
    /// naming `fire_mode` and the `table` where the edition's card has no
    /// Advancing Fire line.
    pub(crate) fn fire_mode_term(
        &self,
        mode: FireMode,
        edition: Edition,
        table: &str,
    ) -> Result<Option<Term>, InputError> {
        Ok(match mode {
            FireMode::Normal => None,
            FireMode::Advancing => {
                let v = self.advancing_fire.ok_or_else(|| {
                    key_err(
                        "fire_mode",
                        format!(
                            "the {} has no Advancing Fire DRM on the {table} \
                             (only the series card lists it)",
                            edition.card()
                        ),
                    )
                    .accepted("normal, retreating")
                })?;
                Some(Term::new(
                    "Advancing Fire",
                    "10.3.2",
                    v as i32,
                    Source::key("fire_mode = advancing"),
                ))
            }
            FireMode::Retreating => Some(Term::new(
                "Retreating Fire",
                "10.3.4",
                self.retreating_fire as i32,
                Source::key("fire_mode = retreating"),
            )),
        })
    }

    /// The NGBG "all firing at Halmstad" line when `halmstad` is set: an
    /// error naming `halmstad` where the edition's card has no such line.
    pub(crate) fn halmstad_term(
        &self,
        halmstad: bool,
        edition: Edition,
    ) -> Result<Option<Term>, InputError> {
        if !halmstad {
            return Ok(None);
        }
        let v = ngbg_drm("halmstad", self.halmstad, edition)?;
        Ok(Some(Term::new(
            "NGBG: firing at Halmstad",
            "10.0",
            v as i32,
            Source::key("halmstad = true"),
        )))
    }

    /// The last lines of the table: the target's Hedgehog or Column line,
    /// then its TEC fire DRM and the step's `extra_drm`.
    pub(crate) fn target_terms(&self, mods: &mut Vec<Term>, who: &FireWho, extra_drm: i8) {
        let line = match who.target_formation {
            Formation::Hedgehog => Some(("target in Hedgehog", self.target_hedgehog, "Hedgehog")),
            Formation::Column => Some(("target in Column", self.target_column, "Column")),
            _ => None,
        };
        if let Some((label, v, what)) = line {
            mods.push(Term::new(
                label,
                "10.0",
                v as i32,
                Source::unit(format!("{} is in {what}", who.target())),
            ));
        }
        tec_and_extra_terms(mods, who, extra_drm);
    }
}

//! A step as a scenario gives it ([`Plan`]): the units it names and its
//! options, read once, and built into a procedure for each state a course
//! reaches (a `charge` in three parts).

use super::close_combat::{CcOptions, CloseCombat};
use super::closing::{Closing, ClosingOptions};
use super::fire::{Fire, FireOptions, read_pair};
use super::fleeing::{FleeOptions, Fleeing};
use super::reaction::{ChargeReaction, ReactionOptions};
use super::tq::{Readings, TroopQualityTest, finish, relocate};
use super::uncontrolled::Uncontrolled;
use super::unit::{Status, Unit, find_unit};

use crate::error::InputError;
use crate::scenario::Fields;

use super::course::{PROCEDURES, Skip, Step};

/// A step as read from a scenario: the units it names (indices into the
/// scenario's units) and its options. Built into procedures for each state
/// a course reaches.
#[derive(Clone, Debug)]
pub enum Plan {
    /// `tq-test` and `uncontrolled`: a result only, built once.
    Single(Box<Step>),
    /// `fire`.
    Fire {
        /// Firer.
        firer: usize,
        /// Target.
        target: usize,
        /// Options.
        o: FireOptions,
    },
    /// `charge`: closing, reaction, close combat.
    Charge {
        /// Charger.
        charger: usize,
        /// Target.
        target: usize,
        /// Closing options.
        closing: ClosingOptions,
        /// Reaction options.
        reaction: ReactionOptions,
        /// Close combat options (attacker = charger).
        cc: CcOptions,
    },
    /// `closing`.
    Closing {
        /// Charger.
        charger: usize,
        /// Target.
        target: usize,
        /// Options.
        o: ClosingOptions,
    },
    /// `charge-reaction`.
    Reaction {
        /// Charger.
        charger: usize,
        /// Target.
        target: usize,
        /// Options.
        o: ReactionOptions,
    },
    /// `close-combat`.
    CloseCombat {
        /// Attacker.
        attacker: usize,
        /// Defender.
        defender: usize,
        /// Options.
        o: CcOptions,
    },
    /// `fleeing`.
    Fleeing {
        /// The fleeing unit.
        unit: usize,
        /// Options.
        o: FleeOptions,
    },
}

/// Which part of a plan a chain step runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    Whole,
    Closing,
    Reaction,
    CloseCombat,
}

impl Plan {
    /// Reads a step named `procedure` (its keys in `pikeshot list hakkaa`).
    pub fn read(
        procedure: &str,
        f: &mut Fields,
        units: &[Unit],
        readings: Readings,
    ) -> Result<Plan, InputError> {
        let plan = match procedure {
            "tq-test" => {
                let p = TroopQualityTest::from_step(f, units, readings)?;
                return Ok(Plan::Single(Box::new(Step::Tq(p))));
            }
            "uncontrolled" => {
                return Ok(Plan::Single(Box::new(Step::Uncontrolled(
                    Uncontrolled::from_step(f, units, readings)?,
                ))));
            }
            "fire" => {
                let (firer, target) = read_pair(f, "firer", "target", units)?;
                Plan::Fire {
                    firer,
                    target,
                    o: FireOptions::read(f)?,
                }
            }
            "charge" => {
                let (charger, target) = read_pair(f, "charger", "target", units)?;
                let closing = ClosingOptions::read(f)?;
                let mut reaction = ReactionOptions::read(f, false)?;
                reaction.charger_extra_tq = closing.charger_extra_tq;
                let cc = CcOptions::read(
                    f,
                    ["charger", "target"],
                    ["charger_extra_tq", "target_extra_tq"],
                )?;
                Plan::Charge {
                    charger,
                    target,
                    closing,
                    reaction,
                    cc,
                }
            }
            "closing" => {
                let (charger, target) = read_pair(f, "charger", "target", units)?;
                Plan::Closing {
                    charger,
                    target,
                    o: ClosingOptions::read(f)?,
                }
            }
            "charge-reaction" => {
                let (charger, target) = read_pair(f, "charger", "target", units)?;
                Plan::Reaction {
                    charger,
                    target,
                    o: ReactionOptions::read(f, true)?,
                }
            }
            "close-combat" => {
                let (attacker, defender) = read_pair(f, "attacker", "defender", units)?;
                Plan::CloseCombat {
                    attacker,
                    defender,
                    o: CcOptions::read(
                        f,
                        ["attacker", "defender"],
                        ["attacker_extra_tq", "defender_extra_tq"],
                    )?,
                }
            }
            "fleeing" => Plan::Fleeing {
                unit: find_unit(f, "unit", units)?,
                o: FleeOptions::read(f)?,
            },
            other => {
                let names: Vec<&str> = PROCEDURES.iter().map(|p| p.name).collect();
                return Err(f.locate(
                    "procedure",
                    InputError::new(format!("unknown procedure \"{other}\"")).one_of(other, &names),
                ));
            }
        };
        finish(f)?;
        Ok(plan)
    }

    /// The acting unit and the unit acted upon, if any.
    pub fn units(&self) -> (Option<usize>, Option<usize>) {
        match *self {
            Plan::Single(_) => (None, None),
            Plan::Fire { firer, target, .. } => (Some(firer), Some(target)),
            Plan::Charge {
                charger, target, ..
            }
            | Plan::Closing {
                charger, target, ..
            }
            | Plan::Reaction {
                charger, target, ..
            } => (Some(charger), Some(target)),
            Plan::CloseCombat {
                attacker, defender, ..
            } => (Some(attacker), Some(defender)),
            Plan::Fleeing { unit, .. } => (Some(unit), None),
        }
    }

    pub(crate) fn parts(&self) -> &'static [Part] {
        match self {
            Plan::Charge { .. } => &[Part::Closing, Part::Reaction, Part::CloseCombat],
            _ => &[Part::Whole],
        }
    }

    /// Builds `part` for units in the states given; `contact` says whether
    /// the charge this part belongs to has made contact so far. With
    /// `skip_impossible`, a part that cannot happen in these states is a
    /// [`Skip`]; without, the procedure's constructor says why.
    pub(crate) fn build(
        &self,
        part: Part,
        units: &[Unit],
        contact: bool,
        readings: Readings,
        skip_impossible: bool,
    ) -> Result<Step, InputError> {
        if skip_impossible && let Some(why) = self.impossible(part, units, contact) {
            return Ok(Step::Skip(Skip::because(why)));
        }
        // A charge's parts are the closing, charge-reaction and close-combat
        // steps of the charger on its target.
        match (self, part) {
            (Plan::Single(p), _) => Ok((**p).clone()),
            (Plan::Fire { firer, target, o }, _) => {
                Fire::new(&units[*firer], &units[*target], o, readings).map(Step::Fire)
            }
            (
                Plan::Charge {
                    charger,
                    target,
                    closing,
                    ..
                },
                Part::Closing,
            )
            | (
                Plan::Closing {
                    charger,
                    target,
                    o: closing,
                },
                _,
            ) => Closing::new(&units[*charger], &units[*target], closing, readings)
                .map(Step::Closing),
            (
                Plan::Charge {
                    charger,
                    target,
                    reaction,
                    ..
                },
                Part::Reaction,
            )
            | (
                Plan::Reaction {
                    charger,
                    target,
                    o: reaction,
                },
                _,
            ) => ChargeReaction::new(&units[*charger], &units[*target], reaction, readings)
                .map(Step::Reaction),
            (
                Plan::Charge {
                    charger: attacker,
                    target: defender,
                    cc,
                    ..
                },
                _,
            )
            | (
                Plan::CloseCombat {
                    attacker,
                    defender,
                    o: cc,
                },
                _,
            ) => CloseCombat::new(&units[*attacker], &units[*defender], cc, readings)
                .map(Step::CloseCombat),
            (Plan::Fleeing { unit, o }, _) => {
                Fleeing::new(&units[*unit], o, readings).map(Step::Fleeing)
            }
        }
    }

    /// Why `part` cannot happen for units in the states given (`contact`:
    /// whether the charge it belongs to has made contact so far), or `None`
    /// when it can.
    fn impossible(&self, part: Part, units: &[Unit], contact: bool) -> Option<String> {
        let s = |i: usize| &units[i].state;
        let name = |i: usize| units[i].name.as_str();
        match (self, part) {
            (Plan::Single(_), _) => None,
            (Plan::Fire { firer, target, .. }, _) => {
                (!s(*firer).can_act() || s(*target).eliminated()).then(|| {
                    format!(
                        "{} is fleeing or eliminated, or {} is eliminated",
                        name(*firer),
                        name(*target)
                    )
                })
            }
            (Plan::Charge { charger, .. }, Part::Reaction) => (!contact).then(|| {
                format!(
                    "{} did not go in: its Closing result did not reach contact",
                    name(*charger)
                )
            }),
            (
                Plan::Charge {
                    charger, target, ..
                },
                Part::CloseCombat | Part::Whole,
            ) => (!contact).then(|| {
                format!(
                    "the charge made no contact: {c} did not go in, {} fled, or its reaction fire repulsed {c}",
                    name(*target),
                    c = name(*charger)
                )
            }),
            (Plan::Fleeing { unit, .. }, _) => {
                (s(*unit).status != Status::Fled || s(*unit).eliminated())
                    .then(|| format!("{} is not fleeing", name(*unit)))
            }
            // The charge's closing and the steps of one unit on another:
            // both units must be able to act.
            _ => {
                let (a, b) = self.units();
                let (a, b) = (a?, b?);
                (!(s(a).can_act() && s(b).can_act()))
                    .then(|| format!("{} or {} is fleeing or eliminated", name(a), name(b)))
            }
        }
    }

    /// Checks that every part of the step builds, errors located at the
    /// step's keys. With `as_given`, the units are taken in the states the
    /// scenario gives them (a course of this one step: a fleeing firer is an
    /// error); otherwise in states where the step can happen (a course of
    /// several steps, where earlier steps change states: only what no state
    /// changes is checked, such as a firer without Fire Points or a charger
    /// without a Closing Table row).
    pub fn check(
        &self,
        units: &[Unit],
        readings: Readings,
        as_given: bool,
        f: &Fields,
    ) -> Result<(), InputError> {
        let mut units = units.to_vec();
        if !as_given {
            let (a, t) = self.units();
            let status = match self {
                Plan::Fleeing { .. } => Status::Fled,
                _ => Status::Steady,
            };
            for i in [a, t].into_iter().flatten() {
                units[i].state.status = status;
            }
        }
        for &part in self.parts() {
            self.build(part, &units, true, readings, false)
                .map_err(|e| relocate(f, e))?;
        }
        Ok(())
    }

    /// The step built for the units as given (a course that is this one
    /// procedure).
    pub fn single(&self, units: &[Unit], readings: Readings) -> Result<Step, InputError> {
        self.build(Part::Whole, units, true, readings, false)
    }

    /// True for `charge`, which is a course of its own even alone.
    pub fn is_charge(&self) -> bool {
        matches!(self, Plan::Charge { .. })
    }

    /// True for `fire`.
    pub fn is_fire(&self) -> bool {
        matches!(self, Plan::Fire { .. })
    }

    /// True for `tq-test` and `uncontrolled`, which change no state and are
    /// courses of their own.
    pub fn is_single(&self) -> bool {
        matches!(self, Plan::Single(_))
    }
}

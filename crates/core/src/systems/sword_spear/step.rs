//! Sword & Spear steps: every procedure behind one enum ([`Step`]),
//! building a step from its keys, and the refusal of step spellings that
//! moved (the `engagement` procedure, `max_rounds`, readings now in
//! `[rules]`).

use super::activation::{self, Activation};
use super::commanders::{self, CommanderRisk};
use super::discipline::{self, DisciplineTest};
use super::melee::{self, MeleeRound, Round};
use super::readings::{MOVED_STEP_KEYS, Readings};
use super::shooting::{self, Shooting};
use super::unit::Unit;
use crate::error::InputError;
use crate::scenario::Fields;
use crate::systems::rules::RulesTable;

macro_rules! steps {
    ($($var:ident($ty:ty, $info:expr, $build:expr)),+ $(,)?) => {
        crate::systems::named::step_enum! {
            /// Any Sword & Spear procedure, as one step of a course.
            Step { $($var($ty, $info)),+ }
        }

        /// Builds the step named `name` from its keys under the scenario's
        /// `[rules]` `readings`; a `melee` as round `round` of its course.
        /// Spellings that moved are refused naming the new one.
        pub fn build_step(name: &str, f: &mut Fields, units: &[Unit], round: Round, readings: &Readings) -> Result<Step, InputError> {
            f.has("procedure");
            refuse_moved_step_keys(name, f)?;
            $(
                if name == $info.name {
                    let build: fn(&mut Fields, &[Unit], Round, &Readings) -> Result<$ty, InputError> = $build;
                    return Ok(Step::$var(build(f, units, round, readings)?));
                }
            )+
            let names: Vec<&str> = PROCEDURES.iter().map(|p| p.name).collect();
            Err(f.locate("procedure", InputError::new(format!("unknown procedure \"{name}\"")).one_of(name, &names)))
        }
    };
}

steps! {
    Activation(Activation, activation::INFO, |f, u, _, _| Activation::from_step(f, u)),
    DisciplineTest(DisciplineTest, discipline::INFO, |f, u, _, _| DisciplineTest::from_step(f, u)),
    Shooting(Shooting, shooting::INFO, |f, u, _, r| Shooting::from_step_with(f, u, r)),
    Melee(MeleeRound, melee::INFO, MeleeRound::from_step_in),
    CommanderRisk(CommanderRisk, commanders::INFO, |f, u, _, _| CommanderRisk::from_step(f, u)),
}

/// The `repeat` a melee fought until a unit routs is written with, for the
/// messages refusing the spellings it replaced.
const REPEAT_MELEE: &str = "`procedure = \"melee\"` and, on the course, `repeat = { turns = 20, until = [\"either-routs\"] }` (`from_step = K` when steps come before the melee)";

/// Refuses the `engagement` procedure and its keys, which became a `melee`
/// step repeated by its course (docs/rules/sword-and-spear.md section 7),
/// and the readings switches that moved from a step to `[rules]`.
fn refuse_moved_step_keys(name: &str, f: &mut Fields) -> Result<(), InputError> {
    if name == "engagement" {
        return Err(f.err(
            "procedure",
            format!("`engagement` is no longer a procedure; write {REPEAT_MELEE}"),
        ));
    }
    if f.has("max_rounds") {
        return Err(f.err(
            "max_rounds",
            format!(
                "unknown key `max_rounds`: a melee repeats through its course; write {REPEAT_MELEE}"
            ),
        ));
    }
    // Readings of the card moved to the scenario's `[rules]` table.
    for key in MOVED_STEP_KEYS {
        if f.has(key) {
            let accepted = Readings::keys()
                .iter()
                .find(|k| k.key == key)
                .map_or(String::new(), |k| k.kind.accepts());
            return Err(f.err(
                key,
                format!(
                    "`{key}` is no longer a step key: it is a reading of the card for the whole scenario; write it in the `[rules]` table (`[rules]\n{key} = ...`, one of {accepted})"
                ),
            ));
        }
    }
    Ok(())
}

/// The step keys naming the acting and the other unit, per procedure.
pub const STEP_UNIT_KEYS: &[(&str, &str, Option<&str>)] = &[
    ("activation", "unit", None),
    ("discipline-test", "unit", None),
    ("commander-risk", "unit", None),
    ("shooting", "firer", Some("target")),
    ("melee", "attacker", Some("defender")),
];

//! Every Musket & Pike procedure as one step of a course, and building a
//! step from its keys for the unit states a course reaches.

use super::*;

macro_rules! steps {
    ($($var:ident($ty:ty, $info:expr)),+ $(,)?) => {
        crate::systems::named::step_enum! {
            /// Any Musket & Pike procedure, as one roll of a course.
            Step { $($var($ty, $info)),+ }
        }

        /// Builds the step named `name` from its keys.
        pub fn build_step(
            name: &str,
            f: &mut Fields,
            units: &[Unit],
            edition: Edition,
        ) -> Result<Step, InputError> {
            f.has("procedure");
            $(
                if name == $info.name {
                    return Ok(Step::$var(<$ty>::from_step(f, units, edition)?));
                }
            )+
            let names: Vec<&str> = PROCEDURES.iter().map(|p| p.name).collect();
            Err(f.locate("procedure", InputError::new(format!("unknown procedure \"{name}\"")).one_of(name, &names)))
        }
    };
}

steps! {
    CloseCombat(close_combat::CloseCombat, close_combat::INFO),
    Musketry(musketry::Musketry, musketry::INFO),
    LightFire(light_fire::LightFire, light_fire::INFO),
    Artillery(artillery::Artillery, artillery::INFO),
    MoraleCheck(morale::MoraleCheck, morale::INFO),
    Pursuit(pursuit::Pursuit, pursuit::INFO),
    UnableToRetreat(retreat::UnableToRetreat, retreat::INFO),
    LeaderCasualty(leaders::LeaderCasualty, leaders::INFO),
    Continuation(orders::Continuation, orders::CONTINUATION_INFO),
    Preemption(orders::Preemption, orders::PREEMPTION_INFO),
    OrdersChange(orders::OrdersChange, orders::ORDERS_CHANGE_INFO),
    Interception(orders::Interception, orders::INTERCEPTION_INFO),
}

/// Builds a step; a close combat after a course's first roll claims
/// momentum only where an attacker is eligible, and an interception reads
/// the course's `[rules]`.
pub(super) fn build(
    s: &StepSpec,
    f: &mut Fields,
    units: &[Unit],
    edition: Edition,
    rules: &Readings,
    lenient: bool,
) -> Result<Step, InputError> {
    if s.procedure == close_combat::INFO.name {
        f.has("procedure");
        return Ok(Step::CloseCombat(CloseCombat::from_step_with(
            f, units, edition, lenient,
        )?));
    }
    if s.procedure == orders::INTERCEPTION_INFO.name {
        return Ok(Step::Interception(orders::Interception::from_step_with(
            f,
            units,
            edition,
            rules.sfo_interception_six_exactly,
        )?));
    }
    build_step(&s.procedure, f, units, edition)
}

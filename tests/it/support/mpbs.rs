//! Musket & Pike steps read straight from scenario text, for the tests that
//! pin a procedure's keys and their located errors.

use pikeshot::error::InputError;
use pikeshot::scenario::{Fields, Source};
use pikeshot::systems::mpbs::{Edition, Formation, MoraleState, Order, Unit, UnitKind};

use super::located::{assert_each_refused, assert_step_err_in_s_toml};
use super::monte_carlo::{Compiled, Leaves, assert_procedure_matches};
use super::step::{one_step_doc, step_from_text};
use pikeshot::Procedure;

/// Reads the units and the step of a scenario text (file `s.toml`) under
/// `edition` and builds the step with `from_step`.
pub fn build<T>(
    text: &str,
    edition: Edition,
    from_step: impl Fn(&mut Fields, &[Unit], Edition) -> Result<T, InputError>,
) -> Result<T, InputError> {
    step_from_text(
        text,
        |name, f| Unit::from_fields(name, f, edition),
        |f, units| from_step(f, units, edition),
    )
}

/// Calls `build` with the first step of the first course of `text` (file
/// `t.toml`), the units (which must read) and the text's `edition`.
pub fn with_step<R>(text: &str, build: impl FnOnce(&mut Fields, &[Unit], Edition) -> R) -> R {
    let (src, table) = Source::parse("t.toml", text).unwrap();
    let e = Edition::from_name(table["edition"].as_str().unwrap()).unwrap();
    let units: Vec<Unit> = table["units"]
        .as_table()
        .unwrap()
        .iter()
        .map(|(name, v)| {
            let mut f = Fields::new(&src, format!("units.{name}"), v.as_table().unwrap());
            Unit::from_fields(name, &mut f, e).unwrap()
        })
        .collect();
    let step = table["course"][0]["steps"][0].as_table().unwrap();
    let mut f = Fields::new(&src, "course[0].steps[0]", step);
    build(&mut f, &units, e)
}

/// A one-hex unit in good order, in the open, with no leader, ordered to
/// charge and able to retreat.
pub fn unit(name: &str, kind: UnitKind, morale: u8, strength: u8) -> Unit {
    Unit {
        name: name.into(),
        kind,
        morale,
        strength,
        hexes: 1,
        casualty_points: 0,
        formation: Formation::Normal,
        morale_state: MoraleState::Good,
        terrain: "clear",
        hexside: None,
        salvo_marker: false,
        regimental_artillery: false,
        gun: None,
        leader: None,
        order: Order::Charge,
        can_retreat: true,
    }
}

/// The units of the Musket & Pike charge many tests run, as scenario text:
/// cuirassiers `horse` (morale 7, 4 SP, Charge order) and heavy infantry
/// `foot` (morale 6, 8 SP). The foot's table is left open for more keys. A
/// macro, so that a test can `concat!` it into a `const` scenario text.
#[macro_export]
macro_rules! mpbs_horse_and_foot {
    () => {
        r#"[units.horse]
kind = "cuirassier"
morale = 7
strength = 4
order = "charge"

[units.foot]
kind = "heavy-infantry"
morale = 6
strength = 8
"#
    };
}

/// The step of that charge: `horse` charges `foot` with momentum.
#[macro_export]
macro_rules! mpbs_charge_step {
    () => {
        r#"steps = [{ procedure = "close-combat", attacker = "horse", defender = "foot", momentum = true }]
"#
    };
}

/// Asserts every row `(step, key, says)`: the one-step scenario of `units`
/// and the step's `key = value` lines (see [`one_step_doc`]) is refused by
/// `from_step` under `edition` with an input error in `s.toml` at the step's
/// `key`, on the line that sets it, saying `says` (see
/// [`assert_each_refused`] and [`assert_step_err_in_s_toml`]); a failing row
/// is named.
#[track_caller]
pub fn assert_steps_refused<T: std::fmt::Debug>(
    edition: Edition,
    units: &str,
    from_step: impl Fn(&mut Fields, &[Unit], Edition) -> Result<T, InputError>,
    rows: &[(&str, &str, &str)],
) {
    assert_each_refused(
        rows,
        |step| one_step_doc(units, step),
        |text| build(text, edition, &from_step),
        assert_step_err_in_s_toml,
    );
}

/// Monte Carlo against exact for a Musket & Pike procedure on its own: its
/// exact answer within a budget of 1 000 000 dice paths, every outcome and
/// measure value under both kernel modes, and the auto mode compiling (see
/// [`assert_procedure_matches`]).
#[track_caller]
pub fn monte_carlo_vs_exact<P: Procedure + Clone + 'static>(p: P, seed: u64) {
    assert_procedure_matches(&p, 1_000_000, seed, Leaves::Marginals, Compiled::WhenAuto);
}

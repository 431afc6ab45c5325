//! Sword & Spear (Fantasy), from its quick reference sheet.
//!
//! Every die is a d6. Every chart of the sheet is data headed by its section
//! name, one file per procedure: activation against Discipline
//! ([`activation`]), Discipline tests and their adjustments
//! ([`discipline`]), the combat mechanism shared by melee and shooting
//! ([`combat`]), melee combat dice and impetus ([`melee`]), shooting by
//! weapon ([`shooting`]), risk to commanders ([`commanders`]), courses of
//! several steps ([`course`]), repeated turn after turn (a melee until a
//! unit routs) with the stop conditions of [`repeat`], and the `[rules]` readings
//! ([`readings`]). Readings of what the sheet leaves open are in
//! `docs/rules/sword-and-spear.md`, each with the scenario key that
//! overrides it.

pub mod activation;
pub mod combat;
pub mod combat_charts;
pub mod commanders;
pub mod compare_table;
pub mod cost;
pub mod course;
pub mod course_explain;
pub mod decision;
pub mod discipline;
pub mod explain;
pub mod impetus;
pub mod melee;
pub mod readings;
pub mod repeat;
pub mod scenario;
pub mod shooting;
pub mod step;
pub mod troops;
pub mod unit;
pub mod volley_dice;

pub use unit::Unit;

use crate::engine::KernelMode;
use crate::error::InputError;
use crate::scenario::Fields;
use crate::systems::BuiltCourses;
use crate::systems::Chart;

/// The system id used in scenario files and on the command line.
pub const SYSTEM: &str = "sword-and-spear";

/// The card, as named in messages.
pub const CARD: &str = "Sword & Spear Fantasy quick reference sheet";

pub(crate) use crate::systems::named::named_enum;

/// Every chart of the sheet, in card order, for `pikeshot tables`.
pub fn charts() -> Vec<Chart> {
    let mut c = Vec::new();
    c.extend(discipline::command_charts());
    c.extend(commanders::charts());
    c.extend(discipline::charts());
    c.extend(troops::charts());
    c.extend(activation::charts());
    c.extend(combat_charts::charts());
    c.extend(shooting::charts());
    c.extend(melee::charts());
    c
}

/// The rows of a list the sheet numbers: the number from 1, then the item.
fn numbered(items: &[&str]) -> Vec<Vec<String>> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| vec![(i + 1).to_string(), item.to_string()])
        .collect()
}

/// Sword & Spear in the registry of rule systems.
pub struct SwordSpear;

impl crate::systems::RuleSystem for SwordSpear {
    fn id(&self) -> &'static str {
        SYSTEM
    }
    fn name(&self) -> &'static str {
        "Sword & Spear (Fantasy)"
    }
    fn procedures(&self) -> &'static [crate::systems::ProcedureInfo] {
        step::PROCEDURES
    }
    fn charts(&self, _edition: Option<&str>) -> Vec<Chart> {
        charts()
    }
    fn vocabulary(&self) -> String {
        crate::systems::registry::vocabulary(&[
            ("troop types", troops::Troop::names()),
            ("terrain", troops::Terrain::names()),
            ("armour", unit::Armour::names()),
            ("missile weapons", shooting::Weapon::names()),
            ("melee weapons", unit::MeleeWeapon::names()),
            ("commanders", unit::Commander::names()),
        ])
    }
    fn unit_keys(&self) -> Vec<crate::systems::KeyDoc> {
        unit::unit_keys()
    }
    fn repeats(&self) -> &'static crate::systems::Repeats {
        &repeat::REPEATS
    }
    fn rules_keys(&self) -> Vec<crate::systems::KeyDoc> {
        use crate::systems::rules::RulesTable;
        readings::Readings::keys()
    }
    fn explain(&self, f: &mut Fields) -> Result<crate::explain::Explained, InputError> {
        scenario::explain(f)
    }
    fn build_courses(&self, f: &mut Fields, mode: KernelMode) -> Result<BuiltCourses, InputError> {
        scenario::build(f, mode)
    }
    fn decide(
        &self,
        f: &mut Fields,
        ask: &crate::scenario::decision::DecideAsk,
    ) -> Result<Vec<crate::engine::decide::summary::Decided>, InputError> {
        decision::decide(f, ask)
    }
    fn reads_decisions(&self) -> bool {
        true
    }
}

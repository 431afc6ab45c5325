//! The state features of a Musket & Pike `[[decision]]` (each unit's
//! morale and casualty points, own unit first), and its options as course
//! machines ([`Course`], each built with every early-end outcome).

use super::{Course, CourseInput, CourseState, EarlyEnds};
use crate::engine::decide::{Features, MachineOptions};
use crate::error::InputError;
use crate::systems::mpbs::MoraleState;

/// The features of a Musket & Pike decision: the morale and casualty
/// points of the own unit, then of the enemy.
pub struct UnitFeatures {
    /// (unit index, name) of the own unit, then the enemy's.
    pub units: Vec<(usize, String)>,
}

impl Features for UnitFeatures {
    type State = CourseState;
    fn feature_names(&self) -> Vec<String> {
        self.units
            .iter()
            .flat_map(|(_, n)| [format!("{n} morale"), format!("{n} casualty points")])
            .collect()
    }
    fn features(&self, s: &CourseState) -> Vec<i32> {
        self.units
            .iter()
            .flat_map(|&(i, _)| {
                let u = &s.units[i];
                [u.morale as i32, i32::from(u.casualty_points)]
            })
            .collect()
    }
    fn feature_value(&self, feature: usize, value: i32) -> String {
        if feature.is_multiple_of(2) {
            MoraleState::ALL
                .get(value as usize)
                .map_or_else(|| value.to_string(), |m| m.name().to_string())
        } else {
            value.to_string()
        }
    }
}

/// Each option's course (`name`, what it is built from) as a machine,
/// every one with both early-end outcomes so that an ended state means
/// the same in each.
pub fn options<'a>(
    inputs: Vec<(String, CourseInput<'a>)>,
) -> Result<MachineOptions<Course<'a>>, InputError> {
    let all = EarlyEnds {
        eliminated: true,
        off_map: true,
    };
    let options = inputs
        .into_iter()
        .map(|(n, input)| Course::new(input, all).map(|c| (n, c)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(MachineOptions { options })
}

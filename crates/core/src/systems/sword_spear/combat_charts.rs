//! The Combat Process and the Effect of Armour as charts, for `pikeshot
//! tables`: what [`super::combat`] resolves, laid out as the card prints it.

use super::numbered;
use crate::systems::Chart;
use crate::systems::chart::headers;

/// The combat process and the effect of armour, for `pikeshot tables`.
pub fn charts() -> Vec<Chart> {
    let process = Chart {
        id: "combat-process",
        title: "Combat Process".into(),
        rule: "Combat",
        headers: headers(&["Step", ""]),
        rows: numbered(&[
            "Roll Combat Dice",
            "Place top four dice in order",
            "Compare opposing dice",
            "Adjust for Armour",
            "Establish outcome of each pair of dice",
            "Make Discipline tests and record Hits",
        ]),
        notes: vec![
            "Each die which doubles its opposing die: Hit".into(),
            "Each die which beats but does not double its opposing die: Discipline test".into(),
            "Equal dice: no effect (reading, docs/rules/sword-and-spear.md section 3)".into(),
            "Dice with no opposing die: ignored (`[rules] unpaired = \"hits\"`: a hit each)".into(),
            "Discipline test: one d6, passed on a roll at least the adjusted Discipline; a failure is a hit (docs/rules/sword-and-spear.md section 3)".into(),
            "A unit routs when its hits reach its strength (docs/rules/sword-and-spear.md section 3)".into(),
        ],
    };
    let armour = Chart {
        id: "armour",
        title: "Effect of Armour".into(),
        rule: "Combat",
        headers: headers(&["Protection", "Effect"]),
        rows: vec![
            vec![
                "Heavily Armoured".into(),
                "Reduce one of opponent's winning dice by up to 2 (cannot turn a losing die into a winning die)".into(),
            ],
            vec![
                "Armoured".into(),
                "Reduce one of opponent's winning dice by 1".into(),
            ],
            vec![
                "Opponent is Lacking Protection".into(),
                "Increase one of own winning or drawing dice by 1".into(),
            ],
        ],
        notes: vec![
            "Armour lowers the die where it gains most: a hit into a draw, else a hit into a test, else a test into a draw (`[rules] armour_choice = \"literal\"`: hit->test, hit->draw, test->draw as docs/rules/sword-and-spear.md section 3 lists them)".into(),
            "The raise goes where it gains most: a draw into a hit, else a test into a hit, else a draw into a test".into(),
            "Armour is applied first, then raises; ties go to the higher pair".into(),
        ],
    };
    vec![process, armour]
}

//! Every chart of the Hakkaa Päälle quick reference against the card: each
//! cell as printed (the card's text is transcribed here, tab-separated, and
//! the charts `pikeshot tables hakkaa` prints must match it cell for cell),
//! the lookups behind them, and which row each unit class reads.

use pikeshot::systems::hakkaa::casualties::{self, Level, Received};
use pikeshot::systems::hakkaa::close_combat::{self, CLOSE_COMBAT_TABLE};
use pikeshot::systems::hakkaa::closing::{self, CLOSING_TABLE, ClosingResult};
use pikeshot::systems::hakkaa::fire::{self, Casualty, FIRE_TABLE};
use pikeshot::systems::hakkaa::fleeing::{self, FLEEING_TABLE, FleeResult};
use pikeshot::systems::hakkaa::movement;
use pikeshot::systems::hakkaa::reaction::{self, Pace, ReactionFire};
use pikeshot::systems::hakkaa::tq::{self, Grade, TQ_MODIFIERS, Tq};
use pikeshot::systems::hakkaa::uncontrolled::Situation;
use pikeshot::systems::hakkaa::unit::{Formation, UnitClass};
use pikeshot::systems::hakkaa::{self as hakkaa, visibility};
use pikeshot::systems::{self, Chart};

use pikeshot::systems::hakkaa::casualties::{Injury, StepRoll};

/// The chart with id `id`.
fn chart(id: &str) -> Chart {
    hakkaa::charts()
        .into_iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no chart {id}"))
}

/// Asserts a chart's rows, cells joined by tabs, are the card's lines.
#[track_caller]
fn assert_rows(id: &str, card: &str) {
    let c = chart(id);
    let want: Vec<&str> = card.trim().lines().collect();
    let got: Vec<String> = c.rows.iter().map(|r| r.join("\t")).collect();
    assert_eq!(got.len(), want.len(), "{id}: rows");
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g, w, "{id}");
    }
}

// ---------------------------------------------------------------- TQ

const TQ_CARD: &str = "
Fanatic (11)\t2 - 6\t7 - 11\t12\t-
Elite (10)\t2 - 5\t6 - 10\t11\t12
Veteran (9)\t2 - 5\t6 - 9\t10 - 11\t12
Trained (8)\t2 - 4\t5 - 8\t9 - 10\t11 - 12
Green (7)\t2 - 3\t4 - 7\t8 - 10\t11 - 12
Rabble (6)\t2 - 3\t4 - 6\t7 - 9\t10 - 12";

#[test]
fn tq_table_every_cell() {
    assert_rows("tq", TQ_CARD);
    assert_eq!(chart("tq").headers, ["Grade", "DS", "S", "F", "DF"]);
    // Every roll of every grade reads the band the card prints.
    for (line, &grade) in TQ_CARD.trim().lines().zip(Grade::ALL) {
        let cells: Vec<&str> = line.split('\t').collect();
        assert!(cells[0].starts_with(grade.title()));
        assert_eq!(cells[0], format!("{} ({})", grade.title(), grade.tq()));
        for roll in 2..=12u8 {
            let want = (1..=4)
                .find(|&c| {
                    let band: Vec<u8> = cells[c]
                        .split(" - ")
                        .filter_map(|x| x.parse().ok())
                        .collect();
                    match band.as_slice() {
                        [x] => *x == roll,
                        [lo, hi] => (*lo..=*hi).contains(&roll),
                        _ => false,
                    }
                })
                .unwrap();
            assert_eq!(tq::read(grade, roll), Tq::ALL[want - 1], "{grade} {roll}");
        }
        // S ends at the TQ number: a pass is 2d6 <= TQ.
        for roll in 2..=12u8 {
            assert_eq!(
                tq::read(grade, roll).passed(),
                roll as i32 <= grade.tq(),
                "{grade} {roll}"
            );
        }
    }
    assert_eq!(
        Grade::ALL.iter().map(|g| g.tq()).collect::<Vec<_>>(),
        [11, 10, 9, 8, 7, 6],
        "Fanatic 11 … Rabble 6"
    );
}

#[test]
fn tq_modifiers_as_printed() {
    let card = [
        ("Disordered", -1),
        ("lower total CC value than close combat opponent(s)", -1),
        (
            "single unit on the Uncontrolled units table (not independent units)",
            -1,
        ),
        ("Fatigued", -1),
        ("charismatic leader attached", 1),
        ("charge reaction or close combat manning field works", 1),
    ];
    assert_eq!(TQ_MODIFIERS.len(), card.len());
    for ((_, v, label), (l, w)) in TQ_MODIFIERS.iter().zip(card) {
        assert_eq!((*label, *v as i32), (l, w));
    }
    let notes = chart("tq").notes.join("\n");
    for (l, w) in card {
        assert!(notes.contains(&format!("{w:+} {l}")), "{notes}");
    }
}

// ---------------------------------------------------------------- fire

const FIRE_CARD: &str = "
<1\tLC\tNE\tNE\tNE
1\t2 LC *\tLC\tNE\tNE
2\tC * S5+\tLC\tNE\tNE
3\tC * S5+\t2 LC *\tLC\tNE
4\tC * S5+\tC *\tLC\tNE
5\tHC ** S4+\tC * S5+\tLC\tNE
6\tHC ** S4+\tC * S5+\t2 LC\tNE
7\tHC ** S4+\tC * S5+\t2 LC *\tLC
8+\tHC ** S4+\t2 C ** S5+\tC * S5+\tLC";

/// Parses a printed Fire Table cell.
fn fire_cell(s: &str) -> fire::FireCell {
    let mut casualty = None;
    let mut injury = Injury::None;
    let mut step = StepRoll::None;
    let mut two = false;
    for t in s.split(' ') {
        match t {
            "2" => two = true,
            "NE" => casualty = Some(Casualty::Ne),
            "LC" => casualty = Some(if two { Casualty::TwoLc } else { Casualty::Lc }),
            "C" => casualty = Some(if two { Casualty::TwoC } else { Casualty::C }),
            "HC" => casualty = Some(Casualty::Hc),
            "*" => injury = Injury::On6,
            "**" => injury = Injury::On5,
            "S4+" => step = StepRoll::On4,
            "S5+" => step = StepRoll::On5,
            other => panic!("unknown token {other}"),
        }
    }
    fire::FireCell {
        casualty: casualty.unwrap(),
        injury,
        step,
    }
}

#[test]
fn fire_table_every_cell() {
    assert_rows("fire", FIRE_CARD);
    for (row, line) in FIRE_CARD.trim().lines().enumerate() {
        let cells: Vec<&str> = line.split('\t').collect();
        for (col, tq) in Tq::ALL.into_iter().enumerate() {
            let want = fire_cell(cells[col + 1]);
            assert_eq!(FIRE_TABLE[row][col], want, "FP {} {tq:?}", cells[0]);
            // FP 0 reads "<1"; 8 and more read "8+".
            let fps: Vec<u8> = match row {
                8 => vec![8, 9, 12, 99],
                r => vec![r as u8],
            };
            for fp in fps {
                assert_eq!(fire::cell(fp, tq), want, "FP {fp} {tq:?}");
            }
        }
    }
    // The casualties' Receiving Casualties rows and number of tests.
    assert_eq!(Casualty::Ne.tests(), None);
    assert_eq!(Casualty::Lc.tests(), Some((Level::Lc, 1)));
    assert_eq!(Casualty::TwoLc.tests(), Some((Level::Lc, 2)));
    assert_eq!(Casualty::C.tests(), Some((Level::C, 1)));
    assert_eq!(Casualty::TwoC.tests(), Some((Level::C, 2)));
    assert_eq!(Casualty::Hc.tests(), Some((Level::Hc, 1)));
    // S4+ / S5+ / S6 and * / ** as single-die rolls.
    assert_eq!(StepRoll::On4.need(), Some(4));
    assert_eq!(StepRoll::On5.need(), Some(5));
    assert_eq!(StepRoll::On6.need(), Some(6));
    assert_eq!(StepRoll::None.need(), None);
    assert_eq!(Injury::On6.need(), Some(6));
    assert_eq!(Injury::On5.need(), Some(5));
    assert_eq!(Injury::None.need(), None);
}

#[test]
fn fire_points_halve_and_round_down() {
    assert_eq!(fire::effective_fp(7, 0, true), 3);
    assert_eq!(fire::effective_fp(1, 0, true), 0);
    assert_eq!(fire::effective_fp(4, 0, false), 4);
    assert_eq!(fire::effective_fp(4, 3, true), 3);
    assert_eq!(fire::effective_fp(2, -5, false), 0);
    assert_eq!(fire::fp_row(0), 0);
    assert_eq!(fire::fp_row(200), 8);
}

// ---------------------------------------------------------------- receiving casualties

const RECEIVING_CARD: &str = "
LC\t-\t-\tD\tF
C\t-\tD\tF\tF
HC\tD\tD\tF\tX";

#[test]
fn receiving_casualties_every_cell() {
    assert_rows("receiving-casualties", RECEIVING_CARD);
    for (line, level) in RECEIVING_CARD.trim().lines().zip(Level::ALL) {
        let cells: Vec<&str> = line.split('\t').collect();
        assert_eq!(cells[0], level.abbreviation());
        for (i, tq) in Tq::ALL.into_iter().enumerate() {
            let want = match cells[i + 1] {
                "-" => Received::Unchanged,
                "D" => Received::D,
                "F" => Received::F,
                "X" => Received::X,
                o => panic!("{o}"),
            };
            assert_eq!(casualties::received(level, tq), want, "{line}");
        }
    }
}

// ---------------------------------------------------------------- close combat

#[test]
fn close_combat_every_cell() {
    assert_rows("close-combat", "All\t-\tD * S6\tF ** S5+\tF ** S4+");
    use pikeshot::systems::hakkaa::unit::Effect;
    let want = [
        (Effect::None, Injury::None, StepRoll::None),
        (Effect::Disorder, Injury::On6, StepRoll::On6),
        (Effect::FallBackOrFlee, Injury::On5, StepRoll::On5),
        (Effect::FallBackOrFlee, Injury::On5, StepRoll::On4),
    ];
    for (tq, (e, i, s)) in Tq::ALL.into_iter().zip(want) {
        let c = close_combat::cell(tq);
        assert_eq!((c.effect, c.injury, c.step), (e, i, s), "{tq:?}");
        assert_eq!(CLOSE_COMBAT_TABLE[tq as usize], c);
    }
}

// ---------------------------------------------------------------- closing

const CLOSING_CARD: &str = "
MI\tA\tA_F\t-\tF_B
AI/HI\tA_R\tA\tA_F\t-
CI\tA_R\tA_R\tA\t-
Skirmishing\tF_B\tF_B\tF_B\t-
LTI\tA\t-\tF_B\tF_B
Levy\tA_R\tA\t-\tF_B
HL\tA_R\tA\tA\t-
HQ\tA\tA_F\t-\tF_B
HBC\tA_R\tA\tA\tF_B
EH\tA_R\tA_F\tA_F\t-
LBC\tA_R\tA\tA_F\tF_B
LC\tA\tF_B\tF_B\tF_B";

#[test]
fn closing_table_every_cell() {
    assert_rows("closing", CLOSING_CARD);
    for (line, row) in CLOSING_CARD.trim().lines().zip(CLOSING_TABLE) {
        let cells: Vec<&str> = line.split('\t').collect();
        for (i, c) in row.cells.iter().enumerate() {
            let want = match cells[i + 1] {
                "-" => ClosingResult::NoEffect,
                "A" => ClosingResult::Assault,
                "A_F" => ClosingResult::AssaultIfFavourable,
                "A_R" => ClosingResult::AssaultRegardless,
                "F_B" => ClosingResult::FallBack,
                o => panic!("{o}"),
            };
            assert_eq!(*c, want, "{line}");
        }
    }
    // What each result does under each pair of conditions.
    use ClosingResult::*;
    for (fav, unfav, a, af, ar) in [
        (false, false, true, false, true),
        (true, false, true, true, true),
        (false, true, false, false, true),
        (true, true, false, false, true),
    ] {
        assert_eq!(Assault.contact(fav, unfav), a);
        assert_eq!(AssaultIfFavourable.contact(fav, unfav), af);
        assert_eq!(AssaultRegardless.contact(fav, unfav), ar);
        assert!(!FallBack.contact(fav, unfav));
        assert!(!NoEffect.contact(fav, unfav));
    }
    let notes = chart("closing").notes.join("\n");
    for c in closing::FAVOURABLE.iter().chain(&closing::UNFAVOURABLE) {
        assert!(notes.contains(c));
    }
}

#[test]
fn closing_rows_by_class() {
    use UnitClass::*;
    let want = [
        (Mi, Some("MI")),
        (Ai, Some("AI/HI")),
        (Hi, Some("AI/HI")),
        (Ci, Some("CI")),
        (Lti, Some("LTI")),
        (Levy, Some("Levy")),
        (Hl, Some("HL")),
        (Hq, Some("HQ")),
        (Hbc, Some("HBC")),
        (Eh, Some("EH")),
        (Lbc, Some("LBC")),
        (Lc, Some("LC")),
        (Sc, None),
        (Artillery, None),
    ];
    assert_eq!(want.len(), UnitClass::ALL.len());
    for (c, label) in want {
        for f in [Formation::Formed, Formation::ColumnOfMarch] {
            assert_eq!(
                closing::row_for(c, f).map(|r| CLOSING_TABLE[r].label),
                label,
                "{c} {f}"
            );
        }
        if c != Artillery {
            assert_eq!(
                closing::row_for(c, Formation::Skirmishing).map(|r| CLOSING_TABLE[r].label),
                Some("Skirmishing")
            );
        }
    }
}

// ---------------------------------------------------------------- charge reaction

const GALLOP_CARD: &str = "
MI/HI^S/Art*\tSt Fi\t(d) ½Fi\t(d) ½Fi\tFlee
Skirmishing/CoM/Art**\tSt Fi\tFlee\tFlee\tSt
Other infantry\t(d) ½Fi\t(d) ½Fi\t(d)\tFlee
HL\tCC\tCC\t(d)\tFlee
Eastern Horse\tCC\t(d) ½Fi\t(d)\tFlee
Other Cavalry***\tSt Fi\t(d) ½Fi\t(d)\tFlee";

const TROT_CARD: &str = "
MI/HI^S/Art*\tSt Fi\t(d) Fi\t(d) ½Fi\tFlee
Skirmishing/CoM/Art**\tSt Fi\tFlee\tFlee\tSt
Other infantry\t½Fi\t(d) ½Fi\t(d) ½Fi\tFlee
HL\tCC\tCC\t(d)\tFlee
Eastern Horse\tCC\tSt ½Fi\t(d) ½Fi\tFlee
Other Cavalry***\tSt Fi\tSt ½Fi\t(d) ½Fi\tFlee";

#[test]
fn charge_reaction_tables_every_cell() {
    assert_rows("charge-reaction-gallop", GALLOP_CARD);
    assert_rows("charge-reaction-trot", TROT_CARD);
    for (pace, card) in [(Pace::Gallop, GALLOP_CARD), (Pace::Trot, TROT_CARD)] {
        for (line, row) in card.trim().lines().zip(reaction::table(pace)) {
            let cells: Vec<&str> = line.split('\t').collect();
            for (i, r) in row.cells.iter().enumerate() {
                let t: Vec<&str> = cells[i + 1].split(' ').collect();
                assert_eq!(r.stand, t.contains(&"St"), "{line}");
                assert_eq!(r.flee_if_disordered, t.contains(&"(d)"), "{line}");
                assert_eq!(r.flee, t.contains(&"Flee"), "{line}");
                assert_eq!(r.counter_charge, t.contains(&"CC"), "{line}");
                let fire = if t.contains(&"Fi") {
                    ReactionFire::Full
                } else if t.contains(&"½Fi") {
                    ReactionFire::Half
                } else {
                    ReactionFire::None
                };
                assert_eq!(r.fire, fire, "{line}");
            }
        }
    }
    // Trot and run read the same table.
    assert_eq!(reaction::table(Pace::Run), reaction::table(Pace::Trot));
}

#[test]
fn charge_reaction_rows_by_class_and_formation() {
    use UnitClass::*;
    let formed = [
        (Mi, 0),
        (Hi, 0),
        (Artillery, 0),
        (Ai, 2),
        (Ci, 2),
        (Lti, 2),
        (Levy, 2),
        (Hl, 3),
        (Eh, 4),
        (Hq, 5),
        (Hbc, 5),
        (Lbc, 5),
        (Lc, 5),
        (Sc, 5),
    ];
    assert_eq!(formed.len(), UnitClass::ALL.len());
    for (c, r) in formed {
        assert_eq!(reaction::row_for(c, Formation::Formed, false), r, "{c}");
        assert_eq!(reaction::row_for(c, Formation::Skirmishing, false), 1);
        assert_eq!(reaction::row_for(c, Formation::ColumnOfMarch, false), 1);
    }
    assert_eq!(reaction::row_for(Artillery, Formation::Formed, true), 1);
}

// ---------------------------------------------------------------- fleeing

#[test]
fn fleeing_table_every_cell() {
    assert_rows("fleeing", "All\tR_Y\tR_C\tR_F+C\tFlee^S4");
    assert_eq!(
        FLEEING_TABLE,
        [
            FleeResult::Rally,
            FleeResult::RallyIfCommanderOrFriend,
            FleeResult::RallyIfCommanderAndFriend,
            FleeResult::Flee,
        ]
    );
    // Rally conditions: (commander, friend closer).
    let want = [
        [true, true, true, true],
        [false, true, true, true],
        [false, false, false, true],
        [false, false, false, false],
    ];
    for (r, w) in FLEEING_TABLE.iter().zip(want) {
        let got = [(false, false), (true, false), (false, true), (true, true)]
            .map(|(c, f)| r.rallies(c, f));
        assert_eq!(got, w, "{r:?}");
    }
    assert_eq!(fleeing::FLEE_STEP_LOSS, StepRoll::On4);
}

// ---------------------------------------------------------------- uncontrolled

const FLEEING_ENEMY_CARD: &str = "
LC/SC\tPu\tPu\tPu\tH_D
HL/EH\tC_H\tPu\tPu\tH_D
Other cavalry\tA_S\tPu\tPu\tH_D";

const ENEMY_AT_FLANK_CARD: &str = "
MI/HI/LTI\tT/H_D\tT/H_D\tH_D\tFlee
AI\tT/A_S\tT/H_D\tH_D\tFlee
CI\tT/C_H\tT/C_H\tH_D\tFlee
Skirmishing\tT/A_D\tT/H_D\tRet\tFlee
Levy\tT/H_D\tT/H_D\tRet\tFlee
HL\tT/C_H\tT/H_D\tH_D\tRet
LBC/HBC\tT/A_S\tT/H_D\tH_D\tRet
EH/LC/HQ\tT/A_D\tT/H_D\tH_D\tFlee
Art\tT/H_D\tT/H_D\tH_D\tFlee";

const DEFENSIBLE_VISIBLE_CARD: &str = "
HI/Artillery\tH_D\tH_D\tH_D\tA_D
MI\tA_D\tH_D\tH_D\tRet
AI\tH_D\tH_D\tH_D\tA_S
CI\tC_H\tH_D\tH_D\tRet
LTI/Skirmishing\tH_D\tH_D\tH_D\tRet
Levy/EH\tH_D\tH_D\tH_D\tA_S
HBC/HQ\tC_C A\tC_C H\tC_C H\tRet
HL\tC_H\tH_D\tH_D\tRet
LBC\tA_S\tH_D\tH_D\tRet
LC\tA_D\tH_D\tH_D\tRet";

const DEFENSIBLE_NO_ENEMY_CARD: &str = "All\tH_D\tH_D\tH_D\tM";

const VISIBLE_ENEMY_CARD: &str = "
Skirmishing\tA_D\tH_D\tRet\tFlee
MI\tA_S\tA_D\tH_D\tRet
AI\tA_S\tA_S\tH_D\tRet
CI\tC_H\tC_H\tH_D\tRet
LTI/HI\tA_D\tH_D\tH_D\tRet
Levy\tA_S\tH_D\tH_D\tFlee
HBC\tA_S\tA_S\tC_C H\tH_D
HQ\tC_C A\tC_C H\tC_C H\tRet
HL\tC_H\tC_H\tH_D\tRet
LBC\tA_S\tA_S\tH_D\tRet
EH\tC_H\tA_D\tH_D\tRet
LC\tA_S\tA_D\tH_D\tRet
Art\tA_D\tH_D\tH_D\tH_D";

const NO_VISIBLE_ENEMY_CARD: &str = "
Art\tCM\tH_D\tH_D\tH_D
Skirmishing or Cavalry\tM\tCM\tCM\tH_D
Other\tM\tCM\tH_D\tH_D";

#[test]
fn uncontrolled_tables_every_cell() {
    assert_rows("uncontrolled-defending", "Automatic Hold");
    assert_rows("uncontrolled-fleeing-enemy", FLEEING_ENEMY_CARD);
    assert_rows("uncontrolled-enemy-at-flank", ENEMY_AT_FLANK_CARD);
    assert_rows(
        "uncontrolled-defensible-enemy-visible",
        DEFENSIBLE_VISIBLE_CARD,
    );
    assert_rows("uncontrolled-defensible-no-enemy", DEFENSIBLE_NO_ENEMY_CARD);
    assert_rows("uncontrolled-visible-enemy", VISIBLE_ENEMY_CARD);
    assert_rows("uncontrolled-no-visible-enemy", NO_VISIBLE_ENEMY_CARD);
    let rear = chart("uncontrolled-enemy-to-rear");
    assert!(rear.rows[0][1].contains("at least one unit must make a 180 degree turn"));
    assert!(rear.rows[1][1].contains("may make 180 degree turns"));
    assert!(rear.notes.join(" ").contains("Holds"));
    // The data behind the charts, situation by situation.
    for (s, card) in [
        (Situation::FleeingEnemy, FLEEING_ENEMY_CARD),
        (Situation::EnemyAtFlank, ENEMY_AT_FLANK_CARD),
        (Situation::DefensibleEnemyVisible, DEFENSIBLE_VISIBLE_CARD),
        (Situation::DefensibleNoEnemy, DEFENSIBLE_NO_ENEMY_CARD),
        (Situation::VisibleEnemy, VISIBLE_ENEMY_CARD),
        (Situation::NoVisibleEnemy, NO_VISIBLE_ENEMY_CARD),
    ] {
        let rows = s.rows().unwrap();
        for (line, r) in card.trim().lines().zip(rows) {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(r.label, cells[0]);
            assert_eq!(r.cells.as_slice(), &cells[1..], "{s}");
        }
    }
    assert!(Situation::Defending.rows().is_none());
    assert!(Situation::EnemyToRear.rows().is_none());
}

#[test]
fn uncontrolled_rows_by_class() {
    use UnitClass::*;
    // Situations 2, 4, 5, 7, 8: the row label each class reads in formed
    // order (None: no row).
    let want: [(UnitClass, [Option<&str>; 5]); 14] = [
        (
            Mi,
            [
                None,
                Some("MI/HI/LTI"),
                Some("MI"),
                Some("MI"),
                Some("Other"),
            ],
        ),
        (
            Ai,
            [None, Some("AI"), Some("AI"), Some("AI"), Some("Other")],
        ),
        (
            Ci,
            [None, Some("CI"), Some("CI"), Some("CI"), Some("Other")],
        ),
        (
            Hi,
            [
                None,
                Some("MI/HI/LTI"),
                Some("HI/Artillery"),
                Some("LTI/HI"),
                Some("Other"),
            ],
        ),
        (
            Lti,
            [
                None,
                Some("MI/HI/LTI"),
                Some("LTI/Skirmishing"),
                Some("LTI/HI"),
                Some("Other"),
            ],
        ),
        (
            Levy,
            [
                None,
                Some("Levy"),
                Some("Levy/EH"),
                Some("Levy"),
                Some("Other"),
            ],
        ),
        (
            Hl,
            [
                Some("HL/EH"),
                Some("HL"),
                Some("HL"),
                Some("HL"),
                Some("Skirmishing or Cavalry"),
            ],
        ),
        (
            Hq,
            [
                Some("Other cavalry"),
                Some("EH/LC/HQ"),
                Some("HBC/HQ"),
                Some("HQ"),
                Some("Skirmishing or Cavalry"),
            ],
        ),
        (
            Hbc,
            [
                Some("Other cavalry"),
                Some("LBC/HBC"),
                Some("HBC/HQ"),
                Some("HBC"),
                Some("Skirmishing or Cavalry"),
            ],
        ),
        (
            Eh,
            [
                Some("HL/EH"),
                Some("EH/LC/HQ"),
                Some("Levy/EH"),
                Some("EH"),
                Some("Skirmishing or Cavalry"),
            ],
        ),
        (
            Lbc,
            [
                Some("Other cavalry"),
                Some("LBC/HBC"),
                Some("LBC"),
                Some("LBC"),
                Some("Skirmishing or Cavalry"),
            ],
        ),
        (
            Lc,
            [
                Some("LC/SC"),
                Some("EH/LC/HQ"),
                Some("LC"),
                Some("LC"),
                Some("Skirmishing or Cavalry"),
            ],
        ),
        (
            Sc,
            [
                Some("LC/SC"),
                None,
                None,
                None,
                Some("Skirmishing or Cavalry"),
            ],
        ),
        (
            Artillery,
            [
                None,
                Some("Art"),
                Some("HI/Artillery"),
                Some("Art"),
                Some("Art"),
            ],
        ),
    ];
    let situations = [
        Situation::FleeingEnemy,
        Situation::EnemyAtFlank,
        Situation::DefensibleEnemyVisible,
        Situation::VisibleEnemy,
        Situation::NoVisibleEnemy,
    ];
    for (c, labels) in want {
        for (s, w) in situations.iter().zip(labels) {
            let got = s
                .row_for(c, Formation::Formed)
                .map(|r| s.rows().unwrap()[r].label);
            assert_eq!(got, w, "{c} in {s}");
        }
        assert_eq!(
            Situation::DefensibleNoEnemy.row_for(c, Formation::Formed),
            Some(0)
        );
    }
    // Skirmishers read the Skirmishing rows where a table has one.
    for (s, label) in [
        (Situation::EnemyAtFlank, "Skirmishing"),
        (Situation::DefensibleEnemyVisible, "LTI/Skirmishing"),
        (Situation::VisibleEnemy, "Skirmishing"),
        (Situation::NoVisibleEnemy, "Skirmishing or Cavalry"),
    ] {
        for c in [Mi, Hi, Lc, Sc] {
            let r = s.row_for(c, Formation::Skirmishing).unwrap();
            assert_eq!(s.rows().unwrap()[r].label, label, "{c} skirmishing in {s}");
        }
    }
}

// ---------------------------------------------------------------- lookups

const VISIBILITY_CARD: &str = "
Perfect\t1600\t1200\t800\t600
Normal\t1200\t800\t600\t300
Bad\t800\t600\t300\t150
Very Bad\t300\t150\t100\t50";

#[test]
fn visibility_every_cell() {
    assert_rows("visibility", VISIBILITY_CARD);
    assert_eq!(
        chart("visibility").headers[1..],
        ["No Action", "Light Action", "Medium Action", "Heavy Action"]
    );
    for line in VISIBILITY_CARD.trim().lines() {
        let cells: Vec<&str> = line.split('\t').collect();
        for (a, v) in visibility::ACTION.iter().zip(&cells[1..]) {
            assert_eq!(
                visibility::visibility(cells[0], a),
                Some(v.parse().unwrap())
            );
        }
    }
    assert_eq!(visibility::visibility("foggy", "No Action"), None);
}

const MOVEMENT_CARD: &str = "
Commanders\t350 paces
HI and Levy Infantry\t100 paces
Other Infantry\t150 paces
HBC/HQ\t200 paces
HL/LBC\t250 paces
EH/LC/SC\t300 paces
Very Light Artillery\t100 / 200 paces
Light & Medium Artillery\t- / 200 paces
Heavy Artillery\t- / 150 paces
Skirmishing\t+50 paces
Column of March\t+50 paces
CoM or Limbered Artillery following road\t+50 paces
Charging units\t+50 paces
Fleeing units\t+50 paces
Limbered Horse Artillery\t+50 paces
Mounted Infantry (only on march moves)\t+50 paces";

#[test]
fn movement_every_row() {
    assert_rows("movement", MOVEMENT_CARD);
    assert_eq!(movement::RATES[0].paces, Some(350));
    assert_eq!(movement::RATES[7].paces, None);
    assert_eq!(movement::RATES[8].limbered, Some(150));
}

#[test]
fn sequence_of_play() {
    assert_rows(
        "sequence",
        "Visibility Phase\nRandom Events Phase\nInitiative Determination Phase\nOrders Phase\nFire Phase\nClosing Phase\nClose Combat Phase\nArmy Morale Phase",
    );
}

// ---------------------------------------------------------------- pikeshot tables hakkaa

#[test]
fn tables_prints_every_chart_and_refuses_editions() {
    let all = systems::Registry::shipped()
        .tables("hakkaa", None, None)
        .unwrap();
    let charts = hakkaa::charts();
    let mut ids: Vec<&str> = charts.iter().map(|c| c.id).collect();
    for c in &charts {
        assert!(all.contains(&c.title), "{}", c.title);
    }
    let n = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), n, "chart ids are unique");
    for id in [
        "tq",
        "visibility",
        "movement",
        "fleeing",
        "uncontrolled-visible-enemy",
        "charge-reaction-gallop",
        "charge-reaction-trot",
        "fire",
        "closing",
        "close-combat",
        "receiving-casualties",
    ] {
        assert!(ids.contains(&id), "{id}");
    }
    let one = systems::Registry::shipped()
        .tables("hakkaa", None, Some("fire"))
        .unwrap();
    assert!(one.starts_with("Fire table (Fire combat)"));
    assert!(
        one.contains("| 8+ | HC ** S4+ | 2 C ** S5+ | C * S5+ | LC |"),
        "{one}"
    );
    let e = systems::Registry::shipped()
        .tables("hakkaa", Some("series"), None)
        .unwrap_err();
    assert!(e.to_string().contains("no editions"), "{e}");
    let e = systems::Registry::shipped()
        .tables("hakkaa", None, Some("fir"))
        .unwrap_err();
    assert!(e.to_string().contains("did you mean `fire`"), "{e}");
}

#[test]
fn list_names_every_procedure_and_class() {
    let l = systems::Registry::shipped().list(Some("hakkaa")).unwrap();
    for p in [
        "tq-test",
        "fire",
        "charge",
        "closing",
        "charge-reaction",
        "close-combat",
        "fleeing",
        "uncontrolled",
    ] {
        assert!(l.contains(&format!("  {p} (")), "{p}");
    }
    for &c in UnitClass::ALL {
        assert!(
            l.contains(&format!("  {:<10} {}", c.name(), c.describe())),
            "{c}"
        );
    }
    assert!(l.contains("Eastern Horse"));
    assert!(l.contains("not defined on the card"));
    assert!(l.contains("tq_modifier_mode"));
    assert!(l.contains("double_results"));
    assert!(
        l.contains("repeat = { turns = 1..30, until = [...] }"),
        "{l}"
    );
    assert!(l.contains("target-fled"), "{l}");
    assert!(
        systems::Registry::shipped()
            .list(None)
            .unwrap()
            .contains("hakkaa — Hakkaa Päälle")
    );
}

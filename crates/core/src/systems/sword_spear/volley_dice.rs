//! A volley's dice and the target's protection, line by line: the
//! shooter's combat dice (strength, hits under `[rules] dice_from`, bonus,
//! magic and extra dice), the target's, and the target's level of
//! protection against the weapon (armour, the weapon's effect on it,
//! cover). [`super::shooting::Shooting`] builds its clash from these records
//! and `pikeshot explain` reads them (docs/rules/sword-and-spear.md 5).

use super::combat::DiceFrom;
use super::impetus::{line, not_applied, with_note};
use super::shooting::{ArmourEffect, ShootingInput, Weapon, WeaponRow};
use super::unit::Unit;
use crate::explain::{PoolLine, Source, Term};

/// The shooter's dice line by line (strength, hits, bonus, magic and
/// extra dice) and their total.
pub(crate) fn shooter_lines(
    input: &ShootingInput,
    row: &WeaponRow,
    bonus_dice: u8,
    bonus_range: u8,
) -> (Vec<PoolLine>, i32) {
    let fu = &input.firer;
    let name = &fu.name;
    let mut lines = vec![line(
        fu.strength as i32,
        format!("strength {}", fu.strength),
        "docs/rules/sword-and-spear.md 5 (the volley)",
        Source::unit(format!("{name}: strength = {}", fu.strength)),
    )];
    lines.extend(hits_line(fu, input.dice_from));
    if bonus_dice > 0 {
        let source = match input.bonus_dice {
            Some(b) => Source::key(format!("bonus_dice = {b}")),
            None => Source::unit(format!(
                "{name}: bonus {} left by its activation, {bonus_range} spent on range first",
                fu.action_bonus
            )),
        };
        lines.push(line(
            bonus_dice as i32,
            "bonus dice (action dice)",
            "Activating Units; Shooting Weapons",
            source,
        ));
    } else if input.bonus_dice.is_none() && fu.action_bonus > 0 {
        let l = line(
            (fu.action_bonus - bonus_range.min(fu.action_bonus)) as i32,
            "bonus dice (action dice)",
            "Activating Units; Shooting Weapons",
            Source::unit(format!(
                "{name}: bonus {} left by its activation",
                fu.action_bonus
            )),
        );
        let why = if bonus_range >= fu.action_bonus {
            format!("spent on range ({bonus_range} DU)")
        } else {
            format!("{}: {}", row.label, row.notes())
        };
        lines.push(not_applied(l, why));
    }
    if input.magic_dice > 0 {
        lines.push(line(
            input.magic_dice as i32,
            "magic dice",
            "Melee Combat Dice 1 (magical bonuses)",
            Source::key(format!("magic_dice = {}", input.magic_dice)),
        ));
    }
    lines.extend(extra_line("extra_dice", input.extra_dice));
    counted(lines)
}

/// The target's dice line by line (strength, hits, extra dice: no impetus
/// or other extras) and their total.
pub(crate) fn target_lines(input: &ShootingInput) -> (Vec<PoolLine>, i32) {
    let tu = &input.target;
    let mut lines = vec![line(
        tu.strength as i32,
        format!("strength {}", tu.strength),
        "docs/rules/sword-and-spear.md 5 (the volley)",
        Source::unit(format!("{}: strength = {}", tu.name, tu.strength)),
    )];
    lines.extend(hits_line(tu, input.dice_from));
    lines.extend(extra_line("target_extra_dice", input.target_extra_dice));
    counted(lines)
}

/// The line of `dice` extra dice set by step key `key`, when not 0.
fn extra_line(key: &str, dice: i32) -> Option<PoolLine> {
    (dice != 0).then(|| {
        line(
            dice,
            "extra dice (not on the card)",
            "",
            Source::key(format!("{key} = {dice}")),
        )
    })
}

/// The lines with the dice they count (the applied lines' sum).
fn counted(lines: Vec<PoolLine>) -> (Vec<PoolLine>, i32) {
    let total = lines.iter().filter(|l| l.applied).map(|l| l.dice).sum();
    (lines, total)
}

/// The dice a unit's hits take away under `[rules] dice_from`, if it has
/// hits.
fn hits_line(u: &Unit, dice_from: DiceFrom) -> Option<PoolLine> {
    if u.hits == 0 {
        return None;
    }
    let l = line(
        -(u.hits as i32),
        format!("{} hits", u.hits),
        "docs/rules/sword-and-spear.md 3",
        Source::unit(format!("{}: {} hits", u.name, u.hits)),
    );
    Some(match dice_from {
        DiceFrom::StrengthLessHits => with_note(l, "[rules] dice_from = \"strength-less-hits\""),
        DiceFrom::FullStrength => not_applied(
            l,
            "[rules] dice_from = \"full-strength\": dice from full strength",
        ),
    })
}

/// The target's level of protection against `weapon`, term by term: its
/// armour (3 heavily armoured, 2 armoured, 1 unarmoured, 0 lacking
/// protection), the weapon's effect on armour, and cover. The sum, held to
/// 0..=3, is [`protection`]'s.
pub(crate) fn protection_terms(input: &ShootingInput, weapon: Weapon, cover: bool) -> Vec<Term> {
    let tu = &input.target;
    let row = weapon.row();
    let level = tu.armour.level() as i32;
    let mut terms = vec![Term::new(
        format!("armour: {}", tu.armour.name()),
        "Effect of Armour",
        level,
        Source::unit(format!("{}: armour = \"{}\"", tu.name, tu.armour.name())),
    )];
    let weapon_source = Source::unit(format!(
        "{}: weapon = \"{}\"",
        input.firer.name,
        weapon.name()
    ));
    match row.armour {
        ArmourEffect::Normal => {}
        ArmourEffect::OneLevelLess => {
            let t = Term::new(
                format!(
                    "{}: armoured or heavily armoured target one level less",
                    row.label
                ),
                "Shooting Weapons",
                -1,
                weapon_source,
            );
            terms.push(if level >= 2 {
                t
            } else {
                t.not_applied("the target is neither armoured nor heavily armoured")
            });
        }
        ArmourEffect::Ignored => {
            let t = Term::new(
                format!("{}: ignores all armour", row.label),
                "Shooting Weapons",
                1 - level,
                weapon_source,
            );
            terms.push(if level > 1 {
                t
            } else {
                t.not_applied("the target has no armour to ignore")
            });
        }
    }
    if cover {
        let source = match input.cover {
            Some(_) => Source::key("cover = true"),
            None => Source::unit(format!("{}: cover = true", tu.name)),
        };
        let t = Term::new(
            "in cover: better protection",
            "docs/rules/sword-and-spear.md 5 (cover)",
            input.cover_levels as i32,
            source,
        )
        .noted(format!("cover_levels = {}", input.cover_levels));
        terms.push(if row.ignores_cover {
            t.not_applied(format!("{}: ignores cover", row.label))
        } else {
            t
        });
    }
    terms
}

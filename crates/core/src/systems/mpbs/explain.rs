//! How each Musket & Pike roll is made, for `pikeshot explain`: the table,
//! the column, the modifiers the procedure recorded when it summed them
//! (with their sources), the ±4 limit of close combat, and the row each
//! face of the d10 lands on. Read from the built procedures and the card's
//! tables as data; nothing here sums a modifier again.

use super::artillery::{self, Artillery};
use super::close_combat::{self, CloseCombat, DRM_LIMIT};
use super::course::Step;
use super::leaders::{self, LeaderCasualty};
use super::light_fire::{self, LightFire};
use super::morale::MoraleCheck;
use super::musketry::{self, Musketry};
use super::orders::{self, OrderCheck};
use super::pursuit::{self, Pursuit, PursuitResult};
use super::retreat::{self, UnableToRetreat};
use crate::explain::{Explain, Face, Roll, faces_of};

/// The die of every Musket & Pike table.
pub const D10: &str = "1d10 read 0-9";

/// `true` when `roll` lies beyond the printed numbers `lo..=hi` (it reads
/// the open row at that end).
fn beyond(roll: i32, lo: i32, hi: i32) -> bool {
    roll < lo || roll > hi
}

impl Explain for CloseCombat {
    fn roll(&self) -> Roll {
        let m = self.modifiers();
        let r = Roll::new(D10, "Close Combat Table", "11.0", m.breakdown.clone())
            .limited(-DRM_LIMIT, DRM_LIMIT, "11.0, Important: ±4")
            .d10_faces(|roll| {
                let row = close_combat::result(roll).row();
                (row.band.to_string(), beyond(roll, 0, 9), row.title.to_string())
            })
            .note("after the combat both sides take a Formation Hit (11.0): Normal -> Shaken -> Broken; none in Broken, Hedgehog, Column, Open Order, or Morale Broken (6.3)");
        debug_assert_eq!(r.final_total, m.clamped);
        r
    }
}

fn fire_faces(
    rows: &[&str],
    lo: i32,
    read: impl Fn(i32) -> String,
) -> impl Fn(i32) -> (String, bool, String) {
    let rows: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
    move |roll| {
        let i = (roll.clamp(lo, lo + rows.len() as i32 - 1) - lo) as usize;
        (
            rows[i].clone(),
            beyond(roll, lo, lo + rows.len() as i32 - 1),
            read(roll),
        )
    }
}

impl Explain for Musketry {
    fn roll(&self) -> Roll {
        let (e, ra, col) = (self.edition(), self.regimental_artillery(), self.column());
        let group = if ra {
            "Heavy Infantry with Regimental Artillery"
        } else {
            "Heavy Infantry"
        };
        let r = Roll::new(
            D10,
            &format!("Heavy Infantry Musketry Tables ({} card)", e.name()),
            "10.0",
            self.modifiers().to_vec(),
        )
        .column(format!("{group}, {col}"));
        debug_assert_eq!(r.final_total, self.drm());
        r.d10_faces(fire_faces(&musketry::ROWS, 0, move |roll| {
            musketry::result(e, ra, col, roll).label()
        }))
        .note("no limit on the DRM: a roll of 0 or less reads the ≤ 0 row, 9 or more the 9+ row")
    }
}

impl Explain for LightFire {
    fn roll(&self) -> Roll {
        let col = self.column();
        let r = Roll::new(
            D10,
            "Light Infantry and Cavalry Fire Table",
            "10.0",
            self.modifiers().to_vec(),
        )
        .column(col.title());
        debug_assert_eq!(r.final_total, self.drm());
        r.d10_faces(fire_faces(
            &light_fire::ROWS,
            6,
            move |roll| match light_fire::result(col, roll) {
                0 => "miss".to_string(),
                1 => "1 hit".to_string(),
                n => format!("{n} hits"),
            },
        ))
    }
}

impl Explain for Artillery {
    fn roll(&self) -> Roll {
        let (e, gun) = (self.edition(), self.gun());
        let t = artillery::table(e);
        let header = t
            .guns
            .iter()
            .position(|&g| g == gun)
            .map_or_else(|| gun.to_string(), |c| t.headers[c].to_string());
        let r = Roll::new(
            D10,
            &format!("Artillery Fire Table ({} card)", e.name()),
            "10.8",
            self.modifiers().to_vec(),
        )
        .column(header);
        debug_assert_eq!(r.final_total, self.drm());
        r.d10_faces(fire_faces(&artillery::ROWS, 3, move |roll| {
            artillery::result(e, gun, roll).map_or_else(|| "NA".into(), |x| x.label())
        }))
    }
}

impl Explain for MoraleCheck {
    fn roll(&self) -> Roll {
        let rating = self.rating() as i32;
        Roll::new(
            D10,
            "Morale Check (reading: the cards print no table)",
            "10.6",
            self.modifiers().to_vec(),
        )
        .column(format!("morale {rating}"))
        .d10_faces(|roll| {
            if roll <= rating {
                (format!("≤ {rating}"), false, "pass".into())
            } else {
                (format!("> {rating}"), false, "fail".into())
            }
        })
        .note("d10 + DRM ≤ the unit's printed morale passes; a failure costs one morale level (docs/rules/mpbs.md, Morale check)")
    }
}

impl Explain for Pursuit {
    fn roll(&self) -> Roll {
        let col = self.column();
        let m = self.modifiers();
        let lo = col.bands[0].hi as i32;
        let hi = col.bands[2].lo as i32;
        Roll::new(D10, "Cavalry Pursuit Table", "11.7.2", m.breakdown.clone())
            .column(col.label)
            .d10_faces(|roll| {
                let res = pursuit::pursuit_result(col, roll);
                let band = col.bands[PursuitResult::ALL
                    .iter()
                    .position(|&x| x == res)
                    .expect("every result has a band")];
                (
                    band.to_string(),
                    beyond(roll, lo, hi),
                    res.title().to_string(),
                )
            })
    }
}

impl Explain for UnableToRetreat {
    fn roll(&self) -> Roll {
        let m = self.modifiers();
        Roll::new(
            D10,
            "Unable to Retreat Table (Morale Broken)",
            "11.4.5",
            m.breakdown.clone(),
        )
        .d10_faces(|roll| {
            let res = retreat::unable_to_retreat_result(roll);
            let band = retreat::UNABLE_TO_RETREAT
                .iter()
                .find(|(r, _)| *r == res)
                .map(|(_, b)| *b)
                .expect("every result has a band");
            let title = match res {
                retreat::RetreatResult::Eliminated => "Eliminated",
                retreat::RetreatResult::Stands => "Stands: return it to Morale Shaken",
            };
            (band.to_string(), false, title.to_string())
        })
    }
}

impl Explain for LeaderCasualty {
    fn roll(&self) -> Roll {
        let c = self.casualty_modifiers();
        let rep = self.replacement_modifiers();
        let mut terms = c.breakdown.clone();
        for t in &rep.breakdown {
            let mut t = t.clone();
            t.label = format!("{} (Leader Replacement roll, 5.3.3)", t.label);
            t.applied = false;
            t.note = Some("added to the second roll, not this one".into());
            terms.push(t);
        }
        let mut r = Roll::new(
            "1d10 read 0-9; on a removal a second d10",
            "Leader Casualty Table, then Leader Replacement Table",
            "5.3",
            terms,
        )
        .d10_faces(|roll| {
            let res = leaders::casualty_result(roll);
            let (band, _, title) = leaders::LEADER_CASUALTY
                .iter()
                .find(|(_, r, _)| *r == res)
                .expect("every result has a row");
            (band.to_string(), false, (*title).to_string())
        });
        let second: Vec<Face> = faces_of(0..=9, rep.total, |roll| {
            let res = leaders::replacement_result(roll);
            let (band, _, title) = leaders::LEADER_REPLACEMENT
                .iter()
                .find(|(_, r, _)| *r == res)
                .expect("every result has a row");
            (format!("5.3.3 {band}"), false, (*title).to_string())
        });
        r.faces.extend(second);
        r.note(format!(
            "the second die (5.3.3) is rolled only when the first removes the leader; its DRM is {:+}",
            rep.total
        ))
    }
}

fn order_roll(check: &OrderCheck, table: &str, rule: &str) -> Roll {
    let n = check.number() as i32;
    let r = Roll::new(D10, table, rule, check.modifiers().to_vec())
        .column(format!("success on 0-{n}"))
        .d10_faces(|roll| {
            if orders::succeeds(n as u8, roll) {
                (format!("≤ {n}"), false, "success".into())
            } else {
                (format!("> {n}"), false, "failure".into())
            }
        });
    debug_assert_eq!(r.final_total, check.drm());
    r
}

/// `Explain` for each orders roll: its check on its table (and rule).
macro_rules! explain_orders {
    ($($t:ident: $table:literal, $rule:literal;)+) => {
        $(
            impl Explain for orders::$t {
                fn roll(&self) -> Roll {
                    order_roll(self.check(), $table, $rule)
                }
            }
        )+
    };
}

explain_orders! {
    Continuation: "Continuation Table", "4.3";
    Preemption: "Preemption Table", "4.4";
    OrdersChange: "Orders Change Table", "5.7";
    Interception: "Interception Table (cavalry only)", "9.3";
}

impl Explain for Step {
    fn roll(&self) -> Roll {
        match self {
            Step::CloseCombat(p) => p.roll(),
            Step::Musketry(p) => p.roll(),
            Step::LightFire(p) => p.roll(),
            Step::Artillery(p) => p.roll(),
            Step::MoraleCheck(p) => p.roll(),
            Step::Pursuit(p) => p.roll(),
            Step::UnableToRetreat(p) => p.roll(),
            Step::LeaderCasualty(p) => p.roll(),
            Step::Continuation(p) => p.roll(),
            Step::Preemption(p) => p.roll(),
            Step::OrdersChange(p) => p.roll(),
            Step::Interception(p) => p.roll(),
        }
    }
}

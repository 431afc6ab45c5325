//! The Snaphance morale test as explained: adjusted morale line by line
//! (8.0), the hits just taken, each d6 face read as a pass or the SP lost
//! within the loss caps (1 always passes, 6 always fails).

use super::super::morale::{MORALE, MoraleCheck, MoraleTest, MoraleWhy, hits_term};
use crate::explain::{FollowUp, Roll, faces_of};

const TABLE: &str = "Morale Test/SP losses: d6 equal or less than the adjusted morale passes";

/// The roll after `hits` hits: each face's result.
fn roll(check: &MoraleCheck, why: &MoraleWhy, cap: u8, hits: u32, from: &str) -> Roll {
    let mut terms = why.terms.clone();
    terms.push(hits_term(hits, from));
    let m = check.adjusted(hits);
    let mut r = Roll::new(
        &format!("1d6, {} morale test", why.name),
        TABLE,
        "8.0",
        terms,
    )
    .column(format!("adjusted morale {m}"));
    r.faces = faces_of(1..=6, 0, |f| {
        let lost = check.loss(hits, f as u8, cap);
        let row = if f == MORALE.always_pass as i32 {
            "1 always passes".to_string()
        } else if f == MORALE.always_fail as i32 {
            "6 always fails".to_string()
        } else if f <= m {
            format!("≤ {m}")
        } else {
            format!("> {m}")
        };
        let what = match lost {
            0 => "pass".to_string(),
            l if l >= check.remaining => format!("fail: loses {l} SP, destroyed"),
            l => format!("fail: loses {l} SP"),
        };
        (row, false, what)
    });
    r.notes.push(format!(
        "loss cap {cap} SP: {} ([rules] sp_loss = {})",
        why.caps.join("; "),
        check.sp_loss
    ));
    r
}

/// One follow-up per number of hits `1..=most` (those past the point where
/// only a 1 passes read as the last), for the stand `why` hit by `from`.
pub fn by_hits(
    check: &MoraleCheck,
    why: &MoraleWhy,
    cap: u8,
    most: u32,
    from: &str,
) -> Vec<FollowUp> {
    let mut out = Vec::new();
    for h in 1..=most {
        let last = h == most || check.adjusted(h) < MORALE.always_pass as i32;
        let hits = if h == 1 { "hit" } else { "hits" };
        let when = if last && h < most {
            format!("on {h} or more hits {from}: {} morale test", why.name)
        } else {
            format!("on {h} {hits} {from}: {} morale test", why.name)
        };
        out.push(FollowUp {
            when,
            roll: roll(check, why, cap, h, from),
        });
        if last {
            break;
        }
    }
    out
}

/// The adjusted morale before the hits, with no faces (the hits and the
/// cap depend on the melee's result).
pub fn adjusted_roll(why: &MoraleWhy, from: &str) -> Roll {
    let mut r = Roll::new(
        &format!("1d6, {} morale test", why.name),
        TABLE,
        "8.0",
        why.terms.clone(),
    );
    r.notes.push(format!(
        "then -1 for each hit {from} just taken; 1 always passes, 6 always fails; caps: {}",
        why.caps.join("; ")
    ));
    r
}

/// `morale-test`.
pub fn test(p: &MoraleTest) -> Roll {
    let (cap, _) = p.cap();
    roll(p.check(), p.why(), cap, p.hits(), "as the step's hits say")
}

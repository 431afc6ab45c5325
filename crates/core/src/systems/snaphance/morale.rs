//! Morale Test/SP losses [8.0]: a stand hit by shooting or in melee rolls
//! one d6 and passes on a roll equal to or below its adjusted morale (a 1
//! always passes, a 6 always fails); a failure costs SP (docs/rules/snaphance.md section 2, `sp_loss`:
//! the roll minus the adjusted morale, at least 1, or one SP a failure), up
//! to the sheet's loss caps. Also the procedure `morale-test`, one test on
//! its own.

use super::Kind;
use super::one_die::{OneDie, OneDieTest};
use super::readings::{Readings, SpLoss};
use super::unit::{Stand, find, finish};
use crate::error::InputError;
use crate::explain::{Source, Term, sum};
use crate::outcome::{Measure, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::chart::headers;
use crate::systems::named::named_enum;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

/// The adjusted morale and the automatic results (Morale Test [8.0]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoraleRow {
    /// Commander attached.
    pub commander: i8,
    /// Disordered.
    pub disordered: i8,
    /// Each SP already lost.
    pub per_sp_lost: i8,
    /// Each hit just taken.
    pub per_hit: i8,
    /// A roll that always passes.
    pub always_pass: u8,
    /// A roll that always fails.
    pub always_fail: u8,
}

/// Morale Test [8.0]: commencing SP +1 commander −1 disordered −1 per SP
/// already lost −1 per hit just taken; always pass on 1, fail on 6.
pub const MORALE: MoraleRow = MoraleRow {
    commander: 1,
    disordered: -1,
    per_sp_lost: -1,
    per_hit: -1,
    always_pass: 1,
    always_fail: 6,
};

/// The loss caps of Morale Test/SP losses [8.0].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LossCaps {
    /// Max loss in melee if it loses.
    pub melee_lost: u8,
    /// Max loss in melee on a win or a draw.
    pub melee_won_or_drawn: u8,
    /// Max loss from firing.
    pub fire: u8,
    /// Max loss from point-blank artillery.
    pub point_blank_artillery: u8,
    /// All stands against skirmisher infantry and LC.
    pub vs_skirmishers_or_lc: u8,
    /// Cavalry against infantry.
    pub cavalry_vs_infantry: u8,
    /// Light cavalry, always.
    pub light_cavalry: u8,
}

/// Max loss 2SP in melee if lose, 1SP if win or draw; 1SP from firing
/// (point-blank artillery 2SP); 1SP vs Sk inf. and LC; cav vs inf 1SP; LC 1SP.
pub const CAPS: LossCaps = LossCaps {
    melee_lost: 2,
    melee_won_or_drawn: 1,
    fire: 1,
    point_blank_artillery: 2,
    vs_skirmishers_or_lc: 1,
    cavalry_vs_infantry: 1,
    light_cavalry: 1,
};

named_enum! {
    /// What a morale test follows, for its loss cap.
    After {
        /// Hits from firing.
        Fire = "fire",
        /// Hits from point-blank artillery.
        PointBlank = "point-blank",
        /// A melee the stand won.
        MeleeWon = "melee-won",
        /// A drawn melee.
        MeleeDraw = "melee-draw",
        /// A melee the stand lost.
        MeleeLost = "melee-lost",
    }
}

/// The loss cap for `stand` after `after`, fighting or fired on by
/// `opponent` (when known), and the cap lines that set it.
pub fn loss_cap(after: After, stand: &Stand, opponent: Option<&Stand>) -> (u8, Vec<&'static str>) {
    let (mut cap, line) = match after {
        After::Fire => (CAPS.fire, "max 1SP from firing"),
        After::PointBlank => (CAPS.point_blank_artillery, "PB art can cause 2SP"),
        After::MeleeWon | After::MeleeDraw => {
            (CAPS.melee_won_or_drawn, "max 1SP in melee on a win or draw")
        }
        After::MeleeLost => (CAPS.melee_lost, "max 2SP in melee if lose"),
    };
    let mut lines = vec![line];
    let mut limit = |c: u8, l: &'static str, on: bool| {
        if on && c < cap {
            cap = c;
            lines.push(l);
        }
    };
    if let Some(o) = opponent {
        limit(
            CAPS.vs_skirmishers_or_lc,
            "all stands max 1SP vs Sk inf. & LC",
            matches!(o.kind, Kind::Skirmishers | Kind::LightCavalry),
        );
        limit(
            CAPS.cavalry_vs_infantry,
            "cav vs inf max loss cav 1SP",
            stand.kind.mounted() && o.kind.infantry(),
        );
    }
    limit(
        CAPS.light_cavalry,
        "LC max loss 1SP",
        stand.kind == Kind::LightCavalry,
    );
    (cap, lines)
}

/// True when `roll` passes against adjusted morale `morale`.
#[inline]
pub fn passes(roll: u8, morale: i32) -> bool {
    roll == MORALE.always_pass || (roll != MORALE.always_fail && roll as i32 <= morale)
}

/// The rule of the morale test's lines.
pub const MORALE_RULE: &str = "8.0";

/// The adjusted morale of `stand` before the hits, line by line, each with
/// its source (`disordered`: as the test sees it; `extra` from step key
/// `extra_key`). [`MoraleCheck::new`] sums these.
pub fn terms(stand: &Stand, disordered: bool, extra: i8, extra_key: &str) -> Vec<Term> {
    let n = &stand.name;
    let mut t = vec![Term::new(
        "commencing strength points",
        MORALE_RULE,
        stand.strength as i32,
        Source::unit(format!("{n}: strength = {}", stand.strength)),
    )];
    if stand.leader {
        t.push(Term::new(
            "commander attached",
            MORALE_RULE,
            MORALE.commander as i32,
            Source::unit(format!("{n}: leader = true")),
        ));
    }
    if disordered {
        t.push(Term::new(
            "disordered",
            MORALE_RULE,
            MORALE.disordered as i32,
            Source::unit(disorder_why(stand)),
        ));
    }
    if stand.sp_lost > 0 {
        t.push(Term::new(
            format!("each SP already lost ({})", stand.sp_lost),
            MORALE_RULE,
            MORALE.per_sp_lost as i32 * stand.sp_lost as i32,
            Source::unit(format!("{n}: sp_lost = {}", stand.sp_lost)),
        ));
    }
    if extra != 0 {
        t.push(Term::new(
            "further morale modifier",
            "",
            extra as i32,
            Source::key(format!("{extra_key} = {extra}")),
        ));
    }
    t
}

/// Why `stand` counts as disordered: its `disordered` key, the terrain it
/// cannot recover in, or (neither) this melee's disorder.
pub fn disorder_why(stand: &Stand) -> String {
    let n = &stand.name;
    if stand.disordered {
        format!("{n}: disordered = true")
    } else if stand.forced_disorder() {
        format!("{n} is in {} and cannot recover there", stand.terrain)
    } else {
        format!("{n} disorders in this melee")
    }
}

/// The line "-1 each hit just taken" for `hits` hits, `from` saying whose.
pub fn hits_term(hits: u32, from: &str) -> Term {
    Term::new(
        format!("each hit just taken ({hits})"),
        MORALE_RULE,
        MORALE.per_hit as i32 * hits as i32,
        Source::unit(format!("{hits} hit(s) {from}")),
    )
}

/// What a stand's morale test records for `pikeshot explain`: whose, its
/// adjusted morale line by line ([`terms`]), and the loss-cap lines that
/// set its cap.
#[derive(Clone, Debug, Default)]
pub struct MoraleWhy {
    /// The stand's name.
    pub name: String,
    /// Its adjusted morale before the hits, line by line.
    pub terms: Vec<Term>,
    /// The cap lines ([`loss_cap`]).
    pub caps: Vec<&'static str>,
}

/// One stand's morale test, built once: its adjusted morale before hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoraleCheck {
    /// Adjusted morale before the hits just taken.
    pub base: i32,
    /// SP the stand has left.
    pub remaining: u8,
    /// The SP-loss reading.
    pub sp_loss: SpLoss,
}

impl MoraleCheck {
    /// The test of `stand`, disordered or not (terrain or the fight may
    /// disorder it), with `extra` added to its morale.
    pub fn new(stand: &Stand, disordered: bool, extra: i8, sp_loss: SpLoss) -> MoraleCheck {
        MoraleCheck {
            base: sum(&terms(stand, disordered, extra, "extra_morale")),
            remaining: stand.sp(),
            sp_loss,
        }
    }
    /// Adjusted morale after `hits` hits.
    #[inline]
    pub fn adjusted(&self, hits: u32) -> i32 {
        self.base + MORALE.per_hit as i32 * hits as i32
    }
    /// SP lost before caps for `hits` hits and a morale roll: 0 on a pass.
    pub fn raw_loss(&self, hits: u32, roll: u8) -> u32 {
        let m = self.adjusted(hits);
        if hits == 0 || passes(roll, m) {
            return 0;
        }
        match self.sp_loss {
            SpLoss::One => 1,
            SpLoss::Difference => (roll as i32 - m).max(1) as u32,
        }
    }
    /// SP lost for `hits` hits and a morale roll, within `cap` and what the
    /// stand has left.
    pub fn loss(&self, hits: u32, roll: u8, cap: u8) -> u8 {
        self.raw_loss(hits, roll)
            .min(cap as u32)
            .min(self.remaining as u32) as u8
    }
}

/// Outcome labels of a morale test.
pub const OUTCOMES: [&str; 3] = ["passed", "SP lost", "destroyed"];

/// `hits`, declared once: its doc and its reader.
pub(crate) const HITS: Key<i64> = Key::int("hits", 1, 40, "hits just taken");

/// `after`, declared once: its doc and its reader.
pub(crate) const AFTER: Key<After> =
    Key::one_of("after", "morale test context", "the loss cap").or("fire");

/// `extra_morale`, declared once: its doc and its reader.
pub(crate) const EXTRA_MORALE: Key<i64> =
    Key::int("extra_morale", -6, 6, "added to the adjusted morale").or("0");

/// What `pikeshot list` shows of `morale-test`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "morale-test",
    rule: "8.0",
    summary: "Morale Test/SP losses: one d6 ≤ adjusted morale passes; a failure loses SP within the caps",
    keys: &[
        KeyDoc::unit("unit", "the stand that was hit"),
        HITS.doc(),
        AFTER.doc(),
        KeyDoc::unit(
            "opponent",
            "the stand that fired or fought (Sk/LC and cav vs inf caps; optional)",
        ),
        EXTRA_MORALE.doc(),
    ],
    outcomes: &OUTCOMES,
    measures: &["sp-lost"],
};

/// One morale test on its own (`morale-test`).
pub type MoraleTest = OneDieTest<MoraleFacts>;

/// What a [`MoraleTest`] keeps beside its die.
#[derive(Clone, Debug)]
pub struct MoraleFacts {
    check: MoraleCheck,
    hits: u32,
    cap: u8,
    caps: Vec<&'static str>,
    why: Box<MoraleWhy>,
}

impl MoraleTest {
    /// The test of `stand` after `hits` hits, `after` what, against
    /// `opponent`.
    pub fn new(
        stand: &Stand,
        hits: u32,
        after: After,
        opponent: Option<&Stand>,
        extra_morale: i8,
        readings: &Readings,
    ) -> MoraleTest {
        let check = MoraleCheck::new(stand, stand.is_disordered(), extra_morale, readings.sp_loss);
        let (cap, caps) = loss_cap(after, stand, opponent);
        let space = OutcomeSpace::from_labels(
            &OUTCOMES,
            vec![Measure::new("sp-lost", 0, cap as i32).labelled("SP lost")],
        );
        let faces = OneDie::new(|face| {
            let lost = check.loss(hits, face, cap);
            let o = if lost == 0 {
                0
            } else if lost >= check.remaining {
                2
            } else {
                1
            };
            space.leaf(o, &[lost as i32])
        });
        let why = Box::new(MoraleWhy {
            name: stand.name.clone(),
            terms: terms(stand, stand.is_disordered(), extra_morale, "extra_morale"),
            caps: caps.clone(),
        });
        let facts = MoraleFacts {
            why,
            check,
            hits,
            cap,
            caps,
        };
        OneDieTest::from_faces(space, faces, true, facts)
    }

    /// Reads a scenario step (see [`INFO`]).
    pub fn from_step(
        f: &mut Fields,
        units: &[Stand],
        readings: &Readings,
    ) -> Result<MoraleTest, InputError> {
        f.has("procedure");
        let stand = find(f, "unit", units)?;
        let hits = HITS.require(f)? as u32;
        let after = AFTER.read(f)?.unwrap_or(After::Fire);
        let opponent = if f.has("opponent") {
            let o = find(f, "opponent", units)?;
            if o.name == stand.name {
                return Err(f.err("opponent", "a stand is not its own opponent"));
            }
            Some(o)
        } else {
            None
        };
        let extra = EXTRA_MORALE.read(f)?.unwrap_or(0) as i8;
        finish(f)?;
        Ok(MoraleTest::new(
            stand, hits, after, opponent, extra, readings,
        ))
    }

    /// The stand's morale lines, for `pikeshot explain`.
    pub fn why(&self) -> &MoraleWhy {
        &self.kind.why
    }
    /// The hits just taken.
    pub fn hits(&self) -> u32 {
        self.kind.hits
    }
    /// The test.
    pub fn check(&self) -> &MoraleCheck {
        &self.kind.check
    }
    /// The adjusted morale the roll is held to.
    pub fn adjusted(&self) -> i32 {
        self.kind.check.adjusted(self.kind.hits)
    }
    /// The loss cap and the lines that set it.
    pub fn cap(&self) -> (u8, &[&'static str]) {
        (self.kind.cap, &self.kind.caps)
    }
}

/// The morale chart.
pub fn charts() -> Vec<Chart> {
    let m = MORALE;
    let row = |a: &str, b: String| vec![a.to_string(), b];
    vec![Chart {
        id: "morale",
        title: "Morale Test/SP losses".into(),
        rule: "8.0",
        headers: headers(&["Adjusted morale / loss cap", "Value"]),
        rows: [
            row("Commencing strength points", "SP".into()),
            row("Commander attached", format!("{:+}", m.commander)),
            row("Disordered", format!("{:+}", m.disordered)),
            row("Each SP already lost", format!("{:+}", m.per_sp_lost)),
            row("Each hit just taken", format!("{:+}", m.per_hit)),
            row("Always pass on", m.always_pass.to_string()),
            row("Always fail on", m.always_fail.to_string()),
        ]
        .into_iter()
        .chain(
            [
                ("Max loss in melee if lose", CAPS.melee_lost),
                ("Max loss in melee if win or draw", CAPS.melee_won_or_drawn),
                ("Max loss from firing", CAPS.fire),
                ("Max loss from PB art", CAPS.point_blank_artillery),
                ("All stands vs Sk inf. & LC", CAPS.vs_skirmishers_or_lc),
                ("Cav vs inf: cav", CAPS.cavalry_vs_infantry),
                ("LC", CAPS.light_cavalry),
            ]
            .map(|(label, cap)| row(label, format!("{cap}SP"))),
        )
        .collect(),
        notes: vec![
            "Test if hit by shooting or in melee: roll ≤ adjusted morale passes".into(),
            "A failure loses the roll minus the adjusted morale, at least 1 (ASSUMPTION 4(b); \
             readings.sp_loss = \"one\": 1 SP), then the caps"
                .into(),
        ],
    }]
}

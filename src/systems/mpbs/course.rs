//! Musket & Pike courses of action: every procedure behind one enum, and
//! courses (and engagements repeated turn after turn) compiled into a chain
//! over unit states.
//!
//! What a course carries from one roll to the next (docs/rules/mpbs.md,
//! "Courses and engagements"): casualty points from hits, formation hits,
//! morale levels, Salvo markers and leaders; the morale checks a fire result
//! triggers (10.6); after a close combat the leader casualty rolls (5.3), the
//! Unable to Retreat roll (11.4.5) and the cavalry pursuit (11.7.2). Each of
//! these is its own roll in the chain, so the exact answer follows every
//! branch.

use super::close_combat::{self, CcResult, CloseCombat, Side};
use super::morale::{self, MoraleCheck};
use super::pursuit::{DefendingLeader, Pursuit, PursuitInput, PursuitKeys};
use super::retreat::UnableToRetreat;
use super::threshold::casualty_threshold;
use super::{Edition, Formation, MoraleState, Unit};
use super::{artillery, leaders, light_fire, musketry, orders, pursuit, retreat};
use crate::dice::Dice;
use crate::engine::chain::{Action, Chain, Machine};
use crate::engine::{Kernel, KernelMode, prepare};
use crate::error::InputError;
use crate::outcome::keys::{
    ENEMY_MORALE, FORMATION_HITS_INFLICTED as FH_INFLICTED, FORMATION_HITS_TAKEN as FH_TAKEN,
    HITS_INFLICTED, HITS_TAKEN, OWN_MORALE, TURNS,
};
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::ProcedureInfo;

macro_rules! steps {
    ($($var:ident($ty:ty, $info:expr)),+ $(,)?) => {
        /// Any Musket & Pike procedure, as one roll of a course.
        #[derive(Debug)]
        pub enum Step {
            $(
                #[doc = concat!("See [`", stringify!($ty), "`].")]
                $var($ty)
            ),+
        }

        impl Procedure for Step {
            fn space(&self) -> &OutcomeSpace {
                match self { $(Step::$var(p) => p.space()),+ }
            }
            #[inline]
            fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
                match self { $(Step::$var(p) => p.resolve(dice)),+ }
            }
        }

        /// Every procedure a scenario step can name, with what `list` says of it.
        pub const PROCEDURES: &[ProcedureInfo] = &[$($info),+];

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

/// The switches of the readings a course applies between rolls: the
/// scenario's `[rules]` table (docs/rules/mpbs.md, "Courses and
/// engagements"). Every default is the reading section 0 of that page
/// defends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CourseRules {
    /// 10.6.2: a morale check when fire inflicts at least one hit.
    pub morale_check_on_hits: bool,
    /// 10.6.3: a morale check for the target of Salvo fire.
    pub morale_check_on_salvo: bool,
    /// 10.6.4: a morale check when casualty points first reach the
    /// Casualty Threshold (12.5).
    pub morale_check_on_threshold: bool,
    /// 10.6.5: a morale check for an MC result on a fire table.
    pub morale_check_on_table: bool,
    /// 10.6.6: a morale check for a formation hit on a unit already
    /// Formation Broken.
    pub morale_check_on_broken_formation_hit: bool,
    /// 10.6.2–10.6.4 triggered by one fire give one check together (true)
    /// or one check each (false).
    pub morale_checks_combined: bool,
    /// DRM added to every morale check roll.
    pub morale_check_drm: i32,
    /// Roll Cavalry Pursuit (11.7.2) after a result that calls for it when
    /// the winner is cavalry.
    pub pursuit: bool,
    /// The keys of that pursuit (`[rules.pursuit]`, the `pursuit` step's
    /// keys besides `pursuer`).
    pub pursuit_keys: PursuitKeys,
    /// How the leadership modifier of a defending leader reads on the
    /// pursuit roll (`[rules.pursuit] defending_leader`).
    pub defending_leader: DefendingLeader,
    /// Interception (9.3) on the SFO card: "Original Morale of 6" read as
    /// exactly 6 (`sfo_interception_morale_6 = "exactly-6"`) instead of
    /// "6 or less" (default).
    pub sfo_interception_six_exactly: bool,
    /// Roll Leader Casualty (5.3) for each side whose leader DRM was used.
    pub leader_casualty: bool,
    /// A unit whose casualty points reach its strength is eliminated.
    pub eliminate_at_strength: bool,
}

impl Default for CourseRules {
    fn default() -> CourseRules {
        CourseRules {
            morale_check_on_hits: true,
            morale_check_on_salvo: true,
            morale_check_on_threshold: true,
            morale_check_on_table: true,
            morale_check_on_broken_formation_hit: true,
            morale_checks_combined: true,
            morale_check_drm: 0,
            pursuit: true,
            pursuit_keys: PursuitKeys::default(),
            defending_leader: DefendingLeader::Plus,
            sfo_interception_six_exactly: false,
            leader_casualty: true,
            eliminate_at_strength: true,
        }
    }
}

impl CourseRules {
    /// Reads `[rules]`; absent keys keep their defaults. `pursuit` is
    /// `true`, `false`, or a table of the `pursuit` step's keys (besides
    /// `pursuer`) plus `defending_leader`.
    pub fn from_fields(f: &mut Fields, edition: Edition) -> Result<CourseRules, InputError> {
        let d = CourseRules::default();
        let (mut pursuit_keys, mut defending_leader) = (d.pursuit_keys, d.defending_leader);
        let pursuit_table = match f.bool("pursuit") {
            Ok(_) => false,
            Err(_) => {
                let mut pf = f.table("pursuit").map_err(|e| {
                    e.accepted("true, false, or a table of the pursuit step's keys: { column, charge_order, momentum_used, cromwell, leader, extra_drm, defending_leader }")
                })?.expect("the key is present");
                pursuit_keys = PursuitKeys::read(&mut pf, edition)?;
                if let Some(v) = pf.named(
                    "defending_leader",
                    "defending leader reading",
                    DefendingLeader::from_name,
                    &DefendingLeader::names(),
                )? {
                    defending_leader = v;
                }
                pf.finish()?;
                true
            }
        };
        let six = f
            .named(
                "sfo_interception_morale_6",
                "reading of the SFO Interception \"Original Morale of 6\"",
                |s| match s {
                    "6-or-less" => Some(false),
                    "exactly-6" => Some(true),
                    _ => None,
                },
                &["6-or-less", "exactly-6"],
            )?
            .unwrap_or(false);
        let mut flag = |k: &'static str, dflt: bool| f.bool(k).map(|v| v.unwrap_or(dflt));
        let r = CourseRules {
            morale_check_on_hits: flag("morale_check_on_hits", d.morale_check_on_hits)?,
            morale_check_on_salvo: flag("morale_check_on_salvo", d.morale_check_on_salvo)?,
            morale_check_on_threshold: flag(
                "morale_check_on_threshold",
                d.morale_check_on_threshold,
            )?,
            morale_check_on_table: flag("morale_check_on_table", d.morale_check_on_table)?,
            morale_check_on_broken_formation_hit: flag(
                "morale_check_on_broken_formation_hit",
                d.morale_check_on_broken_formation_hit,
            )?,
            morale_checks_combined: flag("morale_checks_combined", d.morale_checks_combined)?,
            pursuit: pursuit_table || flag("pursuit", d.pursuit)?,
            leader_casualty: flag("leader_casualty", d.leader_casualty)?,
            eliminate_at_strength: flag("eliminate_at_strength", d.eliminate_at_strength)?,
            morale_check_drm: 0,
            pursuit_keys,
            defending_leader,
            sfo_interception_six_exactly: six,
        };
        let drm = f.int("morale_check_drm", -9, 9)?.unwrap_or(0) as i32;
        f.finish()?;
        Ok(CourseRules {
            morale_check_drm: drm,
            ..r
        })
    }
}

/// The state of one unit between rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitState {
    /// Casualty points.
    pub casualty_points: u8,
    /// Formation.
    pub formation: Formation,
    /// Morale level.
    pub morale: MoraleState,
    /// Salvo marker.
    pub salvo_marker: bool,
    /// Where the unit's leader is.
    pub leader: LeaderState,
    /// The unit pursued off the map (11.7.2): it has left the fight, neither
    /// broken nor eliminated.
    pub off_map: bool,
    /// The Casualty Threshold check (10.6.4) has been taken.
    pub threshold_reached: bool,
}

impl UnitState {
    fn of(u: &Unit) -> UnitState {
        UnitState {
            casualty_points: u.casualty_points,
            formation: u.formation,
            morale: u.morale_state,
            salvo_marker: u.salvo_marker,
            leader: if u.leader.is_some() {
                LeaderState::With
            } else {
                LeaderState::Lost
            },
            off_map: false,
            threshold_reached: casualty_threshold(u.morale, u.strength)
                .is_some_and(|t| u.casualty_points >= t),
        }
    }
    /// One morale level down, as a failed check (docs/rules/mpbs.md, Morale levels and Morale check).
    fn lose_morale(&mut self) {
        self.morale = close_combat::morale_after(self.morale, close_combat::MoraleLoss::Shaken);
    }
    fn gone(&self) -> bool {
        self.morale == MoraleState::Eliminated
    }
    /// Eliminated or off the map: no further roll concerns it.
    fn out(&self) -> bool {
        self.gone() || self.off_map
    }
    /// Morale Broken: the unit has no formation (chart 6.3), so formation
    /// hits do nothing and no formation modifier applies
    /// (docs/rules/mpbs.md, "Morale Broken means no formation").
    fn no_formation(&self) -> bool {
        self.morale == MoraleState::Broken
    }
}

/// Where a unit's leader is (Leader Casualty 5.3 and Replacement 5.3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeaderState {
    /// With the unit (also after "0 Return original Leader Immediately").
    With,
    /// Replaced for now; the original returns at the end of this turn
    /// (0-based) of the engagement ("1 ... returns at end of next turn").
    BackAfterTurn(u8),
    /// No leader, or the leader was eliminated or replaced for good.
    Lost,
}

/// A roll some result triggers, taken before the course goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Sub {
    /// A morale check (10.6) of a unit.
    Morale(u8),
    /// Cavalry pursuit (11.7.2): pursuer, beaten unit, momentum used, and
    /// the leader used in the close combat (its unit and the pursuit
    /// modifier it gives).
    Pursuit(u8, u8, bool, Option<(u8, i8)>),
    /// Unable to Retreat (11.4.5) of a Morale Broken unit.
    UnableToRetreat(u8),
    /// Leader Casualty (5.3) of the leader with a unit.
    LeaderCasualty(u8),
}

/// The state of a course between rolls.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CourseState {
    units: Vec<UnitState>,
    /// Turn (0-based) of an engagement.
    turn: u8,
    /// Next step of the turn.
    pc: u8,
    /// Triggered rolls still to take, first first.
    pending: Vec<Sub>,
    /// Category of the last step resolved.
    last: u8,
    /// The category the course ended in, once it has.
    ended: Option<u8>,
}

/// One step of a course: its reader (to rebuild it for each state) and the
/// units it names.
pub struct StepSpec<'a> {
    /// Procedure name.
    pub procedure: String,
    /// Reader over the step's keys.
    pub fields: Fields<'a>,
    /// The acting unit (firer, lead attacker, pursuer), as an index into the units.
    pub actor: Option<usize>,
    /// The unit acted upon (target, defender).
    pub target: Option<usize>,
}

/// Why an engagement stops, in the order the scenario lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The enemy is Morale Broken or eliminated.
    EnemyBroken,
    /// The enemy's casualty points reach its Casualty Threshold (12.5).
    EnemyThreshold,
    /// Our unit is Morale Broken or eliminated.
    OwnBroken,
}

impl Stop {
    /// Name in `until = [...]` and the outcome label.
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            Stop::EnemyBroken => ("enemy-broken", "enemy-broken-or-eliminated"),
            Stop::EnemyThreshold => ("enemy-threshold", "enemy-casualty-threshold"),
            Stop::OwnBroken => ("own-broken", "own-broken-or-eliminated"),
        }
    }
    /// Every stop condition.
    pub const ALL: [Stop; 3] = [Stop::EnemyBroken, Stop::EnemyThreshold, Stop::OwnBroken];
}

/// An engagement: the course's steps repeated each turn until a stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// At most this many turns.
    pub turns: u8,
    /// Stop conditions, checked after every roll in this order.
    pub until: Vec<Stop>,
}

/// Outcome of a course that ended because a unit a later step needs was
/// eliminated.
pub const ENDED_EARLY: &str = "ended-early-unit-eliminated";
/// Outcome of a course that ended because a unit a later step needs has
/// pursued off the map (11.7.2): neither broken nor eliminated.
pub const PURSUED_OFF_MAP: &str = "pursued-off-map";
/// Measure: 1 when the course's own unit pursued off the map.
pub const OWN_PURSUED_OFF_MAP: &str = "own-pursued-off-map";
/// Outcome of an engagement that ran all its turns.
pub const TURN_LIMIT: &str = "turn-limit";

/// The outcomes a course adds for ending before its last step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EarlyEnds {
    /// [`ENDED_EARLY`]: a unit a later step needs was eliminated.
    pub eliminated: bool,
    /// [`PURSUED_OFF_MAP`]: a unit a later step needs pursued off the map.
    pub off_map: bool,
}

/// A Musket & Pike course as a state machine.
pub struct Course<'a> {
    edition: Edition,
    units: Vec<Unit>,
    steps: Vec<StepSpec<'a>>,
    rules: CourseRules,
    repeat: Option<Repeat>,
    own: Option<usize>,
    enemy: Option<usize>,
    space: OutcomeSpace,
    early: EarlyEnds,
    /// Outcome indices of [`ENDED_EARLY`] and [`PURSUED_OFF_MAP`].
    early_index: [Option<u8>; 2],
    /// Whether the space has the [`OWN_PURSUED_OFF_MAP`] measure.
    off_map_measure: bool,
}

fn morale_level(m: MoraleState) -> i32 {
    match m {
        MoraleState::Good => 0,
        MoraleState::Shaken => 1,
        MoraleState::Broken => 2,
        MoraleState::Eliminated => 3,
    }
}

fn formation_level(f: Formation) -> i32 {
    match f {
        Formation::Normal => 0,
        Formation::Shaken => 1,
        Formation::Broken => 2,
        _ => 0,
    }
}

impl<'a> Course<'a> {
    /// A course over `units`. `own` and `enemy` are the units whose fate the
    /// key measures report; `early` adds the [`ENDED_EARLY`] and
    /// [`PURSUED_OFF_MAP`] outcomes.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        edition: Edition,
        units: Vec<Unit>,
        steps: Vec<StepSpec<'a>>,
        rules: CourseRules,
        repeat: Option<Repeat>,
        own: Option<usize>,
        enemy: Option<usize>,
        early: EarlyEnds,
    ) -> Result<Course<'a>, InputError> {
        // The last step's outcomes, from building it once as the scenario
        // states it (also checks every step's keys up front).
        let mut last = Vec::new();
        let mut max_hits = [0i32; 2];
        let mut fh_steps = [false; 2];
        let mut close_combat = false;
        for (i, s) in steps.iter().enumerate() {
            let lenient = i > 0 || repeat.is_some();
            let p = build(s, &mut s.fields.fresh(), &units, edition, &rules, lenient)?;
            close_combat |= matches!(p, Step::CloseCombat(_));
            last = p.space().outcomes().to_vec();
            for (k, who) in [enemy, own].into_iter().enumerate() {
                let Some(w) = who else { continue };
                if s.target == Some(w) {
                    let m = p
                        .space()
                        .measure_index("hits")
                        .map_or(0, |m| p.space().measures()[m].max);
                    max_hits[k] += m;
                    fh_steps[k] |= matches!(
                        p,
                        Step::Musketry(_) | Step::Artillery(_) | Step::CloseCombat(_)
                    );
                }
                if s.actor == Some(w) || s.target == Some(w) {
                    fh_steps[k] |= matches!(p, Step::CloseCombat(_));
                }
            }
        }
        let turns = repeat.as_ref().map_or(1, |r| r.turns as i32);
        let mut outcomes: Vec<String> = match &repeat {
            None => last,
            Some(r) => r
                .until
                .iter()
                .map(|s| s.names().1.to_string())
                .chain([TURN_LIMIT.to_string()])
                .collect(),
        };
        let mut early_index = [None; 2];
        for (k, (on, name)) in [
            (early.eliminated, ENDED_EARLY),
            (early.off_map, PURSUED_OFF_MAP),
        ]
        .into_iter()
        .enumerate()
        {
            if on {
                early_index[k] = Some(outcomes.len() as u8);
                outcomes.push(name.to_string());
            }
        }
        let mut measures = Vec::new();
        for (k, who, morale_name, hits_name, fh_name) in [
            (1, own, OWN_MORALE, HITS_TAKEN, FH_TAKEN),
            (0, enemy, ENEMY_MORALE, HITS_INFLICTED, FH_INFLICTED),
        ] {
            let Some(w) = who else { continue };
            let u = &units[w];
            let room = (u.strength - u.casualty_points) as i32;
            measures.push(Measure::new(morale_name, 0, 3));
            measures.push(Measure::new(hits_name, 0, (max_hits[k] * turns).min(room)));
            let fh_room = if fh_steps[k] {
                2 - formation_level(u.formation)
            } else {
                0
            };
            measures.push(Measure::new(fh_name, 0, fh_room.max(0)));
        }
        let off_map_measure =
            rules.pursuit && close_combat && own.is_some_and(|o| units[o].kind.is_cavalry());
        if off_map_measure {
            measures.push(Measure::new(OWN_PURSUED_OFF_MAP, 0, 1));
        }
        if let Some(r) = &repeat {
            measures.push(Measure::new(TURNS, 1, r.turns as i32));
        }
        Ok(Course {
            edition,
            units,
            steps,
            rules,
            repeat,
            own,
            enemy,
            space: OutcomeSpace::new(outcomes, measures),
            early,
            early_index,
            off_map_measure,
        })
    }

    /// Which early-end outcomes the space has.
    pub fn early_ends(&self) -> EarlyEnds {
        self.early
    }

    /// Gives back the steps (to build the course again).
    pub fn into_steps(self) -> Vec<StepSpec<'a>> {
        self.steps
    }

    fn units_in(&self, state: &CourseState) -> Vec<Unit> {
        self.units
            .iter()
            .zip(&state.units)
            .map(|(u, s)| Unit {
                casualty_points: s.casualty_points.min(u.strength.saturating_sub(1)),
                // A Morale Broken unit has no formation (6.3): no formation
                // modifier, no Hedgehog column; its formation is kept aside.
                formation: if s.no_formation() {
                    Formation::Normal
                } else {
                    s.formation
                },
                morale_state: if s.gone() {
                    MoraleState::Broken
                } else {
                    s.morale
                },
                salvo_marker: s.salvo_marker,
                leader: if s.leader == LeaderState::With {
                    u.leader
                } else {
                    None
                },
                ..u.clone()
            })
            .collect()
    }

    fn final_leaf(&self, state: &CourseState, category: usize) -> Leaf {
        let mut values = Vec::with_capacity(7);
        for who in [self.own, self.enemy] {
            let Some(w) = who else { continue };
            let (u, s) = (&self.units[w], &state.units[w]);
            values.push(morale_level(s.morale));
            values.push((s.casualty_points - u.casualty_points) as i32);
            values.push(formation_level(s.formation) - formation_level(u.formation));
        }
        if self.off_map_measure {
            values.push(self.own.is_some_and(|o| state.units[o].off_map) as i32);
        }
        if self.repeat.is_some() {
            values.push(state.turn as i32 + 1);
        }
        self.space.leaf(category, &values)
    }

    /// Adds `hits` casualty points and `fh` formation hits to unit `t`,
    /// queuing the morale checks they trigger.
    fn take_fire(
        &self,
        s: &mut CourseState,
        t: usize,
        hits: i32,
        fh: bool,
        table_mc: bool,
        salvo: bool,
    ) {
        let unit = &self.units[t];
        let r = &self.rules;
        let u = &mut s.units[t];
        let mut ordinary = 0;
        if hits > 0 {
            u.casualty_points = (u.casualty_points as i32 + hits).min(unit.strength as i32) as u8;
            if r.morale_check_on_hits {
                ordinary += 1;
            }
            if r.eliminate_at_strength && u.casualty_points >= unit.strength {
                u.morale = MoraleState::Eliminated;
            }
        }
        if salvo && r.morale_check_on_salvo {
            ordinary += 1;
        }
        if !u.threshold_reached
            && casualty_threshold(unit.morale, unit.strength)
                .is_some_and(|th| u.casualty_points >= th)
        {
            u.threshold_reached = true;
            if r.morale_check_on_threshold {
                ordinary += 1;
            }
        }
        let mut checks = if r.morale_checks_combined {
            ordinary.min(1)
        } else {
            ordinary
        };
        if table_mc && r.morale_check_on_table {
            checks += 1;
        }
        if fh && !u.no_formation() {
            if u.formation == Formation::Broken && r.morale_check_on_broken_formation_hit {
                checks += 1;
            }
            u.formation = u.formation.after_hit();
        }
        for _ in 0..checks {
            s.pending.push(Sub::Morale(t as u8));
        }
    }

    /// Drops triggered rolls that no longer matter, then checks the stop
    /// conditions and the end of the turn.
    fn settle(&self, mut s: CourseState) -> CourseState {
        loop {
            let units = &s.units;
            s.pending.retain(|sub| match *sub {
                Sub::Morale(u) | Sub::UnableToRetreat(u) | Sub::LeaderCasualty(u) => {
                    !units[u as usize].out()
                }
                Sub::Pursuit(p, _, _, _) => !units[p as usize].out(),
            });
            if s.ended.is_some() || !s.pending.is_empty() {
                return s;
            }
            if let Some(r) = &self.repeat {
                for (i, stop) in r.until.iter().enumerate() {
                    let hit = match stop {
                        Stop::EnemyBroken => self
                            .enemy
                            .is_some_and(|e| morale_level(s.units[e].morale) >= 2),
                        Stop::EnemyThreshold => {
                            self.enemy.is_some_and(|e| s.units[e].threshold_reached)
                        }
                        Stop::OwnBroken => self
                            .own
                            .is_some_and(|o| morale_level(s.units[o].morale) >= 2),
                    };
                    if hit {
                        s.ended = Some(i as u8);
                        return s;
                    }
                }
            }
            if s.pc as usize == self.steps.len() {
                match &self.repeat {
                    Some(r) if s.turn + 1 < r.turns => {
                        // A replaced leader returns at the end of the turn
                        // after its casualty (5.3.3).
                        for u in &mut s.units {
                            if u.leader == LeaderState::BackAfterTurn(s.turn) {
                                u.leader = LeaderState::With;
                            }
                        }
                        s.turn += 1;
                        s.pc = 0;
                        continue;
                    }
                    Some(r) => s.ended = Some(r.until.len() as u8),
                    None => s.ended = Some(s.last),
                }
                return s;
            }
            let next = &self.steps[s.pc as usize];
            let needed = || [next.actor, next.target].into_iter().flatten();
            let end = if needed().any(|i| s.units[i].gone()) {
                Some(0)
            } else if needed().any(|i| s.units[i].off_map) {
                Some(1)
            } else {
                None
            };
            if let Some(k) = end {
                s.ended = Some(
                    self.early_index[k]
                        .expect("ended early in a course built without that outcome"),
                );
            }
            return s;
        }
    }

    fn step_proc(&self, state: &CourseState) -> Result<Step, InputError> {
        let s = &self.steps[state.pc as usize];
        let lenient = state.pc > 0 || state.turn > 0 || self.repeat.is_some();
        build(
            s,
            &mut s.fields.fresh(),
            &self.units_in(state),
            self.edition,
            &self.rules,
            lenient,
        )
    }
}

/// Builds a step; a close combat after a course's first roll claims
/// momentum only where an attacker is eligible, and an interception reads
/// the course's `[rules]`.
fn build(
    s: &StepSpec,
    f: &mut Fields,
    units: &[Unit],
    edition: Edition,
    rules: &CourseRules,
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

impl Machine for Course<'_> {
    type State = CourseState;
    type Proc = Step;

    fn space(&self) -> &OutcomeSpace {
        &self.space
    }

    fn initial(&self) -> CourseState {
        self.settle(CourseState {
            units: self.units.iter().map(UnitState::of).collect(),
            turn: 0,
            pc: 0,
            pending: Vec::new(),
            last: 0,
            ended: None,
        })
    }

    fn action(&self, state: &CourseState) -> Result<Action<Step>, InputError> {
        if let Some(c) = state.ended {
            return Ok(Action::End(self.final_leaf(state, c as usize)));
        }
        let units = || self.units_in(state);
        let e = self.edition;
        let proc = match state.pending.first() {
            Some(&Sub::Morale(u)) => Step::MoraleCheck(MoraleCheck::new(
                self.units[u as usize].morale,
                self.rules.morale_check_drm,
            )),
            Some(&Sub::Pursuit(p, _, momentum, leader)) => {
                let mut input = PursuitInput::new(units()[p as usize].clone());
                input.momentum_used = momentum;
                // The leader used in the close combat counts while it is
                // still with its unit (docs/rules/mpbs.md, "Cavalry Pursuit").
                let used = leader
                    .filter(|&(u, _)| state.units[u as usize].leader == LeaderState::With)
                    .map(|(_, m)| m as i32);
                self.rules.pursuit_keys.apply(&mut input, used);
                if !pursuit::column(e, input.column).leader {
                    input.leader = None;
                }
                Step::Pursuit(Pursuit::new(e, &input)?)
            }
            Some(&Sub::UnableToRetreat(u)) => {
                Step::UnableToRetreat(UnableToRetreat::new(e, &units()[u as usize], 0)?)
            }
            Some(&Sub::LeaderCasualty(_)) => {
                Step::LeaderCasualty(leaders::LeaderCasualty::new(e, 0, 0)?)
            }
            None => self.step_proc(state)?,
        };
        Ok(Action::Roll(proc))
    }

    fn apply(&self, state: &CourseState, proc: &Step, leaf: Leaf) -> CourseState {
        let mut s = state.clone();
        let space = proc.space();
        let cat = space.outcome_of(leaf);
        let label = space.outcomes()[cat].as_str();
        if let Some(sub) = (!s.pending.is_empty()).then(|| s.pending.remove(0)) {
            match sub {
                Sub::Morale(u) => {
                    if label == "fail" {
                        s.units[u as usize].lose_morale();
                    }
                }
                Sub::Pursuit(p, beaten, _, _) => match label {
                    "pursue-and-eliminate" => {
                        s.units[beaten as usize].morale = MoraleState::Eliminated;
                        s.units[p as usize].formation = Formation::Broken;
                    }
                    // The pursuer leaves the fight having won: off the map,
                    // neither broken nor eliminated (docs/rules/mpbs.md,
                    // "Cavalry Pursuit").
                    "pursue-off-map-and-eliminate" => {
                        s.units[beaten as usize].morale = MoraleState::Eliminated;
                        s.units[p as usize].off_map = true;
                    }
                    _ => {}
                },
                Sub::UnableToRetreat(u) => {
                    s.units[u as usize].morale = if label == "eliminated" {
                        MoraleState::Eliminated
                    } else {
                        MoraleState::Shaken
                    };
                }
                // 5.3.3: "0 Return original Leader Immediately" keeps the
                // leader; "1" brings it back at the end of the next turn of
                // an engagement; "2-9" replaces it for good.
                Sub::LeaderCasualty(u) => {
                    let leader = &mut s.units[u as usize].leader;
                    match label {
                        "no-effect" | "original-returns-immediately" => {}
                        "original-returns-end-of-next-turn" if self.repeat.is_some() => {
                            *leader = LeaderState::BackAfterTurn(s.turn.saturating_add(1));
                        }
                        _ => *leader = LeaderState::Lost,
                    }
                }
            }
            return self.settle(s);
        }
        let spec = &self.steps[s.pc as usize];
        let value = |name: &str| {
            space
                .measure_index(name)
                .map_or(0, |m| space.value_of(leaf, m))
        };
        match proc {
            Step::Musketry(_) | Step::LightFire(_) | Step::Artillery(_) => {
                if let Some(t) = spec.target {
                    let salvo = matches!(proc, Step::Musketry(m) if m.is_salvo());
                    self.take_fire(
                        &mut s,
                        t,
                        value("hits"),
                        value("formation-hits") > 0,
                        value("morale-checks") > 0,
                        salvo,
                    );
                }
                if let (Step::Musketry(m), Some(a)) = (proc, spec.actor)
                    && m.is_salvo()
                {
                    s.units[a].salvo_marker = true;
                }
            }
            Step::CloseCombat(cc) => self.after_close_combat(&mut s, spec, cc, cat),
            Step::MoraleCheck(_) => {
                if let (Some(t), "fail") = (spec.target.or(spec.actor), label) {
                    s.units[t].lose_morale();
                }
            }
            Step::UnableToRetreat(_) => {
                if let Some(t) = spec.target {
                    s.units[t].morale = if label == "eliminated" {
                        MoraleState::Eliminated
                    } else {
                        MoraleState::Shaken
                    };
                }
            }
            _ => {}
        }
        if self.repeat.is_none() {
            // Only a plain course reports its last step's outcome; an
            // engagement reports why it stopped (and carries fewer states).
            s.last = cat as u8;
        }
        s.pc += 1;
        self.settle(s)
    }
}

impl Course<'_> {
    /// Morale and formation after a close combat, then the rolls it
    /// triggers: leader casualties, Unable to Retreat, cavalry pursuit.
    fn after_close_combat(
        &self,
        s: &mut CourseState,
        spec: &StepSpec,
        cc: &CloseCombat,
        cat: usize,
    ) {
        let r = CcResult::from_index(cat).expect("close combat categories are the table's results");
        let sides = [(Side::Attacker, spec.actor), (Side::Defender, spec.target)];
        for (side, idx) in sides {
            let Some(i) = idx else { continue };
            let u = &mut s.units[i];
            u.morale = r.effect(side, u.morale).0;
            // A unit Morale Broken by the result has no formation (6.3) and
            // takes no Formation Hit.
            if !u.gone() && !u.no_formation() {
                u.formation = u.formation.after_hit();
            }
        }
        // The leader at risk is the one whose modifier the combat used (5.3).
        let index = |name: &str| self.units.iter().position(|u| u.name == name);
        let leader_of = |side| cc.leader_unit(side).and_then(index);
        if self.rules.leader_casualty {
            for side in [Side::Attacker, Side::Defender] {
                if let Some(i) = leader_of(side)
                    && s.units[i].leader == LeaderState::With
                {
                    s.pending.push(Sub::LeaderCasualty(i as u8));
                }
            }
        }
        let (loser, winner) = match r.loser() {
            Side::Attacker => (spec.actor, spec.target),
            Side::Defender => (spec.target, spec.actor),
        };
        if let Some(l) = loser
            && s.units[l].morale == MoraleState::Broken
            && !self.units[l].can_retreat
        {
            s.pending.push(Sub::UnableToRetreat(l as u8));
        }
        if self.rules.pursuit
            && r.pursuit_check()
            && let (Some(w), Some(l)) = (winner, loser)
            && self.units[w].kind.is_cavalry()
        {
            let won = match r.loser() {
                Side::Attacker => Side::Defender,
                Side::Defender => Side::Attacker,
            };
            let momentum = cc
                .modifiers()
                .breakdown
                .iter()
                .any(|(l, _)| l.contains("cavalry momentum"))
                && won == Side::Attacker;
            let leader = leader_of(won).zip(cc.leader_modifier(won)).map(|(u, m)| {
                let m = match won {
                    Side::Attacker => m,
                    Side::Defender => pursuit::leader_modifier(m, self.rules.defending_leader),
                };
                (u as u8, m as i8)
            });
            s.pending
                .push(Sub::Pursuit(w as u8, l as u8, momentum, leader));
        }
    }
}

/// Compiles a course into a kernel. The early-end outcomes ([`ENDED_EARLY`],
/// [`PURSUED_OFF_MAP`]) are listed only when some path reaches them, so a
/// course that always runs to its end reports exactly its last step's
/// outcomes.
#[allow(clippy::too_many_arguments)]
pub fn compile(
    edition: Edition,
    units: Vec<Unit>,
    steps: Vec<StepSpec<'_>>,
    rules: CourseRules,
    repeat: Option<Repeat>,
    own: Option<usize>,
    enemy: Option<usize>,
    mode: KernelMode,
) -> Result<Box<dyn Kernel>, InputError> {
    let all = EarlyEnds {
        eliminated: true,
        off_map: true,
    };
    let course = Course::new(
        edition,
        units.clone(),
        steps,
        rules,
        repeat.clone(),
        own,
        enemy,
        all,
    )?;
    let chain = Chain::from_machine(&course)?;
    let reached = EarlyEnds {
        eliminated: course.early_index[0].is_some_and(|i| chain.can_end_in(i as usize)),
        off_map: course.early_index[1].is_some_and(|i| chain.can_end_in(i as usize)),
    };
    if reached == all {
        return Ok(prepare(chain, mode));
    }
    let course = Course::new(
        edition,
        units,
        course.into_steps(),
        rules,
        repeat,
        own,
        enemy,
        reached,
    )?;
    Ok(prepare(Chain::from_machine(&course)?, mode))
}

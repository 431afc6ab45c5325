//! Orders and activation rolls: Continuation and Preemption (4.3, 4.4),
//! Orders Change (5.7) and Interception (9.3); and the Orders Restriction
//! Chart (5.6) and the Formation Effects on Movement Chart (6.3), which are
//! lookups without dice.
//!
//! Every roll here succeeds on d10 + DRM ≤ the printed number ("0-3" reads
//! 3); leader ratings run 0 to −3, so a better leader lowers the roll. The
//! numbers are the same on both cards; the DRM lines differ (docs/rules/mpbs.md,
//! Where the cards differ) and are data per edition.

use super::drm_roll::{DrmRoll, drm_roll_procedure};
use super::input::{EXTRA_DRM_KEY, finish_built, key_err, ngbg_drm, read_extra, relocate};
use super::unit::find_unit;
use super::{Edition, Order, Unit, chart_morale};
use crate::dice::Dice;
use crate::error::InputError;
use crate::explain::{Source, Term, key_term};
use crate::outcome::{Leaf, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::named;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

/// Continuation and Preemption Table (4.3, 4.4), both cards: for each
/// current order in card order (Charge, Make Ready, Receive Charge, Rally),
/// the highest modified roll that succeeds for Continuation and for
/// Preemption; `None` = NA (not allowed).
pub const CONTINUATION_PREEMPTION: [[Option<u8>; 2]; 4] = [
    [Some(3), Some(4)], // Charge 0-3 / 0-4
    [Some(2), Some(3)], // Make Ready 0-2 / 0-3
    [Some(1), Some(2)], // Receive Charge 0-1 / 0-2
    [None, None],       // Rally NA / NA
];

/// Orders Change Table (5.7), both cards: rows the current order, columns
/// the desired order (both in card order); the highest modified roll that
/// succeeds. `None` is the card's "-" (no change).
pub const ORDERS_CHANGE: [[Option<u8>; 4]; 4] = [
    [None, Some(3), Some(2), Some(5)], // Charge → MR 0-3, RC 0-2, Rally 0-5
    [Some(5), None, Some(5), Some(6)], // Make Ready → Charge 0-5, RC 0-5, Rally 0-6
    [Some(3), Some(5), None, Some(4)], // Receive Charge → Charge 0-3, MR 0-5, Rally 0-4
    [Some(1), Some(4), Some(3), None], // Rally → Charge 0-1, MR 0-4, RC 0-3
];

/// Interception Table (9.3), both cards (cavalry only): the highest
/// modified roll that intercepts, per current order; `None` = NA.
pub const INTERCEPTION: [Option<u8>; 4] = [Some(5), Some(4), Some(3), None];

/// The Continuation number for an order (`None` = NA).
pub fn continuation_number(order: Order) -> Option<u8> {
    CONTINUATION_PREEMPTION[order as usize][0]
}

/// The Preemption number for an order (`None` = NA).
pub fn preemption_number(order: Order) -> Option<u8> {
    CONTINUATION_PREEMPTION[order as usize][1]
}

/// The Orders Change number from `current` to `desired` (`None` when they
/// are the same order).
pub fn orders_change_number(current: Order, desired: Order) -> Option<u8> {
    ORDERS_CHANGE[current as usize][desired as usize]
}

/// The Interception number for the cavalry unit's current order (`None` = NA).
pub fn interception_number(order: Order) -> Option<u8> {
    INTERCEPTION[order as usize]
}

/// Whether a modified roll succeeds against a printed number (roll ≤ number).
pub fn succeeds(number: u8, modified_roll: i32) -> bool {
    modified_roll <= number as i32
}

/// The DRMs of the orders tables as one edition's card prints them.
/// `None`: the card has no such line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrdersDrms {
    /// 4.3/4.4: WC adjacent to an enemy unit (not Morale Broken).
    pub wc_adjacent_enemy: i8,
    /// 4.3/4.4: cavalry wing.
    pub cavalry_wing: i8,
    /// 4.3 only: second attempt.
    pub second_attempt: i8,
    /// 4.3 only: NGBG, all rolls during Landskrona.
    pub landskrona: Option<i8>,
    /// 4.4 only: the WC is marked No Continue.
    pub wc_no_continue: i8,
    /// 5.7: leader adjacent to an enemy unit (not Morale Broken).
    pub leader_adjacent_enemy: i8,
    /// 5.7: cavalry wing changing to Charge.
    pub cavalry_wing_to_charge: i8,
    /// 5.7: cavalry wing changing to Receive Charge.
    pub cavalry_wing_to_receive_charge: i8,
    /// 5.7: changing to Rally when more than half the wing's units are
    /// Morale Shaken, Morale Broken or eliminated.
    pub wing_mostly_shaken_to_rally: i8,
    /// 9.3: original morale of 8.
    pub interception_morale_8: i8,
    /// 9.3: low original morale (see `interception_low_morale_from`).
    pub interception_low_morale: i8,
    /// 9.3: the low-morale DRM applies to original morale from this value up
    /// to 6 (Sweden Fights On: "of 6", so 6; series: "6 or less", so 0).
    pub interception_low_morale_from: u8,
    /// 9.3: NGBG, interceptions at Halmstad.
    pub interception_halmstad: Option<i8>,
}

/// Sweden Fights On's orders DRMs.
const SFO_ORDERS_DRMS: OrdersDrms = OrdersDrms {
    wc_adjacent_enemy: 1,
    cavalry_wing: -1,
    second_attempt: 1,
    landskrona: None,
    wc_no_continue: 1,
    leader_adjacent_enemy: 1,
    cavalry_wing_to_charge: -1,
    cavalry_wing_to_receive_charge: 1,
    wing_mostly_shaken_to_rally: -2,
    interception_morale_8: -1,
    interception_low_morale: 1,
    interception_low_morale_from: 6,
    interception_halmstad: None,
};

/// `wc_rating`, declared once: its doc and its reader.
pub(crate) const WC_RATING: Key<i64> =
    Key::int("wc_rating", -3, 0, "the Wing Commander's rating").or("0");

/// `ac_rating`, declared once: its doc and its reader.
pub(crate) const AC_RATING: Key<i64> = Key::int("ac_rating", -3, 0, "the Army Commander's rating");

/// `ac_with_wc`, declared once: its doc and its reader.
pub(crate) const AC_WITH_WC: Key<bool> = Key::flag(
    "ac_with_wc",
    "true: the AC is adjacent to or stacked with the WC, so its rating counts",
);

/// `wc_adjacent_enemy`, declared once: its doc and its reader.
pub(crate) const WC_ADJACENT_ENEMY: Key<bool> = Key::flag(
    "wc_adjacent_enemy",
    "true: WC adjacent to an enemy unit not Morale Broken, +1",
);

/// Orders DRMs, indexed by edition (Sweden Fights On, series). The series
/// card prints Sweden Fights On's lines, adds the NGBG ones and reads the
/// low interception morale as "6 or less".
pub const ORDERS_DRMS: [OrdersDrms; 2] = [
    SFO_ORDERS_DRMS,
    OrdersDrms {
        landskrona: Some(1),
        interception_low_morale_from: 0,
        interception_halmstad: Some(1),
        ..SFO_ORDERS_DRMS
    },
];

/// The leaders' ratings on an orders roll: the Wing Commander's, plus the
/// Army Commander's when adjacent to or stacked with the WC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Leadership {
    /// The WC's rating, 0 to −3.
    pub wc_rating: i8,
    /// The AC's rating, 0 to −3, if given.
    pub ac_rating: Option<i8>,
    /// The AC is adjacent to or stacked with the WC (only then its rating counts).
    pub ac_with_wc: bool,
}

impl Leadership {
    /// Reads `wc_rating`, `ac_rating`, `ac_with_wc`.
    fn read(f: &mut Fields) -> Result<Leadership, InputError> {
        let l = Leadership {
            wc_rating: WC_RATING.read(f)?.unwrap_or(0) as i8,
            ac_rating: AC_RATING.read(f)?.map(|v| v as i8),
            ac_with_wc: AC_WITH_WC.get(f)?,
        };
        Ok(l)
    }
    /// The first DRM lines of every wing roll: the WC's rating, then the
    /// AC's when it is with the WC. Errors (at `ac_with_wc`): the AC is with
    /// the WC but its rating is not given.
    fn terms(&self) -> Result<Vec<Term>, InputError> {
        let mut mods: Vec<Term> = key_term("WC rating", "wc_rating", self.wc_rating as i32)
            .into_iter()
            .collect();
        match (self.ac_with_wc, self.ac_rating) {
            (true, None) => {
                return Err(key_err(
                    "ac_with_wc",
                    "`ac_with_wc = true` needs the AC's rating in `ac_rating`",
                ));
            }
            (true, Some(r)) if r != 0 => mods.push(Term::new(
                "AC rating (with the WC)",
                "",
                r as i32,
                Source::key(format!("ac_rating = {r}, ac_with_wc = true")),
            )),
            _ => {}
        }
        Ok(mods)
    }
}

/// `cavalry_wing` on Continuation and Preemption, declared once: its doc
/// and its reader.
pub(crate) const CAVALRY_WING: Key<bool> = Key::flag("cavalry_wing", "true: a cavalry wing, -1");

/// The `keys` of a wing roll's `ProcedureInfo`: `$first` (its order keys),
/// the leaders' ratings ([`Leadership::read`]), `$rest`, then `extra_drm`.
macro_rules! order_keys {
    ([$($first:expr),* $(,)?], [$($rest:expr),* $(,)?]) => {
        &[
            $($first,)*
            WC_RATING.doc(),
            AC_RATING.doc(),
            AC_WITH_WC.doc(),
            $($rest,)*
            EXTRA_DRM_KEY,
        ]
    };
}

/// The `keys` of Continuation and Preemption (4.3, 4.4): those of
/// [`Activation::read`], then `$rest`, then `extra_drm`.
macro_rules! activation_keys {
    ($($rest:expr),* $(,)?) => {
        order_keys!(
            [KeyDoc::one_of(
                "order",
                &ORDERS_BUT_RALLY,
                "required: the wing's current order",
            )],
            [
                WC_ADJACENT_ENEMY.doc(),
                CAVALRY_WING.doc(),
                $($rest,)*
            ]
        )
    };
}

/// Reads one roll's step: its input (`read`), then the roll (`build`), whose
/// errors name bare step keys and are located at the step; then refuses any
/// key left over.
fn read_step<I, P>(
    f: &mut Fields,
    read: impl FnOnce(&mut Fields) -> Result<I, InputError>,
    build: impl FnOnce(&I) -> Result<P, InputError>,
) -> Result<P, InputError> {
    f.has("procedure");
    let input = read(f)?;
    finish_built(f, build(&input))
}

fn flag_mod(mods: &mut Vec<Term>, on: bool, what: &str, v: i8, source: Source) {
    if on && v != 0 {
        mods.push(Term::new(what, "", v as i32, source));
    }
}

/// [`flag_mod`] for a line the step flag `key` switches on: its source is
/// "`key` = true".
fn key_flag_mod(mods: &mut Vec<Term>, on: bool, key: &str, what: &str, v: i8) {
    flag_mod(mods, on, what, v, Source::key(format!("{key} = true")));
}

/// What Continuation and Preemption (4.3, 4.4) both depend on.
#[derive(Clone, Debug, PartialEq)]
pub struct Activation {
    /// The wing's current order.
    pub order: Order,
    /// WC and AC ratings.
    pub leadership: Leadership,
    /// WC adjacent to an enemy unit (not Morale Broken).
    pub wc_adjacent_enemy: bool,
    /// A cavalry wing.
    pub cavalry_wing: bool,
}

impl Activation {
    /// Reads `order`, the leaders' ratings, `wc_adjacent_enemy` and
    /// `cavalry_wing`.
    fn read(f: &mut Fields) -> Result<Activation, InputError> {
        Ok(Activation {
            order: req_order(f, "order")?,
            leadership: Leadership::read(f)?,
            wc_adjacent_enemy: WC_ADJACENT_ENEMY.get(f)?,
            cavalry_wing: CAVALRY_WING.get(f)?,
        })
    }

    /// The printed number for the order on `table` (`number` reads it; NA is
    /// an error at `order`) and the DRMs the two rolls share: the leaders'
    /// ratings, the WC adjacent to an enemy unit, a cavalry wing.
    fn start(
        &self,
        number: fn(Order) -> Option<u8>,
        table: &str,
        d: &OrdersDrms,
    ) -> Result<(u8, Vec<Term>), InputError> {
        let n = number(self.order).ok_or_else(|| na_order("order", self.order, table))?;
        let mut mods = self.leadership.terms()?;
        key_flag_mod(
            &mut mods,
            self.wc_adjacent_enemy,
            "wc_adjacent_enemy",
            "WC adjacent to enemy",
            d.wc_adjacent_enemy,
        );
        key_flag_mod(
            &mut mods,
            self.cavalry_wing,
            "cavalry_wing",
            "cavalry wing",
            d.cavalry_wing,
        );
        Ok((n, mods))
    }
}

fn edition_only(
    mods: &mut Vec<Term>,
    on: bool,
    key: &str,
    what: &str,
    v: Option<i8>,
    edition: Edition,
) -> Result<(), InputError> {
    if on {
        let v = ngbg_drm(key, v, edition)?;
        key_flag_mod(mods, true, key, what, v);
    }
    Ok(())
}

/// A roll that succeeds on d10 + DRM ≤ a printed number.
#[derive(Clone, Debug)]
pub struct OrderCheck {
    number: u8,
    roll: DrmRoll,
}

/// Outcome labels of every orders roll.
pub const OUTCOMES: &[&str] = &["success", "failure"];

impl OrderCheck {
    /// A check against `number` with these DRMs.
    pub fn new(number: u8, modifiers: Vec<Term>) -> OrderCheck {
        let space = OutcomeSpace::from_labels(OUTCOMES, vec![]);
        let roll = DrmRoll::new(modifiers, space, |space, n| {
            space.leaf(if succeeds(number, n) { 0 } else { 1 }, &[])
        });
        OrderCheck { number, roll }
    }
    /// A check against `number` with these DRMs and the step's `extra_drm`
    /// (any further DRM) last.
    fn with_extra(number: u8, mut modifiers: Vec<Term>, extra_drm: i8) -> OrderCheck {
        flag_mod(
            &mut modifiers,
            true,
            "extra_drm",
            extra_drm,
            Source::key("extra_drm"),
        );
        OrderCheck::new(number, modifiers)
    }
    /// The printed number (success on modified roll ≤ it).
    pub fn number(&self) -> u8 {
        self.number
    }
    /// How many of the ten die faces succeed.
    pub fn successes(&self) -> usize {
        (0..10)
            .filter(|&f| succeeds(self.number, f + self.drm()))
            .count()
    }
}

drm_roll_procedure!(OrderCheck);

/// Declares an orders roll: a newtype over [`OrderCheck`] with `check()` and
/// its `Procedure` impl. With `($input)`, an input type that has
/// `fn read(&mut Fields) -> Result<Self, InputError>`, also its `from_step`
/// (read the input, build the roll with `new`, locate its error, refuse
/// unknown keys) and `checked`, the roll with the step's `extra_drm` last.
macro_rules! order_procedure {
    ($(#[$m:meta])* $name:ident($input:ty)) => {
        order_procedure! { $(#[$m])* $name }

        impl $name {
            /// Reads a scenario step (see the roll's `ProcedureInfo`).
            pub fn from_step(
                f: &mut Fields,
                _units: &[Unit],
                edition: Edition,
            ) -> Result<$name, InputError> {
                read_step(f, <$input>::read, |input| $name::new(edition, input))
            }

            fn checked(number: u8, mods: Vec<Term>, extra_drm: i8) -> $name {
                $name(OrderCheck::with_extra(number, mods, extra_drm))
            }
        }
    };
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Debug)]
        pub struct $name(OrderCheck);

        impl $name {
            /// The roll itself: number, DRM and modifiers.
            pub fn check(&self) -> &OrderCheck {
                &self.0
            }
        }

        impl Procedure for $name {
            fn space(&self) -> &OutcomeSpace {
                self.0.space()
            }
            #[inline]
            fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
                self.0.resolve(dice)
            }
        }
    };
}

/// The orders a wing table rolls for: every order but Rally (NA on the
/// Preemption, Continuation and Interception Tables).
const ORDERS_BUT_RALLY: [&str; 3] = ["charge", "make-ready", "receive-charge"];

fn read_order(f: &mut Fields, key: &'static str) -> Result<Option<Order>, InputError> {
    named::read(f, key, "order")
}

fn req_order(f: &mut Fields, key: &'static str) -> Result<Order, InputError> {
    named::require(f, key, "order")
}

fn na_order(key: &str, order: Order, table: &str) -> InputError {
    let ok: Vec<&str> = Order::ALL
        .iter()
        .filter(|&&o| o != Order::Rally)
        .map(|o| o.name())
        .collect();
    key_err(
        key,
        format!("the {table} is NA for a wing under a {order} order"),
    )
    .accepted(ok.join(", "))
}

mod change;
mod charts;
mod continuation;
mod interception;
mod preemption;

pub use change::*;
pub use charts::*;
pub use continuation::*;
pub use interception::*;
pub use preemption::*;

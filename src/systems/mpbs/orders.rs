//! Orders and activation rolls: Continuation and Preemption (4.3, 4.4),
//! Orders Change (5.7) and Interception (9.3); and the Orders Restriction
//! Chart (5.6) and the Formation Effects on Movement Chart (6.3), which are
//! lookups without dice.
//!
//! Every roll here succeeds on d10 + DRM ≤ the printed number ("0-3" reads
//! 3); leader ratings run 0 to −3, so a better leader lowers the roll. The
//! numbers are the same on both cards; the DRM lines differ (docs/rules/mpbs.md,
//! Where the cards differ) and are data per edition.

use super::musketry::{key_err, read_extra, relocate};
use super::unit::find_unit;
use super::{Edition, Order, Unit, chart_morale};
use crate::dice::Dice;
use crate::error::InputError;
use crate::outcome::{Leaf, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::{Chart, ProcedureInfo};

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

/// Orders DRMs, indexed by edition (Sweden Fights On, series).
pub const ORDERS_DRMS: [OrdersDrms; 2] = [
    OrdersDrms {
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
    },
    OrdersDrms {
        wc_adjacent_enemy: 1,
        cavalry_wing: -1,
        second_attempt: 1,
        landskrona: Some(1),
        wc_no_continue: 1,
        leader_adjacent_enemy: 1,
        cavalry_wing_to_charge: -1,
        cavalry_wing_to_receive_charge: 1,
        wing_mostly_shaken_to_rally: -2,
        interception_morale_8: -1,
        interception_low_morale: 1,
        interception_low_morale_from: 0,
        interception_halmstad: Some(1),
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
            wc_rating: f.int("wc_rating", -3, 0)?.unwrap_or(0) as i8,
            ac_rating: f.int("ac_rating", -3, 0)?.map(|v| v as i8),
            ac_with_wc: f.flag("ac_with_wc")?,
        };
        Ok(l)
    }
    fn push(&self, mods: &mut Vec<(String, i32)>) -> Result<(), InputError> {
        if self.wc_rating != 0 {
            mods.push(("WC rating".into(), self.wc_rating as i32));
        }
        match (self.ac_with_wc, self.ac_rating) {
            (true, None) => {
                return Err(key_err(
                    "ac_with_wc",
                    "`ac_with_wc = true` needs the AC's rating in `ac_rating`",
                ));
            }
            (true, Some(r)) if r != 0 => mods.push(("AC rating (with the WC)".into(), r as i32)),
            _ => {}
        }
        Ok(())
    }
}

fn flag_mod(mods: &mut Vec<(String, i32)>, on: bool, what: &str, v: i8) {
    if on && v != 0 {
        mods.push((what.into(), v as i32));
    }
}

fn edition_only(
    mods: &mut Vec<(String, i32)>,
    on: bool,
    key: &str,
    what: &str,
    v: Option<i8>,
    edition: Edition,
) -> Result<(), InputError> {
    if on {
        let v = v.ok_or_else(|| {
            key_err(
                key,
                format!(
                    "the {} has no `{key}` DRM (NGBG lines are on the series card only)",
                    edition.card()
                ),
            )
        })?;
        flag_mod(mods, true, what, v);
    }
    Ok(())
}

/// A roll that succeeds on d10 + DRM ≤ a printed number.
#[derive(Clone, Debug)]
pub struct OrderCheck {
    number: u8,
    drm: i32,
    modifiers: Vec<(String, i32)>,
    space: OutcomeSpace,
    leaves: [Leaf; 10],
}

/// Outcome labels of every orders roll.
pub const OUTCOMES: &[&str] = &["success", "failure"];

impl OrderCheck {
    /// A check against `number` with these DRMs.
    pub fn new(number: u8, modifiers: Vec<(String, i32)>) -> OrderCheck {
        let drm: i32 = modifiers.iter().map(|(_, v)| v).sum();
        let space = OutcomeSpace::from_labels(OUTCOMES, vec![]);
        let mut leaves = [0; 10];
        for (face, leaf) in leaves.iter_mut().enumerate() {
            let ok = succeeds(number, face as i32 + drm);
            *leaf = space.leaf(if ok { 0 } else { 1 }, &[]);
        }
        OrderCheck {
            number,
            drm,
            modifiers,
            space,
            leaves,
        }
    }
    /// The printed number (success on modified roll ≤ it).
    pub fn number(&self) -> u8 {
        self.number
    }
    /// The summed DRM.
    pub fn drm(&self) -> i32 {
        self.drm
    }
    /// Each DRM applied, with what it is for.
    pub fn modifiers(&self) -> &[(String, i32)] {
        &self.modifiers
    }
    /// How many of the ten die faces succeed.
    pub fn successes(&self) -> usize {
        (0..10)
            .filter(|&f| succeeds(self.number, f + self.drm))
            .count()
    }
}

impl Procedure for OrderCheck {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        self.leaves[dice.d10() as usize]
    }
}

macro_rules! order_procedure {
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

order_procedure! {
    /// Continuation (4.3): the wing continues its activation on success.
    Continuation
}
order_procedure! {
    /// Preemption (4.4): the wing activates out of turn on success.
    Preemption
}
order_procedure! {
    /// Orders Change (5.7): the wing takes the desired order on success.
    OrdersChange
}
order_procedure! {
    /// Interception (9.3): the cavalry unit intercepts on success.
    Interception
}

fn read_order(f: &mut Fields, key: &'static str) -> Result<Option<Order>, InputError> {
    f.named(key, "order", Order::from_name, &Order::names())
}

fn req_order(f: &mut Fields, key: &'static str) -> Result<Order, InputError> {
    read_order(f, key)?.ok_or_else(|| f.missing(key).one_of("", &Order::names()))
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

/// Everything a Continuation roll (4.3) depends on.
#[derive(Clone, Debug, PartialEq)]
pub struct ContinuationInput {
    /// The wing's current order.
    pub order: Order,
    /// WC and AC ratings.
    pub leadership: Leadership,
    /// WC adjacent to an enemy unit (not Morale Broken).
    pub wc_adjacent_enemy: bool,
    /// A cavalry wing.
    pub cavalry_wing: bool,
    /// A second attempt.
    pub second_attempt: bool,
    /// NGBG: Landskrona (series card).
    pub landskrona: bool,
    /// Any further DRM.
    pub extra_drm: i8,
}

/// What `pikeshot list` shows of `continuation`.
pub const CONTINUATION_INFO: ProcedureInfo = ProcedureInfo {
    name: "continuation",
    rule: "4.3",
    summary: "Continuation: d10 + DRM ≤ the current order's number (Charge 0-3, Make Ready 0-2, Receive Charge 0-1, Rally NA)",
    keys: &[
        (
            "order",
            "the wing's current order: charge | make-ready | receive-charge (rally is NA)",
        ),
        (
            "wc_rating",
            "0..=-3: the Wing Commander's rating (default 0)",
        ),
        ("ac_rating", "0..=-3: the Army Commander's rating"),
        (
            "ac_with_wc",
            "true: the AC is adjacent to or stacked with the WC, so its rating counts",
        ),
        (
            "wc_adjacent_enemy",
            "true: WC adjacent to an enemy unit not Morale Broken, +1",
        ),
        ("cavalry_wing", "true: a cavalry wing, -1"),
        ("second_attempt", "true: a second attempt, +1"),
        (
            "landskrona",
            "true: NGBG all rolls during Landskrona, +1 (series only)",
        ),
        ("extra_drm", "-9..=9: any further DRM (default 0)"),
    ],
    outcomes: OUTCOMES,
    measures: &[],
};

impl Continuation {
    /// Builds the roll. Errors (keyed by the bare step key): a Rally order
    /// (NA), a modifier the edition's card lacks.
    pub fn new(edition: Edition, input: &ContinuationInput) -> Result<Continuation, InputError> {
        let d = &ORDERS_DRMS[edition as usize];
        let number = continuation_number(input.order)
            .ok_or_else(|| na_order("order", input.order, "Continuation Table (4.3)"))?;
        let mut mods = Vec::new();
        input.leadership.push(&mut mods)?;
        flag_mod(
            &mut mods,
            input.wc_adjacent_enemy,
            "WC adjacent to enemy",
            d.wc_adjacent_enemy,
        );
        flag_mod(
            &mut mods,
            input.cavalry_wing,
            "cavalry wing",
            d.cavalry_wing,
        );
        flag_mod(
            &mut mods,
            input.second_attempt,
            "second attempt",
            d.second_attempt,
        );
        edition_only(
            &mut mods,
            input.landskrona,
            "landskrona",
            "NGBG: Landskrona",
            d.landskrona,
            edition,
        )?;
        flag_mod(&mut mods, true, "extra_drm", input.extra_drm);
        Ok(Continuation(OrderCheck::new(number, mods)))
    }

    /// Reads a scenario step (see [`CONTINUATION_INFO`]).
    pub fn from_step(
        f: &mut Fields,
        _units: &[Unit],
        edition: Edition,
    ) -> Result<Continuation, InputError> {
        f.has("procedure");
        let input = ContinuationInput {
            order: req_order(f, "order")?,
            leadership: Leadership::read(f)?,
            wc_adjacent_enemy: f.flag("wc_adjacent_enemy")?,
            cavalry_wing: f.flag("cavalry_wing")?,
            second_attempt: f.flag("second_attempt")?,
            landskrona: f.flag("landskrona")?,
            extra_drm: read_extra(f)?,
        };
        let p = Continuation::new(edition, &input).map_err(|e| relocate(f, e))?;
        f.finish()?;
        Ok(p)
    }
}

/// Everything a Preemption roll (4.4) depends on.
#[derive(Clone, Debug, PartialEq)]
pub struct PreemptionInput {
    /// The wing's current order.
    pub order: Order,
    /// WC and AC ratings.
    pub leadership: Leadership,
    /// WC adjacent to an enemy unit (not Morale Broken).
    pub wc_adjacent_enemy: bool,
    /// A cavalry wing.
    pub cavalry_wing: bool,
    /// The WC is marked No Continue.
    pub wc_no_continue: bool,
    /// Any further DRM.
    pub extra_drm: i8,
}

/// What `pikeshot list` shows of `preemption`.
pub const PREEMPTION_INFO: ProcedureInfo = ProcedureInfo {
    name: "preemption",
    rule: "4.4",
    summary: "Preemption: d10 + DRM ≤ the current order's number (Charge 0-4, Make Ready 0-3, Receive Charge 0-2, Rally NA)",
    keys: &[
        (
            "order",
            "the wing's current order: charge | make-ready | receive-charge (rally is NA)",
        ),
        (
            "wc_rating",
            "0..=-3: the Wing Commander's rating (default 0)",
        ),
        ("ac_rating", "0..=-3: the Army Commander's rating"),
        (
            "ac_with_wc",
            "true: the AC is adjacent to or stacked with the WC, so its rating counts",
        ),
        (
            "wc_adjacent_enemy",
            "true: WC adjacent to an enemy unit not Morale Broken, +1",
        ),
        ("cavalry_wing", "true: a cavalry wing, -1"),
        ("wc_no_continue", "true: the WC is marked No Continue, +1"),
        ("extra_drm", "-9..=9: any further DRM (default 0)"),
    ],
    outcomes: OUTCOMES,
    measures: &[],
};

impl Preemption {
    /// Builds the roll. Errors (keyed by the bare step key): a Rally order (NA).
    pub fn new(edition: Edition, input: &PreemptionInput) -> Result<Preemption, InputError> {
        let d = &ORDERS_DRMS[edition as usize];
        let number = preemption_number(input.order)
            .ok_or_else(|| na_order("order", input.order, "Preemption Table (4.4)"))?;
        let mut mods = Vec::new();
        input.leadership.push(&mut mods)?;
        flag_mod(
            &mut mods,
            input.wc_adjacent_enemy,
            "WC adjacent to enemy",
            d.wc_adjacent_enemy,
        );
        flag_mod(
            &mut mods,
            input.cavalry_wing,
            "cavalry wing",
            d.cavalry_wing,
        );
        flag_mod(
            &mut mods,
            input.wc_no_continue,
            "WC marked No Continue",
            d.wc_no_continue,
        );
        flag_mod(&mut mods, true, "extra_drm", input.extra_drm);
        Ok(Preemption(OrderCheck::new(number, mods)))
    }

    /// Reads a scenario step (see [`PREEMPTION_INFO`]).
    pub fn from_step(
        f: &mut Fields,
        _units: &[Unit],
        edition: Edition,
    ) -> Result<Preemption, InputError> {
        f.has("procedure");
        let input = PreemptionInput {
            order: req_order(f, "order")?,
            leadership: Leadership::read(f)?,
            wc_adjacent_enemy: f.flag("wc_adjacent_enemy")?,
            cavalry_wing: f.flag("cavalry_wing")?,
            wc_no_continue: f.flag("wc_no_continue")?,
            extra_drm: read_extra(f)?,
        };
        let p = Preemption::new(edition, &input).map_err(|e| relocate(f, e))?;
        f.finish()?;
        Ok(p)
    }
}

/// Everything an Orders Change roll (5.7) depends on.
#[derive(Clone, Debug, PartialEq)]
pub struct OrdersChangeInput {
    /// The wing's current order.
    pub order: Order,
    /// The desired order.
    pub to: Order,
    /// WC and AC ratings.
    pub leadership: Leadership,
    /// The leader is adjacent to an enemy unit (not Morale Broken).
    pub leader_adjacent_enemy: bool,
    /// A cavalry wing (−1 changing to Charge, +1 changing to Receive Charge).
    pub cavalry_wing: bool,
    /// More than half the wing's units are Morale Shaken, Morale Broken or
    /// eliminated (−2 changing to Rally).
    pub wing_mostly_shaken: bool,
    /// Any further DRM.
    pub extra_drm: i8,
}

/// What `pikeshot list` shows of `orders-change`.
pub const ORDERS_CHANGE_INFO: ProcedureInfo = ProcedureInfo {
    name: "orders-change",
    rule: "5.7",
    summary: "Orders Change: d10 + DRM ≤ the number for current → desired order",
    keys: &[
        (
            "order",
            "the wing's current order: charge | make-ready | receive-charge | rally",
        ),
        ("to", "the desired order (not the current one)"),
        (
            "wc_rating",
            "0..=-3: the Wing Commander's rating (default 0)",
        ),
        ("ac_rating", "0..=-3: the Army Commander's rating"),
        (
            "ac_with_wc",
            "true: the AC is adjacent to or stacked with the WC, so its rating counts",
        ),
        (
            "leader_adjacent_enemy",
            "true: leader adjacent to an enemy unit not Morale Broken, +1",
        ),
        (
            "cavalry_wing",
            "true: a cavalry wing: -1 changing to Charge, +1 changing to Receive Charge",
        ),
        (
            "wing_mostly_shaken",
            "true: over half the wing MS, MB or eliminated: -2 changing to Rally",
        ),
        ("extra_drm", "-9..=9: any further DRM (default 0)"),
    ],
    outcomes: OUTCOMES,
    measures: &[],
};

impl OrdersChange {
    /// Builds the roll. Errors (keyed by the bare step key): the desired order
    /// is the current one.
    pub fn new(edition: Edition, input: &OrdersChangeInput) -> Result<OrdersChange, InputError> {
        let d = &ORDERS_DRMS[edition as usize];
        let number = orders_change_number(input.order, input.to).ok_or_else(|| {
            let others: Vec<&str> = Order::ALL
                .iter()
                .filter(|&&o| o != input.order)
                .map(|o| o.name())
                .collect();
            key_err(
                "to",
                format!(
                    "the wing already has a {} order: the Orders Change Table (5.7) has no entry",
                    input.order
                ),
            )
            .accepted(others.join(", "))
        })?;
        let mut mods = Vec::new();
        input.leadership.push(&mut mods)?;
        flag_mod(
            &mut mods,
            input.leader_adjacent_enemy,
            "leader adjacent to enemy",
            d.leader_adjacent_enemy,
        );
        if input.cavalry_wing {
            match input.to {
                Order::Charge => flag_mod(
                    &mut mods,
                    true,
                    "cavalry wing changing to Charge",
                    d.cavalry_wing_to_charge,
                ),
                Order::ReceiveCharge => flag_mod(
                    &mut mods,
                    true,
                    "cavalry wing changing to Receive Charge",
                    d.cavalry_wing_to_receive_charge,
                ),
                _ => {}
            }
        }
        flag_mod(
            &mut mods,
            input.wing_mostly_shaken && input.to == Order::Rally,
            "changing to Rally, over half the wing MS/MB/eliminated",
            d.wing_mostly_shaken_to_rally,
        );
        flag_mod(&mut mods, true, "extra_drm", input.extra_drm);
        Ok(OrdersChange(OrderCheck::new(number, mods)))
    }

    /// Reads a scenario step (see [`ORDERS_CHANGE_INFO`]).
    pub fn from_step(
        f: &mut Fields,
        _units: &[Unit],
        edition: Edition,
    ) -> Result<OrdersChange, InputError> {
        f.has("procedure");
        let input = OrdersChangeInput {
            order: req_order(f, "order")?,
            to: req_order(f, "to")?,
            leadership: Leadership::read(f)?,
            leader_adjacent_enemy: f.flag("leader_adjacent_enemy")?,
            cavalry_wing: f.flag("cavalry_wing")?,
            wing_mostly_shaken: f.flag("wing_mostly_shaken")?,
            extra_drm: read_extra(f)?,
        };
        let p = OrdersChange::new(edition, &input).map_err(|e| relocate(f, e))?;
        f.finish()?;
        Ok(p)
    }
}

/// Everything an Interception roll (9.3) depends on.
#[derive(Clone, Debug, PartialEq)]
pub struct InterceptionInput {
    /// The cavalry unit's current order.
    pub order: Order,
    /// The cavalry unit's original (printed) morale.
    pub original_morale: u8,
    /// The summed ratings of the AC and/or WC stacked with the unit (0 if none).
    pub leader: i8,
    /// NGBG: interceptions at Halmstad (series card).
    pub halmstad: bool,
    /// Any further DRM.
    pub extra_drm: i8,
    /// Read the SFO card's "Original Morale of 6" as exactly 6 (the old
    /// reading, `[rules] sfo_interception_morale_6 = "exactly-6"`) instead
    /// of "6 or less", as the series card prints it.
    pub sfo_six_exactly: bool,
}

/// What `pikeshot list` shows of `interception`.
pub const INTERCEPTION_INFO: ProcedureInfo = ProcedureInfo {
    name: "interception",
    rule: "9.3",
    summary: "Interception (cavalry only): d10 + DRM ≤ the order's number (Charge 0-5, Make Ready 0-4, Receive Charge 0-3, Rally NA)",
    keys: &[
        (
            "unit",
            "the intercepting cavalry unit (original morale 8: -1; 6 (series: 6 or less): +1)",
        ),
        (
            "order",
            "its current order (default the unit's `order`; rally is NA)",
        ),
        (
            "leader",
            "0..=-6: rating(s) of the AC and/or WC stacked with it (default the unit's `leader`)",
        ),
        (
            "halmstad",
            "true: NGBG interceptions at Halmstad, +1 (series only)",
        ),
        ("extra_drm", "-9..=9: any further DRM (default 0)"),
    ],
    outcomes: OUTCOMES,
    measures: &[],
};

impl Interception {
    /// Builds the roll. Errors (keyed by the bare step key): a Rally order
    /// (NA), a modifier the edition's card lacks.
    pub fn new(edition: Edition, input: &InterceptionInput) -> Result<Interception, InputError> {
        let d = &ORDERS_DRMS[edition as usize];
        let number = interception_number(input.order)
            .ok_or_else(|| na_order("order", input.order, "Interception Table (9.3)"))?;
        let mut mods = Vec::new();
        // Morale 9 reads as 8 on every table (docs/rules/mpbs.md, "Morale 9").
        let morale = chart_morale(input.original_morale);
        flag_mod(
            &mut mods,
            morale == 8,
            &format!("original morale {}", input.original_morale),
            d.interception_morale_8,
        );
        // SFO "Original Morale of 6" reads "6 or less" unless switched
        // (docs/rules/mpbs.md, "9.3 Interception").
        let low_from = if input.sfo_six_exactly {
            d.interception_low_morale_from
        } else {
            0
        };
        flag_mod(
            &mut mods,
            (low_from..=6).contains(&morale),
            &format!("original morale {}", input.original_morale),
            d.interception_low_morale,
        );
        flag_mod(&mut mods, true, "stacked leader rating", input.leader);
        edition_only(
            &mut mods,
            input.halmstad,
            "halmstad",
            "NGBG: interception at Halmstad",
            d.interception_halmstad,
            edition,
        )?;
        flag_mod(&mut mods, true, "extra_drm", input.extra_drm);
        Ok(Interception(OrderCheck::new(number, mods)))
    }

    /// Reads a scenario step (see [`INTERCEPTION_INFO`]) with the default
    /// readings.
    pub fn from_step(
        f: &mut Fields,
        units: &[Unit],
        edition: Edition,
    ) -> Result<Interception, InputError> {
        Interception::from_step_with(f, units, edition, false)
    }

    /// As [`Interception::from_step`], reading the SFO card's "Original
    /// Morale of 6" as exactly 6 when `sfo_six_exactly`.
    pub fn from_step_with(
        f: &mut Fields,
        units: &[Unit],
        edition: Edition,
        sfo_six_exactly: bool,
    ) -> Result<Interception, InputError> {
        f.has("procedure");
        let unit = find_unit(f, "unit", units)?;
        if !unit.kind.is_cavalry() {
            return Err(f
                .err(
                    "unit",
                    format!(
                        "{} is {}: the Interception Table (9.3) is for cavalry units only",
                        unit.name, unit.kind
                    ),
                )
                .accepted("a cuirassier or arquebusier unit"));
        }
        let (order, order_key) = match read_order(f, "order")? {
            Some(o) => (o, "order"),
            None => (unit.order, "unit"),
        };
        let input = InterceptionInput {
            order,
            original_morale: unit.morale,
            leader: f
                .int("leader", -6, 0)?
                .map_or(unit.leader.unwrap_or(0), |v| v as i8),
            halmstad: f.flag("halmstad")?,
            extra_drm: read_extra(f)?,
            sfo_six_exactly,
        };
        let p = Interception::new(edition, &input).map_err(|mut e| {
            if e.key.as_deref() == Some("order") {
                e.key = Some(order_key.to_string());
            }
            relocate(f, e)
        })?;
        f.finish()?;
        Ok(p)
    }
}

/// One row of the Orders Restriction Chart (5.6): what a unit under the
/// order may do, as printed (¹–⁴ are footnotes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RestrictionRow {
    /// The order.
    pub order: Order,
    /// Move.
    pub movement: &'static str,
    /// Fire.
    pub fire: &'static str,
    /// Reform.
    pub reform: &'static str,
    /// Rally.
    pub rally: &'static str,
}

/// Orders Restriction Chart (5.6), the same cells on both cards.
pub const ORDERS_RESTRICTION: [RestrictionRow; 4] = [
    RestrictionRow {
        order: Order::Charge,
        movement: "Full ¹",
        fire: "Yes",
        reform: "No",
        rally: "No",
    },
    RestrictionRow {
        order: Order::MakeReady,
        movement: "Full ²",
        fire: "Yes ⁴",
        reform: "w/Leader",
        rally: "No",
    },
    RestrictionRow {
        order: Order::ReceiveCharge,
        movement: "1 Hex ²",
        fire: "Yes ⁴",
        reform: "Yes",
        rally: "w/Leader",
    },
    RestrictionRow {
        order: Order::Rally,
        movement: "Full ³",
        fire: "Yes ⁴",
        reform: "Yes",
        rally: "Yes",
    },
];

/// Footnote 1 of the Orders Restriction Chart, summarised, per edition: the
/// one difference between the cards is which enemy the move must close on.
pub const RESTRICTION_FOOTNOTE_1: [&str; 2] = [
    "¹ must end at least 1 hex closer to the closest enemy unit it can see (LI need not move adjacent to the front of enemy HI); no Pass, Retreating Fire or Withdraw reaction",
    "¹ must end at least 1 hex closer to the closest enemy unit not already engaged (LI need not move adjacent to the front of enemy HI); no Pass, Retreating Fire or Withdraw reaction",
];

/// Footnotes 2–4 and the w/Leader key of the Orders Restriction Chart,
/// summarised (the same on both cards).
pub const RESTRICTION_FOOTNOTES: [&str; 4] = [
    "² may not move adjacent to an enemy unit",
    "³ may not move any closer to an enemy unit",
    "⁴ no Advancing Fire; Salvo, Skirmishing and Retreating Fire allowed",
    "w/Leader = only when stacked with or adjacent to a leader (5.6, 13.3)",
];

/// Formation Effects on Movement Chart (6.3), the same on both cards.
pub const FORMATION_EFFECTS: [(&str, &str); 7] = [
    ("Formation Normal", "Full MA"),
    ("Formation Shaken", "Half MA"),
    ("Formation Broken", "No Movement"),
    ("Morale Broken (no formation)", "No Movement"),
    ("Hedgehog", "No Movement"),
    ("Open Order", "Full MA, No Formation Hits"),
    ("Column", "MA +2, No Formation Hits"),
];

fn range(n: Option<u8>) -> String {
    n.map_or("NA".to_string(), |n| format!("0-{n}"))
}

/// The orders charts of an edition: Continuation and Preemption, Orders
/// Change, Interception, Orders Restriction, Formation Effects on Movement.
pub fn charts(edition: Edition) -> Vec<Chart> {
    let d = &ORDERS_DRMS[edition as usize];
    let order_label =
        |o: Order| ["Charge", "Make Ready", "Receive Charge", "Rally"][o as usize].to_string();
    let mut cp_notes = vec![
        "#-# = die roll needed for success; NA = not allowed".to_string(),
        "± WC's rating [wc_rating] + AC's rating if adjacent or stacked with the WC [ac_rating, ac_with_wc]".into(),
        format!(
            "{:+} WC adjacent to enemy unit, not Morale Broken [wc_adjacent_enemy]",
            d.wc_adjacent_enemy
        ),
        format!("{:+} Cavalry Wing [cavalry_wing]", d.cavalry_wing),
        format!(
            "Continuation only: {:+} Second Attempt [second_attempt]",
            d.second_attempt
        ),
    ];
    if let Some(v) = d.landskrona {
        cp_notes.push(format!(
            "Continuation only: {v:+} NGBG, all rolls during Landskrona [landskrona]"
        ));
    }
    cp_notes.push(format!(
        "Preemption only: {:+} WC marked No Continue [wc_no_continue]",
        d.wc_no_continue
    ));
    let cp = Chart {
        id: "continuation-preemption",
        title: "Continuation and Preemption Table".into(),
        rule: "4.3, 4.4",
        headers: ["Current Order", "Continuation", "Preemption"]
            .map(String::from)
            .to_vec(),
        rows: Order::ALL
            .iter()
            .map(|&o| {
                vec![
                    order_label(o),
                    range(continuation_number(o)),
                    range(preemption_number(o)),
                ]
            })
            .collect(),
        notes: cp_notes,
    };
    let oc = Chart {
        id: "orders-change",
        title: "Orders Change Table".into(),
        rule: "5.7",
        headers: std::iter::once("Current \\ Desired Order".to_string())
            .chain(Order::ALL.iter().map(|&o| order_label(o)))
            .collect(),
        rows: Order::ALL
            .iter()
            .map(|&from| {
                std::iter::once(order_label(from))
                    .chain(Order::ALL.iter().map(|&to| {
                        orders_change_number(from, to).map_or("-".to_string(), |n| format!("0-{n}"))
                    }))
                    .collect()
            })
            .collect(),
        notes: vec![
            "± WC's rating [wc_rating] plus the AC's rating if adjacent or stacked with the WC [ac_rating, ac_with_wc]".into(),
            format!(
                "{:+} Leader adjacent to enemy unit, not Morale Broken [leader_adjacent_enemy]",
                d.leader_adjacent_enemy
            ),
            format!(
                "{:+} Cavalry Wing changing to Charge [cavalry_wing]",
                d.cavalry_wing_to_charge
            ),
            format!(
                "{:+} Cavalry Wing changing to Receive Charge [cavalry_wing]",
                d.cavalry_wing_to_receive_charge
            ),
            format!(
                "{:+} changing to Rally when over half the wing is Morale Shaken, Morale Broken or eliminated [wing_mostly_shaken]",
                d.wing_mostly_shaken_to_rally
            ),
        ],
    };
    let low = if d.interception_low_morale_from >= 6 {
        "Original Morale of 6".to_string()
    } else {
        "Original Morale of 6 or less".to_string()
    };
    let mut ic_notes = vec![
        "Cavalry units only; #-# = die roll needed to intercept; NA = not allowed".to_string(),
        format!("{:+} Original Morale of 8", d.interception_morale_8),
        format!("{:+} {low}", d.interception_low_morale),
        "± AC and/or WC's rating if stacked with the cavalry unit [leader]".into(),
    ];
    if let Some(v) = d.interception_halmstad {
        ic_notes.push(format!("{v:+} NGBG: interceptions at Halmstad [halmstad]"));
    }
    let ic = Chart {
        id: "interception",
        title: "Interception Table".into(),
        rule: "9.3",
        headers: ["Current Order", "Die roll to Intercept"]
            .map(String::from)
            .to_vec(),
        rows: Order::ALL
            .iter()
            .map(|&o| vec![order_label(o), range(interception_number(o))])
            .collect(),
        notes: ic_notes,
    };
    let mut rs_notes = vec![RESTRICTION_FOOTNOTE_1[edition as usize].to_string()];
    rs_notes.extend(RESTRICTION_FOOTNOTES.iter().map(|s| s.to_string()));
    let rs = Chart {
        id: "orders-restriction",
        title: "Orders Restriction Chart".into(),
        rule: "5.6",
        headers: ["Order", "Move", "Fire", "Reform", "Rally"]
            .map(String::from)
            .to_vec(),
        rows: ORDERS_RESTRICTION
            .iter()
            .map(|r| {
                vec![
                    order_label(r.order),
                    r.movement.into(),
                    r.fire.into(),
                    r.reform.into(),
                    r.rally.into(),
                ]
            })
            .collect(),
        notes: rs_notes,
    };
    let fe = Chart {
        id: "formation-effects",
        title: "Formation Effects on Movement Chart".into(),
        rule: "6.3",
        headers: ["Formation", "Effects"].map(String::from).to_vec(),
        rows: FORMATION_EFFECTS
            .iter()
            .map(|(a, b)| vec![a.to_string(), b.to_string()])
            .collect(),
        notes: vec![],
    };
    vec![cp, oc, ic, rs, fe]
}

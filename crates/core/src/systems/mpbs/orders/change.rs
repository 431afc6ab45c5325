//! Orders Change (5.7): the roll, its input and its step keys.

use super::*;
use crate::systems::Key;

order_procedure! {
    /// Orders Change (5.7): the wing takes the desired order on success.
    OrdersChange(OrdersChangeInput)
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

/// `cavalry_wing` on Orders Change, declared once: its doc and its reader.
const CAVALRY_WING_CHANGE: Key<bool> = Key::flag(
    "cavalry_wing",
    "true: a cavalry wing: -1 changing to Charge, +1 changing to Receive Charge",
);

impl OrdersChangeInput {
    /// Reads the step's keys.
    fn read(f: &mut Fields) -> Result<OrdersChangeInput, InputError> {
        Ok(OrdersChangeInput {
            order: req_order(f, "order")?,
            to: req_order(f, "to")?,
            leadership: Leadership::read(f)?,
            leader_adjacent_enemy: LEADER_ADJACENT_ENEMY.get(f)?,
            cavalry_wing: CAVALRY_WING_CHANGE.get(f)?,
            wing_mostly_shaken: WING_MOSTLY_SHAKEN.get(f)?,
            extra_drm: read_extra(f)?,
        })
    }
}

/// `leader_adjacent_enemy`, declared once: its doc and its reader.
pub(crate) const LEADER_ADJACENT_ENEMY: Key<bool> = Key::flag(
    "leader_adjacent_enemy",
    "true: leader adjacent to an enemy unit not Morale Broken, +1",
);

/// `wing_mostly_shaken`, declared once: its doc and its reader.
pub(crate) const WING_MOSTLY_SHAKEN: Key<bool> = Key::flag(
    "wing_mostly_shaken",
    "true: over half the wing MS, MB or eliminated: -2 changing to Rally",
);

/// What `pikeshot list` shows of `orders-change`.
pub const ORDERS_CHANGE_INFO: ProcedureInfo = ProcedureInfo {
    name: "orders-change",
    rule: "5.7",
    summary: "Orders Change: d10 + DRM ≤ the number for current → desired order",
    keys: order_keys!(
        [
            KeyDoc::one_of("order", Order::NAMES, "required: the wing's current order"),
            KeyDoc::one_of(
                "to",
                Order::NAMES,
                "required: the desired order (not the current one)",
            ),
        ],
        [
            LEADER_ADJACENT_ENEMY.doc(),
            CAVALRY_WING_CHANGE.doc(),
            WING_MOSTLY_SHAKEN.doc(),
        ]
    ),
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
        let mut mods = input.leadership.terms()?;
        key_flag_mod(
            &mut mods,
            input.leader_adjacent_enemy,
            "leader_adjacent_enemy",
            "leader adjacent to enemy",
            d.leader_adjacent_enemy,
        );
        let cavalry = match input.to {
            Order::Charge => Some((
                "cavalry wing changing to Charge",
                d.cavalry_wing_to_charge,
                "cavalry_wing = true, to = charge",
            )),
            Order::ReceiveCharge => Some((
                "cavalry wing changing to Receive Charge",
                d.cavalry_wing_to_receive_charge,
                "cavalry_wing = true, to = receive-charge",
            )),
            _ => None,
        };
        if let (true, Some((what, v, key))) = (input.cavalry_wing, cavalry) {
            flag_mod(&mut mods, true, what, v, Source::key(key));
        }
        flag_mod(
            &mut mods,
            input.wing_mostly_shaken && input.to == Order::Rally,
            "changing to Rally, over half the wing MS/MB/eliminated",
            d.wing_mostly_shaken_to_rally,
            Source::key("wing_mostly_shaken = true, to = rally"),
        );
        Ok(OrdersChange::checked(number, mods, input.extra_drm))
    }
}

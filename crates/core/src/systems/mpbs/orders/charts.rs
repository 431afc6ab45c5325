//! The lookups without dice (Orders Restriction 5.6, Formation Effects
//! 6.3) and the orders charts for `pikeshot tables`.

use super::*;
use crate::systems::chart::{headers, labelled};

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
        headers: headers(&["Current Order", "Continuation", "Preemption"]),
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
        headers: labelled("Current \\ Desired Order", Order::ALL.iter().map(|&o| order_label(o))),
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
        headers: headers(&["Current Order", "Die roll to Intercept"]),
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
        headers: headers(&["Order", "Move", "Fire", "Reform", "Rally"]),
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
        headers: headers(&["Formation", "Effects"]),
        rows: FORMATION_EFFECTS
            .iter()
            .map(|(a, b)| vec![a.to_string(), b.to_string()])
            .collect(),
        notes: vec![],
    };
    vec![cp, oc, ic, rs, fe]
}

//! Interception (9.3, cavalry only): the roll, its input and its step keys.

use super::*;
use crate::systems::Key;

order_procedure! {
    /// Interception (9.3): the cavalry unit intercepts on success.
    Interception
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

/// `leader`, declared once: its doc and its reader.
pub(crate) const LEADER: Key<i64> = Key::int(
    "leader",
    -6,
    0,
    "rating(s) of the AC and/or WC stacked with it (default the unit's `leader`)",
);

/// `halmstad`, declared once: its doc and its reader.
pub(crate) const HALMSTAD: Key<bool> = Key::flag(
    "halmstad",
    "true: NGBG interceptions at Halmstad, +1 (series only)",
);

/// What `pikeshot list` shows of `interception`.
pub const INTERCEPTION_INFO: ProcedureInfo = ProcedureInfo {
    name: "interception",
    rule: "9.3",
    summary: "Interception (cavalry only): d10 + DRM ≤ the order's number (Charge 0-5, Make Ready 0-4, Receive Charge 0-3, Rally NA)",
    keys: &[
        KeyDoc::unit(
            "unit",
            "required: the intercepting cavalry unit (original morale 8: -1; 6 (series: 6 or less): +1)",
        ),
        KeyDoc::one_of(
            "order",
            &ORDERS_BUT_RALLY,
            "its current order (default the unit's `order`)",
        ),
        LEADER.doc(),
        HALMSTAD.doc(),
        EXTRA_DRM_KEY,
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
            Source::unit("the unit's original (printed) morale"),
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
            Source::unit("the unit's original (printed) morale"),
        );
        flag_mod(
            &mut mods,
            true,
            "stacked leader rating",
            input.leader,
            Source::key("leader"),
        );
        edition_only(
            &mut mods,
            input.halmstad,
            "halmstad",
            "NGBG: interception at Halmstad",
            d.interception_halmstad,
            edition,
        )?;
        Ok(Interception(OrderCheck::with_extra(
            number,
            mods,
            input.extra_drm,
        )))
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
            leader: LEADER
                .read(f)?
                .map_or(unit.leader.unwrap_or(0), |v| v as i8),
            halmstad: HALMSTAD.get(f)?,
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

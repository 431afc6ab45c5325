//! Input helpers shared by the Musket & Pike procedures: reading a name the
//! two cards spell differently, locating errors of pure constructors, and
//! the keys every roll accepts.

use super::{Edition, Unit};
use crate::error::{InputError, did_you_mean};
use crate::scenario::Fields;
use crate::scenario::course::find_unit;
use crate::systems::{Key, KeyDoc};

/// For a name only the other card prints, the name on this card to suggest
/// instead, as (name, suggestion): the row or kind the cards pair with it
/// (docs/rules/mpbs.md, "Card names across editions").
pub const COUNTERPARTS: &[(&str, &str)] = &[
    ("vineyard", "thicket"),
    ("heavy-infantry-no-pikes", "heavy-infantry"),
    ("double-3lb", "3lb"),
    ("chateau", "village"),
];

/// The name on this card nearest to `given`: its counterpart, a close
/// spelling, or the name at the least edit distance.
pub fn nearest(given: &str, here: &[&'static str]) -> Option<String> {
    if let Some(&(_, c)) = COUNTERPARTS
        .iter()
        .find(|(n, c)| *n == given && here.contains(c))
    {
        return Some(c.to_string());
    }
    did_you_mean(given, here).or_else(|| {
        here.iter()
            .min_by_key(|n| strsim::levenshtein(given, n))
            .map(|n| n.to_string())
    })
}

/// Reads the name at `key` as this edition's card names it (`parse`), with
/// the card's other names. A name only the other card prints is refused with
/// "on the `<edition>` card only" and the nearest name on this card; any other
/// unknown name with the accepted names and a "did you mean".
pub fn card_name<T>(
    f: &mut Fields,
    key: &'static str,
    what: &str,
    edition: Edition,
    parse: impl Fn(Edition, &str) -> Option<T>,
    names: impl Fn(Edition) -> Vec<&'static str>,
) -> Result<Option<T>, InputError> {
    let Some(s) = f.string(key)? else {
        return Ok(None);
    };
    if let Some(v) = parse(edition, &s) {
        return Ok(Some(v));
    }
    let here = names(edition);
    let other = Edition::ALL
        .into_iter()
        .find(|&e| e != edition && parse(e, &s).is_some());
    let e = match other {
        Some(o) => {
            let mut e = InputError::new(format!(
                "{what} \"{s}\" is on the {o} card only, not on the {}",
                edition.card()
            ))
            .one_of(&s, &here);
            e.suggestion = nearest(&s, &here);
            e
        }
        None => InputError::new(format!("unknown {what} \"{s}\"")).one_of(&s, &here),
    };
    Err(f.locate(key, e))
}

pub(crate) use crate::scenario::fields::{key_err, relocate};

/// Ends reading a step whose procedure its constructor `built`: the
/// constructor's error located at its key of the step, else the step's
/// unknown keys refused, else the procedure.
pub(crate) fn finish_built<P>(
    f: &mut Fields,
    built: Result<P, InputError>,
) -> Result<P, InputError> {
    let p = built.map_err(|e| relocate(f, e))?;
    f.finish()?;
    Ok(p)
}

/// The value of an NGBG DRM line switched on by step key `key`: `line` as
/// the edition's card prints it, an error naming the key when the card has
/// no such line (NGBG lines are on the series card only).
pub(crate) fn ngbg_drm(key: &str, line: Option<i8>, edition: Edition) -> Result<i8, InputError> {
    line.ok_or_else(|| {
        key_err(
            key,
            format!(
                "the {} has no `{key}` DRM (NGBG lines are on the series card only)",
                edition.card()
            ),
        )
    })
}

/// What `pikeshot list` shows of `extra_drm`, the step key [`read_extra`]
/// reads.
pub(crate) const EXTRA_DRM_KEY: KeyDoc = EXTRA_DRM.doc();

/// `extra_drm`, declared once.
pub(crate) const EXTRA_DRM: Key<i64> = Key::int("extra_drm", -9, 9, "any further DRM").or("0");

/// Reads `extra_drm` (−9..=9, default 0).
pub(crate) fn read_extra(f: &mut Fields) -> Result<i8, InputError> {
    Ok(EXTRA_DRM.get(f)? as i8)
}

/// Reads a fire step's `firer` and `target` (two different units).
pub fn firer_and_target<'u>(
    f: &mut Fields,
    units: &'u [Unit],
) -> Result<(&'u Unit, &'u Unit), InputError> {
    f.has("procedure");
    let firer = find_unit(f, "firer", units)?;
    let target = find_unit(f, "target", units)?;
    if firer.name == target.name {
        return Err(f.err("target", "a unit cannot fire at itself"));
    }
    Ok((firer, target))
}

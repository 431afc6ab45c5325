//! File names: slugs of course and variant names (`report::naming`).

use pikeshot::report::naming::*;

#[test]
fn slugs_fold_punctuation_and_case() {
    assert_eq!(slug("Salvo, then Charge!", 60), "salvo-then-charge");
    assert_eq!(slug("  --  ", 60), "");
    assert_eq!(variant_slug("units.tercio.terrain=woods"), "terrain-woods");
    assert_eq!(
        variant_slug("units.tercio.terrain=woods, units.swedes.morale=6"),
        "terrain-woods-morale-6"
    );
    assert_eq!(variant_slug(""), "");
}

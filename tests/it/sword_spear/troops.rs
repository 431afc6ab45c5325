//! Sword & Spear troop tables are indexed by troop (`sword_spear::troops`).

use pikeshot::systems::sword_spear::troops::*;

#[test]
fn rows_are_indexed_by_troop() {
    for (i, t) in Troop::ALL.iter().enumerate() {
        assert_eq!(MOVEMENT[i].troop, *t);
        assert_eq!(t.row().troop, *t);
    }
}

//! Hakkaa unit status: how D and F results move it (`hakkaa::unit`).

use pikeshot::systems::hakkaa::unit::*;

#[test]
fn d_and_f_move_status_one_way() {
    use Effect::*;
    use Status::*;
    assert_eq!(Steady.after(Disorder), Disordered);
    assert_eq!(Disordered.after(Disorder), FellBack);
    assert_eq!(FellBack.after(Disorder), FellBack);
    assert_eq!(Steady.after(FallBackOrFlee), FellBack);
    assert_eq!(Disordered.after(FallBackOrFlee), Fled);
    assert_eq!(FellBack.after(FallBackOrFlee), Fled);
    assert_eq!(Fled.after(Disorder), Fled);
    assert_eq!(Disordered.after(Effect::None), Disordered);
    assert_eq!(Steady.fall_back(), FellBack);
    assert_eq!(Fled.fall_back(), Fled);
}

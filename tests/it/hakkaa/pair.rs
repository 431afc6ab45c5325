//! Hakkaa two-unit course leaves decode to the states they came from (`hakkaa::pair`).

use pikeshot::outcome::Measure;
use pikeshot::systems::hakkaa::pair::*;
use pikeshot::systems::hakkaa::unit::{Status, UnitState};

#[test]
fn leaves_decode_to_the_states_they_came_from() {
    let s = space(
        Ranges {
            target_losses: 2,
            target_commander: true,
            own_losses: 1,
            own_commander: true,
        },
        vec![Measure::new("contact", 0, 1)],
    );
    let t0 = UnitState {
        steps: 3,
        status: Status::Steady,
        commander: true,
    };
    let o0 = UnitState {
        steps: 2,
        status: Status::Disordered,
        commander: true,
    };
    for (t1, o1) in [
        (
            UnitState {
                steps: 1,
                status: Status::FellBack,
                commander: false,
            },
            o0,
        ),
        (
            t0,
            UnitState {
                steps: 1,
                status: Status::Fled,
                commander: false,
            },
        ),
    ] {
        let l = leaf(&s, (&t0, &t1), (&o0, &o1), &[1]);
        assert_eq!(decode(&s, l, &t0, &o0), (t1, o1));
        assert_eq!(s.value_of(l, 5), 1);
    }
}

//! Musket & Pike orders rolls against the two cards: Continuation and
//! Preemption (4.3, 4.4), Orders Change (5.7), Interception (9.3), and the
//! Orders Restriction (5.6) and Formation Effects (6.3) charts. Every number,
//! DRM assembly per edition, exact success chances against hand arithmetic,
//! Monte Carlo against exact.

// Input errors are cold, as in the library (lib.rs).
#![allow(clippy::result_large_err)]

use crate::support::close;
use crate::support::located::assert_step_err;
use crate::support::mpbs::{assert_steps_refused, build};
use crate::support::ok;
use crate::support::step::one_step_doc as doc;
use pikeshot::dice::Sampler;
use pikeshot::engine::exact::exact;
use pikeshot::engine::{Kernel, KernelMode, ProcedureKernel};
use pikeshot::error::InputError;
use pikeshot::procedure::Procedure;
use pikeshot::scenario::Fields;
use pikeshot::stats;
use pikeshot::systems::mpbs::orders::{
    self, Activation, Continuation, ContinuationInput, Interception, Leadership, OrderCheck,
    OrdersChange, Preemption,
};
use pikeshot::systems::mpbs::{Edition, Order, Unit};

use Edition::{Series, Sfo};
use Order::{Charge, MakeReady, Rally, ReceiveCharge};

// ---------------------------------------------------------------- helpers

/// Exact probability of "success".
fn p_success<P: Procedure>(p: &P) -> f64 {
    let probs = stats::outcome_probs(p.space(), &exact(p, 1000).unwrap());
    assert_eq!(p.space().outcomes(), ["success", "failure"]);
    assert!((probs[0] + probs[1] - 1.0).abs() < 1e-12);
    probs[0]
}

fn step<T>(
    edition: Edition,
    procedure: &str,
    keys: &str,
    from_step: impl Fn(&mut Fields, &[Unit], Edition) -> Result<T, InputError>,
) -> Result<T, InputError> {
    build(
        &doc("", &format!("procedure = \"{procedure}\"\n{keys}")),
        edition,
        from_step,
    )
}

/// What the card gives for one hand-worked order check: its DRM and number
/// (where the case pins them) and the chance of success.
type Hand = (Option<i32>, Option<u8>, f64);

/// Asserts the roll `p` (whose order check is `check`) gives what `hand`
/// says, naming `case` when it does not.
#[track_caller]
fn assert_hand<P: Procedure>(case: &str, p: &P, check: &OrderCheck, (drm, number, success): Hand) {
    if let Some(drm) = drm {
        assert_eq!(check.drm(), drm, "{case}");
    }
    if let Some(number) = number {
        assert_eq!(check.number(), number, "{case}");
    }
    assert!(close(p_success(p), success), "{case}");
}

// ---------------------------------------------------------------- every number

#[test]
fn continuation_and_preemption_numbers() {
    // 4.3/4.4 as printed: Charge 0-3/0-4, Make Ready 0-2/0-3, Receive Charge
    // 0-1/0-2, Rally NA/NA.
    let printed = [
        (Charge, Some(3), Some(4)),
        (MakeReady, Some(2), Some(3)),
        (ReceiveCharge, Some(1), Some(2)),
        (Rally, None, None),
    ];
    for (order, cont, pre) in printed {
        assert_eq!(orders::continuation_number(order), cont, "{order}");
        assert_eq!(orders::preemption_number(order), pre, "{order}");
    }
    for edition in Edition::ALL {
        let c = &orders::charts(edition)[0];
        assert_eq!(c.id, "continuation-preemption");
        let rows: Vec<String> = c.rows.iter().map(|r| r.join(" | ")).collect();
        assert_eq!(
            rows,
            [
                "Charge | 0-3 | 0-4",
                "Make Ready | 0-2 | 0-3",
                "Receive Charge | 0-1 | 0-2",
                "Rally | NA | NA"
            ]
        );
    }
}

#[test]
fn orders_change_numbers() {
    // 5.7 as printed, rows current order, columns desired Charge, Make
    // Ready, Receive Charge, Rally.
    let printed = [
        "- 0-3 0-2 0-5",
        "0-5 - 0-5 0-6",
        "0-3 0-5 - 0-4",
        "0-1 0-4 0-3 -",
    ];
    for (from, row) in Order::ALL.iter().zip(printed) {
        for (to, cell) in Order::ALL.iter().zip(row.split_whitespace()) {
            let want = cell.strip_prefix("0-").map(|n| n.parse::<u8>().unwrap());
            assert_eq!(
                orders::orders_change_number(*from, *to),
                want,
                "{from} -> {to}"
            );
        }
    }
    for edition in Edition::ALL {
        let c = &orders::charts(edition)[1];
        assert_eq!(c.id, "orders-change");
        for (r, row) in c.rows.iter().zip(printed) {
            assert_eq!(r[1..].join(" "), row);
        }
    }
}

#[test]
fn interception_numbers() {
    // 9.3 as printed: Charge 0-5, Make Ready 0-4, Receive Charge 0-3, Rally NA.
    for (order, want) in [
        (Charge, Some(5)),
        (MakeReady, Some(4)),
        (ReceiveCharge, Some(3)),
        (Rally, None),
    ] {
        assert_eq!(orders::interception_number(order), want);
    }
    for edition in Edition::ALL {
        let c = &orders::charts(edition)[2];
        assert_eq!(c.id, "interception");
        let cells: Vec<&str> = c.rows.iter().map(|r| r[1].as_str()).collect();
        assert_eq!(cells, ["0-5", "0-4", "0-3", "NA"]);
    }
    assert!(
        orders::charts(Sfo)[2]
            .notes
            .iter()
            .any(|n| n == "+1 Original Morale of 6")
    );
    assert!(
        orders::charts(Series)[2]
            .notes
            .iter()
            .any(|n| n == "+1 Original Morale of 6 or less")
    );
}

#[test]
fn success_on_roll_at_most_the_number_at_every_drm() {
    // d10 (0-9) + DRM <= N succeeds for faces 0..=N-DRM: clamp(N - DRM + 1, 0, 10) of 10.
    for number in 0..=6u8 {
        for drm in -12..=12i32 {
            let c = OrderCheck::new(
                number,
                vec![pikeshot::explain::Term::new(
                    "x",
                    "",
                    drm,
                    pikeshot::explain::Source::key("x"),
                )],
            );
            let want = (number as i32 - drm + 1).clamp(0, 10);
            assert_eq!(c.successes() as i32, want);
            assert!(
                close(p_success(&c), want as f64 / 10.0),
                "N {number} DRM {drm}"
            );
        }
    }
}

// ---------------------------------------------------------------- continuation / preemption

#[test]
fn continuation_hand_arithmetic() {
    let cases: [(&str, Hand); 4] = [
        // Charge 0-3, DRM 0: faces 0-3 succeed: 4/10.
        ("order = \"charge\"", (None, None, 0.4)),
        // With a -2 WC: faces 0-5: 6/10.
        ("order = \"charge\"\nwc_rating = -2", (Some(-2), None, 0.6)),
        // Make Ready 0-2, WC -1, AC -2 with the WC, adjacent enemy +1, cavalry
        // wing -1, second attempt +1: DRM -2, faces 0-4: 5/10.
        (
            "order = \"make-ready\"\nwc_rating = -1\nac_rating = -2\nac_with_wc = true\nwc_adjacent_enemy = true\ncavalry_wing = true\nsecond_attempt = true",
            (Some(-2), Some(2), 0.5),
        ),
        // The AC's rating counts only with the WC.
        (
            "order = \"receive-charge\"\nac_rating = -3",
            (Some(0), None, 0.2),
        ),
    ];
    for edition in Edition::ALL {
        for (keys, hand) in cases {
            let p = ok(step(edition, "continuation", keys, Continuation::from_step));
            assert_hand(&format!("{edition} {keys}"), &p, p.check(), hand);
        }
    }
    // Landskrona +1: series only. Charge 0-3 at +1: faces 0-2: 3/10.
    let keys = "order = \"charge\"\nlandskrona = true";
    let p = ok(step(Series, "continuation", keys, Continuation::from_step));
    assert!(close(p_success(&p), 0.3));
    assert_steps_refused(
        Sfo,
        "",
        Continuation::from_step,
        &[(
            &format!("procedure = \"continuation\"\n{keys}"),
            "landskrona",
            "series card only",
        )],
    );
}

#[test]
fn preemption_hand_arithmetic() {
    let cases: [(&str, Hand); 2] = [
        // Make Ready 0-3, WC marked No Continue +1: faces 0-2: 3/10.
        (
            "order = \"make-ready\"\nwc_no_continue = true",
            (None, None, 0.3),
        ),
        // Charge 0-4, cavalry wing -1, WC -3: faces 0-8: 9/10.
        (
            "order = \"charge\"\ncavalry_wing = true\nwc_rating = -3",
            (None, None, 0.9),
        ),
    ];
    for edition in Edition::ALL {
        for (keys, hand) in cases {
            let p = ok(step(edition, "preemption", keys, Preemption::from_step));
            assert_hand(&format!("{edition} {keys}"), &p, p.check(), hand);
        }
        // Preemption has no second attempt, continuation no No Continue.
        assert_steps_refused(
            edition,
            "",
            Preemption::from_step,
            &[(
                "procedure = \"preemption\"\norder = \"charge\"\nsecond_attempt = true",
                "second_attempt",
                "unknown key",
            )],
        );
        assert_steps_refused(
            edition,
            "",
            Continuation::from_step,
            &[(
                "procedure = \"continuation\"\norder = \"charge\"\nwc_no_continue = true",
                "wc_no_continue",
                "unknown key",
            )],
        );
    }
}

#[test]
fn rally_is_na_for_continuation_and_preemption() {
    for edition in Edition::ALL {
        assert_steps_refused(
            edition,
            "",
            Continuation::from_step,
            &[(
                "procedure = \"continuation\"\norder = \"rally\"",
                "order",
                "NA",
            )],
        );
        assert_steps_refused(
            edition,
            "",
            Preemption::from_step,
            &[(
                "procedure = \"preemption\"\nwc_rating = -1\norder = \"rally\"",
                "order",
                "NA",
            )],
        );
    }
}

#[test]
fn leadership_keys_are_checked() {
    assert_steps_refused(
        Sfo,
        "",
        Continuation::from_step,
        &[
            (
                "procedure = \"continuation\"\norder = \"charge\"\nac_with_wc = true",
                "ac_with_wc",
                "ac_rating",
            ),
            (
                "procedure = \"continuation\"\norder = \"charge\"\nwc_rating = -4",
                "wc_rating",
                "from -3 to 0",
            ),
        ],
    );
    let text = doc("", "procedure = \"continuation\"\nwc_rating = 0");
    let e = build(&text, Sfo, Continuation::from_step).unwrap_err();
    assert!(e.to_string().contains("missing key `order`"), "{e}");
    // The pure constructor gives the same roll.
    let input = ContinuationInput {
        activation: Activation {
            order: Charge,
            leadership: Leadership {
                wc_rating: -1,
                ac_rating: Some(-1),
                ac_with_wc: true,
            },
            wc_adjacent_enemy: true,
            cavalry_wing: false,
        },
        second_attempt: false,
        landskrona: false,
        extra_drm: 0,
    };
    let p = Continuation::new(Sfo, &input).unwrap();
    assert_eq!(p.check().drm(), -1);
    assert_eq!(p.check().modifiers().len(), 3);
    assert!(close(p_success(&p), 0.5));
}

// ---------------------------------------------------------------- orders change

#[test]
fn orders_change_hand_arithmetic() {
    let cases: [(&str, Hand); 6] = [
        // Rally -> Charge 0-1, cavalry wing -1: faces 0-2: 3/10.
        (
            "order = \"rally\"\nto = \"charge\"\ncavalry_wing = true",
            (Some(-1), None, 0.3),
        ),
        // Charge -> Receive Charge 0-2, cavalry wing +1: faces 0-1: 2/10.
        (
            "order = \"charge\"\nto = \"receive-charge\"\ncavalry_wing = true",
            (Some(1), None, 0.2),
        ),
        // Cavalry wing changing to Make Ready or Rally: no DRM.
        (
            "order = \"charge\"\nto = \"make-ready\"\ncavalry_wing = true",
            (Some(0), None, 0.4),
        ),
        // Make Ready -> Rally 0-6, wing mostly shaken -2: faces 0-8: 9/10.
        (
            "order = \"make-ready\"\nto = \"rally\"\nwing_mostly_shaken = true",
            (Some(-2), None, 0.9),
        ),
        // ... which counts only when changing to Rally.
        (
            "order = \"make-ready\"\nto = \"charge\"\nwing_mostly_shaken = true",
            (Some(0), None, 0.6),
        ),
        // Receive Charge -> Make Ready 0-5, leader adjacent +1, WC -2: faces
        // 0-6: 7/10.
        (
            "order = \"receive-charge\"\nto = \"make-ready\"\nleader_adjacent_enemy = true\nwc_rating = -2",
            (Some(-1), None, 0.7),
        ),
    ];
    for edition in Edition::ALL {
        for (keys, hand) in cases {
            let p = ok(step(
                edition,
                "orders-change",
                keys,
                OrdersChange::from_step,
            ));
            assert_hand(&format!("{edition} {keys}"), &p, p.check(), hand);
        }
        // Same order: refused at `to`.
        let text = doc(
            "",
            "procedure = \"orders-change\"\norder = \"rally\"\nto = \"rally\"",
        );
        let r = build(&text, edition, OrdersChange::from_step);
        let accepted = r.as_ref().unwrap_err().accepted.clone().unwrap();
        assert_eq!(accepted, "charge, make-ready, receive-charge");
        assert_step_err(Some("s.toml"), r, &text, "to", "already has a rally order");
    }
}

// ---------------------------------------------------------------- interception

const CAV: &str = "[units.horse]\nkind = \"cuirassier\"\nmorale = 7\nstrength = 4\n";

fn cav(morale: u8, extra: &str) -> String {
    format!("[units.horse]\nkind = \"arquebusier\"\nmorale = {morale}\nstrength = 4\n{extra}")
}

fn intercept(edition: Edition, units: &str, keys: &str) -> Result<Interception, InputError> {
    let text = doc(
        units,
        &format!("procedure = \"interception\"\nunit = \"horse\"\n{keys}"),
    );
    build(&text, edition, Interception::from_step)
}

#[test]
fn interception_hand_arithmetic() {
    let cases: [(String, &str, Hand); 4] = [
        // Charge 0-5 (the unit's default order), morale 7, no leader: 6/10.
        (CAV.to_string(), "", (Some(0), None, 0.6)),
        // Morale 8 (-1) and a -1 leader stacked: faces 0-7: 8/10.
        (cav(8, "leader = -1\n"), "", (Some(-2), None, 0.8)),
        // The step's `leader` replaces the unit's; `order` the unit's order.
        (
            cav(8, "leader = -1\norder = \"rally\"\n"),
            "order = \"receive-charge\"\nleader = 0",
            (Some(-1), Some(3), 0.5),
        ),
        // Morale 6: +1 on both cards. Make Ready 0-4 at +1: faces 0-3: 4/10.
        (cav(6, "order = \"make-ready\"\n"), "", (Some(1), None, 0.4)),
    ];
    for edition in Edition::ALL {
        for (units, keys, hand) in &cases {
            let p = ok(intercept(edition, units, keys));
            assert_hand(&format!("{edition} {units}{keys}"), &p, p.check(), *hand);
        }
    }
    // Morale 5: the SFO card's "of 6" reads "6 or less" as the series card
    // prints it (+1, docs/rules/mpbs.md, 9.3 Interception); the old reading
    // "exactly 6" (no DRM) is `[rules] sfo_interception_morale_6 = "exactly-6"`,
    // tested in mpbs_between_rolls.rs.
    for edition in [Sfo, Series] {
        let p = ok(intercept(edition, &cav(5, ""), ""));
        assert_hand(
            &format!("{edition} morale 5"),
            &p,
            p.check(),
            (Some(1), None, 0.5),
        );
    }
    // Halmstad +1: series only.
    let p = ok(intercept(Series, CAV, "halmstad = true"));
    assert!(close(p_success(&p), 0.5));
    assert_steps_refused(
        Sfo,
        CAV,
        Interception::from_step,
        &[(
            "procedure = \"interception\"\nunit = \"horse\"\nhalmstad = true",
            "halmstad",
            "series card only",
        )],
    );
}

#[test]
fn interception_refusals() {
    for edition in Edition::ALL {
        let hi = "[units.horse]\nkind = \"heavy-infantry\"\nmorale = 7\nstrength = 6\n";
        assert_steps_refused(
            edition,
            hi,
            Interception::from_step,
            &[(
                "procedure = \"interception\"\nunit = \"horse\"",
                "unit",
                "cavalry units only",
            )],
        );
        // Rally is NA: at `order` when the step names it, at `unit` when the
        // order is the unit's own.
        assert_steps_refused(
            edition,
            CAV,
            Interception::from_step,
            &[(
                "procedure = \"interception\"\nunit = \"horse\"\norder = \"rally\"",
                "order",
                "NA",
            )],
        );
        let units = cav(7, "order = \"rally\"\n");
        assert_steps_refused(
            edition,
            &units,
            Interception::from_step,
            &[(
                "procedure = \"interception\"\nunit = \"horse\"",
                "unit",
                "NA",
            )],
        );
        let text = doc(CAV, "procedure = \"interception\"\nunit = \"hors\"");
        let e = build(&text, edition, Interception::from_step).unwrap_err();
        assert_eq!(e.suggestion.as_deref(), Some("horse"));
    }
}

// ---------------------------------------------------------------- Monte Carlo

#[test]
fn orders_monte_carlo_matches_exact() {
    const N: u64 = 200_000;
    let p = ok(step(
        Series,
        "orders-change",
        "order = \"receive-charge\"\nto = \"rally\"\nwc_rating = -1",
        OrdersChange::from_step,
    ));
    // Receive Charge -> Rally 0-4 at -1: faces 0-5: 6/10.
    let probs = exact(&p, 1000).unwrap();
    assert!(close(probs[0], 0.6));
    for mode in [KernelMode::Direct, KernelMode::Auto] {
        let k = ProcedureKernel::new(p.clone(), mode);
        let mut counts = vec![0u64; p.space().len()];
        k.sample(&mut Sampler::new(0x0bd_0001), N, &mut counts);
        for (leaf, (&c, &q)) in counts.iter().zip(&probs).enumerate() {
            let bound = 4.5 * (q * (1.0 - q) / N as f64).sqrt() + 1e-9;
            let got = c as f64 / N as f64;
            assert!(
                (got - q).abs() <= bound,
                "{mode:?} leaf {leaf}: {got} vs {q}"
            );
        }
    }
}

// ---------------------------------------------------------------- lookup charts

#[test]
fn restriction_and_formation_charts() {
    // 5.6 as printed: Move / Fire / Reform / Rally.
    let printed = [
        "Charge | Full ¹ | Yes | No | No",
        "Make Ready | Full ² | Yes ⁴ | w/Leader | No",
        "Receive Charge | 1 Hex ² | Yes ⁴ | Yes | w/Leader",
        "Rally | Full ³ | Yes ⁴ | Yes | Yes",
    ];
    // 6.3 as printed.
    let formation = [
        "Formation Normal | Full MA",
        "Formation Shaken | Half MA",
        "Formation Broken | No Movement",
        "Morale Broken (no formation) | No Movement",
        "Hedgehog | No Movement",
        "Open Order | Full MA, No Formation Hits",
        "Column | MA +2, No Formation Hits",
    ];
    for edition in Edition::ALL {
        let charts = orders::charts(edition);
        let ids: Vec<&str> = charts.iter().map(|c| c.id).collect();
        assert_eq!(
            ids,
            [
                "continuation-preemption",
                "orders-change",
                "interception",
                "orders-restriction",
                "formation-effects"
            ]
        );
        let rows: Vec<String> = charts[3].rows.iter().map(|r| r.join(" | ")).collect();
        assert_eq!(rows, printed);
        assert_eq!(charts[3].notes.len(), 5);
        let rows: Vec<String> = charts[4].rows.iter().map(|r| r.join(" | ")).collect();
        assert_eq!(rows, formation);
    }
    // Footnote 1: "can see" (SFO) vs "not already engaged" (series).
    assert!(orders::charts(Sfo)[3].notes[0].contains("it can see"));
    assert!(orders::charts(Series)[3].notes[0].contains("not already engaged"));
    // Continuation notes: Landskrona on the series card only.
    let sfo = orders::charts(Sfo)[0].notes.join("\n");
    let series = orders::charts(Series)[0].notes.join("\n");
    assert!(!sfo.contains("Landskrona") && series.contains("Landskrona"));
}

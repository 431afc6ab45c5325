//! Musket & Pike fire tables against the two cards: Heavy Infantry Musketry
//! (10.0), Light Infantry and Cavalry Fire, Artillery Fire (10.8) with the
//! Range Chart (10.8.2), and the Casualty Threshold Table (12.5). Every cell
//! of both editions, the DRM assembly of each procedure, exact distributions
//! against hand arithmetic, and Monte Carlo against exact.

// Input errors are cold, as in the library (lib.rs).
#![allow(clippy::result_large_err)]

use crate::support::close;
use crate::support::located::{assert_step_err, key_line};
use crate::support::monte_carlo::{Compiled, Leaves, assert_procedure_matches};
use crate::support::mpbs::{assert_steps_refused, build};
use crate::support::ok;
use crate::support::step::one_step_doc as doc;
use crate::support::{measure_probs, outcome_probs};
use pikeshot::error::InputError;
use pikeshot::procedure::Procedure;
use pikeshot::scenario::{Fields, Source};
use pikeshot::stats;
use pikeshot::systems::mpbs::artillery::{self, Artillery, ArtilleryInput, RangeCell};
use pikeshot::systems::mpbs::light_fire::{self, LightFire, LightFireColumn};
use pikeshot::systems::mpbs::musketry::{self, FireColumn, FireResult, Musketry, MusketryInput};
use pikeshot::systems::mpbs::threshold::{self, casualty_threshold};
use pikeshot::systems::mpbs::{Edition, Formation, Gun, MoraleState, RangeClass, Unit};

use Edition::{Series, Sfo};

// ---------------------------------------------------------------- helpers

/// Parses a card cell: "Miss", "1", "2+FH", "2+FH+MC", "FH", "FH+MC".
fn cell(s: &str) -> FireResult {
    if s == "Miss" {
        return FireResult::MISS;
    }
    let mut r = FireResult::MISS;
    for part in s.split('+') {
        match part {
            "FH" => r.formation_hit = true,
            "MC" => r.morale_check = true,
            n => r.hits = n.parse().expect("a number of hits"),
        }
    }
    r
}

fn cells(s: &str) -> Vec<FireResult> {
    s.split_whitespace().map(cell).collect()
}

const HI: &str = "[units.pike]\nkind = \"heavy-infantry\"\nmorale = 7\nstrength = 6\n";
const RA: &str = "[units.pike]\nkind = \"heavy-infantry\"\nmorale = 7\nstrength = 6\nregimental_artillery = true\n";
const TARGET: &str = "[units.foe]\nkind = \"heavy-infantry\"\nmorale = 6\nstrength = 8\n";

fn units_with(firer: &str, target: &str) -> String {
    format!("{firer}\n{target}")
}

/// The one step with keys `step` over the unit tables `firer` and `target`
/// (as [`units_with`] joins them), read by `from_step` on `edition`'s card.
#[track_caller]
fn step_between<P>(
    edition: Edition,
    firer: &str,
    target: &str,
    step: &str,
    from_step: impl Fn(&mut Fields, &[Unit], Edition) -> Result<P, InputError>,
) -> P {
    ok(build(
        &doc(&units_with(firer, target), step),
        edition,
        from_step,
    ))
}

/// Monte Carlo with both kernels vs exact, per leaf, within 4.5 standard
/// errors.
fn monte_carlo_matches_exact<P: Procedure + Clone + 'static>(p: &P, seed: u64) {
    assert_procedure_matches(p, 1000, seed, Leaves::Each, Compiled::Unchecked);
}

// ---------------------------------------------------------------- musketry cells

/// 10.0 as printed, columns HI Front, Flank, Salvo, HI+RA Front, Flank,
/// Salvo; each string the rows ≤0, 1, …, 8, 9+.
const SFO_MUSKETRY: [&str; 6] = [
    "Miss 1 1 1 1 1 1 2 2 2",
    "Miss Miss Miss 1 1 1 1 1 1 2",
    "Miss 1 1 1 2 2 2 2 2 2",
    "Miss 1 1 1 1+FH 1+FH 2+FH 2+FH 2+FH+MC 2+FH+MC",
    "Miss Miss Miss 1 1 1 1 1+FH 1+FH 2+FH",
    "Miss 1 1 1+FH 1+FH 2+FH 2+FH 2+FH+MC 2+FH+MC 2+FH+MC",
];
const SERIES_MUSKETRY: [&str; 6] = [
    "Miss 1 1 1 1 1 1 2 2 2",
    "Miss Miss Miss 1 1 1 1 1 1 2",
    "Miss Miss 1 1 1 1 2 2 2 2",
    "Miss 1 1 1 1+FH 1+FH 2+FH 2+FH 2+FH+MC 2+FH+MC",
    "Miss Miss Miss 1 1 1 1 1+FH 1+FH 2+FH",
    "Miss Miss 1 1 1+FH 1+FH 2+FH 2+FH+MC 2+FH+MC 2+FH+MC",
];

fn musketry_columns() -> [(bool, FireColumn); 6] {
    [
        (false, FireColumn::Front),
        (false, FireColumn::Flank),
        (false, FireColumn::Salvo),
        (true, FireColumn::Front),
        (true, FireColumn::Flank),
        (true, FireColumn::Salvo),
    ]
}

#[test]
fn musketry_every_cell_both_editions() {
    for (edition, card) in [(Sfo, SFO_MUSKETRY), (Series, SERIES_MUSKETRY)] {
        for ((ra, col), printed) in musketry_columns().into_iter().zip(card) {
            let want = cells(printed);
            assert_eq!(want.len(), 10);
            for (row, w) in want.iter().enumerate() {
                let got = musketry::result(edition, ra, col, row as i32);
                assert_eq!(got, *w, "{edition} ra={ra} {col} row {row}");
            }
            // ≤0 reads the first row, 9+ the last.
            for r in [-1, -5, -20] {
                assert_eq!(musketry::result(edition, ra, col, r), want[0]);
            }
            for r in [10, 12, 25] {
                assert_eq!(musketry::result(edition, ra, col, r), want[9]);
            }
        }
    }
}

#[test]
fn musketry_chart_shows_the_card() {
    for (edition, card) in [(Sfo, SFO_MUSKETRY), (Series, SERIES_MUSKETRY)] {
        let charts = musketry::charts(edition);
        assert_eq!(charts.len(), 1);
        let c = &charts[0];
        assert_eq!((c.id, c.rule), ("musketry", "10.0"));
        assert_eq!(c.rows.len(), 10);
        for (i, printed) in card.iter().enumerate() {
            let column: Vec<&str> = c.rows.iter().map(|r| r[i + 1].as_str()).collect();
            assert_eq!(column.join(" "), *printed, "{edition} column {i}");
        }
        assert_eq!(c.rows[0][0], "≤ 0");
        assert_eq!(c.rows[9][0], "9+");
    }
    // The DRM lines differ: SFO lists FS and Open Order apart and has no
    // Advancing Fire or NGBG lines.
    let sfo = musketry::charts(Sfo)[0].notes.join("\n");
    let series = musketry::charts(Series)[0].notes.join("\n");
    assert!(sfo.contains("-2 Open Order marker") && !sfo.contains("Advancing"));
    assert!(!sfo.contains("Halmstad") && !sfo.contains("Peasant"));
    assert!(series.contains("-2 Formation Shaken or Open Order marker"));
    assert!(series.contains("-3 Advancing Fire (10.3.2) or -3 Retreating Fire"));
    assert!(series.contains("-1 NGBG: all firing at Halmstad"));
    assert!(series.contains("-3 NGBG: Peasant Militia at Landskrona"));
}

#[test]
fn musketry_outcome_labels_are_the_columns_distinct_results() {
    let labels = |edition, ra, col| {
        musketry::column_results(edition, ra, col)
            .into_iter()
            .map(|r| r.label())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        labels(Sfo, false, FireColumn::Front),
        ["miss", "1 hit", "2 hits"]
    );
    assert_eq!(
        labels(Series, true, FireColumn::Front),
        [
            "miss",
            "1 hit",
            "1 hit + FH",
            "2 hits + FH",
            "2 hits + FH + MC"
        ]
    );
    assert_eq!(
        labels(Sfo, true, FireColumn::Flank),
        ["miss", "1 hit", "1 hit + FH", "2 hits + FH"]
    );
    // SFO RA Salvo has no plain 1-hit-with-FH gap; series RA Salvo reads
    // 1, then 1+FH.
    assert_eq!(
        labels(Series, true, FireColumn::Salvo),
        [
            "miss",
            "1 hit",
            "1 hit + FH",
            "2 hits + FH",
            "2 hits + FH + MC"
        ]
    );
    // Every label is one `pikeshot list` names.
    for edition in Edition::ALL {
        for (ra, col) in musketry_columns() {
            for l in labels(edition, ra, col) {
                assert!(musketry::INFO.outcomes.contains(&l.as_str()), "{l}");
            }
        }
    }
}

// ---------------------------------------------------------------- musketry procedure

/// The step keys of a front volley of `pike` at `foe`.
const FRONT: &str = "firer = \"pike\"\ntarget = \"foe\"\ncolumn = \"front\"";

/// The musketry step with keys `step` between the unit tables `firer` and
/// `target`, read on `edition`'s card (see [`step_between`]).
#[track_caller]
fn musketry_between(edition: Edition, firer: &str, target: &str, step: &str) -> Musketry {
    let keys = format!("procedure = \"musketry\"\n{step}");
    step_between(edition, firer, target, &keys, Musketry::from_step)
}

#[test]
fn salvo_expected_hits_match_the_issue() {
    // SFO HI Salvo at DRM 0: die 0 miss; 1-3 one hit (3 faces); 4-9 two
    // hits (6 faces): (3*1 + 6*2)/10 = 15/10 = 1.5.
    // Series: 0-1 miss; 2-5 one hit (4 faces); 6-9 two hits (4 faces):
    // (4*1 + 4*2)/10 = 12/10 = 1.2.
    for (edition, want) in [(Sfo, 1.5), (Series, 1.2)] {
        let p = musketry_between(
            edition,
            HI,
            TARGET,
            "firer = \"pike\"\ntarget = \"foe\"\ncolumn = \"salvo\"",
        );
        assert_eq!(p.drm(), 0);
        assert!(p.is_salvo());
        let hits = measure_probs(&p, "hits");
        let mean = stats::mean(0, &hits, 1.0);
        assert!(close(mean, want), "{edition}: {mean}");
    }
}

#[test]
fn musketry_distribution_follows_the_column_at_every_drm() {
    // Each face f reads row clamp(f + drm): the exact probability of each
    // outcome is (faces reading it)/10.
    for edition in Edition::ALL {
        for (ra, col) in musketry_columns() {
            for drm in -9..=9 {
                let input = MusketryInput {
                    regimental_artillery: ra,
                    column: col,
                    firer_formation: Formation::Normal,
                    reaction_fire: false,
                    salvo_marker: false,
                    fire_mode: musketry::FireMode::Normal,
                    casualty_points: 0,
                    hexes: 1,
                    halmstad: false,
                    peasant_militia: false,
                    target_formation: Formation::Normal,
                    tec: 0,
                    extra_drm: drm,
                    who: Default::default(),
                };
                let p = Musketry::new(edition, &input).unwrap();
                assert_eq!(p.drm(), drm as i32);
                let probs = outcome_probs(&p);
                let results = musketry::column_results(edition, ra, col);
                for (o, r) in results.iter().enumerate() {
                    let faces = (0..10)
                        .filter(|f| musketry::result(edition, ra, col, f + drm as i32) == *r)
                        .count();
                    assert!(close(probs[o], faces as f64 / 10.0));
                }
                for face in 0..10u8 {
                    assert_eq!(
                        p.result_for(face),
                        musketry::result(edition, ra, col, face as i32 + drm as i32)
                    );
                }
            }
        }
    }
}

#[test]
fn musketry_ra_front_hand_arithmetic() {
    // Series HI+RA Front, target in Column (+1), firer Formation Shaken (-2):
    // DRM -1. Faces 0,1 -> ≤0 miss; 2,3,4 -> 1..3 one hit; 5,6 -> 4,5 1+FH;
    // 7,8 -> 6,7 2+FH; 9 -> 8 2+FH+MC.
    let firer = format!("{RA}formation = \"shaken\"\n");
    let target = format!("{TARGET}formation = \"column\"\n");
    let p = musketry_between(Series, &firer, &target, FRONT);
    assert_eq!(p.drm(), -1);
    let probs = outcome_probs(&p);
    let want = [0.2, 0.3, 0.2, 0.2, 0.1];
    for (o, w) in want.iter().enumerate() {
        assert!(close(probs[o], *w), "{:?}", probs);
    }
    // Expected hits: 0.3*1 + 0.2*1 + 0.2*2 + 0.1*2 = 1.1; FH 0.5; MC 0.1.
    assert!(close(stats::mean(0, &measure_probs(&p, "hits"), 1.0), 1.1));
    assert!(close(measure_probs(&p, "formation-hits")[1], 0.5));
    assert!(close(measure_probs(&p, "morale-checks")[1], 0.1));
}

#[test]
fn musketry_firer_formation_drms_per_edition() {
    for edition in Edition::ALL {
        for (formation, drm) in [
            ("normal", 0),
            ("shaken", -2),
            ("broken", -3),
            ("open-order", -2),
            ("hedgehog", 0),
            ("column", 0),
        ] {
            let firer = format!("{HI}formation = \"{formation}\"\n");
            let p = musketry_between(edition, &firer, TARGET, FRONT);
            assert_eq!(p.drm(), drm, "{edition} {formation}");
        }
    }
}

#[test]
fn musketry_target_formation_and_reaction_fire() {
    for edition in Edition::ALL {
        for (formation, drm) in [
            ("hedgehog", 1),
            ("column", 1),
            ("open-order", 0),
            ("broken", 0),
        ] {
            let target = format!("{TARGET}formation = \"{formation}\"\n");
            let p = musketry_between(
                edition,
                HI,
                &target,
                "firer = \"pike\"\ntarget = \"foe\"\ncolumn = \"flank\"",
            );
            assert_eq!(p.drm(), drm, "{edition} {formation}");
        }
        let cav = "[units.foe]\nkind = \"cuirassier\"\nmorale = 7\nstrength = 4\n";
        let p = musketry_between(
            edition,
            HI,
            cav,
            "firer = \"pike\"\ntarget = \"foe\"\ncolumn = \"front\"\nreaction_fire = true",
        );
        assert_eq!(p.drm(), -1);
        assert_steps_refused(
            edition,
            &units_with(HI, TARGET),
            Musketry::from_step,
            &[(
                "procedure = \"musketry\"\nfirer = \"pike\"\ntarget = \"foe\"\ncolumn = \"front\"\nreaction_fire = true",
                "reaction_fire",
                "moving cavalry",
            )],
        );
    }
}

#[test]
fn musketry_fire_mode_and_edition_only_keys() {
    let units = units_with(HI, TARGET);
    let base = "procedure = \"musketry\"\nfirer = \"pike\"\ntarget = \"foe\"\ncolumn = \"front\"\n";
    for edition in Edition::ALL {
        let p = musketry_between(
            edition,
            HI,
            TARGET,
            "firer = \"pike\"\ntarget = \"foe\"\ncolumn = \"front\"\nfire_mode = \"retreating\"",
        );
        assert_eq!(p.drm(), -3);
    }
    // Advancing Fire: series -3, refused on the SFO card.
    let text = doc(&units, &format!("{base}fire_mode = \"advancing\""));
    assert_eq!(
        ok(build(&text, Series, Musketry::from_step)).drm(),
        -3,
        "series advancing"
    );
    assert_step_err(
        Some("s.toml"),
        build(&text, Sfo, Musketry::from_step),
        &text,
        "fire_mode",
        "only the series card",
    );
    // NGBG lines: series only.
    for (key, drm) in [("halmstad", -1), ("peasant_militia", -3)] {
        let text = doc(&units, &format!("{base}{key} = true"));
        assert_eq!(ok(build(&text, Series, Musketry::from_step)).drm(), drm);
        assert_step_err(
            Some("s.toml"),
            build(&text, Sfo, Musketry::from_step),
            &text,
            key,
            "series card only",
        );
    }
    assert_steps_refused(
        Series,
        &units,
        Musketry::from_step,
        &[(
            &format!("{base}halmstad = true\npeasant_militia = true"),
            "peasant_militia",
            "different NGBG battles",
        )],
    );
    // An unknown fire mode names the accepted ones.
    let text = doc(&units, &format!("{base}fire_mode = \"advance\""));
    let e = build(&text, Series, Musketry::from_step).unwrap_err();
    assert_eq!(e.line, Some(key_line(&text, "fire_mode")));
    assert_eq!(e.suggestion.as_deref(), Some("advancing"));
}

#[test]
fn musketry_casualty_points_by_unit_size() {
    // -1 per CP on a one-hex unit; -1 per two CP on a two-hex unit (an odd
    // CP left over counts nothing).
    for edition in Edition::ALL {
        for (hexes, cp, drm) in [
            (1, 0, 0),
            (1, 1, -1),
            (1, 3, -3),
            (2, 1, 0),
            (2, 2, -1),
            (2, 3, -1),
            (2, 5, -2),
        ] {
            let firer = format!("{HI}hexes = {hexes}\ncasualty_points = {cp}\n");
            let p = musketry_between(edition, &firer, TARGET, FRONT);
            assert_eq!(p.drm(), drm, "{edition} hexes {hexes} cp {cp}");
        }
    }
}

#[test]
fn salvo_marker_drm_and_refused_salvo() {
    let firer = format!("{HI}salvo_marker = true\n");
    let units = units_with(&firer, TARGET);
    for edition in Edition::ALL {
        let p = musketry_between(edition, &firer, TARGET, FRONT);
        assert_eq!(p.drm(), -1);
        assert!(!p.is_salvo());
        assert_steps_refused(
            edition,
            &units,
            Musketry::from_step,
            &[(
                "procedure = \"musketry\"\nfirer = \"pike\"\ntarget = \"foe\"\ncolumn = \"salvo\"",
                "column",
                "Salvo marker",
            )],
        );
    }
}

#[test]
fn musketry_tec_hex_and_hexside() {
    let step = FRONT;
    for (edition, terrain, hexside, drm) in [
        (Sfo, "woods", None, -1),
        (Series, "woods", None, -1), // musket value of "-1/+1 §"
        (Sfo, "village", None, -2),
        (Series, "bridge", None, 2),
        (Sfo, "woods", Some("hedge"), -2),
        (Series, "clear", Some("down-slope"), -1), // "-1@": musket fire only
        (Sfo, "clear", Some("entrenchment"), -1),
        (Series, "clear", Some("freiburg-star-fort"), -3),
    ] {
        let mut target = format!("{TARGET}terrain = \"{terrain}\"\n");
        if let Some(h) = hexside {
            target.push_str(&format!("hexside = \"{h}\"\n"));
        }
        let p = musketry_between(edition, HI, &target, step);
        assert_eq!(p.drm(), drm, "{edition} {terrain} {hexside:?}");
    }
    // NA fire columns are refused at the target key.
    for (edition, terrain, hexside) in [
        (Sfo, "castle", None),
        (Series, "alerheim-schloss", None),
        (Sfo, "clear", Some("castle-or-town-walls")),
    ] {
        let mut target = format!("{TARGET}terrain = \"{terrain}\"\n");
        if let Some(h) = hexside {
            target.push_str(&format!("hexside = \"{h}\"\n"));
        }
        assert_steps_refused(
            edition,
            &units_with(HI, &target),
            Musketry::from_step,
            &[(&format!("procedure = \"musketry\"\n{step}"), "target", "NA")],
        );
        // `tec_drm` overrides the lookup.
        let text = doc(
            &units_with(HI, &target),
            &format!("procedure = \"musketry\"\n{step}\ntec_drm = -2"),
        );
        assert_eq!(ok(build(&text, edition, Musketry::from_step)).drm(), -2);
    }
}

#[test]
fn musketry_refuses_bad_steps() {
    let units = units_with(HI, TARGET);
    let lm = "[units.lm]\nkind = \"commanded-muskets\"\nmorale = 6\nstrength = 2\n";
    assert_steps_refused(
        Sfo,
        &units_with(&units, lm),
        Musketry::from_step,
        &[(
            "procedure = \"musketry\"\nfirer = \"lm\"\ntarget = \"foe\"\ncolumn = \"front\"",
            "firer",
            "light-fire",
        )],
    );
    assert_steps_refused(
        Sfo,
        &units,
        Musketry::from_step,
        &[
            (
                "procedure = \"musketry\"\nfirer = \"pike\"\ntarget = \"foe\"\ncolumn = \"rear\"",
                "column",
                "front, flank, salvo",
            ),
            (
                "procedure = \"musketry\"\nfirer = \"pike\"\ntarget = \"foe\"\ncolumn = \"front\"\nextra_drm = 10",
                "extra_drm",
                "from -9 to 9",
            ),
            (
                "procedure = \"musketry\"\nfirer = \"pike\"\ntarget = \"pike\"\ncolumn = \"front\"",
                "target",
                "itself",
            ),
        ],
    );
    let text = doc(
        &units,
        "procedure = \"musketry\"\nfirer = \"pike\"\ntarget = \"foe\"\ncolumn = \"front\"\nextra_dmr = 1",
    );
    let e = build(&text, Sfo, Musketry::from_step).unwrap_err();
    assert_eq!(e.line, Some(key_line(&text, "extra_dmr")));
    assert_eq!(e.suggestion.as_deref(), Some("extra_drm"));
}

#[test]
fn musketry_modifiers_sum_and_rebuild_from_units() {
    // Series, two-hex FS firer with 4 CP, retreating, Halmstad, at a
    // Hedgehog in woods, extra +2: -2 -2 -3 -1 +1 -1 +2 = -6.
    let firer = format!("{RA}formation = \"shaken\"\nhexes = 2\ncasualty_points = 4\n");
    let target = format!("{TARGET}formation = \"hedgehog\"\nterrain = \"woods\"\n");
    let p = musketry_between(
        Series,
        &firer,
        &target,
        "firer = \"pike\"\ntarget = \"foe\"\ncolumn = \"front\"\nfire_mode = \"retreating\"\nhalmstad = true\nextra_drm = 2",
    );
    assert_eq!(p.drm(), -6);
    assert_eq!(p.modifiers().iter().map(|t| t.value).sum::<i32>(), -6);
    assert_eq!(p.modifiers().len(), 7);
    assert!(p.regimental_artillery());
    // The same procedure rebuilt from the input struct.
    let text = doc(&units_with(&firer, &target), "procedure = \"x\"");
    let (src, table) = Source::parse("s.toml", &text).unwrap();
    let unit = |n: &str| {
        let mut f = Fields::new(
            &src,
            format!("units.{n}"),
            table["units"][n].as_table().unwrap(),
        );
        Unit::from_fields(n, &mut f, Series).unwrap()
    };
    let mut input =
        MusketryInput::from_units(Series, &unit("pike"), &unit("foe"), FireColumn::Front).unwrap();
    input.fire_mode = musketry::FireMode::Retreating;
    input.halmstad = true;
    input.extra_drm = 2;
    let q = Musketry::new(Series, &input).unwrap();
    assert_eq!(q.drm(), p.drm());
    assert_eq!(outcome_probs(&q), outcome_probs(&p));
}

#[test]
fn musketry_monte_carlo_matches_exact() {
    let firer = format!("{RA}formation = \"shaken\"\n");
    let target = format!("{TARGET}formation = \"column\"\n");
    let p = musketry_between(
        Sfo,
        &firer,
        &target,
        "firer = \"pike\"\ntarget = \"foe\"\ncolumn = \"salvo\"\nextra_drm = 3",
    );
    monte_carlo_matches_exact(&p, 0x5a1_0001);
}

// ---------------------------------------------------------------- light fire

/// Light Infantry and Cavalry Fire Table as printed, rows ≤6, 7, 8, 9+.
const LIGHT: [&str; 2] = ["Miss Miss 1 1", "Miss 1 1 1"];

#[test]
fn light_fire_every_cell() {
    for (col, printed) in [
        LightFireColumn::MusketsAndDragoons,
        LightFireColumn::CavalryPistol,
    ]
    .into_iter()
    .zip(LIGHT)
    {
        let want = cells(printed);
        for (i, w) in want.iter().enumerate() {
            assert_eq!(
                light_fire::result(col, 6 + i as i32),
                w.hits,
                "{col:?} row {i}"
            );
        }
        for r in [-3, 0, 5] {
            assert_eq!(light_fire::result(col, r), want[0].hits);
        }
        for r in [10, 14] {
            assert_eq!(light_fire::result(col, r), want[3].hits);
        }
    }
    for edition in Edition::ALL {
        let c = &light_fire::charts(edition)[0];
        assert_eq!(c.id, "light-fire");
        for (i, printed) in LIGHT.iter().enumerate() {
            let column: Vec<&str> = c.rows.iter().map(|r| r[i + 1].as_str()).collect();
            assert_eq!(column.join(" "), *printed);
        }
    }
    let sfo = light_fire::charts(Sfo)[0].notes.join("\n");
    let series = light_fire::charts(Series)[0].notes.join("\n");
    assert!(sfo.contains("-1 Open Order marker") && !sfo.contains("Halmstad"));
    assert!(series.contains("-1 Formation Shaken or Open Order marker"));
    assert!(series.contains("-3 Advancing or Retreating Fire"));
}

/// The light fire step with keys `step` between the unit tables `firer`
/// and `target`, read on `edition`'s card (see [`step_between`]).
#[track_caller]
fn light_fire_between(edition: Edition, firer: &str, target: &str, step: &str) -> LightFire {
    let keys = format!("procedure = \"light-fire\"\n{step}");
    step_between(edition, firer, target, &keys, LightFire::from_step)
}

fn unit(kind: &str, strength: u8, extra: &str) -> String {
    format!("[units.shot]\nkind = \"{kind}\"\nmorale = 7\nstrength = {strength}\n{extra}")
}

#[test]
fn light_fire_strength_modifiers() {
    let step = "firer = \"shot\"\ntarget = \"foe\"";
    for edition in Edition::ALL {
        for (kind, strength, cp, drm) in [
            // Commanded muskets and dragoons: +1 per SP above 1.
            ("commanded-muskets", 1, 0, 0),
            ("commanded-muskets", 4, 0, 3),
            ("dragoons", 3, 1, 1),
            // Cavalry: +1 per SP above 3, -1 per SP below 3 (+1 arquebusier).
            ("cuirassier", 3, 0, 0),
            ("cuirassier", 5, 0, 2),
            ("cuirassier", 2, 0, -1),
            ("cuirassier", 4, 3, -2),
            ("arquebusier", 3, 0, 1),
            ("arquebusier", 6, 0, 4),
            ("arquebusier", 1, 0, -1),
        ] {
            let firer = unit(kind, strength, &format!("casualty_points = {cp}\n"));
            let p = light_fire_between(edition, &firer, TARGET, step);
            assert_eq!(p.drm(), drm, "{edition} {kind} {strength}-{cp}");
        }
        // `strength_points` overrides the SP the modifiers read.
        let firer = unit("cuirassier", 5, "");
        let p = light_fire_between(
            edition,
            &firer,
            TARGET,
            "firer = \"shot\"\ntarget = \"foe\"\nstrength_points = 1",
        );
        assert_eq!(p.drm(), -2);
    }
}

#[test]
fn light_fire_drms_per_edition() {
    let step = "firer = \"shot\"\ntarget = \"foe\"";
    for edition in Edition::ALL {
        for (formation, drm) in [("shaken", -1), ("open-order", -1), ("broken", -2)] {
            let firer = unit(
                "commanded-muskets",
                1,
                &format!("formation = \"{formation}\"\n"),
            );
            let p = light_fire_between(edition, &firer, TARGET, step);
            assert_eq!(p.drm(), drm, "{edition} {formation}");
        }
        // Dragoons firing: the target's formation and terrain, and the
        // firer's fire mode (target keys, step keys, DRM).
        for (target, keys, drm) in [
            ("formation = \"hedgehog\"\n", "", 1),
            ("formation = \"column\"\n", "", 1),
            ("formation = \"shaken\"\n", "", 0),
            ("", "\nfire_mode = \"retreating\"", -3),
            ("terrain = \"village\"\n", "", -2),
        ] {
            let p = light_fire_between(
                edition,
                &unit("dragoons", 1, ""),
                &format!("{TARGET}{target}"),
                &format!("{step}{keys}"),
            );
            assert_eq!(p.drm(), drm, "{edition} {target}{keys}");
        }
    }
    let units = units_with(&unit("cuirassier", 3, ""), TARGET);
    for (key, value, drm) in [("fire_mode", "\"advancing\"", -3), ("halmstad", "true", -1)] {
        let text = doc(
            &units,
            &format!("procedure = \"light-fire\"\n{step}\n{key} = {value}"),
        );
        assert_eq!(ok(build(&text, Series, LightFire::from_step)).drm(), drm);
        assert_step_err(
            Some("s.toml"),
            build(&text, Sfo, LightFire::from_step),
            &text,
            key,
            "series card",
        );
    }
    assert_steps_refused(
        Sfo,
        &units_with(HI, TARGET),
        LightFire::from_step,
        &[(
            "procedure = \"light-fire\"\nfirer = \"pike\"\ntarget = \"foe\"",
            "firer",
            "musketry",
        )],
    );
    let target = format!("{TARGET}terrain = \"castle\"\n");
    assert_steps_refused(
        Sfo,
        &units_with(&unit("dragoons", 1, ""), &target),
        LightFire::from_step,
        &[(
            &format!("procedure = \"light-fire\"\n{step}"),
            "target",
            "NA",
        )],
    );
}

#[test]
fn light_fire_hand_arithmetic() {
    let step = "firer = \"shot\"\ntarget = \"foe\"";
    // Cuirassiers at 3 SP: hit on 7+, faces 7, 8, 9: 3/10.
    let p = light_fire_between(Sfo, &unit("cuirassier", 3, ""), TARGET, step);
    assert_eq!(p.column(), LightFireColumn::CavalryPistol);
    assert!(close(outcome_probs(&p)[1], 0.3));
    // Commanded muskets at 1 SP: hit on 8+: 2/10.
    let p = light_fire_between(Sfo, &unit("commanded-muskets", 1, ""), TARGET, step);
    assert!(close(outcome_probs(&p)[1], 0.2));
    // Dragoons at 3 SP (+2) vs Hedgehog (+1): face + 3 >= 8 for faces 5-9: 5/10.
    let target = format!("{TARGET}formation = \"hedgehog\"\n");
    let p = light_fire_between(Series, &unit("dragoons", 3, ""), &target, step);
    assert!(close(outcome_probs(&p)[1], 0.5));
    assert!(close(stats::mean(0, &measure_probs(&p, "hits"), 1.0), 0.5));
    // Arquebusiers at 2 SP, Formation Broken, retreating: -1 +1 -2 -3 = -5:
    // face - 5 >= 7 never: no hit.
    let firer = unit("arquebusier", 2, "formation = \"broken\"\n");
    let p = light_fire_between(
        Series,
        &firer,
        TARGET,
        "firer = \"shot\"\ntarget = \"foe\"\nfire_mode = \"retreating\"",
    );
    assert_eq!(p.drm(), -5);
    assert!(close(outcome_probs(&p)[0], 1.0));
    for face in 0..10 {
        assert_eq!(p.hits_for(face), 0);
    }
    monte_carlo_matches_exact(
        &light_fire_between(Sfo, &unit("arquebusier", 4, ""), TARGET, step),
        0x5a1_0002,
    );
}

// ---------------------------------------------------------------- artillery

/// 10.8 as printed (series columns in the order docs/rules/mpbs.md, Printing of the cards gives),
/// rows ≤3, 4, …, 9, 10+.
const SFO_ARTILLERY: [(Gun, &str); 5] = [
    (Gun::Light3, "Miss Miss Miss Miss FH FH FH FH+MC"),
    (Gun::Medium, "Miss Miss Miss FH FH FH FH+MC FH+MC"),
    (Gun::DoubleMedium, "Miss Miss FH FH FH+MC FH+MC FH+MC FH+MC"),
    (Gun::Heavy, "Miss Miss FH FH FH FH+MC FH+MC FH+MC"),
    (Gun::DoubleHeavy, "Miss FH FH FH+MC FH+MC FH+MC FH+MC FH+MC"),
];
const SERIES_ARTILLERY: [(Gun, &str); 6] = [
    (Gun::Light3, "Miss Miss Miss Miss FH FH FH FH+MC"),
    (Gun::Double3, "Miss Miss Miss FH FH FH+MC FH+MC FH+MC"),
    (Gun::Medium, "Miss Miss Miss FH FH FH FH+MC FH+MC"),
    (Gun::DoubleMedium, "Miss Miss FH FH FH+MC FH+MC FH+MC FH+MC"),
    (Gun::Heavy, "Miss Miss FH FH FH FH+MC FH+MC FH+MC"),
    (Gun::DoubleHeavy, "Miss FH FH FH+MC FH+MC FH+MC FH+MC FH+MC"),
];

#[test]
fn artillery_every_cell_both_editions() {
    for (edition, card) in [(Sfo, &SFO_ARTILLERY[..]), (Series, &SERIES_ARTILLERY[..])] {
        assert_eq!(artillery::table(edition).guns.len(), card.len());
        for (i, (gun, printed)) in card.iter().enumerate() {
            assert_eq!(artillery::table(edition).guns[i], *gun);
            let want = cells(printed);
            for (row, w) in want.iter().enumerate() {
                assert_eq!(
                    artillery::result(edition, *gun, 3 + row as i32),
                    Some(*w),
                    "{edition} {gun} row {row}"
                );
            }
            for r in [-4, 0, 2] {
                assert_eq!(artillery::result(edition, *gun, r), Some(want[0]));
            }
            for r in [11, 19] {
                assert_eq!(artillery::result(edition, *gun, r), Some(want[7]));
            }
            let c = &artillery::charts(edition)[0];
            let column: Vec<&str> = c.rows.iter().map(|r| r[i + 1].as_str()).collect();
            assert_eq!(column.join(" "), *printed);
        }
    }
    assert_eq!(artillery::result(Sfo, Gun::Double3, 7), None);
    // The series columns 1, 3-6 repeat the SFO columns 1-5 (docs/rules/mpbs.md, Printing of the cards).
    for gun in artillery::SFO_ARTILLERY.guns {
        for r in 3..=10 {
            assert_eq!(
                artillery::result(Sfo, *gun, r),
                artillery::result(Series, *gun, r)
            );
        }
    }
    assert_eq!(artillery::charts(Sfo)[0].headers[4], "12 lb");
    assert_eq!(artillery::charts(Series)[0].headers[2], "Double 3lb");
}

/// 10.8.2 as printed: range band, Falcon, Saker, Culverin.
const RANGE: [&str; 11] = [
    "1 +1 +1 +1",
    "2-3 0 0 0",
    "4 -1 0 0",
    "5 -1 -1 0",
    "6 -2 -1 0",
    "7 -2 -1 -1",
    "8-9 -3 -2 -1",
    "10 NA -2 -2",
    "11-13 NA -3 -2",
    "14 NA -3 -3",
    "15-17 NA NA -3",
];

#[test]
fn range_chart_every_cell() {
    let classes = [RangeClass::Falcon, RangeClass::Saker, RangeClass::Culverin];
    for line in RANGE {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let (lo, hi) = match parts[0].split_once('-') {
            Some((a, b)) => (a.parse::<u32>().unwrap(), b.parse::<u32>().unwrap()),
            None => (parts[0].parse().unwrap(), parts[0].parse().unwrap()),
        };
        for range in lo..=hi {
            for (class, want) in classes.iter().zip(&parts[1..]) {
                let want = match *want {
                    "NA" => RangeCell::NotAllowed,
                    v => RangeCell::Drm(v.parse().unwrap()),
                };
                assert_eq!(
                    artillery::range_cell(*class, range),
                    want,
                    "{line}: {range}"
                );
            }
        }
    }
    for class in classes {
        assert_eq!(artillery::range_cell(class, 0), RangeCell::OffChart);
        assert_eq!(artillery::range_cell(class, 18), RangeCell::OffChart);
        assert_eq!(artillery::range_cell(class, 400), RangeCell::OffChart);
    }
    assert_eq!(artillery::accepted_ranges(RangeClass::Falcon), 1..=9);
    assert_eq!(artillery::accepted_ranges(RangeClass::Saker), 1..=14);
    assert_eq!(artillery::accepted_ranges(RangeClass::Culverin), 1..=17);
    for edition in Edition::ALL {
        let c = &artillery::charts(edition)[1];
        assert_eq!(c.id, "artillery-range");
        let rows: Vec<String> = c.rows.iter().map(|r| r.join(" ")).collect();
        assert_eq!(rows, RANGE);
    }
    assert_eq!(artillery::charts(Sfo)[1].headers[3], "12lb Culverins");
    assert_eq!(artillery::charts(Series)[1].headers[3], "12-24lb Culverins");
}

fn gun(g: &str, extra: &str) -> String {
    format!("[units.guns]\nkind = \"artillery\"\nmorale = 6\nstrength = 2\ngun = \"{g}\"\n{extra}")
}

/// The artillery step with keys `step` between the unit tables `firer`
/// and `target`, read on `edition`'s card (see [`step_between`]).
#[track_caller]
fn artillery_between(edition: Edition, firer: &str, target: &str, step: &str) -> Artillery {
    let keys = format!("procedure = \"artillery\"\n{step}");
    step_between(edition, firer, target, &keys, Artillery::from_step)
}

#[test]
fn artillery_drms_per_edition() {
    for edition in Edition::ALL {
        for (g, range, drm) in [
            ("3lb", 1, 1),
            ("3lb", 9, -3),
            ("4-8lb", 12, -3),
            ("12-24lb", 17, -3),
            ("double-12-24lb", 6, 0),
        ] {
            let p = artillery_between(
                edition,
                &gun(g, ""),
                TARGET,
                &format!("firer = \"guns\"\ntarget = \"foe\"\nrange = {range}"),
            );
            assert_eq!(p.drm(), drm, "{edition} {g} at {range}");
        }
        let step = "firer = \"guns\"\ntarget = \"foe\"\nrange = 2";
        for (formation, drm) in [
            ("hedgehog", 2),
            ("column", 2),
            ("broken", 0),
            ("open-order", 0),
        ] {
            let target = format!("{TARGET}formation = \"{formation}\"\n");
            let p = artillery_between(edition, &gun("4-8lb", ""), &target, step);
            assert_eq!(p.drm(), drm, "{formation}");
        }
        for (morale, drm) in [("good", 0), ("shaken", -1)] {
            let firer = gun("4-8lb", &format!("morale_state = \"{morale}\"\n"));
            let p = artillery_between(edition, &firer, TARGET, step);
            assert_eq!(p.drm(), drm, "{morale}");
        }
    }
    // TEC artillery column: series Woods +1 for artillery, SFO Woods -1;
    // down slope "-1@" applies to musket fire only.
    let step = "firer = \"guns\"\ntarget = \"foe\"\nrange = 2";
    for (edition, terrain, drm) in [
        (Sfo, "woods", -1),
        (Series, "woods", 1),
        (Sfo, "village", -2),
    ] {
        let target = format!("{TARGET}terrain = \"{terrain}\"\n");
        let p = artillery_between(edition, &gun("3lb", ""), &target, step);
        assert_eq!(p.drm(), drm, "{edition} {terrain}");
    }
    let target = format!("{TARGET}hexside = \"down-slope\"\n");
    let p = artillery_between(Series, &gun("3lb", ""), &target, step);
    assert_eq!(p.drm(), 0);
}

#[test]
fn artillery_range_errors_name_key_line_and_accepted_ranges() {
    for (edition, g, range, says, accepted) in [
        (Sfo, "3lb", 10, "NA", "from 1 to 9"),
        (Series, "double-3lb", 12, "NA", "from 1 to 9"),
        (Sfo, "4-8lb", 15, "NA", "from 1 to 14"),
        (
            Series,
            "12-24lb",
            18,
            "not on the Artillery Range Chart",
            "from 1 to 17",
        ),
        (
            Sfo,
            "double-4-8lb",
            0,
            "not on the Artillery Range Chart",
            "from 1 to 14",
        ),
    ] {
        let text = doc(
            &units_with(&gun(g, ""), TARGET),
            &format!(
                "procedure = \"artillery\"\nfirer = \"guns\"\ntarget = \"foe\"\nrange = {range}"
            ),
        );
        let r = build(&text, edition, Artillery::from_step);
        let e = r.as_ref().unwrap_err().clone();
        assert!(
            e.accepted.as_deref().unwrap_or("").contains(accepted),
            "{e}"
        );
        assert_step_err(Some("s.toml"), r, &text, "range", says);
    }
    // Double 3lb is refused on the SFO card already by the unit.
    let text = doc(
        &units_with(&gun("double-3lb", ""), TARGET),
        "procedure = \"artillery\"",
    );
    let e = build(&text, Sfo, Artillery::from_step).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("units.guns.gun"));
    // ... and by the pure constructor.
    let input = ArtilleryInput {
        gun: Gun::Double3,
        range: 2,
        firer_morale: MoraleState::Good,
        target_formation: Formation::Normal,
        tec: 0,
        extra_drm: 0,
        who: Default::default(),
    };
    let e = Artillery::new(Sfo, &input).unwrap_err();
    assert!(e.message.contains("no double-3lb column"), "{e}");
    assert!(Artillery::new(Series, &input).is_ok());
    // A firer without a gun, and an NA TEC.
    assert_steps_refused(
        Sfo,
        &units_with(HI, TARGET),
        Artillery::from_step,
        &[(
            "procedure = \"artillery\"\nfirer = \"pike\"\ntarget = \"foe\"\nrange = 2",
            "firer",
            "artillery units",
        )],
    );
    let target = format!("{TARGET}terrain = \"castle\"\n");
    assert_steps_refused(
        Series,
        &units_with(&gun("3lb", ""), &target),
        Artillery::from_step,
        &[(
            "procedure = \"artillery\"\nfirer = \"guns\"\ntarget = \"foe\"\nrange = 2",
            "target",
            "NA",
        )],
    );
}

#[test]
fn artillery_hand_arithmetic() {
    // Series 3lb at range 2-3 (0) vs Hedgehog (+2): modified 2..11. Faces
    // 0-4 read ≤3..6: miss (5); faces 5-7 read 7-9: FH (3); faces 8-9 read
    // 10+: FH+MC (2).
    let target = format!("{TARGET}formation = \"hedgehog\"\n");
    let p = artillery_between(
        Series,
        &gun("3lb", ""),
        &target,
        "firer = \"guns\"\ntarget = \"foe\"\nrange = 3",
    );
    assert_eq!(p.space().outcomes(), ["miss", "FH", "FH + MC"]);
    let probs = outcome_probs(&p);
    for (got, want) in probs.iter().zip([0.5, 0.3, 0.2]) {
        assert!(close(*got, want), "{probs:?}");
    }
    assert!(close(measure_probs(&p, "formation-hits")[1], 0.5));
    assert!(close(measure_probs(&p, "morale-checks")[1], 0.2));
    // SFO Double 12lb at range 14 (-3), Morale Shaken (-1): modified -4..5.
    // Faces 0-7 read ≤3: miss (8); face 8 reads 4: FH; face 9 reads 5: FH.
    let firer = gun("double-12-24lb", "morale_state = \"shaken\"\n");
    let p = artillery_between(
        Sfo,
        &firer,
        TARGET,
        "firer = \"guns\"\ntarget = \"foe\"\nrange = 14",
    );
    assert_eq!(p.drm(), -4);
    let probs = outcome_probs(&p);
    for (got, want) in probs.iter().zip([0.8, 0.2, 0.0]) {
        assert!(close(*got, want), "{probs:?}");
    }
    for face in 0..10 {
        assert_eq!(
            p.result_for(face),
            artillery::result(Sfo, Gun::DoubleHeavy, face as i32 - 4).unwrap()
        );
    }
    monte_carlo_matches_exact(
        &artillery_between(
            Series,
            &gun("double-4-8lb", ""),
            TARGET,
            "firer = \"guns\"\ntarget = \"foe\"\nrange = 1\nextra_drm = 1",
        ),
        0x5a1_0003,
    );
}

// ---------------------------------------------------------------- casualty threshold

/// 12.5 as printed: rows original morale ≤6, 7, 8; columns original
/// strength 2, 3-4, 5-6, 7-9, 10-14, 15+.
const THRESHOLD: [&str; 3] = ["1 1 2 3 4 5", "1 2 3 4 5 6", "NA NA 4 5 6 7"];

#[test]
fn casualty_threshold_every_cell() {
    let column = |s: u8| match s {
        2 => Some(0),
        3..=4 => Some(1),
        5..=6 => Some(2),
        7..=9 => Some(3),
        10..=14 => Some(4),
        15.. => Some(5),
        _ => None,
    };
    // Morale 9 reads the row of 8, as on every table (docs/rules/mpbs.md,
    // Morale 9); the unit reader stops at 9, so higher values follow suit.
    let row = |m: u8| match m {
        ..=6 => Some(0),
        7 => Some(1),
        _ => Some(2),
    };
    for morale in 0..=10u8 {
        for strength in 0..=40u8 {
            let want = match (row(morale), column(strength)) {
                (Some(r), Some(c)) => THRESHOLD[r]
                    .split_whitespace()
                    .nth(c)
                    .and_then(|v| v.parse::<u8>().ok()),
                _ => None,
            };
            assert_eq!(
                casualty_threshold(morale, strength),
                want,
                "morale {morale} strength {strength}"
            );
        }
    }
    // Spot checks straight from the card.
    assert_eq!(casualty_threshold(6, 12), Some(4));
    assert_eq!(casualty_threshold(8, 4), None);
    assert_eq!(casualty_threshold(8, 5), Some(4));
    assert_eq!(casualty_threshold(7, 15), Some(6));
    for edition in Edition::ALL {
        let c = &threshold::charts(edition)[0];
        assert_eq!(c.id, "casualty-threshold");
        assert_eq!(c.headers[1..], ["2", "3-4", "5-6", "7-9", "10-14", "15+"]);
        let rows: Vec<String> = c.rows.iter().map(|r| r[1..].join(" ")).collect();
        assert_eq!(rows, THRESHOLD);
        assert_eq!(c.rows[0][0], "≤6");
    }
}

//! The best plan of a Musket & Pike decision (fire or charge each turn,
//! the tercio firing back) solved for 2, 5, 10 and 20 turns: states,
//! backward induction, the plan in words and its Monte Carlo check, as
//! `pikeshot decide` runs them.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pikeshot::run::decide::decide_file;
use pikeshot::scenario::ScenarioFile;

/// The decision of `scenarios/mpbs/charge-or-salvo.toml` over `turns`
/// turns, on the series card.
fn scenario(turns: u32) -> String {
    format!(
        r#"
system = "mpbs"
edition = "series"

[units.swedes]
kind = "heavy-infantry"
morale = 7
strength = 6
regimental_artillery = true
order = "charge"

[units.tercio]
kind = "heavy-infantry"
morale = 6
strength = 10
hexes = 2
terrain = "clear"

[[course]]
name = "charge now"
steps = [{{ procedure = "close-combat", attacker = "swedes", defender = "tercio", momentum = true }}]

[[decision]]
name = "fire or charge each turn"
own = "swedes"
enemy = "tercio"
repeat = {{ turns = {turns}, until = ["enemy-broken", "own-broken"] }}
objective = {{ most_expected = "enemy-morale" }}
after = [{{ procedure = "musketry", firer = "tercio", target = "swedes", column = "front" }}]

[[decision.option]]
name = "fire"
steps = [{{ procedure = "musketry", firer = "swedes", target = "tercio", column = "front" }}]

[[decision.option]]
name = "charge"
steps = [{{ procedure = "close-combat", attacker = "swedes", defender = "tercio", momentum = true }}]
"#
    )
}

fn decide(c: &mut Criterion) {
    let mut g = c.benchmark_group("mpbs-decision");
    g.sample_size(10);
    for turns in [2u32, 5, 10, 20] {
        let text = scenario(turns);
        let solve = || {
            let file = ScenarioFile::from_str("decision.toml", &text).expect("the bench scenario");
            decide_file(file, &Default::default()).expect("the bench decision solves")
        };
        let d = solve();
        let states = d.variants[0].decisions[0].states;
        eprintln!("{turns} turns: {states} states");
        g.bench_with_input(BenchmarkId::new("turns", turns), &turns, |b, _| {
            b.iter(|| std::hint::black_box(solve()))
        });
    }
    g.finish();
}

criterion_group!(benches, decide);
criterion_main!(benches);

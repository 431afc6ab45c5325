//! A run watched and stopped from outside (`engine::control::RunControl`,
//! `RunPlan::control`), through the public run path: a stopped run is
//! `Error::Stopped` and never a tally; a watched run that is not stopped
//! gives the same counts as one that is not watched, and counts every
//! trial it resolves.

use std::sync::Arc;

use pikeshot::Error;
use pikeshot::engine::RunControl;
use pikeshot::report::ScenarioRun;
use pikeshot::run::{RunPlan, execute};

use crate::support::hakkaa::VOLLEYS;
use crate::support::scenario::prepare;

fn watched(control: &Arc<RunControl>) -> RunPlan {
    RunPlan {
        control: Some(Arc::clone(control)),
        ..RunPlan::default()
    }
}

fn counts(run: &ScenarioRun) -> Vec<(String, u64, Vec<u64>)> {
    run.courses
        .iter()
        .map(|c| (c.course.clone(), c.tally.trials, c.tally.counts.clone()))
        .collect()
}

#[test]
fn a_watched_run_gives_the_same_counts_and_counts_every_trial() {
    let p = prepare("volleys.toml", VOLLEYS);
    let plain = execute(&p, &RunPlan::default()).unwrap();
    let control = Arc::new(RunControl::new());
    let run = execute(&p, &watched(&control)).unwrap();
    assert_eq!(counts(&run), counts(&plain));
    assert_eq!(control.trials_planned(), 2 * 300_000);
    assert_eq!(control.trials_done(), 2 * 300_000);
    assert!(!control.is_stopped());
}

#[test]
fn a_run_stopped_before_it_starts_reports_stopped_and_resolves_nothing() {
    let p = prepare("volleys.toml", VOLLEYS);
    let control = Arc::new(RunControl::new());
    control.stop();
    match execute(&p, &watched(&control)) {
        Err(Error::Stopped) => {}
        Err(e) => panic!("not Stopped: {e}"),
        Ok(_) => panic!("a stopped run gave figures"),
    }
    assert_eq!(control.trials_done(), 0);
}

#[test]
fn a_run_stopped_while_it_goes_reports_stopped_not_partial_figures() {
    // 5,000,000 trials a course: 77 chunks each, of which the first few
    // are done when the stop comes.
    let text = VOLLEYS.replace("trials = 300000", "trials = 5000000");
    let p = prepare("volleys.toml", &text);
    let control = Arc::new(RunControl::new());
    let stopper = {
        let c = Arc::clone(&control);
        std::thread::spawn(move || {
            while c.trials_done() == 0 {
                std::thread::yield_now();
            }
            c.stop();
        })
    };
    let result = execute(&p, &watched(&control));
    stopper.join().unwrap();
    assert!(
        matches!(result, Err(Error::Stopped)),
        "a run stopped midway must answer Stopped"
    );
    let (done, planned) = (control.trials_done(), control.trials_planned());
    assert_eq!(planned, 2 * 5_000_000);
    assert!(done > 0 && done < planned, "{done} of {planned}");
    assert_eq!(
        Error::Stopped.to_string(),
        "the run was stopped before it was complete"
    );
}

//! `engagements.csv`: per engagement, the probability of stopping on each
//! turn, per stop reason and for any reason, with the cumulative figures.

use super::{Engagement, is_engagement};
use crate::error::Error;
use crate::report::csv::{DECIMALS, EXACT_DECIMALS};
use crate::report::model::ScenarioRun;
use crate::report::{Output, Staging, fixed};

/// Header of `engagements.csv`.
pub const ENGAGEMENTS_HEADER: [&str; 10] = [
    "scenario",
    "variant",
    "course",
    "stop_reason",
    "turn",
    "count",
    "probability",
    "cumulative",
    "exact",
    "exact_cumulative",
];

/// The `stop_reason` of the rows that add every stop reason together.
pub const ANY_REASON: &str = "any";

/// The rows of `engagements.csv`: for every engagement, each stop reason ×
/// turn (count, `P(R = r, T = t)`, `P(R = r, T <= t)`, exact twins), then
/// the same for every reason together ([`ANY_REASON`]).
pub fn engagement_rows(run: &ScenarioRun) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mc = |x: f64| fixed(x, DECIMALS);
    let ex = |x: Option<f64>| x.map_or_else(String::new, |x| fixed(x, EXACT_DECIMALS));
    for c in &run.courses {
        let Some(e) = Engagement::of(c) else {
            continue;
        };
        let cum = e.cumulative();
        let exact_cum = e.exact_cumulative();
        let mut push = |reason: &str,
                        count: u64,
                        t: usize,
                        p: f64,
                        cp: f64,
                        x: Option<f64>,
                        xc: Option<f64>| {
            rows.push(vec![
                run.id.name.clone(),
                c.variant.clone(),
                c.course.clone(),
                reason.to_string(),
                (e.first_turn + t as i32).to_string(),
                count.to_string(),
                mc(p),
                mc(cp),
                ex(x),
                ex(xc),
            ]);
        };
        for (r, reason) in e.reason_ids.iter().enumerate() {
            for t in 0..e.turn_count() {
                push(
                    reason,
                    e.counts[r][t],
                    t,
                    e.probs[r][t],
                    cum.by_reason[r][t],
                    e.exact.as_ref().map(|x| x[r][t]),
                    exact_cum.as_ref().map(|x| x.by_reason[r][t]),
                );
            }
        }
        let per_turn = e.per_turn();
        let exact_per_turn = e.exact_per_turn();
        for t in 0..e.turn_count() {
            push(
                ANY_REASON,
                e.counts.iter().map(|r| r[t]).sum(),
                t,
                per_turn[t],
                cum.overall[t],
                exact_per_turn.as_ref().map(|x| x[t]),
                exact_cum.as_ref().map(|x| x.overall[t]),
            );
        }
    }
    rows
}

/// `engagements.csv`, written when the run has an engagement.
pub struct EngagementsCsv;

impl Output for EngagementsCsv {
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error> {
        if !run.courses.iter().any(is_engagement) {
            return Ok(());
        }
        crate::report::csv::stage(
            out,
            "engagements.csv",
            &ENGAGEMENTS_HEADER.map(String::from),
            &engagement_rows(run),
        )
    }
}

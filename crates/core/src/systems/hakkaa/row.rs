//! A row of a table read with a TQ test's result: the Closing, Charge
//! Reaction and Uncontrolled units tables all print a label and one cell for
//! each result, DS, S, F, DF.

use crate::systems::Chart;

/// A labelled table row, one cell per TQ result (DS, S, F, DF).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultRow<C> {
    /// The row as printed.
    pub label: &'static str,
    /// DS, S, F, DF.
    pub cells: [C; 4],
}

impl<C: Copy> ResultRow<C> {
    /// The row `label` with `cells` for DS, S, F, DF.
    pub const fn new(label: &'static str, cells: [C; 4]) -> ResultRow<C> {
        ResultRow { label, cells }
    }
}

/// The column headers of a table read with a TQ result: `first` (over the
/// row labels), then DS, S, F, DF.
pub fn result_headers(first: &str) -> Vec<String> {
    crate::systems::chart::headers(&[first, "DS", "S", "F", "DF"])
}

/// The chart of a table read with a TQ result that has one row, "All".
pub fn all_row_chart(
    id: &'static str,
    title: &str,
    rule: &'static str,
    cells: impl Iterator<Item = String>,
    notes: Vec<String>,
) -> Chart {
    Chart {
        id,
        title: title.into(),
        rule,
        headers: result_headers(""),
        rows: vec![std::iter::once("All".to_string()).chain(cells).collect()],
        notes,
    }
}

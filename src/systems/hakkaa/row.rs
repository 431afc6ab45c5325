//! A row of a table read with a TQ test's result: the Closing, Charge
//! Reaction and Uncontrolled units tables all print a label and one cell for
//! each result, DS, S, F, DF.

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

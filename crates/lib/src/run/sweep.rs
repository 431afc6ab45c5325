//! A prepared scenario's sweep for the reports ([`Sweep`]: each swept key
//! with its typed values, each variant's pick of them), and the plots a
//! run draws when `--plots` is not given: a sweep of more than
//! [`SUMMARY_ABOVE`] variants draws the summary charts only.

use super::{Prepared, Presentation};
use crate::report::Plots;
use crate::report::sweep::{Sweep, SweepAxis, SweepValue};

pub use crate::report::SUMMARY_ABOVE;

impl Prepared {
    /// The number of variants (1 without a sweep).
    pub fn variant_count(&self) -> usize {
        self.variants.len().max(1)
    }

    /// The scenario's sweep, as the reports see it: the `[sweep]` left
    /// after `--set` (a pinned key is no longer swept), in the file's
    /// order, each variant's label from the courses. `None` without one.
    pub fn sweep(&self) -> Option<Sweep> {
        let toml::Value::Table(t) = self.file.table.get("sweep")? else {
            return None;
        };
        let axes: Vec<SweepAxis> = t
            .iter()
            .map(|(k, v)| SweepAxis {
                key: k.clone(),
                values: v
                    .as_array()
                    .map(|a| a.iter().map(typed).collect())
                    .unwrap_or_default(),
            })
            .collect();
        Sweep::new(axes, self.variants.clone())
    }
}

/// A swept value with its type; a table or list as its TOML text.
fn typed(v: &toml::Value) -> SweepValue {
    match v {
        toml::Value::Integer(i) => SweepValue::Int(*i),
        toml::Value::Float(x) => SweepValue::Float(*x),
        toml::Value::Boolean(b) => SweepValue::Bool(*b),
        toml::Value::String(s) => SweepValue::Text(s.clone()),
        other => SweepValue::Text(other.to_string()),
    }
}

impl Presentation {
    /// The plots drawn for `p`: those `--plots` asked for; without it, every
    /// plot, or the summary charts only for a sweep of more than
    /// [`SUMMARY_ABOVE`] variants (or one written as it runs: see
    /// [`Presentation::streams`]). The second value says whether the
    /// default chose the summary.
    pub fn plots_for(&self, p: &Prepared) -> (Plots, bool) {
        match self.plots {
            Some(plots) => (plots, false),
            None if p.variant_count() > SUMMARY_ABOVE || self.streams(p) => (Plots::Summary, true),
            None => (Plots::All, false),
        }
    }

    /// The note said once on stderr when the default drew a large sweep's
    /// summary charts only.
    pub fn summary_note() -> String {
        format!(
            "note: a sweep of more than {SUMMARY_ABOVE} variants draws the summary charts only \
             (the sweep charts, no per-variant plots); --plots all draws every plot"
        )
    }
}

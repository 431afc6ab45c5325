//! Charts as transcribed, for `pikeshot tables`: a title, the rule number,
//! column headers and rows of cells, laid out like the card.

/// One chart of a card.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Short name used on the command line (`pikeshot tables mpbs close-combat`).
    pub id: &'static str,
    /// Title as on the card.
    pub title: String,
    /// Rule number, e.g. "11.0".
    pub rule: &'static str,
    /// Column headers.
    pub headers: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
    /// Notes printed under the chart (DRM lists, keys).
    pub notes: Vec<String>,
}

impl Chart {
    /// Renders the chart as an aligned text table.
    pub fn render(&self) -> String {
        let ncols = self
            .rows
            .iter()
            .map(Vec::len)
            .chain([self.headers.len()])
            .max()
            .unwrap_or(0);
        let width = |s: &str| s.chars().count();
        let mut w = vec![0usize; ncols];
        for row in std::iter::once(&self.headers).chain(&self.rows) {
            for (i, c) in row.iter().enumerate() {
                w[i] = w[i].max(width(c));
            }
        }
        let line = |row: &[String]| {
            let mut s = String::new();
            for (i, wi) in w.iter().enumerate() {
                let c = row.get(i).map(String::as_str).unwrap_or("");
                s.push_str("| ");
                s.push_str(c);
                s.push_str(&" ".repeat(wi - width(c) + 1));
            }
            s.push_str("|\n");
            s
        };
        let mut out = format!("{} ({})\n", self.title, self.rule);
        out.push_str(&line(&self.headers));
        let mut rule = String::new();
        for wi in &w {
            rule.push('|');
            rule.push_str(&"-".repeat(wi + 2));
        }
        rule.push_str("|\n");
        out.push_str(&rule);
        for r in &self.rows {
            out.push_str(&line(r));
        }
        for n in &self.notes {
            out.push_str("  ");
            out.push_str(n);
            out.push('\n');
        }
        out
    }
}

/// What `pikeshot list` says of a procedure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProcedureInfo {
    /// Name used in scenario steps (`procedure = "close-combat"`).
    pub name: &'static str,
    /// Rule number(s) on the card.
    pub rule: &'static str,
    /// One line on what it resolves.
    pub summary: &'static str,
    /// The step keys it accepts and what each means (with its range or default).
    pub keys: &'static [(&'static str, &'static str)],
    /// The outcome labels it reports.
    pub outcomes: &'static [&'static str],
    /// The measures it reports.
    pub measures: &'static [&'static str],
}

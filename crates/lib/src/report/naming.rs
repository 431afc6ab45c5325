//! File names of the charts: slugs of the variant and course, e.g.
//! `charge-now.png`, or `terrain-woods--charge-now.svg` under a sweep (see
//! [`file_stems`]), planned so that no two charts of a run share a name.
//! Each slug is at most [`SLUG_BYTES`] bytes, so a file name, with its
//! suffixes and the temporary prefix it is first written under, stays far
//! below the 255 bytes file systems allow, whatever the names' script.

/// The most bytes of a course's or a variant's slug in a file name.
pub const SLUG_BYTES: usize = 60;

use super::model::ScenarioRun;

/// The file-name suffix of a course's "at least" chart, after the course
/// stem (named here, where every file name of a folder is claimed).
pub const AT_LEAST_SUFFIX: &str = "at-least";

/// Lower-case alphanumerics, everything else folded into single dashes,
/// at most `max` bytes (cut at a character's boundary: a file name's limit
/// is in bytes, and a wide letter takes up to four).
pub fn slug(s: &str, max: usize) -> String {
    let mut out = String::new();
    for ch in s.chars().flat_map(char::to_lowercase) {
        if ch.is_alphanumeric() {
            out.push(ch);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let mut end = out.len().min(max);
    while !out.is_char_boundary(end) {
        end -= 1;
    }
    out.truncate(end);
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// The slug of a variant: each `key=value` as the last segment of the key
/// and the value, e.g. `units.tercio.terrain=woods` → `terrain-woods`.
pub fn variant_slug(variant: &str) -> String {
    let parts: Vec<String> = variant
        .split(", ")
        .map(|part| match part.split_once('=') {
            Some((key, value)) => {
                let last = key.rsplit('.').next().unwrap_or(key);
                format!("{last}-{value}")
            }
            None => part.to_string(),
        })
        .collect();
    slug(&parts.join("-"), SLUG_BYTES)
}

/// The file stem of the plots of every course of `run`, in order:
/// `<course>` without a sweep, `<variant>--<course>` with one (slugs, see
/// [`slug`] and [`variant_slug`]). A course whose name has no letter or
/// digit is `course-<n>` (1-based); a stem already taken gets `-2`, `-3`…
/// A stem is taken when it, or a name derived from it (an engagement's
/// `-turns` and `-cumulative`), is already the name of another plot,
/// comparison charts included (see [`plan`]).
pub fn file_stems(run: &ScenarioRun) -> Vec<String> {
    plan(run).courses
}

/// The file stems of a run's plots, unique across every plot of the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlotNames {
    /// The stem of each course's histogram, in run order; its "at least"
    /// chart adds `-at-least`, an engagement's plots `-turns` and
    /// `-cumulative`.
    pub courses: Vec<String>,
    /// For each variant with key measures, in order of first appearance: the
    /// variant and the stem of its comparison charts (`comparison`, or
    /// `<variant>--comparison` under a sweep); the expectations chart adds
    /// `-expected`.
    pub comparisons: Vec<(String, String)>,
}

/// Plans every plot name of `run` so that none is made twice: comparison
/// charts first, then each course (see [`file_stems`]), each name checked
/// against every name already given, its derived names included.
pub fn plan(run: &ScenarioRun) -> PlotNames {
    // A set, not a list: a sweep of thousands of variants claims tens of
    // thousands of names.
    let mut taken: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut claim = |base: String, suffixes: &[&str]| -> String {
        let mut stem = base.clone();
        let mut k = 2;
        loop {
            let mut names = vec![stem.clone()];
            names.extend(suffixes.iter().map(|s| format!("{stem}-{s}")));
            if names.iter().all(|n| !taken.contains(n)) {
                taken.extend(names);
                return stem;
            }
            stem = format!("{base}-{k}");
            k += 1;
        }
    };
    let mut comparisons = Vec::new();
    let keyed: std::collections::HashSet<&str> = run
        .courses
        .iter()
        .filter(|c| super::key::has_key_measures(&c.space))
        .map(|c| c.variant.as_str())
        .collect();
    for variant in run.variants() {
        if !keyed.contains(variant) {
            continue;
        }
        let v = variant_slug(variant);
        let base = if v.is_empty() {
            "comparison".to_string()
        } else {
            format!("{v}--comparison")
        };
        comparisons.push((variant.to_string(), claim(base, &["expected"])));
    }
    let mut courses = Vec::with_capacity(run.courses.len());
    for (i, c) in run.courses.iter().enumerate() {
        let mut course = slug(&c.course, SLUG_BYTES);
        if course.is_empty() {
            course = format!("course-{}", i + 1);
        }
        let variant = variant_slug(&c.variant);
        let base = if variant.is_empty() {
            course
        } else {
            format!("{variant}--{course}")
        };
        let suffixes: &[&str] = if super::engagement::is_engagement(c) {
            &["turns", "cumulative", AT_LEAST_SUFFIX]
        } else {
            &[AT_LEAST_SUFFIX]
        };
        courses.push(claim(base, suffixes));
    }
    PlotNames {
        courses,
        comparisons,
    }
}

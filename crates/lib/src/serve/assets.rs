//! What the page is served and what it may load: the page itself (HTML, CSS,
//! script, each `include_str!`-ed so the binary needs no file and no
//! network) and the shipped scenarios, embedded the same way: their list,
//! `SHIPPED`, is written from the `scenarios/` folder by the library's
//! build script (`lib/build.rs`), so a new scenario needs no line here.

/// The page.
pub const INDEX_HTML: &str = include_str!("assets/index.html");
/// Its style sheet.
pub const STYLE_CSS: &str = include_str!("assets/style.css");
/// Its script (plain JavaScript, no build step): state, helpers, running
/// and the results.
pub const APP_JS: &str = include_str!("assets/app.js");
/// The form's script, loaded before `APP_JS` (classic scripts sharing
/// globals): a control for every key, and errors beside their controls.
pub const FORM_JS: &str = include_str!("assets/form.js");

/// The "best plan" panel's script, loaded after `FORM_JS` and before
/// `APP_JS`: the form's `[[decision]]` tables and the decisions solved.
pub const DECISION_JS: &str = include_str!("assets/decision.js");

/// The page's files as the router serves them: (path, body, content type),
/// the form's script before the one that calls it.
pub const PAGE_FILES: [(&str, &str, &str); 5] = [
    ("/", INDEX_HTML, "text/html; charset=utf-8"),
    ("/style.css", STYLE_CSS, "text/css; charset=utf-8"),
    ("/form.js", FORM_JS, "text/javascript; charset=utf-8"),
    (
        "/decision.js",
        DECISION_JS,
        "text/javascript; charset=utf-8",
    ),
    ("/app.js", APP_JS, "text/javascript; charset=utf-8"),
];

include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

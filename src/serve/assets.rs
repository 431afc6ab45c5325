//! What the page is served and what it may load: the page itself (HTML, CSS,
//! script, each `include_str!`-ed so the binary needs no file and no
//! network) and the shipped scenarios, embedded the same way.
//! `tests/it/serve.rs` checks the list against `scenarios/`.

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

/// The page's files as the router serves them: (path, body, content type),
/// the form's script before the one that calls it.
pub const PAGE_FILES: [(&str, &str, &str); 4] = [
    ("/", INDEX_HTML, "text/html; charset=utf-8"),
    ("/style.css", STYLE_CSS, "text/css; charset=utf-8"),
    ("/form.js", FORM_JS, "text/javascript; charset=utf-8"),
    ("/app.js", APP_JS, "text/javascript; charset=utf-8"),
];

/// Every shipped scenario: (path under `scenarios/`, text).
pub const SHIPPED: &[(&str, &str)] = &[
    (
        "hakkaa/cuirassiers-charge-green-shot.toml",
        include_str!("../../scenarios/hakkaa/cuirassiers-charge-green-shot.toml"),
    ),
    (
        "hakkaa/fire-or-charge.toml",
        include_str!("../../scenarios/hakkaa/fire-or-charge.toml"),
    ),
    (
        "hakkaa/musketeers-vs-pike.toml",
        include_str!("../../scenarios/hakkaa/musketeers-vs-pike.toml"),
    ),
    (
        "mpbs/after-combat.toml",
        include_str!("../../scenarios/mpbs/after-combat.toml"),
    ),
    (
        "mpbs/artillery-culverin.toml",
        include_str!("../../scenarios/mpbs/artillery-culverin.toml"),
    ),
    (
        "mpbs/artillery-falcon.toml",
        include_str!("../../scenarios/mpbs/artillery-falcon.toml"),
    ),
    (
        "mpbs/artillery-saker.toml",
        include_str!("../../scenarios/mpbs/artillery-saker.toml"),
    ),
    (
        "mpbs/bombardment.toml",
        include_str!("../../scenarios/mpbs/bombardment.toml"),
    ),
    (
        "mpbs/charge-or-salvo.toml",
        include_str!("../../scenarios/mpbs/charge-or-salvo.toml"),
    ),
    (
        "mpbs/cuirassiers-vs-pike.toml",
        include_str!("../../scenarios/mpbs/cuirassiers-vs-pike.toml"),
    ),
    (
        "mpbs/dragoons-and-pistols.toml",
        include_str!("../../scenarios/mpbs/dragoons-and-pistols.toml"),
    ),
    (
        "mpbs/garden-assault.toml",
        include_str!("../../scenarios/mpbs/garden-assault.toml"),
    ),
    (
        "mpbs/orders-and-activation.toml",
        include_str!("../../scenarios/mpbs/orders-and-activation.toml"),
    ),
    (
        "mpbs/salvo-vs-front.toml",
        include_str!("../../scenarios/mpbs/salvo-vs-front.toml"),
    ),
    (
        "snaphance/fire-or-charge.toml",
        include_str!("../../scenarios/snaphance/fire-or-charge.toml"),
    ),
    (
        "snaphance/gendarmes-vs-pike.toml",
        include_str!("../../scenarios/snaphance/gendarmes-vs-pike.toml"),
    ),
    (
        "snaphance/melee-to-finish.toml",
        include_str!("../../scenarios/snaphance/melee-to-finish.toml"),
    ),
    (
        "snaphance/orders-and-pursuit.toml",
        include_str!("../../scenarios/snaphance/orders-and-pursuit.toml"),
    ),
    (
        "snaphance/shot-vs-pike.toml",
        include_str!("../../scenarios/snaphance/shot-vs-pike.toml"),
    ),
    (
        "snaphance/volley-12-sp.toml",
        include_str!("../../scenarios/snaphance/volley-12-sp.toml"),
    ),
    (
        "sword-and-spear/activation.toml",
        include_str!("../../scenarios/sword-and-spear/activation.toml"),
    ),
    (
        "sword-and-spear/armoured-vs-lacking-protection.toml",
        include_str!("../../scenarios/sword-and-spear/armoured-vs-lacking-protection.toml"),
    ),
    (
        "sword-and-spear/heavy-foot-vs-cavalry.toml",
        include_str!("../../scenarios/sword-and-spear/heavy-foot-vs-cavalry.toml"),
    ),
    (
        "sword-and-spear/horse-archers-shoot-or-charge.toml",
        include_str!("../../scenarios/sword-and-spear/horse-archers-shoot-or-charge.toml"),
    ),
    (
        "sword-and-spear/longbow-vs-heavily-armoured.toml",
        include_str!("../../scenarios/sword-and-spear/longbow-vs-heavily-armoured.toml"),
    ),
];

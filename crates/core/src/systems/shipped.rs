//! The four shipped rule systems as one [`Registry`]: a new rule system is
//! one folder under `systems/` and one line here. This file stands above
//! every system (it names them all); nothing below imports it.

use super::lookup::Registry;
use super::registry::RuleSystem;

/// Every shipped rule system, in the order `pikeshot list` prints them.
static SHIPPED: &[&dyn RuleSystem] = &[
    &super::mpbs::Mpbs,
    &super::hakkaa::Hakkaa,
    &super::snaphance::Snaphance,
    &super::sword_spear::SwordSpear,
];

impl Registry {
    /// The shipped rule systems: what the command line, the page and every
    /// path that takes no registry of its own use.
    pub fn shipped() -> Registry {
        Registry::new(SHIPPED)
    }
}

impl Default for Registry {
    /// [`Registry::shipped`].
    fn default() -> Registry {
        Registry::shipped()
    }
}

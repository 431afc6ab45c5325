//! Integration tests of the mpbs rule system, one module per concern.

mod after_combat;
mod between_rolls;
mod card_names;
mod close_combat;
mod courses;
mod fire;
mod list;
mod musketry;
mod orders;

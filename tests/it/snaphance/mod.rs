//! Integration tests of the snaphance rule system, one module per concern.

mod between_rolls;
mod courses;
mod fire;
mod hits;
mod melee;
mod orders;
mod pools;

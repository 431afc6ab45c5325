//! Integration tests of the sword_spear rule system, one module per concern.

mod activation;
mod between_rolls;
mod combat;
mod courses;
mod explain;
mod tables;
mod troops;

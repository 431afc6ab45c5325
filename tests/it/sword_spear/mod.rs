//! Integration tests of the sword_spear rule system, one module per concern.

mod activation;
mod combat;
mod courses;
mod tables;

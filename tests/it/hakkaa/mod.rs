//! Integration tests of the hakkaa rule system, one module per concern.

mod between_rolls;
mod charge;
mod courses;
mod fire;
mod morale;
mod tables;
mod tq;

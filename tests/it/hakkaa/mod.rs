//! Integration tests of the hakkaa rule system, one module per concern.

mod between_rolls;
mod charge;
mod courses;
mod draw;
mod fire;
mod morale;
mod pair;
mod tables;
mod tq;
mod unit;

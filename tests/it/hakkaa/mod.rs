//! Integration tests of the hakkaa rule system, one module per concern.

mod charge;
mod courses;
mod fire;
mod morale;
mod tables;
mod tq;

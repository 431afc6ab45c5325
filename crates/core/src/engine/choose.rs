//! The kernel a course is sampled by, chosen once when it is built.
//!
//! Three ways to draw a trial, fastest first where each applies:
//!
//! - a [`CompiledTable`] whose leaves fit packed counters (at most ten
//!   distinct leaves): several trials from one uniform draw, counted in
//!   registers;
//! - an [`AliasTable`] over the course's exact distribution: 32 bits of the
//!   generator and one lookup a trial, whatever the number of leaves or the
//!   length of the course (a chain of steps is propagated exactly once, so
//!   a course of many turns costs no more a trial than one roll);
//! - die by die ([`KernelKind::DieByDie`]): the procedure's own `resolve`,
//!   only for a course whose exact distribution is out of
//!   [`exact::DEFAULT_BUDGET`] (or under [`KernelMode::Direct`]).
//!
//! Either table samples the procedure's distribution (the compiled table
//! exactly, the alias table to within `2^-32` a leaf), so the choice
//! changes which trials a seed gives, never what they estimate.

use crate::dice::Sampler;
use crate::engine::alias::AliasTable;
use crate::engine::{
    CompiledTable, Kernel, KernelKind, KernelMode, TableKernel, TrialTable, exact,
};
use crate::procedure::Procedure;

/// The table a [`Chosen`] kernel draws its trials from.
#[derive(Clone, Debug)]
pub enum Sampled {
    /// A compiled table with packed counters.
    Compiled(CompiledTable),
    /// An alias table over the exact distribution.
    Alias(AliasTable),
}

impl TrialTable for Sampled {
    fn draw(&self, rng: &mut Sampler, n: u64, counts: &mut [u64]) {
        match self {
            Sampled::Compiled(t) => t.sample(rng, n, counts),
            Sampled::Alias(t) => t.sample(rng, n, counts),
        }
    }
    fn kind(&self) -> KernelKind {
        match self {
            Sampled::Compiled(_) => KernelKind::Compiled,
            Sampled::Alias(_) => KernelKind::Alias,
        }
    }
}

/// A procedure with the fastest table that samples it (see the module).
pub type Chosen<P> = TableKernel<P, Sampled>;

impl<P: Procedure> Chosen<P> {
    /// Prepares `procedure`: under [`KernelMode::Auto`], a compiled table
    /// when one fits with packed counters, else an alias table of its
    /// exact distribution within [`exact::DEFAULT_BUDGET`], else a
    /// compiled table of any size, else die by die; under
    /// [`KernelMode::Direct`], die by die.
    pub fn new(procedure: P, mode: KernelMode) -> Chosen<P> {
        if mode == KernelMode::Direct {
            return TableKernel {
                procedure,
                table: None,
                exact: None,
            };
        }
        let compiled = match CompiledTable::compile(&procedure) {
            Some(t) if t.is_packed() => {
                return TableKernel {
                    procedure,
                    table: Some(Sampled::Compiled(t)),
                    exact: None,
                };
            }
            other => other,
        };
        let exact = exact::exact(&procedure, exact::DEFAULT_BUDGET).ok();
        let table = match exact.as_deref().and_then(AliasTable::new) {
            Some(a) => Some(Sampled::Alias(a)),
            None => compiled.map(Sampled::Compiled),
        };
        TableKernel {
            procedure,
            table,
            exact,
        }
    }
}

impl<P: Procedure + 'static> Chosen<P> {
    /// Boxes `procedure` as a [`Kernel`] (see [`Chosen::new`]).
    pub fn boxed(procedure: P, mode: KernelMode) -> Box<dyn Kernel> {
        Box::new(Chosen::new(procedure, mode))
    }
}

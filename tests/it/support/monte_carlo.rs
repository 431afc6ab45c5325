//! Monte Carlo against exact: the one check, under both kernels.

use pikeshot::engine::{Kernel, KernelMode, ProcedureKernel};
use pikeshot::stats;
use pikeshot::{Procedure, Sampler};

/// Trials of each Monte Carlo check.
pub const TRIALS: u64 = 200_000;

/// Standard errors a simulated frequency may lie from exact.
pub const SIGMAS: f64 = 4.5;

/// How fine the comparison is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Leaves {
    /// Every outcome and every value of every measure
    /// ([`stats::disagreements`]).
    Marginals,
    /// As [`Leaves::Marginals`], and every leaf on its own as well.
    Each,
}

/// Samples [`TRIALS`] trials of `k` from `seed` and asserts they all land
/// and agree with the exact leaf probabilities `probs` within [`SIGMAS`]
/// standard errors (per outcome and measure value, and per leaf when
/// `leaves` is [`Leaves::Each`]). `what` names the case in messages.
#[track_caller]
pub fn assert_sample_matches(k: &dyn Kernel, probs: &[f64], seed: u64, leaves: Leaves, what: &str) {
    let n = TRIALS;
    let mut counts = vec![0u64; k.space().len()];
    k.sample(&mut Sampler::new(seed), n, &mut counts);
    assert_eq!(counts.iter().sum::<u64>(), n, "{what}");
    let off = stats::disagreements(k.space(), &counts, n, probs, SIGMAS);
    assert!(off.is_empty(), "{what}: {off:?}");
    if leaves == Leaves::Each {
        for (leaf, (&c, &q)) in counts.iter().zip(probs).enumerate() {
            let bound = SIGMAS * (q * (1.0 - q) / n as f64).sqrt() + 1e-9;
            let got = c as f64 / n as f64;
            assert!(
                (got - q).abs() <= bound,
                "{what} leaf {leaf}: {got} vs exact {q} (bound {bound})"
            );
        }
    }
}

/// Whether to assert which kernel mode compiles a table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Compiled {
    /// `KernelMode::Auto` compiles (or tabulates) and `Direct` does not.
    WhenAuto,
    /// Not asserted (the procedure may be too large to compile).
    Unchecked,
}

/// Builds the kernel of one procedure or course in each mode
/// ([`KernelMode::Direct`], then [`KernelMode::Auto`]) with `make` and
/// asserts each agrees with the exact leaf probabilities `probs` (see
/// [`assert_sample_matches`]).
#[track_caller]
pub fn assert_both_kernels<K: Kernel>(
    make: impl Fn(KernelMode) -> K,
    probs: &[f64],
    seed: u64,
    leaves: Leaves,
    compiled: Compiled,
    what: &str,
) {
    assert!(
        (probs.iter().sum::<f64>() - 1.0).abs() < 1e-9,
        "{what}: exact sums to {}",
        probs.iter().sum::<f64>()
    );
    for mode in [KernelMode::Direct, KernelMode::Auto] {
        let k = make(mode);
        if compiled == Compiled::WhenAuto {
            assert_eq!(k.is_compiled(), mode == KernelMode::Auto, "{what} {mode:?}");
        }
        assert_sample_matches(&k, probs, seed, leaves, &format!("{what} {mode:?}"));
    }
}

/// [`assert_both_kernels`] for a procedure on its own: its exact answer
/// within `budget`, then an `engine::ProcedureKernel` kernel in each mode.
#[track_caller]
pub fn assert_procedure_matches<P: Procedure + Clone + 'static>(
    p: &P,
    budget: u64,
    seed: u64,
    leaves: Leaves,
    compiled: Compiled,
) {
    let probs = pikeshot::engine::exact::exact(p, budget).unwrap();
    assert_both_kernels(
        |mode| ProcedureKernel::new(p.clone(), mode),
        &probs,
        seed,
        leaves,
        compiled,
        "",
    );
}

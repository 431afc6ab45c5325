//! The courses of one sweep variant, built when they are run and dropped
//! after, so that a sweep's memory does not grow with its variant count.
//!
//! Every variant is built once when the scenario is prepared (that is what
//! validates it, before any output is written); its kernels are then
//! dropped, keeping only their outcome spaces. When the run reaches the
//! variant, the first kernel asked for builds the variant again (the same
//! table gives the same kernels) and the engine releases them when it moves
//! on to the next variant. Under `--method exact` each course's exact
//! answer is found in the validating build and kept instead, so no
//! variant is built twice.

use std::sync::{Arc, Mutex, RwLock};

use crate::dice::{EnumerationError, Sampler};
use crate::engine::{Kernel, KernelMode};
use crate::outcome::OutcomeSpace;
use crate::scenario::ScenarioFile;
use crate::systems::RuleSystem;

/// A variant's kernels, in course order, shared while they are used.
type Kernels = Arc<Vec<Box<dyn Kernel>>>;

/// A course's exact answer found while its variant was validated.
pub type ExactAnswer = Result<Vec<f64>, EnumerationError>;

/// The built kernels of one variant, shared by its courses' kernels.
pub struct VariantCell {
    file: Arc<ScenarioFile>,
    index: usize,
    system: &'static dyn RuleSystem,
    mode: KernelMode,
    built: RwLock<Option<Kernels>>,
}

impl VariantCell {
    /// A cell for variant `index` of `file`, holding `built` (if given)
    /// until the first release.
    pub fn new(
        file: Arc<ScenarioFile>,
        index: usize,
        system: &'static dyn RuleSystem,
        mode: KernelMode,
        built: Option<Vec<Box<dyn Kernel>>>,
    ) -> Arc<VariantCell> {
        Arc::new(VariantCell {
            file,
            index,
            system,
            mode,
            built: RwLock::new(built.map(Arc::new)),
        })
    }

    /// The variant's kernels, building them if they were released.
    fn kernels(&self) -> Kernels {
        if let Some(k) = self
            .built
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            return Arc::clone(k);
        }
        let mut slot = self.built.write().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = slot.as_ref() {
            return Arc::clone(k);
        }
        let k = Arc::new(self.build());
        *slot = Some(Arc::clone(&k));
        k
    }

    /// Builds the variant's kernels again. The variant was built without
    /// error when the scenario was prepared, and building is a function of
    /// the table, so this cannot fail.
    fn build(&self) -> Vec<Box<dyn Kernel>> {
        let built = self
            .file
            .variant(self.index)
            .and_then(|v| {
                let mut f = self.file.fields(&v);
                self.system.build_courses(&mut f, self.mode)
            })
            .unwrap_or_else(|e| {
                unreachable!("variant {} was validated, then failed: {e}", self.index)
            });
        built.courses.into_iter().map(|(_, k)| k).collect()
    }

    fn release(&self) {
        *self.built.write().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// Course `course` of a variant: its outcome space, and its kernel built
/// on demand.
pub struct VariantKernel {
    /// The variant's shared cell.
    pub cell: Arc<VariantCell>,
    /// The course's index in the variant.
    pub course: usize,
    /// The course's outcome space (from the validating build).
    pub space: OutcomeSpace,
    /// Its exact answer, when found while validating (`--method exact`):
    /// given once, so the run never builds the variant again.
    pub exact: Mutex<Option<ExactAnswer>>,
}

impl Kernel for VariantKernel {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    fn sample(&self, rng: &mut Sampler, n: u64, counts: &mut [u64]) {
        self.cell.kernels()[self.course].sample(rng, n, counts)
    }
    fn exact(&self, budget: u64) -> Result<Vec<f64>, EnumerationError> {
        let found = self.exact.lock().unwrap_or_else(|e| e.into_inner()).take();
        match found {
            Some(answer) => answer,
            None => self.cell.kernels()[self.course].exact(budget),
        }
    }
    fn is_compiled(&self) -> bool {
        self.cell.kernels()[self.course].is_compiled()
    }
    fn kind(&self) -> crate::engine::KernelKind {
        self.cell.kernels()[self.course].kind()
    }
    fn release(&self) {
        self.cell.release()
    }
    fn prepare(&self) {
        self.cell.kernels();
    }
}

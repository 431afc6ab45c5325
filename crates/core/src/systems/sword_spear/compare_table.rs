//! Steps 3–5 of the Combat Process as a table kept between clashes: the
//! dice outcome of every pair of placed top fours, for each way of
//! comparing them.
//!
//! The comparison ([`Clash::compare`]) reads only each side's armour
//! reduction, raise and vulnerability and two switches, not the dice
//! counts, strengths or Discipline; and a side places at most four dice of
//! six faces, so there are [`PLACINGS`] placings a side. The exact round
//! compares every placing of one pool with every placing of the other
//! (about 16,000 pairs for six dice against six); rounds of the same
//! comparison (the states of a course, the variants of a sweep) read the
//! outcomes worked out before instead of comparing again. A cell is worked
//! out by the comparison itself the first time it is read, so the table
//! cannot disagree with it, and the exact round adds the same terms in the
//! same order as without it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Mutex, OnceLock};

use super::combat::{ArmourChoice, Clash, PLACED, Placed, Unpaired};

/// Placings of one side: the non-increasing sequences of zero to four
/// faces of a d6 (1 + 6 + 21 + 56 + 126).
pub const PLACINGS: usize = 210;

/// Most comparisons tables are kept for (each [`PLACINGS`]² cells of two
/// bytes, 88 kB); the comparisons past them are worked out every time.
const MAX_TABLES: usize = 64;

/// A cell not yet worked out.
const UNKNOWN: u16 = u16::MAX;

/// What of a clash its comparison reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    reduce: [u8; 2],
    raise: [bool; 2],
    vulnerable: [bool; 2],
    armour_choice: ArmourChoice,
    unpaired: Unpaired,
}

impl Key {
    fn of(c: &Clash) -> Key {
        let [a, b] = &c.sides;
        Key {
            reduce: [a.reduce, b.reduce],
            raise: [a.raise, b.raise],
            vulnerable: [a.vulnerable, b.vulnerable],
            armour_choice: c.rules.armour_choice,
            unpaired: c.rules.unpaired,
        }
    }
}

/// The dice outcome cells of one comparison, by placing of each side.
pub struct Table {
    cells: Option<&'static [AtomicU16]>,
}

/// Every comparison's table, made when first asked for.
static TABLES: OnceLock<Mutex<HashMap<Key, &'static [AtomicU16]>>> = OnceLock::new();

/// The table of `clash`'s comparison.
pub fn table(clash: &Clash) -> Table {
    let key = Key::of(clash);
    let mut tables = TABLES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(&cells) = tables.get(&key) {
        return Table { cells: Some(cells) };
    }
    if tables.len() >= MAX_TABLES {
        return Table { cells: None };
    }
    // Kept for the life of the program: at most MAX_TABLES of them.
    let cells: &'static [AtomicU16] = Box::leak(
        (0..PLACINGS * PLACINGS)
            .map(|_| AtomicU16::new(UNKNOWN))
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    );
    tables.insert(key, cells);
    Table { cells: Some(cells) }
}

impl Table {
    /// The cell of placings `a` and `b` (their [`index`]es): read from the
    /// table, or worked out by `work` and kept.
    #[inline]
    pub fn cell(&self, a: usize, b: usize, work: impl FnOnce() -> usize) -> usize {
        let Some(cells) = self.cells else {
            return work();
        };
        let slot = &cells[a * PLACINGS + b];
        // Every thread works out the same cell from the same placings, so
        // a race only does the work twice.
        match slot.load(Ordering::Relaxed) {
            UNKNOWN => {
                let c = work();
                debug_assert!(c < UNKNOWN as usize);
                slot.store(c as u16, Ordering::Relaxed);
                c
            }
            c => c as usize,
        }
    }
}

/// Rank of each placing code ([`code`]) among the placings.
static RANK: [u8; 7 * 7 * 7 * 7] = ranks();

/// A placing's code: its four slots (0 for an empty one) in base 7.
const fn code(d: [u8; PLACED]) -> usize {
    ((d[0] as usize * 7 + d[1] as usize) * 7 + d[2] as usize) * 7 + d[3] as usize
}

/// [`RANK`]: placings numbered in the order of their codes.
const fn ranks() -> [u8; 7 * 7 * 7 * 7] {
    let mut rank = [u8::MAX; 7 * 7 * 7 * 7];
    let mut next = 0u8;
    let mut c = 0;
    while c < rank.len() {
        let d = [
            (c / 343) as u8,
            (c / 49 % 7) as u8,
            (c / 7 % 7) as u8,
            (c % 7) as u8,
        ];
        // Non-increasing, with every empty slot after the dice placed.
        let ok = d[0] >= d[1] && d[1] >= d[2] && d[2] >= d[3];
        if ok {
            rank[c] = next;
            next += 1;
        }
        c += 1;
    }
    assert!(next as usize == PLACINGS);
    rank
}

/// The index of a placing among the [`PLACINGS`].
#[inline]
pub fn index(p: &Placed) -> usize {
    RANK[code(p.dice)] as usize
}

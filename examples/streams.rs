//! Raw 64-bit words of many Monte Carlo streams, interleaved, on standard
//! output: the input `scripts/dieharder.sh` feeds to `dieharder -g 200`.
//!
//! A sharded report runs the chunks of many courses of many variants; each
//! chunk draws from its own xoshiro256++ stream seeded by
//! `engine::chunk_seed(seed, variant, course, chunk)`. This writes one word
//! of each of `STREAMS` such streams in turn (variants, courses and chunks
//! as a sweep of `VARIANTS` variants with `COURSES` courses each uses them,
//! chunk numbers counting up), then the next word of each, and so on, so
//! that a battery sees whatever the streams share.
//!
//! `cargo run --release --example streams -- [SEED]` (forever; a reader
//! ends it by closing the pipe).

use std::io::Write;

use pikeshot::Sampler;
use pikeshot::engine::{chunk_seed, stream_id};

/// Variants interleaved (as `--shard` spreads a sweep's variants).
const VARIANTS: u64 = 16;
/// Courses per variant.
const COURSES: u64 = 4;
/// Chunks per course interleaved at once.
const CHUNKS: u64 = 16;
/// Words each stream gives before the next chunks take over (a chunk's
/// 65,536 trials draw about this many words).
const WORDS_PER_CHUNK: usize = 1 << 16;

fn main() {
    let seed: u64 = std::env::args()
        .nth(1)
        .map_or(1, |s| s.parse().expect("SEED is a whole number"));
    let variants: Vec<u64> = (0..VARIANTS)
        .map(|v| stream_id(&format!("width={v}")))
        .collect();
    let courses: Vec<u64> = (0..COURSES)
        .map(|c| stream_id(&format!("course-{c}")))
        .collect();
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 20, out.lock());
    let mut buf = Vec::with_capacity(8 * (VARIANTS * COURSES * CHUNKS) as usize);
    for round in 0u64.. {
        let mut streams: Vec<Sampler> = Vec::new();
        for &v in &variants {
            for &c in &courses {
                for k in 0..CHUNKS {
                    streams.push(Sampler::new(chunk_seed(seed, v, c, round * CHUNKS + k)));
                }
            }
        }
        for _ in 0..WORDS_PER_CHUNK {
            buf.clear();
            for s in &mut streams {
                buf.extend_from_slice(&s.next_word().to_le_bytes());
            }
            if out.write_all(&buf).is_err() {
                return;
            }
        }
    }
}

#!/usr/bin/env bash
# The Monte Carlo streams of a sharded run through the dieharder battery
# (Debian's `dieharder`; installed when missing, as root). Not in CI: the
# whole battery reads tens of gigabytes and takes hours on two cores.
#
# examples/streams.rs writes the raw 64-bit words of 1,024 chunk streams
# (16 variants x 4 courses x 16 chunks, each seeded by
# engine::chunk_seed(seed, variant, course, chunk) as a run seeds them)
# interleaved word by word, moving on to the next chunks every 65,536
# words: what the chunks of a sharded sweep draw, side by side.
#
# Usage: scripts/dieharder.sh [DIEHARDER ARGS]   (default: -a, every test)
#   e.g. scripts/dieharder.sh -d 0     (one test: birthdays)
#   SEED=7 scripts/dieharder.sh        (another run seed; default 1)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v dieharder >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq dieharder >/dev/null
fi
# The dev profile builds the library at opt-level 1 and the generator at 3:
# fast enough to feed the battery, and a build CI already has.
cargo build --locked -q --example streams
args=("$@")
if [ ${#args[@]} -eq 0 ]; then args=(-a); fi
# -g 200: raw binary words on standard input.
target/debug/examples/streams "${SEED:-1}" | dieharder -g 200 "${args[@]}"

# What the timing scripts share (sourced, from the repository root).

# The binary timed: PIKESHOT_BIN=path (e.g. a copy of an older build), else
# the release build, built first.
release_bin() {
  if [ -n "${PIKESHOT_BIN:-}" ]; then
    echo "$PIKESHOT_BIN"
  else
    cargo build --release --locked -q
    echo "$PWD/target/release/pikeshot"
  fi
}

# Sets what every timing script starts from: `bin`, the binary timed (see
# release_bin), and `tmp`, a scratch folder removed when the script exits.
timing_setup() {
  bin=$(release_bin)
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
}

# scenarios/mpbs/charge-or-salvo.toml up to its [sweep] table: its units
# and three courses, for a sweep of one's own to be appended.
unswept_charge_or_salvo() {
  awk '/^\[sweep\]/ { exit } { print }' scenarios/mpbs/charge-or-salvo.toml
}

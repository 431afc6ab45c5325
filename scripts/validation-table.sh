#!/usr/bin/env bash
# Writes docs/guide/validation.md, the exact key outcomes of every shipped
# scenario, from the tool (`pikeshot report scenarios --method exact
# --format json`, formatted by tests/it/validation.rs, the same code the
# test that checks the committed table runs).
# Usage: scripts/validation-table.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PIKESHOT_WRITE_VALIDATION=1 cargo test --locked -q --test it \
  validation::the_committed_validation_table_is_what_the_tool_gives >/dev/null
git --no-pager diff --stat -- docs/guide/validation.md 2>/dev/null || true
echo "wrote docs/guide/validation.md"

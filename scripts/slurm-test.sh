#!/usr/bin/env bash
# A real Slurm cluster on this one machine: a job array of 8 shards of the
# shipped scenarios (`pikeshot report scenarios --shard auto`), then a merge
# job that runs once all of them succeeded (--dependency=afterok), and the
# merged folder checked byte for byte against the unsharded report
# (timing.csv aside: it holds wall-clock seconds).
#
# On Debian, as root (or with sudo): installs slurm-wlm and munge where
# missing. Everything else stays in one temporary folder: the munge key and
# socket, slurm.conf (found through SLURM_CONF, so /etc/slurm is neither read
# nor written), the daemons' state, spool, logs and pid files, and the
# reports. munged, slurmctld and slurmd run in the foreground of this
# script, on ports of their own, and are stopped on any exit, failure
# included. Every wait is bounded.
#
# Usage: scripts/slurm-test.sh   (PIKESHOT_BIN=path to test another build;
# TRIALS=... trials per course, default 20000; SLURM_TIMEOUT=seconds for
# the jobs, default 600; SLURMCTLD_PORT / SLURMD_PORT, default 26817/26818)
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
if ! { command -v slurmctld && command -v slurmd && command -v sbatch && command -v munged; } >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq slurm-wlm munge >/dev/null
fi

# shellcheck source=scripts/lib.sh
. scripts/lib.sh
# Absolute: the jobs run in the temporary folder.
bin=$(realpath "$(release_bin)")
TRIALS=${TRIALS:-20000}
TIMEOUT=${SLURM_TIMEOUT:-600}
SHARDS=8

tmp=$(mktemp -d /tmp/pikeshot-slurm.XXXXXX)
chmod 0700 "$tmp"
pids=()
cleanup() {
  local rc=$?
  set +e
  if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then
    timeout 20 scancel --quiet --user "$(id -un)" >/dev/null 2>&1
  fi
  # Newest first: slurmd, slurmctld, munged.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill -TERM "${pids[i]}" 2>/dev/null
  done
  for p in "${pids[@]}"; do
    for _ in $(seq 1 100); do
      kill -0 "$p" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$p" 2>/dev/null
    wait "$p" 2>/dev/null
  done
  if [ "$rc" != 0 ]; then
    echo "slurm test FAILED (exit $rc); daemon logs:" >&2
    for f in "$tmp"/log/*.log "$tmp"/log/*.err; do
      [ -f "$f" ] && { echo "--- $f" >&2; tail -n 30 "$f" >&2; }
    done
  fi
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Waits up to $1 tenths of a second for the command after it to succeed.
wait_for() {
  local n=$1
  shift
  for _ in $(seq 1 "$n"); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  echo "timed out waiting for: $*" >&2
  return 1
}

mkdir -p "$tmp"/{munge,state,spool,log,out,run}
host=$(hostname -s)
user=$(id -un)

# munge: a fresh key and a socket of our own.
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 0400 "$tmp/munge/munge.key"
munge_sock="$tmp/munge/munge.socket"
munged --foreground --force \
  --key-file="$tmp/munge/munge.key" \
  --socket="$munge_sock" \
  --pid-file="$tmp/run/munged.pid" \
  --seed-file="$tmp/munge/munge.seed" \
  --log-file="$tmp/log/munged.log" 2>>"$tmp/log/munged.err" &
pids+=($!)
wait_for 100 test -S "$munge_sock"

export SLURM_CONF="$tmp/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=pikeshot-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=${SLURMCTLD_PORT:-26817}
SlurmdPort=${SLURMD_PORT:-26818}
SlurmUser=$user
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$munge_sock
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

slurmctld -D -i -f "$SLURM_CONF" 2>>"$tmp/log/slurmctld.err" &
pids+=($!)
wait_for 200 scontrol ping
slurmd -D -f "$SLURM_CONF" 2>>"$tmp/log/slurmd.err" &
pids+=($!)
wait_for 300 sh -c "sinfo -h -N -o %t | grep -Eq '^(idle|mix|alloc)'"

# The two job scripts, as a user writes them (docs/guide/cluster.md).
# The array's task ids 0..7 are shards 1/8..8/8: --shard auto reads
# SLURM_ARRAY_TASK_ID, _MIN and _MAX.
scen="$PWD/scenarios"
out="$tmp/out"
cat >"$tmp/shards.sbatch" <<JOB
#!/bin/sh
#SBATCH --job-name=pikeshot-shards
#SBATCH --array=0-$((SHARDS - 1))
#SBATCH --output=$tmp/log/shard-%a.txt
exec "$bin" report "$scen" --trials $TRIALS --shard auto --out "$out/shard-\$SLURM_ARRAY_TASK_ID" -q
JOB
cat >"$tmp/merge.sbatch" <<JOB
#!/bin/sh
#SBATCH --job-name=pikeshot-merge
#SBATCH --output=$tmp/log/merge.txt
exec "$bin" merge "$out"/shard-* --out "$out/merged"
JOB
array=$(sbatch --parsable --chdir="$tmp" "$tmp/shards.sbatch")
array=${array%%;*}
# The merge, once every task of the array has succeeded (cancelled if one
# fails); --wait blocks until it ends and exits with its exit code.
timeout "$TIMEOUT" sbatch --wait --parsable --chdir="$tmp" \
  --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  "$tmp/merge.sbatch" >/dev/null || {
  echo "the merge job failed or timed out; the jobs and their logs:" >&2
  scontrol show job >&2 || true
  cat "$tmp/log/merge.txt" "$tmp"/log/shard-*.txt >&2 2>/dev/null || true
  exit 1
}
for i in $(seq 0 $((SHARDS - 1))); do
  test -f "$out/shard-$i/shard.json"
done

# The same report, unsharded, here.
"$bin" report "$scen" --trials "$TRIALS" --out "$out/whole" -q
diff -r -x timing.csv "$out/whole" "$out/merged"
n=$(find "$out/merged" -type f ! -name timing.csv | wc -l)
echo "slurm test passed: $SHARDS array tasks merged after afterok into the unsharded report ($n files equal byte for byte) in $(($(date +%s) - start)) s"

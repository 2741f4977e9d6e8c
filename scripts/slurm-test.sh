#!/usr/bin/env bash
# End-to-end test of a sharded sweep on Slurm itself: starts a one-node Slurm (munged, slurmctld,
# slurmd on localhost, from Debian's slurm-wlm and munge), submits examples/slurm-sweep.sh as a job
# array, waits for it (bounded), merges the shards and compares them with the unsharded sweep
# (the same rows apart from timings), then stops every daemon it started. Exits 0 with a message
# when Slurm cannot be started here (no packages, not root).
# Usage: scripts/slurm-test.sh [path/to/floatscope-cli]
set -euo pipefail
cd "$(dirname "$0")/.."
cli="$(realpath "${1:-build/app/cli/floatscope-cli}")"
skip() { echo "slurm-test: skipped: $*"; exit 0; }
[ "$(id -u)" -eq 0 ] || skip "needs root to start the daemons"
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  echo "slurm-test: installing slurm-wlm and munge (Debian)"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq --no-install-recommends slurm-wlm munge; } >/dev/null 2>&1 ||
    skip "slurm-wlm and munge could not be installed"
fi
for tool in munged slurmctld slurmd sbatch squeue sinfo scontrol; do
  command -v "$tool" >/dev/null || skip "$tool not found (apt-get install slurm-wlm munge)"
done

work="$(mktemp -d)"
export SLURM_CONF="$work/slurm.conf"
pids=()
cleanup() {
  scontrol shutdown >/dev/null 2>&1 || true
  sleep 1
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -f "$work/munged.pid" ] && kill "$(cat "$work/munged.pid")" 2>/dev/null || true
  for f in slurmctld.pid slurmd.pid; do [ -f "$work/$f" ] && kill "$(cat "$work/$f")" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# munge: a key and a socket of our own, so that nothing of the machine's is touched.
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/out"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 700 "$work/munge"; chmod 400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"
munged --force --key-file="$work/munge/munge.key" --socket="$socket" --pid-file="$work/munged.pid" \
  --log-file="$work/munged.log" --seed-file="$work/munge/seed" || skip "munged did not start"

cpus=$(nproc)
cat > "$SLURM_CONF" <<CONF
ClusterName=floatscope-test
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF

slurmctld -f "$SLURM_CONF" || skip "slurmctld did not start ($(tail -n 3 "$work/slurmctld.log" 2>/dev/null))"
slurmd -f "$SLURM_CONF" -N localhost || skip "slurmd did not start ($(tail -n 3 "$work/slurmd.log" 2>/dev/null))"
for _ in $(seq 60); do
  sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && break
  sleep 1
done
sinfo -h -o %T | grep -qE '^(idle|mixed|allocated)' || skip "the node did not come up: $(sinfo -h 2>&1 | head -n 1)"

sweep="sum --formats fp16,bf16 --grid n=10,100,1000 --grid method=naive,kahan"
job=$(FLOATSCOPE_CLI="$cli" SWEEP="$sweep" OUT="$work/out" \
  sbatch --parsable --array=0-2 --cpus-per-task=1 --chdir="$work/out" --export=ALL examples/slurm-sweep.sh)
echo "slurm-test: submitted job array $job (3 shards)"
for _ in $(seq 300); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 1
done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || { echo "slurm-test: job $job did not finish in 300 s"; exit 1; }
for i in 0 1 2; do
  [ -s "$work/out/shard-$i.csv" ] || { echo "slurm-test: shard $i wrote no report"; cat "$work"/out/slurm-*.out; exit 1; }
done

# shellcheck disable=SC2086
"$cli" sweep $sweep --csv "$work/whole.csv" >/dev/null
"$cli" merge "$work"/out/shard-*.csv --csv "$work/merged.csv"
# The same rows apart from timings (region_kind run) and the creation time.
rows() { awk -F, '$4 != "run" && $7 != "created"' "$1"; }
if ! diff <(rows "$work/whole.csv") <(rows "$work/merged.csv") >/dev/null; then
  echo "slurm-test: the merged shards differ from the unsharded sweep"; exit 1
fi
echo "slurm-test: 3 shards on Slurm merged to the unsharded sweep ($(rows "$work/merged.csv" | wc -l) rows)"

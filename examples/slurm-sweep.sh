#!/bin/bash
# A sweep as a Slurm job array: task i of N runs the grid points i, i + N, ... (sweep --shard i/N)
# into shard-i.csv; `floatscope-cli merge shard-*.csv --csv sweep.csv` joins them when all are done
# (merge names a shard that is missing). Submit with, e.g.:
#   sbatch --array=0-15 --cpus-per-task=16 examples/slurm-sweep.sh
# FLOATSCOPE_CLI, SWEEP (the sweep's arguments) and OUT (the shards' folder) may be set in the
# environment (sbatch --export); their defaults are README's example.
#SBATCH --job-name=floatscope-sweep
#SBATCH --output=slurm-%A_%a.out
set -euo pipefail
cli="${FLOATSCOPE_CLI:-floatscope-cli}"
out="${OUT:-.}"
read -r -a sweep <<< "${SWEEP:-mlp-forward --formats bf16,fp16,fp8_e4m3 --grid depth=4,8,16,32 --grid init-scale=0.5,1,2,4}"
: "${SLURM_ARRAY_TASK_ID:?run this as a job array: sbatch --array=0-N ...}"
count="${SLURM_ARRAY_TASK_COUNT:?run this as a job array: sbatch --array=0-N ...}"
threads="${SLURM_CPUS_PER_TASK:-1}"
"$cli" sweep "${sweep[@]}" --threads "$threads" --shard "$SLURM_ARRAY_TASK_ID/$count" \
  --csv "$out/shard-$SLURM_ARRAY_TASK_ID.csv"

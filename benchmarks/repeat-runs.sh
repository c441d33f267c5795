# Sourced by the check scripts: runs `run.sh ARGS… --seed N --no-zip --results RESULTS` for RUNS seeds, one log per
# run (RESULTS/run-N.log, N the seed), printing each run's seconds; stops at the first run that fails. Seeds start at
# $LNBENCH_FIRST_SEED (default 1), so a confirmation series can take seeds an earlier one did not.
#   repeat_runs RESULTS RUNS ARGS…
repeat_runs() {
  local results=$1 runs=$2 first=${LNBENCH_FIRST_SEED:-1} run start
  shift 2
  for run in $(seq "$first" $((first + runs - 1))); do
    printf 'run %d/%d (seed %d)... ' "$((run - first + 1))" "$runs" "$run"
    start=$(date +%s)
    if ! "$(dirname "${BASH_SOURCE[0]}")/../run.sh" "$@" --seed "$run" --no-zip --results "$results" >"$results/run-$run.log" 2>&1; then
      echo "failed: see $results/run-$run.log" >&2
      exit 1
    fi
    echo "$(( $(date +%s) - start )) s"
  done
}

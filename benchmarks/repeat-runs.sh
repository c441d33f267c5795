# Sourced by the check scripts: runs `run.sh ARGS… --seed N --no-zip --results RESULTS` for N = 1…RUNS, one log per
# run (RESULTS/run-N.log), printing each run's seconds; stops at the first run that fails.
#   repeat_runs RESULTS RUNS ARGS…
repeat_runs() {
  local results=$1 runs=$2 run start
  shift 2
  for run in $(seq 1 "$runs"); do
    printf 'run %d/%d... ' "$run" "$runs"
    start=$(date +%s)
    if ! "$(dirname "${BASH_SOURCE[0]}")/../run.sh" "$@" --seed "$run" --no-zip --results "$results" >"$results/run-$run.log" 2>&1; then
      echo "failed: see $results/run-$run.log" >&2
      exit 1
    fi
    echo "$(( $(date +%s) - start )) s"
  done
}

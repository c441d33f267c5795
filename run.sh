#!/usr/bin/env bash
# Runs a Lightning.Bench scenario: ./run.sh [SCENARIO] [options] [-- BenchmarkDotNet options]. See ./run.sh --help.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if ! command -v dotnet >/dev/null 2>&1; then
  echo "lnbench: error: the .NET SDK (dotnet) is not on PATH: install .NET 10 (https://dot.net)" >&2
  exit 2
fi
# Release: BenchmarkDotNet refuses to measure unoptimised code. The build's output is shown only when it fails.
if ! build_log="$(dotnet build "$here/bench/Lightning.Bench/Lightning.Bench.csproj" -c Release -nologo -v q 2>&1)"; then
  printf '%s\n' "$build_log" >&2
  echo "lnbench: error: building the harness failed (output above)" >&2
  exit 1
fi
exec dotnet "$here/bench/Lightning.Bench/bin/Release/net10.0/Lightning.Bench.dll" "$@"

#!/usr/bin/env bash
# The span store on a run folder: encodes every case's spans.jsonl into spans.lnspans, decodes it and compares each
# case with its file byte for byte, makes the run's zip (in a scratch folder, or where --zip FILE says: the run's
# folder may be read-only) and a zip of every file as runs made it before the store, and prints spans, raw size,
# store size, both zip sizes, encode/decode seconds and each column's share. Exits 1 if any line does not come back
# exactly.
#   benchmarks/span-store.sh results/RUN-AlicePaysBob [--codec brotli|deflate|stored] [--zip FILE]
set -euo pipefail
run=${1:?usage: benchmarks/span-store.sh RUN_FOLDER [--codec brotli|deflate|stored] [--zip FILE]}
shift
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dotnet build "$here/../bench/Lightning.Bench.TraceStress" -c Release -nologo -v q >/dev/null
dotnet "$here/../bench/Lightning.Bench.TraceStress/bin/Release/net10.0/Lightning.Bench.TraceStress.dll" --store "$run" "$@"

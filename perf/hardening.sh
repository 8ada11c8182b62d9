#!/usr/bin/env bash
# Issue 38's targets measured from outside (not part of the test suite): builds the release
# service, starts it on a fresh database and runs perf/hardening.py against it. Figures are in
# docs/benchmarks.md, "Hardening, fourth round".
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
cargo build --release --quiet --bin referee
REFEREE=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/referee
export REFEREE
start_service hardening
python3 perf/hardening.py "$SERVICE_URL" "$SERVICE_PID" "$@"

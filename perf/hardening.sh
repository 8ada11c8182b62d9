#!/usr/bin/env bash
# Issue 38's targets measured from outside (not part of the test suite): builds the release
# service, starts it on a fresh database and runs perf/hardening.py against it. Figures are in
# docs/benchmarks.md, "Hardening, fourth round".
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
use_release_build
start_service hardening
python3 perf/hardening.py "$SERVICE_URL" "$SERVICE_PID" "$@"

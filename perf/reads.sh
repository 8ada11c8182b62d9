#!/usr/bin/env bash
# The whole-match reads timed from outside (not part of the test suite): builds the release
# service, starts it on a fresh database and runs perf/reads.py against it. Figures are in
# docs/benchmarks.md, "Issue 38".
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
use_release_build
start_service reads
python3 perf/reads.py "$SERVICE_URL"

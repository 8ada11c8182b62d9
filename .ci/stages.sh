# Stages of `.ci/run`, timed (sourced by it, never run). Each stage's wall and CPU time is
# printed when it ends and again in a table when the run ends, however it ends. A stage runs in
# the foreground (its output as it comes) or in the background (its output kept, printed whole
# when it ends, so concurrent stages never interleave their lines).

ci_started=$(date +%s.%N)
ci_logs=$(mktemp -d "${TMPDIR:-/tmp}/referee-ci.XXXXXX")
# One line per finished stage: name, result, start (s into the run), wall s, CPU s.
ci_table=$ci_logs/stages.tsv
: >"$ci_table"
declare -A ci_background=()

# The seconds since the run started, to a tenth.
ci_clock() {
    awk -v now="$(date +%s.%N)" -v start="$ci_started" 'BEGIN { printf "%.1f", now - start }'
}

# ci_timed NAME COMMAND...: runs COMMAND, then records NAME's line in the table (CPU is that of
# COMMAND and every process it waited for: the services a stage starts, not PostgreSQL's).
ci_timed() {
    local name=$1 start status=0 cpu
    shift
    start=$(ci_clock)
    # Started as a job and waited for, so that `set -e` holds inside a stage's own functions
    # (bash ignores it in anything run as the left side of `||`).
    "$@" &
    wait $! || status=$?
    # `times`: this shell's user and system time, then its children's, as 0m1.250s (run here:
    # in a command substitution it would count that subshell's children, none).
    local times_file=$ci_logs/times.$BASHPID
    times >"$times_file"
    cpu=$(tr 'ms' '  ' <"$times_file" | awk '{ sum += $1 * 60 + $2 + $3 * 60 + $4 }
        END { printf "%.0f", sum }')
    local wall
    wall=$(awk -v end="$(ci_clock)" -v start="$start" 'BEGIN { printf "%.0f", end - start }')
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$([ $status = 0 ] && echo ok || echo FAILED)" \
        "$start" "$wall" "$cpu" >>"$ci_table"
    echo "== $name: $([ $status = 0 ] && echo ok || echo "FAILED ($status)") in ${wall} s (CPU ${cpu} s)"
    return $status
}

# stage NAME COMMAND...: a stage in the foreground; the run stops if it fails.
stage() {
    echo "== $1 (at $(ci_clock) s)"
    (ci_timed "$@")
}

# stage_in_background NAME COMMAND...: a stage beside the others; `await_stages` collects it.
stage_in_background() {
    local name=$1
    echo "== $name started in the background (at $(ci_clock) s)"
    (ci_timed "$@") >"$ci_logs/$name.log" 2>&1 &
    ci_background[$name]=$!
}

# await_stages NAME...: waits for these background stages, printing each one's output once it
# ends (in the order they end); fails if any of them failed, after all have ended.
await_stages() {
    local failed=0 name pid waiting=("$@")
    while [ ${#waiting[@]} -gt 0 ]; do
        local still=()
        for name in "${waiting[@]}"; do
            pid=${ci_background[$name]}
            if kill -0 "$pid" 2>/dev/null; then
                still+=("$name")
                continue
            fi
            wait "$pid" || failed=1
            echo "== output of $name"
            cat "$ci_logs/$name.log"
        done
        waiting=("${still[@]}")
        [ ${#waiting[@]} -gt 0 ] && sleep 1
    done
    return $failed
}

# The table of every stage that ended, and the run's own wall time; printed at exit.
ci_summary() {
    local status=$?
    # Background stages still running when a foreground one failed: stop them.
    local pid
    for pid in "${ci_background[@]}"; do kill -- "$pid" 2>/dev/null || true; done
    echo
    echo "== stages (wall and CPU seconds; CPU of PostgreSQL's own processes not included)"
    {
        printf 'stage\tresult\tstart\twall\tCPU\n'
        cat "$ci_table"
        printf 'whole run\t%s\t0\t%.0f\t-\n' "$([ $status = 0 ] && echo ok || echo FAILED)" "$(ci_clock)"
    } | awk -F '\t' '{ printf "%-28s %-7s %6s %6s %6s\n", $1, $2, $3, $4, $5 }'
    rm -rf "$ci_logs"
}

# Shared by the scripts in .ci/ and perf/ (sourced from the repository's root, never run).
#
# Where cargo puts what it builds is cargo's to say: CARGO_TARGET_DIR, a `build.target-dir` in a
# cargo config or a `--target` triple all move it away from target/debug and target/release. So
# no script starts an executable by a fixed path; each asks cargo for it:
#
#   referee=$(built_executable referee --bin referee)
#   load=$(built_executable load --release -p referee-tools --bin load)

# The PostgreSQL server every script and test uses (trust authentication, user postgres).
pg=postgres://postgres@127.0.0.1:5432

# Where the CI scripts keep what outlives one run on this machine: cargo's build (see .ci/run)
# and the Python environments of the browser, client, fuzzing and rating checks.
ci_cache=${REFEREE_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/referee-ci}

# The browser the two browser tests drive, and its Debian package (named as its binary) as
# install_missing wants it: Chromium's headless shell (why: docs/testing.md), or `chromium` with
# CHROMIUM=/usr/bin/chromium. tests/browser/page_kit.py has the same default for a walk run by
# hand.
chromium=${CHROMIUM:-/usr/bin/chromium-headless-shell}
chromium_wanted=$chromium:${chromium##*/}

# install_missing COMMAND[:PACKAGE]...: installs, from Debian's packages, those of these
# commands the machine lacks (a package named like its command unless PACKAGE says otherwise;
# `python3-venv` stands for Python's venv module).
install_missing() {
    local missing=() wanted command package
    for wanted in "$@"; do
        command=${wanted%%:*}
        package=${wanted#*:}
        if [ "$command" = python3-venv ]; then
            python3 -c 'import ensurepip, venv' 2>/dev/null && continue
        else
            command -v "$command" >/dev/null && continue
        fi
        missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return
    echo "Installing ${missing[*]}"
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
}

# What a fresh Debian machine may lack to read cargo's answer.
install_missing jq

# built_executable NAME [CARGO BUILD ARGUMENTS...]
# Builds with `cargo build --quiet ARGUMENTS...` and prints the path of the executable named NAME
# (a binary or an example) among the artifacts cargo reports, whether it rebuilt them or not.
built_executable() {
    local name=$1 path
    shift
    path=$(cargo build --quiet --message-format=json-render-diagnostics "$@" |
        jq -r --arg name "$name" 'select(.reason == "compiler-artifact"
            and .target.name == $name and .executable != null) | .executable' |
        tail -n 1) || return
    if [ -z "$path" ]; then
        echo "cargo build $* reported no executable named $name" >&2
        return 1
    fi
    echo "$path"
}

# python_venv DIR PIP-ARGUMENT...: a virtual environment in DIR holding exactly these pinned
# requirements (`-r FILE` reads a file's), made anew when they change, for the checks that drive
# a tool from PyPI.
python_venv() {
    local venv=$1 stamp argument
    shift
    stamp=$(for argument in "$@"; do
        echo "$argument"
        if [ -f "$argument" ]; then cat "$argument"; fi
    done)
    install_missing python3-venv
    if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/requirements" 2>/dev/null)" != "$stamp" ]; then
        rm -rf "$venv"
        python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check "$@"
        echo "$stamp" >"$venv/requirements"
    fi
}

# npm_ci DIR [ARGS...]: `npm ci` in DIR unless its node_modules is already what its lock file
# says. npm ci empties node_modules first, so a second run while another lane's browser reads
# from it (two table page shares at once) would pull files from under it.
npm_ci() {
    local dir=$1
    shift
    if [ ! -f "$dir/node_modules/.package-lock.json" ] ||
        [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
        (cd "$dir" && npm ci --no-audit --no-fund "$@")
    fi
}

# free_port: a TCP port on 127.0.0.1 that nothing listens on now.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# use_release_build: builds the service with --release and makes it the one start_service runs
# (the perf/ scripts: figures worth comparing come from optimised code).
use_release_build() {
    cargo build --release --quiet --bin referee
    REFEREE=$(cargo metadata --format-version 1 --no-deps |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')/release/referee
    export REFEREE
}

# start_service NAME [VARIABLE=VALUE...]: starts the service (REFEREE, or the debug build) on a
# fresh database of its own and a free port, with no rate limit and any settings given; waits
# until it is ready and sets SERVICE_URL. The service is stopped and its database dropped when
# the calling script exits. Its log is SERVICE_LOG, printed if it never becomes ready.
start_service() {
    local name=$1 port referee
    shift
    referee=${REFEREE:-$(built_executable referee --bin referee)}
    port=$(free_port)
    SERVICE_DATABASE=referee_${name}_$$
    SERVICE_LOG=${TMPDIR:-/tmp}/referee-$name-service-$$.log
    SERVICE_URL=http://127.0.0.1:$port
    env DATABASE_URL="$pg/$SERVICE_DATABASE" BIND_ADDRESS="127.0.0.1:$port" \
        RATE_LIMIT_PER_SECOND=0 RUST_LOG=warn "$@" "$referee" >"$SERVICE_LOG" 2>&1 &
    SERVICE_PID=$!
    trap stop_service EXIT
    local _
    for _ in $(seq 1 300); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' "$SERVICE_URL/readyz")" = 200 ] && return 0
        kill -0 "$SERVICE_PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "the service did not become ready on $SERVICE_URL; its log:" >&2
    cat "$SERVICE_LOG" >&2
    return 1
}

stop_service() {
    local status=$?
    if [ "$status" -ne 0 ] && [ -s "$SERVICE_LOG" ]; then
        echo "the end of the service's log:" >&2
        tail -n 40 "$SERVICE_LOG" >&2
    fi
    kill "$SERVICE_PID" 2>/dev/null || true
    wait "$SERVICE_PID" 2>/dev/null || true
    psql -q "$pg/postgres" -c "DROP DATABASE IF EXISTS $SERVICE_DATABASE WITH (FORCE)" || true
    rm -f "$SERVICE_LOG"
}

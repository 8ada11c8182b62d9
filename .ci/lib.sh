# Shared by the scripts in .ci/ and bench/ (sourced from the repository's root, never run).
#
# Where cargo puts what it builds is cargo's to say: CARGO_TARGET_DIR, a `build.target-dir` in a
# cargo config or a `--target` triple all move it away from target/debug and target/release. So
# no script starts an executable by a fixed path; each asks cargo for it:
#
#   referee=$(built_executable referee --bin referee)
#   load=$(built_executable load --release --example load)

# What a fresh Debian machine may lack to read cargo's answer (the package has the tool's name).
if ! command -v jq >/dev/null; then
    echo "Installing jq to read cargo's build messages"
    apt-get update -qq && apt-get install -y -qq jq
fi

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

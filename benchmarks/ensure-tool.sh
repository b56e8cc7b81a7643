# Sourced by the benchmark scripts, after their log and die.
#
# ensure_tool COMMAND PACKAGE [HINT]: installs Debian's PACKAGE with apt-get (through sudo when not root) unless
# COMMAND is already on the PATH; dies, with HINT, if it still is not.
ensure_tool() {
    command -v "$1" >/dev/null && return 0
    log "installing $2 (apt-get)"
    local sudo=""
    [[ $(id -u) == 0 ]] || sudo=sudo
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
    command -v "$1" >/dev/null || die "$2 could not be installed${3:+; $3}"
}

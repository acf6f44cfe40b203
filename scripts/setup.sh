# Shared by scripts/quickstart.sh and scripts/test.sh (sourced, not run): makes sure cargo and
# gfortran are there, installing gfortran with apt-get if it is missing.

# Finds cargo, also in ~/.cargo/bin when a fresh rustup install is not yet on PATH.
ensure_cargo() {
    if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
        export PATH="$HOME/.cargo/bin:$PATH"
    fi
    if ! command -v cargo >/dev/null 2>&1; then
        echo "error: cargo not found; install Rust from https://rustup.rs" >&2
        exit 127
    fi
}

# Installs gfortran with apt-get (through sudo unless we are root) if it is not on PATH.
ensure_gfortran() {
    command -v gfortran >/dev/null 2>&1 && return 0
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: gfortran not found and no apt-get here; install gfortran (GCC 12 or later)" >&2
        exit 127
    fi
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    echo "gfortran not found; installing it with apt-get" >&2
    $sudo apt-get update
    $sudo apt-get install -y gfortran
}

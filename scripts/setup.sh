# Shared by the scripts (sourced, not run): makes sure cargo and the tools the tests need are
# there, installing missing ones with apt-get (through sudo unless we are root) or pip.

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

# Installs the Debian packages named by the arguments with apt-get.
apt_install() {
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: no apt-get here; install $* by hand" >&2
        exit 127
    fi
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    echo "installing $* with apt-get" >&2
    $sudo apt-get update
    $sudo apt-get install -y "$@"
}

# Installs gfortran (GCC 12 or later) if it is not on PATH.
ensure_gfortran() {
    command -v gfortran >/dev/null 2>&1 || apt_install gfortran
}

# Installs what tests/install.rs builds the examples with: cmake, pkg-config and make (Debian
# packages of the same names) and fpm, the Fortran package manager (from PyPI).
ensure_packaging_tools() {
    local missing=()
    for tool in cmake pkg-config make; do
        command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        apt_install "${missing[@]}"
    fi
    if ! command -v fpm >/dev/null 2>&1; then
        echo "installing fpm with pip" >&2
        python3 -m pip install --quiet fpm==0.12.0
        # pip puts it beside the interpreter's scripts, which need not be on PATH yet.
        PATH="$PATH:$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')"
        export PATH
        hash -r
    fi
}

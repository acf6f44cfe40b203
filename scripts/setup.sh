# Shared by the scripts (sourced, not run): makes sure cargo and the tools the tests need are
# there, installing missing ones with apt-get (through sudo unless we are root) or, for fpm,
# pip in a virtual environment.

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

# Installs gfortran if it is not on PATH, then checks it is GCC 12 or later.
ensure_gfortran() {
    command -v gfortran >/dev/null 2>&1 || apt_install gfortran
    local version major
    version=$(gfortran -dumpfullversion 2>/dev/null || gfortran -dumpversion)
    major=${version%%.*}
    if ! [ "$major" -ge 12 ] 2>/dev/null; then
        echo "error: $(command -v gfortran) is gfortran $version; ferrocaf needs gfortran 12 or" \
            "later (Debian 12: apt-get install gfortran; elsewhere install gfortran-12 or newer" \
            "and put it first on PATH as gfortran)" >&2
        exit 1
    fi
}

# Installs what the wrapper tests run images under: strace, time, gdb and valgrind.
ensure_test_tools() {
    local missing=()
    command -v strace >/dev/null 2>&1 || missing+=(strace)
    [ -x /usr/bin/time ] || missing+=(time)
    command -v gdb >/dev/null 2>&1 || missing+=(gdb)
    command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
    if [ ${#missing[@]} -gt 0 ]; then
        apt_install "${missing[@]}"
    fi
}

# Installs what the libfabric transport builds and runs with: libfabric (headers and fi_info),
# PMIx's headers (the transport bootstraps through the launcher's PMIx server) and Open MPI's
# mpirun, which serves PMIx to the processes it starts.
ensure_fabric() {
    local missing=()
    dpkg -s libfabric-dev >/dev/null 2>&1 || missing+=(libfabric-dev)
    command -v fi_info >/dev/null 2>&1 || missing+=(libfabric-bin)
    dpkg -s libpmix-dev >/dev/null 2>&1 || missing+=(libpmix-dev)
    command -v mpirun >/dev/null 2>&1 || missing+=(openmpi-bin)
    if [ ${#missing[@]} -gt 0 ]; then
        apt_install "${missing[@]}"
    fi
}

# Where fpm is installed: a Python virtual environment of ferrocaf's own, as pip may not install
# into a distribution's Python (Debian 12 and later refuse it: PEP 668, externally managed).
FPM_VENV="${XDG_DATA_HOME:-$HOME/.local/share}/ferrocaf/fpm-venv"

# Makes fpm, the Fortran package manager, available: from PATH, else from $FPM_VENV, else
# installed there from PyPI (with python3-venv from apt-get if the venv module is missing).
# When that cannot be done, says why and exports FPM_SKIP_REASON: tests/install.rs then
# skips its fpm example and says so.
ensure_fpm() {
    if command -v fpm >/dev/null 2>&1; then
        return 0
    fi
    if [ ! -x "$FPM_VENV/bin/fpm" ]; then
        if ! command -v python3 >/dev/null 2>&1; then
            fpm_unavailable "python3 is not installed"
            return 0
        fi
        if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
            (apt_install python3-venv) || true
        fi
        echo "installing fpm into $FPM_VENV" >&2
        if ! { python3 -m venv "$FPM_VENV" >&2 &&
            "$FPM_VENV/bin/python" -m pip install --quiet fpm==0.12.0 >&2; }; then
            rm -rf "$FPM_VENV"
            fpm_unavailable "it could not be installed into a virtual environment at $FPM_VENV"
            return 0
        fi
    fi
    PATH="$PATH:$FPM_VENV/bin"
    export PATH
    hash -r
}

# Reports that fpm cannot be had and why (the argument).
fpm_unavailable() {
    echo "warning: no fpm: $1; the packaging test skips its fpm example" \
        "(install fpm by hand to include it)" >&2
    export FPM_SKIP_REASON="$1"
}

# Installs what tests/install.rs builds the examples with: cmake, pkg-config and make (Debian
# packages of the same names) and fpm (ensure_fpm).
ensure_packaging_tools() {
    local missing=()
    for tool in cmake pkg-config make; do
        command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        apt_install "${missing[@]}"
    fi
    ensure_fpm
}

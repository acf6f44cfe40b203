//! Compiles the C parts: the REAL(10)/REAL(16) kernels (x87 `long double` and `__float128`,
//! which stable Rust lacks; their arithmetic and conversions come from libgcc), the CO_REDUCE
//! operator calls (the C compiler applies the callee's calling convention for every type) and
//! the bridge to libgfortran's RANDOM_SEED, the accessor fault guard's initial-exec thread-local
//! marker, and with feature `mpi` the handles mpi-sys lacks
//! (`src/transport/mpi/ops.c`, built with the MPI library's own compiler wrapper or headers).
//! Gives libferrocaf.so its SONAME, so that programs linked by full path (CMake does) still
//! record `libferrocaf.so` and find it by their rpath.

fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libferrocaf.so");
    for f in [
        "src/engine/float_ext.c",
        "src/abi/co_reduce_call.c",
        "src/abi/random_seed.c",
        "src/abi/accessor/guard_mark.c",
    ] {
        println!("cargo:rerun-if-changed={f}");
    }
    cc_gcc_major();
    cc::Build::new()
        .file("src/engine/float_ext.c")
        .warnings(true)
        .compile("ferrocaf_float_ext");
    cc::Build::new()
        .file("src/abi/co_reduce_call.c")
        .file("src/abi/random_seed.c")
        .file("src/abi/accessor/guard_mark.c")
        .warnings(true)
        .compile("ferrocaf_abi_c");
    #[cfg(feature = "mpi")]
    mpi_ops();
    #[cfg(feature = "fabric")]
    fabric_shim();
}

/// Compiles the fabric transport's C shims (`src/transport/fabric/shim.c` over libfabric,
/// `boot.c` over PMIx) with the flags pkg-config gives, and links both libraries.
#[cfg(feature = "fabric")]
fn fabric_shim() {
    let mut b = cc::Build::new();
    for f in ["src/transport/fabric/shim.c", "src/transport/fabric/boot.c"] {
        println!("cargo:rerun-if-changed={f}");
        b.file(f);
    }
    let mut links = Vec::new();
    for lib in ["libfabric", "pmix"] {
        let flags = |what: &str| {
            let out = std::process::Command::new("pkg-config")
                .args([what, lib])
                .output()
                .unwrap_or_else(|e| panic!("pkg-config {lib}: {e}"));
            if !out.status.success() {
                panic!(
                    "pkg-config finds no {lib}: install libfabric-dev and libpmix-dev \
                     (scripts/setup.sh, ensure_fabric)"
                );
            }
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        for f in flags("--cflags").split_whitespace() {
            if let Some(dir) = f.strip_prefix("-I") {
                b.include(dir);
            }
        }
        for f in flags("--libs").split_whitespace() {
            if let Some(dir) = f.strip_prefix("-L") {
                links.push(format!("cargo:rustc-link-search=native={dir}"));
                links.push(format!("cargo:rustc-link-arg=-Wl,-rpath,{dir}"));
            } else if let Some(name) = f.strip_prefix("-l") {
                links.push(format!("cargo:rustc-link-lib={name}"));
            }
        }
    }
    b.warnings(true).compile("ferrocaf_fabric_shim");
    // After the shim's own line: a linker resolves its references in the libraries named
    // after it.
    links.iter().for_each(|l| println!("{l}"));
}

/// Tells `abi::generation` (as FERROCAF_CC_GCC_MAJOR) which GCC compiles the C parts: in a
/// statically linked program their `.comment` line is not the Fortran compiler's. Empty for
/// other C compilers.
fn cc_gcc_major() {
    let cc = cc::Build::new().get_compiler();
    let output = |arg: &str| {
        std::process::Command::new(cc.path())
            .arg(arg)
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    };
    let major = if output("--version").contains("clang") {
        String::new()
    } else {
        let v = output("-dumpversion");
        v.trim().split('.').next().unwrap_or("").to_string()
    };
    println!("cargo:rustc-env=FERROCAF_CC_GCC_MAJOR={major}");
}

/// Compiles `src/transport/mpi/ops.c` against the MPI library that mpi-sys binds to (found the
/// same way: `mpicc` when there is one, else the include paths of pkg-config or the probe).
#[cfg(feature = "mpi")]
fn mpi_ops() {
    println!("cargo:rerun-if-changed=src/transport/mpi/ops.c");
    let lib = build_probe_mpi::probe().unwrap_or_else(|errs| {
        let why: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        panic!("no MPI library found: {}", why.join("; "))
    });
    let mut b = cc::Build::new();
    b.file("src/transport/mpi/ops.c").warnings(true);
    match lib.mpicc {
        Some(mpicc) => {
            b.compiler(mpicc);
        }
        None => {
            b.includes(&lib.include_paths);
        }
    }
    b.compile("ferrocaf_mpi_ops");
}

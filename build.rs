//! Compiles the C parts: the REAL(10)/REAL(16) kernels (x87 `long double` and `__float128`,
//! which stable Rust lacks; their arithmetic and conversions come from libgcc), the CO_REDUCE
//! operator calls (the C compiler applies the callee's calling convention for every type) and
//! the bridge to libgfortran's RANDOM_SEED. Gives libferrocaf.so its SONAME, so that programs
//! linked by full path (CMake does) still record `libferrocaf.so` and find it by their rpath.

fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libferrocaf.so");
    for f in [
        "src/engine/float_ext.c",
        "src/abi/co_reduce_call.c",
        "src/abi/random_seed.c",
    ] {
        println!("cargo:rerun-if-changed={f}");
    }
    cc::Build::new()
        .file("src/engine/float_ext.c")
        .warnings(true)
        .compile("ferrocaf_float_ext");
    cc::Build::new()
        .file("src/abi/co_reduce_call.c")
        .file("src/abi/random_seed.c")
        .warnings(true)
        .compile("ferrocaf_abi_c");
}

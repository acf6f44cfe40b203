//! Compiles the REAL(10)/REAL(16) kernels (x87 `long double` and `__float128`, which stable Rust
//! lacks); their arithmetic and conversions come from libgcc.

fn main() {
    println!("cargo:rerun-if-changed=src/engine/float_ext.c");
    cc::Build::new()
        .file("src/engine/float_ext.c")
        .warnings(true)
        .compile("ferrocaf_float_ext");
}

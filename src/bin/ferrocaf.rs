//! The `ferrocaf` command line.
fn main() {}

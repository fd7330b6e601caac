//! Links libdealer's static library (`make` builds it: target/lib/libdealer.a, whose only global
//! symbols are the `dealer_*` functions) and the native libraries it needs. LIBDEALER_LIB_DIR
//! names another folder holding libdealer.a (the Debian build's, target/dist/lib); LIBDEALER_STATIC_LIBS
//! the native libraries (default: the Makefile's STATIC_LIBS).
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = std::env::var("LIBDEALER_LIB_DIR").map(PathBuf::from).unwrap_or_else(|_| manifest.join("../target/lib"));
    let archive = dir.join("libdealer.a");
    if !archive.exists() {
        panic!("{} is missing: build the library first (make lib)", archive.display());
    }
    println!("cargo:rerun-if-env-changed=LIBDEALER_LIB_DIR");
    println!("cargo:rerun-if-env-changed=LIBDEALER_STATIC_LIBS");
    println!("cargo:rerun-if-changed={}", archive.display());
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=static=dealer");
    // The archive is one relocatable object holding its own Rust standard library, whose
    // unwinding tables rust-lld's section garbage collection rejects; GNU ld links it.
    println!("cargo:rustc-link-arg=-fuse-ld=bfd");
    let libs = std::env::var("LIBDEALER_STATIC_LIBS")
        .unwrap_or_else(|_| "-lstdc++ -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc".to_string());
    for lib in libs.split_whitespace().filter_map(|l| l.strip_prefix("-l")) {
        println!("cargo:rustc-link-lib={lib}");
    }
}

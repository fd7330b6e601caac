//! Build script: generates the script grammar with lalrpop and writes the C header
//! include/dealer.h with cbindgen from src/ffi/ (one module per concern).

use std::path::PathBuf;

fn main() {
    lalrpop::Configuration::new().use_cargo_dir_conventions().process().expect("lalrpop grammar generation failed");

    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml is valid");
    // cbindgen is given src/ffi/mod.rs only: it follows the file's `mod` declarations into
    // src/ffi/*.rs itself (each source given to `with_src` is read as a crate root, whatever
    // `parse_deps` says), in their order, which is the order of the header's constants and
    // functions. Giving it the modules' files as well would declare their items twice.
    match cbindgen::Builder::new().with_config(config).with_src(crate_dir.join("src/ffi/mod.rs")).generate() {
        Ok(bindings) => {
            bindings.write_to_file(crate_dir.join("include/dealer.h"));
        }
        Err(e) => println!("cargo:warning=cbindgen could not generate include/dealer.h: {e}"),
    }
    // The shared library's SONAME (major version 0); `make install` installs
    // libdealer.so.<version> with the libdealer.so.0 and libdealer.so symlinks.
    // (ELF only: a Windows DLL has no SONAME.)
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os != "windows" && os != "unknown" && !os.is_empty() {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libdealer.so.0");
    }
    println!("cargo:rerun-if-changed=src/ffi");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=src/script/grammar.lalrpop");
}

//! Build script: stamps the binary with the commit it was built from, so a benchmark figure
//! or a match result can always be traced to its source; picks the hand-written assembly
//! of the target architecture on Linux (`asm/x86_64.s`, `asm/x86.s`), which `src/arch/asm.rs` assembles
//! with `global_asm!` under the cfg `ccr_asm`. An architecture without its file builds
//! without assembly (the cfg stays unset and only the portable code exists). And it refuses
//! to build with a `src/eval/network.bin` that the engine could not read (cut short by a
//! failed write, or of another layout), which would stop the engine at its first search.

use std::path::Path;
use std::process::Command;

/// The weights file's layout, the engine's own check of it.
#[path = "src/eval/network/format.rs"]
mod network_format;

fn main() {
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs/heads");
    let commit = Command::new("git")
        .args(["rev-parse", "--short=10", "HEAD"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=CCR_COMMIT={commit}");
    select_assembly();
    check_network();
}

/// Stops the build, with why, unless `src/eval/network.bin` is a weights file the engine
/// reads.
fn check_network() {
    let file = "src/eval/network.bin";
    println!("cargo:rerun-if-changed={file}");
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let checked = std::fs::read(Path::new(&dir).join(file))
        .map_err(|e| format!("cannot be read: {e}"))
        .and_then(|bytes| network_format::check(&bytes));
    if let Err(why) = checked {
        eprintln!(
            "error: {file} {why}; the engine cannot read it (`ccr train --out {file}` writes one, \
             `git checkout {file}` restores the committed one)"
        );
        std::process::exit(1);
    }
}

/// Sets `ccr_asm` and `CCR_ASM_FILE` (the absolute path `src/arch/asm.rs` includes) when the
/// target architecture has an assembly file.
fn select_assembly() {
    println!("cargo::rustc-check-cfg=cfg(ccr_asm)");
    // The folder is watched too, so that a file appearing later switches the assembly on.
    println!("cargo:rerun-if-changed=asm");
    // The files are written for Linux: ELF directives, System V / cdecl calls, symbols
    // without a leading underscore (Windows and macOS differ in all three).
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        return;
    }
    let file = match std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() {
        Ok("x86_64") => "asm/x86_64.s",
        Ok("x86") => "asm/x86.s",
        _ => return,
    };
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let path = Path::new(&dir).join(file);
    if path.is_file() {
        println!("cargo:rerun-if-changed={file}");
        println!("cargo:rustc-env=CCR_ASM_FILE={}", path.display());
        println!("cargo:rustc-cfg=ccr_asm");
    }
}

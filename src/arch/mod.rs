//! The kernels: the machine-specific code (the SSSE3 and AVX2 conversions, the AVX2 and AVX-512
//! attack tables, the hand-written assembly) and the one place the CPU is asked what it has.
//!
//! Everything here is a leaf over the board's eight rank words ([`Ccr`](crate::ccr::board::Ccr)) and
//! [`crate::types`]: no kernel calls back up into the engine. A kernel that needs a portable
//! fallback takes it as an argument. The choice among the kernels is one type parameter,
//! [`crate::ccr::kernel::Kernel`]; the CPU is detected once ([`cpu`], filled by [`init`] at
//! start-up or on first use).
//!
//! The SIMD tiers ([`Tier`]) are also how a test accounts for vector code the CPU cannot
//! run: [`runs`] writes `SKIPPED tier NAME in TEST: CPU lacks FEATURE` straight to the
//! standard error (past the test harness's capture, so the line shows in `cargo test`'s
//! output), appends the same line to the file `CCR_SIMD_SKIP_LOG` names (`make test` prints
//! them in its summary), and fails the test when `CCR_REQUIRE_SIMD` (a comma-separated list of
//! tier names, or `all`) asks for the tier.

use std::io::Write;
use std::sync::OnceLock;

#[cfg(ccr_asm)]
pub mod asm;
pub mod attacks;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub mod avx2;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub mod avx512;
pub mod convert;

/// What the CPU has of the instructions the kernels use.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Cpu {
    /// SSSE3 (`pshufb`: the 128-bit conversion).
    pub ssse3: bool,
    /// AVX2 (the 256-bit conversion and attack tables).
    pub avx2: bool,
    /// AVX-512F (two attack tables per register).
    pub avx512f: bool,
}

impl Cpu {
    /// Asks the CPU (the crate's only feature detection), then leaves out the tiers above
    /// the one `CCR_SIMD_MAX` names, if it names one.
    fn detect() -> Cpu {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        let found = Cpu {
            ssse3: is_x86_feature_detected!("ssse3"),
            avx2: is_x86_feature_detected!("avx2"),
            avx512f: is_x86_feature_detected!("avx512f"),
        };
        #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
        let found = Cpu::default();
        match std::env::var_os("CCR_SIMD_MAX") {
            Some(name) => found.capped(&name.to_string_lossy()),
            None => found,
        }
    }

    /// The features of tiers up to `max` (`none`, `ssse3`, `avx2` or `avx512`), so that the
    /// lower tiers' code can be run and measured on a CPU that has more; any other name
    /// leaves them all, with one line on the standard error.
    fn capped(self, max: &str) -> Cpu {
        let rank = |tier: &str| {
            ["none", "ssse3", "avx2", "avx512"]
                .iter()
                .position(|&t| t == tier)
        };
        let Some(max) = rank(max) else {
            let _ = writeln!(
                std::io::stderr(),
                "ccr: CCR_SIMD_MAX={max} is not none, ssse3, avx2 or avx512; ignored"
            );
            return self;
        };
        Cpu {
            ssse3: self.ssse3 && max >= 1,
            avx2: self.avx2 && max >= 2,
            avx512f: self.avx512f && max >= 3,
        }
    }

    /// Whether the CPU has the feature of this name (as `is_x86_feature_detected!` spells it).
    fn has(&self, feature: &str) -> bool {
        match feature {
            "ssse3" => self.ssse3,
            "avx2" => self.avx2,
            "avx512f" => self.avx512f,
            _ => false,
        }
    }
}

static CPU: OnceLock<Cpu> = OnceLock::new();

/// The CPU's features, detected on the first call.
#[inline]
pub fn cpu() -> &'static Cpu {
    CPU.get_or_init(Cpu::detect)
}

/// Detects the CPU now (the binary calls it first thing, so no search or perft pays for it).
pub fn init() {
    let _ = cpu();
    convert::init();
}

/// An implementation of the machine-specific parts, as `--impl` names it.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Impl {
    /// Portable Rust: the paper's frame and loops.
    Portable,
    /// The best vector code the CPU has (the portable code where it has none).
    Simd,
    /// The hand-written assembly of `asm/`, where this build has it.
    Asm,
}

impl Impl {
    /// Every implementation, built or not.
    pub const ALL: [Impl; 3] = [Impl::Portable, Impl::Simd, Impl::Asm];

    /// The `--impl` name.
    pub fn name(self) -> &'static str {
        match self {
            Impl::Portable => "portable",
            Impl::Simd => "simd",
            Impl::Asm => "asm",
        }
    }

    /// The implementation of this `--impl` name, built or not.
    pub fn from_name(name: &str) -> Option<Impl> {
        Impl::ALL.into_iter().find(|i| i.name() == name)
    }

    /// Whether this build has it (the assembly only where `build.rs` found `asm/` for the
    /// target).
    pub fn is_built(self) -> bool {
        self != Impl::Asm || cfg!(ccr_asm)
    }

    /// The implementations this build has.
    pub fn built() -> Vec<Impl> {
        Impl::ALL.into_iter().filter(|i| i.is_built()).collect()
    }
}

/// One SIMD tier of the vector code, ordered narrowest first.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Tier {
    /// 128-bit SSSE3 (the conversion's `pshufb`).
    Ssse3,
    /// 256-bit AVX2 (the conversion, the attack tables).
    Avx2,
    /// 512-bit AVX-512F (two attack tables per register; the code also uses AVX2).
    Avx512,
}

impl Tier {
    /// Every tier, narrowest first.
    pub const ALL: [Tier; 3] = [Tier::Ssse3, Tier::Avx2, Tier::Avx512];

    /// The tier's name in `CCR_REQUIRE_SIMD` and the skip lines.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Ssse3 => "ssse3",
            Tier::Avx2 => "avx2",
            Tier::Avx512 => "avx512",
        }
    }

    /// The CPU features the tier's code needs, as `is_x86_feature_detected!` names them.
    pub fn features(self) -> &'static [&'static str] {
        match self {
            Tier::Ssse3 => &["ssse3"],
            Tier::Avx2 => &["avx2"],
            Tier::Avx512 => &["avx512f", "avx2"],
        }
    }

    /// The features of [`Tier::features`] this CPU lacks (all of them off x86).
    pub fn missing(self) -> Vec<&'static str> {
        let cpu = cpu();
        self.features()
            .iter()
            .copied()
            .filter(|&f| !cpu.has(f))
            .collect()
    }

    /// Whether this CPU runs the tier's code.
    pub fn is_available(self) -> bool {
        self.missing().is_empty()
    }

    /// Whether `CCR_REQUIRE_SIMD` names this tier (or is `all`).
    pub fn is_required(self) -> bool {
        std::env::var("CCR_REQUIRE_SIMD").is_ok_and(|list| {
            list.split(',')
                .map(str::trim)
                .any(|t| t == "all" || t == self.name())
        })
    }
}

/// For the test `test`, which exercises `tier`: whether the CPU runs it. If not, reports the
/// skip (the standard error and `CCR_SIMD_SKIP_LOG`) and panics when `CCR_REQUIRE_SIMD`
/// requires the tier.
///
/// # Panics
/// When the tier is required and the CPU lacks it.
pub fn runs(tier: Tier, test: &str) -> bool {
    let missing = tier.missing();
    if missing.is_empty() {
        return true;
    }
    let capped = std::env::var("CCR_SIMD_MAX")
        .map(|max| format!(" (CCR_SIMD_MAX={max})"))
        .unwrap_or_default();
    let line = format!(
        "SKIPPED tier {} in {test}: CPU lacks {}{capped}",
        tier.name(),
        missing.join(", ")
    );
    // Written to the descriptor itself: the harness captures only the print macros.
    let _ = writeln!(std::io::stderr(), "{line}");
    if let Some(path) = std::env::var_os("CCR_SIMD_SKIP_LOG") {
        let appended = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut file| writeln!(file, "{line}"));
        if let Err(err) = appended {
            let _ = writeln!(
                std::io::stderr(),
                "cannot append to CCR_SIMD_SKIP_LOG: {err}"
            );
        }
    }
    assert!(
        !tier.is_required(),
        "{line}, and CCR_REQUIRE_SIMD requires it"
    );
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_leaves_out_the_tiers_above_it() {
        let all = Cpu {
            ssse3: true,
            avx2: true,
            avx512f: true,
        };
        let upto = |ssse3, avx2, avx512f| Cpu {
            ssse3,
            avx2,
            avx512f,
        };
        assert_eq!(all.capped("none"), upto(false, false, false));
        assert_eq!(all.capped("ssse3"), upto(true, false, false));
        assert_eq!(all.capped("avx2"), upto(true, true, false));
        assert_eq!(all.capped("avx512"), all);
        assert_eq!(all.capped("AVX2"), all, "unknown names leave every tier");
        assert_eq!(
            upto(true, false, false).capped("avx512"),
            upto(true, false, false)
        );
    }
}

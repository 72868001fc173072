//! The SIMD tiers the CPU has, and how a test accounts for a tier it cannot run.
//!
//! The vector code (the SSSE3 and AVX2 conversions, the AVX2 and AVX-512 attack tables) runs
//! only where the CPU has the instructions, so a test of it on a CPU without them tests the
//! portable fallback instead. [`runs`] makes that visible: it writes
//! `SKIPPED tier NAME in TEST: CPU lacks FEATURE` straight to the standard error (past the
//! test harness's capture, so the line shows in `cargo test`'s output), appends the same line
//! to the file `CCR_SIMD_SKIP_LOG` names (`make test` prints them in its summary), and fails
//! the test when `CCR_REQUIRE_SIMD` (a comma-separated list of tier names, or `all`) asks for
//! the tier.

use std::io::Write;

/// One SIMD tier of the vector code.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
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
        self.features()
            .iter()
            .copied()
            .filter(|&f| !has_feature(f))
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

fn has_feature(feature: &str) -> bool {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        match feature {
            "ssse3" => is_x86_feature_detected!("ssse3"),
            "avx2" => is_x86_feature_detected!("avx2"),
            "avx512f" => is_x86_feature_detected!("avx512f"),
            _ => false,
        }
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    {
        let _ = feature;
        false
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
    let line = format!(
        "SKIPPED tier {} in {test}: CPU lacks {}",
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

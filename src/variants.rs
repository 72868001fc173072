//! The registry of board representations: [`Repr`] names each as `--repr` does,
//! [`Variant`] pairs it with an implementation ([`Impl`]), and [`Variant::all`] is the one
//! list of representation × implementation this build has. The `perft` command, the perft
//! and differential tests, the benchmarks and the fuzz target all iterate it, and
//! [`Variant::dispatch`] is the one place a variant becomes a type.
//!
//! It sits above every representation (it names them all), which is why it is not
//! [`crate::repr`], the trait they implement.

pub(crate) use crate::arch::Impl;
use crate::bitboard::{Bitboards, Converted};
use crate::ccr::{Kernel, WithKernel, with_kernel};
use crate::repr::{CcrWith, Representation};
use crate::rotated::Rotated;
use crate::x88::X88;

/// A board representation, as `--repr` names it.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Repr {
    /// The C.C.R. itself ([`crate::Position`], generating on its kernel: [`CcrWith`]).
    Ccr,
    /// The 0x88 board ([`X88`]).
    X88,
    /// The C.C.R. in the tree, converted to bitboards for move generation ([`Converted`]).
    Bitboard,
    /// Bitboards made move by move ([`Bitboards`]).
    BitboardNative,
    /// Rotated bitboards, sliders looked up by the state of their line ([`Rotated`]).
    Rotated,
}

impl Repr {
    /// Every representation, in `--repr`'s order.
    pub const ALL: [Repr; 5] = [
        Repr::Ccr,
        Repr::X88,
        Repr::Bitboard,
        Repr::BitboardNative,
        Repr::Rotated,
    ];

    /// The `--repr` name.
    pub fn name(self) -> &'static str {
        match self {
            Repr::Ccr => "ccr",
            Repr::X88 => "x88",
            Repr::Bitboard => "bitboard",
            Repr::BitboardNative => "bitboard-native",
            Repr::Rotated => "rotated",
        }
    }

    /// The representation of this `--repr` name.
    pub fn from_name(name: &str) -> Option<Repr> {
        Repr::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Whether the representation has a kernel choice: the C.C.R. takes the enemy's attack
    /// table from the kernel, `bitboard` its conversion; 0x88, native and rotated bitboards
    /// are portable only.
    pub fn has_kernels(self) -> bool {
        matches!(self, Repr::Ccr | Repr::Bitboard)
    }

    /// The implementations this build has for the representation.
    pub fn implementations(self) -> Vec<Impl> {
        Impl::built()
            .into_iter()
            .filter(|&i| i == Impl::Portable || self.has_kernels())
            .collect()
    }
}

/// One representation in one implementation.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Variant {
    /// The board representation.
    pub repr: Repr,
    /// Where its machine-specific parts come from.
    pub imp: Impl,
}

/// Code generic over the representation, run by [`Variant::dispatch`] (a closure cannot be
/// generic, a trait method can).
pub trait WithRepresentation {
    /// What the code returns.
    type Output;

    /// Runs the code on representation `R`, which is `variant`.
    fn run<R: Representation>(self, variant: Variant) -> Self::Output;
}

impl Variant {
    /// The variant, if this build has it.
    pub fn new(repr: Repr, imp: Impl) -> Option<Variant> {
        repr.implementations()
            .contains(&imp)
            .then_some(Variant { repr, imp })
    }

    /// Every representation × implementation this build has, in `--repr` order, portable
    /// first.
    pub fn all() -> Vec<Variant> {
        Repr::ALL
            .into_iter()
            .flat_map(|repr| {
                repr.implementations()
                    .into_iter()
                    .map(move |imp| Variant { repr, imp })
            })
            .collect()
    }

    /// The name the benchmarks and the tests' messages use: the `--repr` name, with the
    /// implementation appended where it is not the default (`ccr-simd`, `bitboard-asm`). The
    /// converted path's default is its SIMD conversion (`bitboard`; `bitboard-portable` is the
    /// paper's loop), every other representation's the portable code.
    pub fn name(self) -> String {
        let default = match self.repr {
            Repr::Bitboard => Impl::Simd,
            _ => Impl::Portable,
        };
        if self.imp == default {
            self.repr.name().to_string()
        } else {
            format!("{}-{}", self.repr.name(), self.imp.name())
        }
    }

    /// Runs `f` on the representation type of this variant: the one place a variant
    /// becomes a type (its kernel chosen by [`with_kernel`]: `simd` is the best tier this CPU
    /// has, resolved here, once).
    pub fn dispatch<F: WithRepresentation>(self, f: F) -> F::Output {
        match self.repr {
            Repr::Ccr => with_kernel(self.imp, OnKernel::<F, false>(f, self)),
            Repr::X88 => f.run::<X88>(self),
            Repr::Bitboard => with_kernel(self.imp, OnKernel::<F, true>(f, self)),
            Repr::BitboardNative => f.run::<Bitboards>(self),
            Repr::Rotated => f.run::<Rotated>(self),
        }
    }
}

/// `f` on the C.C.R. on the kernel [`with_kernel`] chose: [`CcrWith`], or with `CONVERTED`
/// [`Converted`].
struct OnKernel<F, const CONVERTED: bool>(F, Variant);

impl<F: WithRepresentation, const CONVERTED: bool> WithKernel for OnKernel<F, CONVERTED> {
    type Output = F::Output;

    fn run<K: Kernel>(self) -> F::Output {
        let OnKernel(f, variant) = self;
        if CONVERTED {
            f.run::<Converted<K>>(variant)
        } else {
            f.run::<CcrWith<K>>(variant)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Tier;

    #[test]
    fn each_variant_runs_its_own_kernel() {
        struct TypeName;
        impl WithRepresentation for TypeName {
            type Output = (&'static str, &'static str);
            fn run<R: Representation>(self, _: Variant) -> (&'static str, &'static str) {
                (std::any::type_name::<R>(), R::KERNEL)
            }
        }
        // `simd` is the best tier's marker, the portable code where the CPU has none.
        let best = match crate::ccr::kernel::best_tier() {
            Some(Tier::Avx512) => ("Avx512", "avx512"),
            Some(Tier::Avx2) => ("Avx2", "avx2"),
            Some(Tier::Ssse3) => ("Ssse3", "ssse3"),
            None => ("Portable", "portable"),
        };
        for variant in Variant::all().into_iter().filter(|v| v.repr.has_kernels()) {
            let (name, kernel) = variant.dispatch(TypeName);
            let (marker, named) = match variant.imp {
                Impl::Portable => ("Portable", "portable"),
                Impl::Asm => ("Asm", "asm"),
                Impl::Simd => best,
            };
            assert!(
                name.ends_with(&format!("::{marker}>")),
                "{} runs {name}",
                variant.name()
            );
            assert_eq!(kernel, named, "{}", variant.name());
        }
    }

    #[test]
    fn every_built_implementation_has_a_variant() {
        let all = Variant::all();
        for repr in Repr::ALL {
            assert!(all.contains(&Variant {
                repr,
                imp: Impl::Portable
            }));
        }
        assert_eq!(
            all.contains(&Variant {
                repr: Repr::Ccr,
                imp: Impl::Asm
            }),
            cfg!(ccr_asm)
        );
        assert!(Variant::new(Repr::X88, Impl::Simd).is_none());
        let names: Vec<String> = all.iter().map(|v| v.name()).collect();
        assert!(
            names.contains(&"bitboard-portable".to_string()),
            "{names:?}"
        );
        assert!(names.contains(&"ccr-simd".to_string()), "{names:?}");
    }
}

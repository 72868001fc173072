# ccr — build, test and measure. `make` builds the engine; `make EXE=path` also copies the
# binary there (the OpenBench convention).

CARGO ?= cargo
EXE ?=
DEPTH ?= 5
# Board representation and implementation for `make perft`.
REPR ?= ccr
IMPL ?= portable

.PHONY: all build setup setup-tests setup-engines32 test test-deep test-debug test-benches test-faults test-fuzz lint perft tune-data tune-label \
	bench bench-setup fuzz clean setup32 build32 test32 test-uci32 bench-arch setup-uci test-uci test-avx2 \
	match tune reproduce report report-check setup-report network network-data

# 32-bit (i686) builds use Debian's toolchain (rustup has no i686 std here), named explicitly
# so that rustup's cargo and rustc, first on PATH, are never picked up for them.
TARGET32 := i686-unknown-linux-gnu
# Debian's builds have a target directory of their own (as in scripts/reproduce.py), so that
# they run beside rustup's instead of waiting on its lock: the i686 binary is $(BIN32).
DIR32 := target/debian-rustc
BIN32 := $(DIR32)/$(TARGET32)/release/ccr
CARGO32 ?= /usr/bin/cargo
RUSTC32 ?= /usr/bin/rustc
RUSTDOC32 ?= /usr/bin/rustdoc
# Doctests run cross (the i686 binaries run here) by default from cargo 1.89 on; older cargo
# needs -Zdoctest-xcompile, allowed on Debian's stable cargo by RUSTC_BOOTSTRAP=1 (set for
# build32 too, so that the two share their build). Expanded when a recipe runs, after setup32.
BOOTSTRAP32 = $(shell $(CARGO32) --version 2>/dev/null | \
	awk '{ split($$2, v, "."); if (v[1] == 1 && v[2] < 89) print "RUSTC_BOOTSTRAP=1" }')
DOCTEST32 = $(if $(BOOTSTRAP32),-Zdoctest-xcompile)
CARGO32_RUN = RUSTC=$(RUSTC32) RUSTDOC=$(RUSTDOC32) $(BOOTSTRAP32) $(CARGO32)

all: build

build:
	$(CARGO) build --release
ifneq ($(EXE),)
	cp target/release/ccr $(EXE)
endif

# Everything the build, the tests and `make reproduce` need, installed idempotently: it says
# first what it installs, then each script installs what is missing of its part (root on
# Debian, for apt and dpkg). Nothing else installs for `make reproduce`, which only checks.
setup:
	@echo "make setup installs what is missing of (each script checks first; root on Debian):"
	@echo "  scripts/setup.sh          rustfmt and clippy (rustup component add)"
	@echo "  scripts/setup-uci.sh      python-chess 1.11.2 (pip); Debian's fairymax phalanx sjeng glaurung"
	@echo "                            gnuchess toga2 stockfish polyglot (apt-get install)"
	@echo "  scripts/setup-i686.sh     Debian's rustc-web, cargo-web, libstd-rust-web-dev and gcc-multilib"
	@echo "                            (apt-get install) and the i686 std (dpkg --add-architecture i386,"
	@echo "                            apt-get download, unpacked into /usr/lib/rustlib)"
	@echo "  scripts/bench-setup.sh    valgrind (apt-get install), iai-callgrind-runner 0.16.1 (cargo install)"
	@echo "  scripts/setup-engines32.sh  libc6:i386 libstdc++6:i386 libgcc-s1:i386 (apt-get install, with the"
	@echo "                            i386 architecture); Debian's i386 stockfish and glaurung unpacked"
	@echo "                            under target/engines32"
	@echo "  scripts/setup-report.sh   matplotlib 3.11.2 (pip)"
	bash scripts/setup.sh
	bash scripts/setup-uci.sh
	bash scripts/setup-i686.sh
	bash scripts/bench-setup.sh
	bash scripts/setup-engines32.sh
	bash scripts/setup-report.sh

# What `make test` installs before it runs: rustfmt, clippy and the UCI tests' engines (its
# later steps install the i686 toolchain, and matplotlib before the UCI tests, through their
# own targets).
setup-tests:
	bash scripts/setup.sh
	bash scripts/setup-uci.sh

# Where the Rust tests note each SIMD tier the CPU cannot run (src/arch/mod.rs); `make test`
# prints them at the end. CCR_REQUIRE_SIMD=avx2,avx512 (or all) turns such a skip into a failure.
export CCR_SIMD_SKIP_LOG ?= $(CURDIR)/target/simd-skips.log
# The Rust commands take --workspace: the engine (this package) and keystats/ (ccr-keystats,
# the key statistics), so that both are linted and tested.

# The whole test suite (what CI runs, under half an hour on two cores): lints; the Rust
# tests in release with the ignored ones (deep perft in every representation, the magics
# regenerated) and again with the SIMD capped at AVX2; the fast Rust tests in a debug build
# (debug assertions, overflow checks, the slow checks); the benches' cross-checks; every fuzz
# target for a short run; the Rust tests built for i686; the fault checks of the UCI tests;
# the UCI tests on the x86_64 and the i686 binaries; the report drawn from docs/data; then a
# summary with each step's time and the SIMD tiers that were not run.
# scripts/test-all.sh runs the CPU-bound steps side by side and the timing-sensitive UCI
# tests afterwards on a quiet machine; each step is also a target of its own.
test: setup-tests lint
	@mkdir -p target
	@bash scripts/test-all.sh; status=$$?; bash scripts/test-summary.sh; exit $$status

# The unit tests and perft counts again with the CPU's features capped at AVX2
# (CCR_SIMD_MAX), so that the AVX2 kernels run end to end on a CPU that would pick AVX-512.
# The tiers above the cap are skipped by design there, so they are neither logged nor required.
AVX2_CAP = env -u CCR_REQUIRE_SIMD -u CCR_SIMD_SKIP_LOG CCR_SIMD_MAX=avx2
test-avx2:
	$(AVX2_CAP) $(CARGO) test --release --lib
	$(AVX2_CAP) $(CARGO) test --release --test integration -- perft:: chess960::

# The fast Rust tests in the dev profile, where debug_assert! and overflow checks are on:
# all of them but the perft counts of tests/perft.rs, the perft samples against
# shakmaty and the bench signature (minutes each in a debug build; the release run has them).
# They are built at opt-level 1, which keeps both checks and runs the tests several times
# faster than opt-level 0 for a little more build time.
DEBUG_SKIPS = --skip standard_positions --skip edge_cases \
	--skip sampled_perft_agrees_with_shakmaty --skip bench_signature
test-debug:
	CARGO_PROFILE_DEV_OPT_LEVEL=1 CARGO_PROFILE_TEST_OPT_LEVEL=1 $(CARGO) test --workspace -- $(DEBUG_SKIPS)

# The benches' cross-checks (counts against shakmaty, cozy-chess and chess; SIMD and
# assembly against the portable code), in criterion's test mode: each benchmark runs once,
# untimed. The iai-callgrind benches measure the same functions and check nothing more.
test-benches:
	$(CARGO) test --release --features benches --bench movegen --bench attacks --bench keys \
		--bench representations --bench asm --bench eval

# The UCI tests fail when they run against an engine with an injected fault
# (tests/uci/check_faults.py, Stockfish behind tests/uci/faulty_engine.py).
test-faults: setup-uci
	python3 -B tests/uci/check_faults.py

# Every fuzz target of fuzz/Cargo.toml, built and run FUZZ_SECONDS each (default 25 here),
# one per core at a time (FUZZ_JOBS).
test-fuzz:
	FUZZ_SECONDS=$${FUZZ_SECONDS:-25} bash scripts/fuzz-all.sh

# python-chess, Debian's chess engines (fairymax phalanx sjeng glaurung gnuchess toga2
# stockfish) and PolyGlot, in /usr/games, installed idempotently (root, Debian).
setup-uci:
	bash scripts/setup-uci.sh

# The UCI engine through real clients (tests/uci/, python-chess and raw pipes): handshake,
# go limits, stop/isready/quit latencies, special moves, malformed input, bullet games that
# must not flag (and must keep the Move Overhead, idle and loaded: test_bullet.py, whose
# per-move clocks land in target/uci-tests/bullet-*.tsv), full games against itself,
# Fairy-Max and Phalanx, `ccr bench`, the scripts' argument checks. CCR_BIN=path tests
# another engine; PGNs land in target/uci-tests/.
test-uci: setup-uci setup-report build
	python3 -B tests/uci/run.py

# Strength gauntlet against Debian's engines (docs/STRENGTH.md), e.g.
# make match MATCH_ARGS="--engines phalanx,sjeng --games 40 --tc 10+0.1 --ccr-option Hash=64"
MATCH_ARGS ?=
match: setup-uci build
	python3 -B scripts/match.py $(MATCH_ARGS)

# The tuner (docs/STRENGTH.md, "Tuning"): self-play training data, then Texel's method writes
# target/tune/weights.rs (about half an hour on two cores; TUNE_GAMES=n for less). Copy it
# over src/eval/weights.rs and play a match against the old build before keeping it.
TUNE_GAMES ?= 1550
TUNE_ARGS ?= --epochs 1500 --rate 1.0 --l2 1e-9 --from-move 10 --freeze material,pst
tune: build
	mkdir -p target/tune
	rm -f target/tune/selfplay.txt
	target/release/ccr datagen --games $(TUNE_GAMES) --nodes 6000 --random-plies 8 --seed 1 \
		--threads 2 --out target/tune/selfplay.txt
	target/release/ccr tune --data target/tune/selfplay.txt $(TUNE_ARGS) --out target/tune/weights.rs

# Training data labelled by a deeper engine (docs/STRENGTH.md, "Training data"): self-play from
# the balanced openings plus random plies, every position resolved by a quiescence search,
# then each labelled LABEL_LAMBDA x result + (1 - LABEL_LAMBDA) x Stockfish 15.1's expected
# score at LABEL_NODES nodes (target/tune/labelled.txt); then Texel's method on it
# (target/tune/weights.rs), every weight fitted (LABEL_TUNE_ARGS). About half an hour on two
# cores. The labelling resumes if stopped: run `make tune-label` again.
DATA_GAMES ?= 2000
DATA_NODES ?= 8000
LABEL_NODES ?= 5000
LABEL_LAMBDA ?= 0.5
LABEL_TUNE_ARGS ?= --epochs 1500 --rate 1.0 --l2 1e-9 --from-move 10
tune-data: build setup-uci
	mkdir -p target/tune
	rm -f target/tune/selfplay.txt target/tune/labelled.txt
	target/release/ccr datagen --games $(DATA_GAMES) --nodes $(DATA_NODES) \
		--openings tests/data/openings.epd --random-plies 4 --seed 1 --threads 2 \
		--out target/tune/selfplay.txt
	$(MAKE) --no-print-directory tune-label

tune-label:
	python3 -B scripts/label.py --in target/tune/selfplay.txt --out target/tune/labelled.txt \
		--nodes $(LABEL_NODES) --lambda $(LABEL_LAMBDA) --jobs 2
	target/release/ccr tune --data target/tune/labelled.txt $(LABEL_TUNE_ARGS) --out target/tune/weights.rs

# The network evaluation (docs/STRENGTH.md, "The network"): `make network` trains it on the
# committed self-play data (docs/strength/*-network-data.txt.xz) and any made by
# `make network-data` (target/network/*.txt), and writes target/network/network.bin; copy it
# over src/eval/network.bin when it wins its SPRT. `make network-data` plays NET_GAMES more
# games from seed NET_SEED (games are numbered from the seed, so a new run takes seeds past
# the last one used: docs/STRENGTH.md lists them), about 95 positions a game, 1.5 million
# positions an hour on two cores. Its games are searched by NET_EVAL (default network: the
# engine as it plays; the committed data of 2026-12-06 was the frame's).
NET_GAMES ?= 2000
NET_SEED ?= 100000
NET_EVAL ?= network
NET_TRAIN_ARGS ?= --epochs 20 --threads 2
network-data: build
	mkdir -p target/network
	target/release/ccr datagen --games $(NET_GAMES) --nodes 5000 --random-plies 8 \
		--seed $(NET_SEED) --threads 2 --scores --eval $(NET_EVAL) --out target/network/selfplay-$(NET_SEED).txt

network: build
	mkdir -p target/network/committed
	for f in docs/strength/*-network-data.txt.xz; do \
		xz -dc "$$f" > "target/network/committed/$$(basename "$$f" .xz)" || exit 1; done
	target/release/ccr train $$(for f in target/network/committed/*.txt target/network/*.txt; do \
		[ -e "$$f" ] && printf -- '--data %s ' "$$f"; done) $(NET_TRAIN_ARGS) \
		--out target/network/network.bin

# The paper reproduced (docs/PAPER.md): every measurement it quotes, run and written to
# docs/data/ (raw TSV with machine, compilers, commit and date; about three hours on two
# cores, builds included, two of them the strength ladder's 500 games), then the documents
# drawn from it. QUICK=1 runs smaller sizes. DATA=dir writes the raw results and the
# documents drawn from them into dir, and leaves the tracked documents as they are; STEPS=a,b
# runs some steps only (tests perft instructions costs bench engines keys strength). It installs
# nothing: what is missing is named, with the target that installs it (`make setup`, once).
# A progress line per step on stderr says what is left.
QUICK ?=
DATA ?= docs/data
STEPS ?=
reproduce:
	python3 -B scripts/reproduce.py $(if $(QUICK),--quick) --data $(DATA) $(if $(STEPS),--steps $(STEPS)) --report

# docs/PAPER.md, docs/BENCHMARKS.md, README.md's figures and docs/plots/ redrawn from the
# committed docs/data/ alone, without measuring (templates: docs/templates/). DATA=dir draws
# from dir into dir (PAPER.md, BENCHMARKS.md, README.md, STRENGTH.md, plots/) and leaves the
# tracked documents as they are.
report: setup-report
	python3 -B scripts/report.py --data $(DATA)

# Fails when the committed documents or plots are not what docs/data/ draws (a figure edited
# by hand, data committed without its report). The plots compare byte for byte, so they are
# drawn by the matplotlib version that drew them (setup-report).
report-check: setup-report
	python3 -B scripts/report.py --data $(DATA) --check

# matplotlib for the plots, at the version that drew the committed ones, installed idempotently.
setup-report:
	bash scripts/setup-report.sh

# The ignored tests alone: the deep perft counts in every representation (minutes) and the
# regeneration of the magics (`make test` runs them with the rest).
test-deep: setup-tests
	$(CARGO) test --release --workspace -- --ignored

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --all-features -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --workspace

# The six standard positions at DEPTH (default 5), with speed, in REPR (ccr, x88, bitboard,
# bitboard-native) with IMPL (portable; simd for the bitboard path's conversion).
perft: build
	bash scripts/perft-suite.sh target/release/ccr tests/data/standard-perft.epd $(DEPTH) \
		--repr $(REPR) --impl $(IMPL)

# Benchmarks against shakmaty, cozy-chess and chess (docs/BENCHMARKS.md): criterion wall clock of
# move generation and perft (~5 minutes), of the attack tables (~2 minutes), of the
# transposition keys (~1 minute), of the board representations side by side (~8 minutes) and
# of the assembly against its portable twins, then iai-callgrind instruction counts of all of
# them (a few minutes), then bench-arch (x86_64 against i686, ~20 minutes).
bench: bench-setup
	$(CARGO) bench --features benches --bench movegen
	$(CARGO) bench --features benches --bench attacks
	$(CARGO) bench --features benches --bench keys
	$(CARGO) bench --features benches --bench representations
	$(CARGO) bench --features benches --bench asm
	$(CARGO) bench --features benches --bench eval
	$(CARGO) bench --features benches --bench instructions
	$(CARGO) bench --features benches --bench asm_instructions
	$(MAKE) --no-print-directory bench-arch

# The thesis on both architectures (docs/BENCHMARKS.md, "32-bit and 64-bit"): `ccr perft`
# for every --repr x --impl, x86_64 and i686 runs alternating, callgrind instructions per node,
# and benches/movegen.rs (shakmaty, cozy-chess, chess) on both; the one table goes to
# target/bench-arch/summary.md (~20 minutes; RUNS=n runs of each combination, default 5).
bench-arch: bench-setup setup32
	bash scripts/bench-arch.sh

# Debian's i386 Stockfish and Glaurung under target/engines32 (the engines step of `make
# reproduce`: a whole bitboard engine's speed on i686 against x86_64), installed idempotently.
setup-engines32:
	bash scripts/setup-engines32.sh

# valgrind and iai-callgrind-runner 0.16.1, installed idempotently (`make bench` and `make
# reproduce` need them).
bench-setup:
	bash scripts/bench-setup.sh

# Debian's rustc-web, cargo-web, gcc-multilib and the i686 std, installed idempotently.
setup32:
	bash scripts/setup-i686.sh

# $(BIN32), a 32-bit x86 binary that runs here.
build32: setup32
	$(CARGO32_RUN) build --release --target $(TARGET32) --target-dir $(DIR32)

# The whole test suite (unit, integration and doctests of both crates) built for i686 and run here.
test32: setup32
	$(CARGO32_RUN) test --release --workspace --target $(TARGET32) --target-dir $(DIR32) $(DOCTEST32)

# The UCI tests on the i686 binary.
test-uci32: setup-uci build32
	CCR_BIN=$(CURDIR)/$(BIN32) python3 -B tests/uci/run.py

# The FEN and UCI fuzzers one after the other (FUZZ_TARGET=name runs that one only).
FUZZ_TARGETS ?= $(or $(FUZZ_TARGET),fen uci)
fuzz: setup-tests
	bash scripts/setup-fuzz.sh
	for t in $(FUZZ_TARGETS); do FUZZ_TARGET=$$t bash scripts/fuzz.sh || exit 1; done

clean:
	$(CARGO) clean

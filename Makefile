# ccr — build, test and measure. `make` builds the engine; `make EXE=path` also copies the
# binary there (the OpenBench convention).

CARGO ?= cargo
EXE ?=
DEPTH ?= 5

.PHONY: all build setup test test-deep lint perft bench bench-setup fuzz clean

all: build

build:
	$(CARGO) build --release
ifneq ($(EXE),)
	cp target/release/ccr $(EXE)
endif

# Everything the tests need, installed idempotently.
setup:
	bash scripts/setup.sh

# The whole test suite (what CI runs): lints, unit, perft, differential and CLI tests.
test: setup lint
	$(CARGO) test --release

# The deep perft counts (minutes).
test-deep: setup
	$(CARGO) test --release --test perft -- --ignored

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings

# The six standard positions at DEPTH (default 5), with speed.
perft: build
	bash scripts/perft-suite.sh target/release/ccr tests/data/standard-perft.epd $(DEPTH)

# Benchmarks against shakmaty and cozy-chess (docs/BENCHMARKS.md): criterion wall clock of
# move generation and perft (~5 minutes), of the attack tables (~2 minutes) and of the
# transposition keys (~1 minute), then iai-callgrind instruction counts of all three (a minute
# or two).
bench: bench-setup
	$(CARGO) bench --bench movegen
	$(CARGO) bench --bench attacks
	$(CARGO) bench --bench keys
	$(CARGO) bench --bench instructions

# valgrind and iai-callgrind-runner 0.16.1, installed idempotently (only `make bench` needs them).
bench-setup:
	bash scripts/bench-setup.sh

fuzz: setup
	bash scripts/fuzz.sh

clean:
	$(CARGO) clean

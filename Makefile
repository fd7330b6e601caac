# libdealer: build the library (Rust, via cargo) and the C command-line program that uses it.
#
#   make            build target/release/libdealer.{so,a}, include/dealer.h and target/release/dealer
#   make example    build, then run the CLI on a bundled example script
#   make test       build, then run every test: Rust unit/integration tests, C API tests, parity suites
#
# The parity suites need ../shared (and, for classic dealer, the Debian package `dealer`); without
# them they are reported as NOT RUN, never as passed. With CI=true they are required.

CARGO ?= cargo
CC ?= cc
CFLAGS ?= -O2 -Wall -Wextra -Werror -std=c99
RELEASE := target/release
STATIC_LIBS := -lpthread -ldl -lm -lrt -lutil -lgcc_s

.PHONY: all lib example test rust-test capi-test parity bench FORCE

all: $(RELEASE)/dealer

lib: FORCE
	$(CARGO) build --release --locked 2>/dev/null || $(CARGO) build --release

$(RELEASE)/libdealer.a: lib

$(RELEASE)/dealer: examples-c/dealer_cli.c $(RELEASE)/libdealer.a
	$(CC) $(CFLAGS) -Iinclude examples-c/dealer_cli.c $(RELEASE)/libdealer.a $(STATIC_LIBS) -o $@

example: all
	$(RELEASE)/dealer -s 1 examples-c/example.dlr

rust-test:
	$(CARGO) test --release

capi-test: all
	$(MAKE) -C capi-tests run

parity: all
	tests/parity.sh

test: all rust-test capi-test parity

bench: all
	tests/bench.sh

FORCE:

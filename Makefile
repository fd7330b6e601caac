# libdealer: build the library (Rust, via cargo) and the C command-line program that uses it.
#
#   make            build target/release/libdealer.{so,a}, include/dealer.h and target/release/dealer
#   make example    build, then run the CLI on a bundled example script
#   make test       build, then run every test: Rust unit/integration tests, C API tests, the CLI's
#                   error behaviour against classic dealer, the parity suites, and the
#                   install/consumer test (pkg-config and CMake)
#   make install    build, then install under $(PREFIX) (default /usr/local; DESTDIR is honoured):
#                   bin/dealer, include/dealer.h, lib/libdealer.{so*,a}, lib/pkgconfig/dealer.pc,
#                   lib/cmake/dealer/dealerConfig{,Version}.cmake
#   make uninstall  remove those files again
#
# The parity suites need ../shared (and, for classic dealer, the Debian package `dealer`); without
# them they are reported as NOT RUN, never as passed. With CI=true they are required.

CARGO ?= cargo
CC ?= cc
CFLAGS ?= -O2 -Wall -Wextra -Werror -std=c99
RELEASE := target/release
# The native libraries libdealer.a needs, exactly as reported by
#   cargo rustc --release --lib --crate-type staticlib -- --print native-static-libs
# (`make check-static-libs` compares). Also written into dealer.pc (Libs.private) and
# dealerConfig.cmake (dealer::dealer_static's INTERFACE_LINK_LIBRARIES) by `make install`.
STATIC_LIBS := -lstdc++ -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc

VERSION := $(shell sed -n 's/^version *= *"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
VERSION_MAJOR := $(word 1,$(subst ., ,$(VERSION)))
VERSION_MINOR := $(word 2,$(subst ., ,$(VERSION)))
# The shared library's SONAME is libdealer.so.$(SOVERSION): keep in step with build.rs.
SOVERSION := 0

PREFIX ?= /usr/local
DESTDIR ?=
INSTALL ?= install
DEST := $(DESTDIR)$(PREFIX)
GEN := $(RELEASE)/install-files
empty :=
space := $(empty) $(empty)
SUBST := -e 's|@PREFIX@|$(abspath $(PREFIX))|g' -e 's|@VERSION@|$(VERSION)|g' \
	-e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' -e 's|@VERSION_MINOR@|$(VERSION_MINOR)|g' \
	-e 's|@SOVERSION@|$(SOVERSION)|g' -e 's|@STATIC_LIBS@|$(STATIC_LIBS)|g' \
	-e 's|@CMAKE_STATIC_LIBS@|$(subst $(space),;,$(patsubst -l%,%,$(STATIC_LIBS)))|g'

.PHONY: all lib example test rust-test capi-test parity cli-errors consumer-test bench install uninstall \
	check-static-libs dd-reference dds29-tools FORCE

all: $(RELEASE)/dealer

lib: FORCE
	$(CARGO) build --release --locked
	ln -sf libdealer.so $(RELEASE)/libdealer.so.$(SOVERSION)

$(RELEASE)/libdealer.a: lib

$(RELEASE)/dealer: examples-c/dealer_cli.c $(RELEASE)/libdealer.a
	$(CC) $(CFLAGS) -Iinclude examples-c/dealer_cli.c $(RELEASE)/libdealer.a $(STATIC_LIBS) -o $@

example: all
	$(RELEASE)/dealer -s 1 examples-c/example.dlr

rust-test:
	$(CARGO) test --release

capi-test: all
	$(MAKE) -C capi-tests run STATIC_LIBS="$(STATIC_LIBS)"

parity: all
	tests/parity.sh

consumer-test: all
	tests/consumer.sh

cli-errors: all
	tests/cli_errors.sh

# Debian's DDS 2.9 (libdds-dev), used only to check and benchmark our double-dummy results; the
# programs are skipped when it is not installed.
dds29-tools:
	@if [ -f /usr/include/dds/dll.h ]; then \
	  $(CC) $(CFLAGS) tests/dds29/dd_reference.c -ldds -o $(RELEASE)/dd_reference && \
	  $(CC) $(CFLAGS) tests/dds29/dd_bench29.c -ldds -o $(RELEASE)/dd_bench29; \
	else echo "libdds-dev is not installed: DDS 2.9 tools not built"; fi

dd-reference: all dds29-tools
	tests/dd_reference.sh

test: all rust-test capi-test cli-errors parity dd-reference consumer-test

bench: all dds29-tools
	$(CARGO) build --release --locked --example dds_direct
	tests/bench.sh
	tests/bench_dd.sh

install: all
	rm -rf $(GEN) && mkdir -p $(GEN)
	sed $(SUBST) pkgconfig/dealer.pc.in > $(GEN)/dealer.pc
	sed $(SUBST) cmake/dealerConfig.cmake.in > $(GEN)/dealerConfig.cmake
	sed $(SUBST) cmake/dealerConfigVersion.cmake.in > $(GEN)/dealerConfigVersion.cmake
	$(INSTALL) -d $(DEST)/bin $(DEST)/include $(DEST)/lib/pkgconfig $(DEST)/lib/cmake/dealer
	$(INSTALL) -m 755 $(RELEASE)/dealer $(DEST)/bin/dealer
	$(INSTALL) -m 644 include/dealer.h $(DEST)/include/dealer.h
	$(INSTALL) -m 755 $(RELEASE)/libdealer.so $(DEST)/lib/libdealer.so.$(VERSION)
	ln -sf libdealer.so.$(VERSION) $(DEST)/lib/libdealer.so.$(SOVERSION)
	ln -sf libdealer.so.$(SOVERSION) $(DEST)/lib/libdealer.so
	$(INSTALL) -m 644 $(RELEASE)/libdealer.a $(DEST)/lib/libdealer.a
	$(INSTALL) -m 644 $(GEN)/dealer.pc $(DEST)/lib/pkgconfig/dealer.pc
	$(INSTALL) -m 644 $(GEN)/dealerConfig.cmake $(GEN)/dealerConfigVersion.cmake $(DEST)/lib/cmake/dealer/

uninstall:
	rm -f $(DEST)/bin/dealer $(DEST)/include/dealer.h $(DEST)/lib/libdealer.so.$(VERSION) \
	  $(DEST)/lib/libdealer.so.$(SOVERSION) $(DEST)/lib/libdealer.so $(DEST)/lib/libdealer.a \
	  $(DEST)/lib/pkgconfig/dealer.pc $(DEST)/lib/cmake/dealer/dealerConfig.cmake \
	  $(DEST)/lib/cmake/dealer/dealerConfigVersion.cmake
	rmdir $(DEST)/lib/cmake/dealer 2>/dev/null || true

# Compares STATIC_LIBS with what rustc reports for the static library (rebuilds the library).
check-static-libs:
	@libs=$$($(CARGO) rustc --release --lib --crate-type staticlib -- --print native-static-libs 2>&1 \
	  | sed -n 's/.*native-static-libs: //p' | tail -n 1); \
	if [ "$$libs" = "$(STATIC_LIBS)" ]; then echo "STATIC_LIBS matches rustc: $$libs"; \
	else echo "STATIC_LIBS is '$(STATIC_LIBS)' but rustc reports '$$libs'"; exit 1; fi

FORCE:

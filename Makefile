# ListenUp for Linux. Two commands for a newcomer:
#   make run    build and start the app
#   make test   build and run every test (under Xvfb)
# Both install missing system packages first (build-aux/ensure-deps).

SWIFT ?= swift
XVFB := xvfb-run -a -s "-screen 0 1280x800x24"
BIN := .build/debug/listenup

.PHONY: run test build demo deps deps-test screenshots bench bench-library clean

deps:
	@build-aux/ensure-deps run

deps-test:
	@build-aux/ensure-deps test

# The binary, plus its compiled schema and translations in .build/ (build-aux/compile-data).
build: deps
	$(SWIFT) build --product listenup
	build-aux/compile-data

run: build
	GSETTINGS_SCHEMA_DIR=.build/schemas $(BIN)

# The demo server (a generated library) and the app pointed at it, in a sandbox.
demo: deps
	$(SWIFT) build --product listenup
	build-aux/compile-data
	$(SWIFT) build --product listenup-demo-server
	build-aux/run-demo

# Source rules (layering, no print/try!), then the Swift tests under a
# virtual display (GTK needs one; the headless tests clear DISPLAY for their
# child processes themselves) and inside a private D-Bus session with an
# unlocked gnome-keyring (build-aux/with-keyring), so libsecret is real;
# avahi-daemon is started first (build-aux/start-avahi) for the LAN tests.
test: deps-test
	build-aux/check-sources
	build-aux/check-translatable
	build-aux/update-po --check
	$(SWIFT) build --build-tests
	build-aux/compile-data
	build-aux/start-avahi
	GTK_A11Y=none LISTENUP_REQUIRE_AVAHI=1 $(XVFB) build-aux/with-keyring $(SWIFT) test --skip-build
	$(XVFB) build-aux/test-accessibility

# Screenshots for docs/screenshots/ (light, dark, high contrast).
screenshots: build deps-test
	build-aux/screenshots

bench: deps-test
	bench/startup

# The library at 10,000 books (sync, cold start, search, RSS); needs xdotool and curl.
bench-library: deps-test
	bench/library

clean:
	rm -rf .build

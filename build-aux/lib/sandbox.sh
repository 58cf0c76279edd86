# Sourced by the scripts that run the app away from the user's own files
# (build-aux/screenshots, run-demo, test-install, bench/startup) and, through
# build-aux/lib/sandbox-env, with-display and sandbox.py, by the Python ones
# (test-accessibility, bench/library, bench/pairing-ui): one definition of the
# sandbox and of the virtual display instead of a copy in each script.

# The virtual screen every script and `make test` use (the size the
# screenshots and benchmarks are taken at).
LISTENUP_XVFB_SCREEN="-screen 0 1280x800x24"

# Prints NAME=VALUE lines, one a line, for an app run in sandbox ROOT, and
# creates its folders: HOME and the XDG folders inside ROOT, settings in
# GSettings' key file there (GSETTINGS_BACKEND=keyfile: no dconf, nothing
# written to the user's settings), and mDNS on loopback only
# (LISTENUP_MDNS_INTERFACE=lo: tests, benchmarks and demos stay on this
# machine, docs/architecture.md). With --runtime, also an XDG_RUNTIME_DIR
# (mode 0700, as the spec requires) in ROOT. Callers add their own
# variables; a later NAME=VALUE wins in `env` and `export`.
sandbox_env() { # [--runtime] ROOT
  local runtime=0
  if [ "$1" = --runtime ]; then runtime=1; shift; fi
  local root=$1
  mkdir -p "$root"/{config,data,state,cache}
  printf '%s\n' "HOME=$root" "XDG_CONFIG_HOME=$root/config" "XDG_DATA_HOME=$root/data" \
    "XDG_STATE_HOME=$root/state" "XDG_CACHE_HOME=$root/cache" \
    GSETTINGS_BACKEND=keyfile LISTENUP_MDNS_INTERFACE=lo
  if [ "$runtime" = 1 ]; then
    mkdir -p "$root/runtime"
    chmod 0700 "$root/runtime"
    printf '%s\n' "XDG_RUNTIME_DIR=$root/runtime"
  fi
}

# Exports the sandbox_env variables into this shell.
sandbox_export() { # [--runtime] ROOT
  local line
  while IFS= read -r line; do export "${line?}"; done < <(sandbox_env "$@")
}

# Re-executes COMMAND (normally "$0" "$@") under Xvfb when there is no
# display; returns when there is one. GTK has no display-less mode.
ensure_display() { # COMMAND...
  if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then return 0; fi
  if [ -n "${LISTENUP_UNDER_XVFB:-}" ]; then
    echo "${0##*/}: still no DISPLAY under xvfb-run; giving up" >&2
    exit 1
  fi
  command -v xvfb-run >/dev/null || { echo "${0##*/}: no display and no xvfb-run (install xvfb)" >&2; exit 1; }
  # Guards against a loop if xvfb-run ever leaves DISPLAY unset.
  export LISTENUP_UNDER_XVFB=1
  exec xvfb-run -a -s "$LISTENUP_XVFB_SCREEN" "$@"
}

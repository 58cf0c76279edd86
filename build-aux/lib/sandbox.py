"""The sandbox and the virtual display for the Python scripts
(build-aux/test-accessibility, bench/library, bench/pairing-ui), taken from
build-aux/lib/sandbox.sh so that every script builds them the same way:

    sys.path.insert(0, os.path.join(ROOT, "build-aux", "lib"))
    import sandbox
    sandbox.ensure_display()          # re-executes under Xvfb without a display
    env.update(sandbox.env(home))     # HOME, XDG_*, GSettings key file, mDNS on lo
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def env(root, runtime=False):
    """The sandbox variables for an app run in root (its folders are made)."""
    arguments = [os.path.join(HERE, "sandbox-env")] + (["--runtime"] if runtime else []) + [root]
    lines = subprocess.run(arguments, check=True, capture_output=True, text=True).stdout.splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line)


def ensure_display():
    """Re-executes this script under Xvfb when there is no display."""
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return
    helper = os.path.join(HERE, "with-display")
    os.execv(helper, [helper, sys.executable, *sys.argv])

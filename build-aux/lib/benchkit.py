"""What the Python benches share (bench/library, bench/playback, bench/sync):
logging, building and finding the release binaries, a sandboxed user, the
demo server (and its stdin test controls), `listenup --headless` driven line
by line with each line's arrival time, curl against the demo server, and
/proc readings.

    sys.path.insert(0, os.path.join(ROOT, "build-aux", "lib"))
    import benchkit
"""
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time

import sandbox

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EMAIL, PASSWORD = "bench@example.com", "bench-password"


def log(message):
    print(message, file=sys.stderr, flush=True)


def ms(seconds):
    return f"{seconds * 1000:.1f} ms"


def ensure_packages(tools, script):
    """Installs the Debian packages of the missing (command, package) pairs when root."""
    missing = [package for tool, package in tools if shutil.which(tool) is None]
    if not missing:
        return
    if os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-q", "--no-install-recommends", *missing], check=True,
                       stdout=subprocess.DEVNULL)
    else:
        sys.exit(f"{script} needs: sudo apt-get install {' '.join(missing)}")


def build(products):
    """swift build -c release of each product, unless SKIP_BUILD=1."""
    if os.environ.get("SKIP_BUILD") == "1":
        return
    for product in products:
        log(f"== building {product} (swift build -c release)")
        subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)


def shipped_arguments():
    """`swift build -c release` arguments of the build as the Flatpak ships it
    (build-aux/shipped-swiftpm-args), with its own scratch folder."""
    lines = subprocess.run([os.path.join(ROOT, "build-aux", "shipped-swiftpm-args")], check=True,
                           capture_output=True, text=True).stdout.splitlines()
    return lines + ["--scratch-path", os.path.join(ROOT, ".build", "shipped")]


def bin_path(arguments):
    """Where `swift build -c release` with arguments puts its binaries."""
    return subprocess.run(["swift", "build", "-c", "release", *arguments, "--show-bin-path"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()


def binaries():
    """(listenup, listenup-demo-server): BIN_DIR's, or the release build's."""
    if os.environ.get("BIN_DIR"):
        path = os.path.abspath(os.environ["BIN_DIR"])
    else:
        path = bin_path([])
    return os.path.join(path, "listenup"), os.path.join(path, "listenup-demo-server")


class Sandbox:
    """HOME and XDG folders of one signed-in user, with no session bus."""

    def __init__(self, root, name, extra=None):
        self.home = os.path.join(root, name)
        self.env = dict(os.environ)
        self.env.update(sandbox.env(self.home))
        self.env.update({
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent",
            "GTK_A11Y": "none",
            "LISTENUP_LOG": "warning",
        })
        self.env.update(extra or {})
        os.makedirs(self.home, exist_ok=True)

    def clear_cache(self):
        shutil.rmtree(self.env["XDG_CACHE_HOME"], ignore_errors=True)


class DemoServer:
    """listenup-demo-server on a free loopback port, with the bench's admin.

    With `control=True` the server takes its test controls on stdin
    (`--control-stdin`): see `control()`. `name` names its log file
    (default: the book count)."""

    def __init__(self, binary, books, scratch, arguments=(), name=None, control=False):
        self.log = open(os.path.join(scratch, f"server-{name or books}.log"), "w")
        self.process = subprocess.Popen(
            [binary, "--host", "127.0.0.1", "--port", "0", "--books", str(books), "--admin-email", EMAIL,
             "--admin-password", PASSWORD, *arguments, *(["--control-stdin"] if control else [])],
            stdin=subprocess.PIPE if control else None, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        self.url = json.loads(line)["url"]

    def control(self, command):
        """Sends one test control (`{"action":"addBook","title":…}`, …) and
        returns the server's answer, whose `monotonicNs` is CLOCK_MONOTONIC
        (Python's `time.monotonic()`) once the change and its live event are out."""
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if answer.get("event") != "control":
            raise RuntimeError(f"the demo server refused {command}: {answer}")
        return answer

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Headless:
    """listenup --headless, one JSON line in and out at a time.

    A thread drains stdout as it comes, so a long run never fills the pipe
    (a full pipe would block the app's writes, and with them its main loop).
    Each line read gets `_received`: `time.monotonic()` when it was read."""

    def __init__(self, binary, sandbox, env=None, stderr_path=None):
        """`stderr_path`: a file the app's stderr (its log) is appended to; by default it is dropped."""
        stderr = open(stderr_path, "a") if stderr_path else subprocess.DEVNULL
        self.process = subprocess.Popen([binary, "--headless"], env=dict(sandbox.env, **(env or {})),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                        text=True, bufsize=1)
        if stderr_path:
            stderr.close()
        self.events = queue.Queue()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.process.stdout:
            received = time.monotonic()
            event = json.loads(line)
            event["_received"] = received
            self.events.put(event)
        self.events.put(None)

    def send(self, command):
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()

    def wait_for(self, predicate, timeout=120):
        deadline = time.monotonic() + timeout
        while True:
            try:
                event = self.events.get(timeout=max(0.001, deadline - time.monotonic()))
            except queue.Empty:
                break
            if event is None:
                break
            if predicate(event):
                return event
        raise RuntimeError("listenup --headless never printed the line waited for")

    def quit(self):
        try:
            self.send({"action": "quit"})
        except BrokenPipeError:
            pass
        self.process.wait(timeout=10)


def route(name):
    return lambda event: event.get("event") == "route" and event.get("route") == name


def library_loaded(count):
    def check(event):
        state = event.get("state") or {}
        return event.get("route") == "library" and state.get("status") == "loaded" and state.get("bookCount") == count
    return check


def sign_in(app_binary, sandbox, server, books):
    """Signs in through the headless front (the session is saved) and waits for the first sync."""
    app = Headless(app_binary, sandbox)
    app.wait_for(route("serverSetup"))
    app.send({"action": "connect", "url": server.url})
    app.wait_for(route("login"))
    app.send({"action": "login", "email": EMAIL, "password": PASSWORD})
    app.wait_for(library_loaded(books), timeout=300)
    app.quit()


def curl_json(args):
    out = subprocess.run(["curl", "-sS", "--fail", *args], check=True, capture_output=True).stdout
    return json.loads(out)


def curl_token(server):
    """An access token of the bench's admin, from a login of its own."""
    body = json.dumps({"email": EMAIL, "password": PASSWORD,
                       "device_info": {"device_type": "desktop", "platform": "Linux", "client_name": "bench"}})
    reply = curl_json(["-H", "Content-Type: application/json", "-H", "X-Forwarded-For: bench-curl",
                       "--data", body, f"{server.url}/api/v1/auth/login"])
    return reply["data"]["access_token"]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    """utime + stime of a process, in seconds (/proc/PID/stat fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

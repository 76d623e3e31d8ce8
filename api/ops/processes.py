"""How the processes of ``munchlog serve`` live and die together (issue #36).

``munchlog serve`` is a master (granian's, in the ``serve`` process itself), its recording
workers, and the stream process (:mod:`api.streams.process`: a granian master of its own, with one
worker). Three rules hold, whatever kills which process (``kill -9`` included: the OOM killer
does it):

* **Nothing outlives its parent.** Every worker, and the stream process, asks the kernel to
  kill it when its parent dies (:func:`die_with_parent`: Linux's ``PR_SET_PDEATHSIG``, with
  ``SIGKILL``: a worker whose master is gone has no one to answer to, and a signal it could
  catch might leave it holding the port). The signal fires when the *thread* that forked the
  child ends, so the stream process is started, and restarted, by one supervising thread that
  lives as long as the stream process may (:class:`StreamProcess`). A child that finds its
  parent already gone when it asks (it died in between) exits at once.
* **The stream process is kept running.** ``serve`` waits on it; if it dies (or is killed) it
  is started again on the same port after :data:`RESTART_DELAY` seconds; if it dies
  :data:`CRASH_LOOP` times in a row within :data:`CRASH_LOOP_SECONDS` of being started,
  ``serve`` stops, exit status 1, and its supervisor (systemd, a container's restart policy)
  takes over. A recording worker that dies stops ``serve`` the same way (granian's master).
* **One server per port, decided atomically** (:func:`check_port`). granian's workers bind
  with ``SO_REUSEPORT``, so a port already taken by another granian would be shared, and
  checking that the port is free before starting leaves a window of a second or two while the
  workers start. So ``serve`` first *claims* the port: it binds a Unix socket in Linux's
  abstract namespace named after the port (per network namespace, like the port itself; bound
  by one process at a time; released by the kernel when the last process holding it dies,
  ``kill -9`` included), and only then checks the port and starts. A second ``serve`` on the
  port finds the claim taken and exits, one line, status 1. The claim is by port number: two
  servers on one port but different addresses (127.0.0.1 and 127.0.0.2) are refused too.
  Elsewhere than Linux there is no claim and the check alone remains.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

log = logging.getLogger("munchlog.serve")

PR_SET_PDEATHSIG = 1
#: Seconds the stream process may take to listen before the workers start anyway.
STREAMS_STARTUP = 20.0
#: Seconds before a stream process that died is started again.
RESTART_DELAY = 0.5
#: A stream process that dies this many times in a row, each time within
#: CRASH_LOOP_SECONDS of being started, stops ``serve``.
CRASH_LOOP = 3
CRASH_LOOP_SECONDS = 10.0
#: Seconds the stream process may take to stop on SIGTERM before it is killed.
STREAMS_STOP_TIMEOUT = 10.0

LINUX = sys.platform.startswith("linux")


# ---------------------------------------------------------------------------- dying together


@functools.cache
def _prctl() -> Callable[..., int] | None:
    """libc's ``prctl`` (Linux), looked up in the parent: a child between ``fork`` and
    ``exec`` only calls it."""
    if not LINUX:
        return None
    import ctypes

    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def die_with_parent(parent: int | None = None) -> None:
    """In a child process: be killed (``SIGKILL``) when the parent dies; exit at once if it
    died already. ``parent`` is its pid (default: the ``multiprocessing`` parent's, as in a
    granian worker; none known: no check, as in a gunicorn worker, which checks by itself)."""
    prctl = _prctl()
    if prctl is None:
        return
    if parent is None:
        import multiprocessing

        found = multiprocessing.parent_process()
        parent = found.pid if found is not None else None
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)  # the parent died before the signal was asked for


# ---------------------------------------------------------------------------- one server per port


class PortInUse(SystemExit):
    """``munchlog serve`` cannot listen where it was told to (:func:`check_port`). A
    ``SystemExit`` whose code is the message: uncaught, Python prints it as one line on stderr
    and exits with status 1."""


#: The ports this process has claimed (:func:`check_port`), and the sockets that hold them.
_CLAIMS: dict[int, socket.socket] = {}
_CLAIMS_LOCK = threading.Lock()


def _in_use(host: str, port: int, why: str) -> PortInUse:
    return PortInUse(
        f"munchlog serve: port {port} on {host} is in use ({why}): stop it or choose another --port"
    )


def claim_port(port: int) -> bool:
    """Claim ``port`` for this process (see the module docstring); ``False`` if another
    process holds the claim. Once claimed, held until this process and its children end."""
    if not LINUX or not port:
        return True
    with _CLAIMS_LOCK:
        if port in _CLAIMS:
            return True
        claim = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            claim.bind(f"\0munchlog-serve-port-{port}")
        except OSError as exc:
            claim.close()
            # taken; any other error: no abstract namespace here, the check alone
            return exc.errno != errno.EADDRINUSE
        _CLAIMS[port] = claim
        return True


def release_port(port: int) -> None:
    """Give up this process's claim on ``port`` (if it has one)."""
    with _CLAIMS_LOCK:
        claim = _CLAIMS.pop(port, None)
    if claim is not None:
        claim.close()


def check_port(host: str, port: int) -> None:
    """Claim ``port`` (:func:`claim_port`), then refuse ``host:port`` if another socket
    listens there (or it cannot be bound at all); the claim is given up again if refused.

    granian binds its socket with ``SO_REUSEPORT``, so a second server on a port that is taken
    would start beside the first, and the kernel would hand each connection to either (two
    databases answering at random). A probe socket without ``SO_REUSEPORT`` cannot bind where
    anything listens; with ``SO_REUSEADDR``, as the servers, the closed connections of a server
    that just stopped (``TIME_WAIT``) do not count. Several workers of one ``serve`` share its
    one socket and are not concerned."""
    if not claim_port(port):
        raise _in_use(host, port, "another munchlog serve holds it")
    try:
        _probe(host, port)
    except PortInUse:
        release_port(port)
        raise


def _probe(host: str, port: int) -> None:
    try:
        addresses = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as exc:
        raise PortInUse(f"munchlog serve: cannot listen on {host}: {exc.strerror}") from None
    for family, kind, proto, _, address in addresses:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    raise _in_use(host, port, "another server is listening there") from None
                raise PortInUse(
                    f"munchlog serve: cannot listen on {host} port {port}: {exc.strerror}"
                ) from None


# ---------------------------------------------------------------------------- the stream process


class StreamProcess:
    """The stream process (``python -m api.streams.process``) on ``host:port``, kept running by a
    supervising thread until :meth:`stop` (see the module docstring)."""

    def __init__(self, host: str, port: int, *, on_give_up: Callable[[], None]) -> None:
        self.host = host
        self.port = port
        self.on_give_up = on_give_up
        self.gave_up: str | None = None  #: why serve must stop, once it must
        self.restarts = 0
        self._child: subprocess.Popen[bytes] | None = None
        self._stopping = threading.Event()
        self._listening = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(
            target=self._supervise, name="munchlog-stream-supervisor", daemon=True
        )

    @property
    def pid(self) -> int | None:
        child = self._child
        return child.pid if child is not None else None

    def start(self, wait: float = STREAMS_STARTUP) -> None:
        """Start it, and wait until it listens (at most ``wait`` seconds)."""
        self._thread.start()
        self._listening.wait(wait)

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "api.streams.process",
            "--host",
            self.host,
            "--port",
            str(self.port),
        ]

    def _spawn(self) -> subprocess.Popen[bytes]:
        _prctl()  # looked up here, not in the child
        child = subprocess.Popen(
            self.command(), preexec_fn=functools.partial(die_with_parent, os.getpid())
        )
        with self._lock:
            self._child = child
        if self._stopping.is_set():  # stop() came while it started
            child.terminate()
        return child

    def _supervise(self) -> None:
        """In the supervising thread: start the child, wait for it; start it again when it
        dies, until stopped or crash-looping. The children are forked here, and this thread
        ends only after the last one has exited (``PR_SET_PDEATHSIG`` is tied to it)."""
        quick_deaths = 0
        while not self._stopping.is_set():
            started = time.monotonic()
            child = self._spawn()
            _wait_listening(self.host, self.port, child, STREAMS_STARTUP)
            self._listening.set()
            status = child.wait()
            if self._stopping.is_set():
                return
            quick_deaths = (
                quick_deaths + 1 if time.monotonic() - started < CRASH_LOOP_SECONDS else 1
            )
            if quick_deaths >= CRASH_LOOP:
                self.gave_up = (
                    f"munchlog serve: the stream process exited {quick_deaths} times in a row "
                    f"(last status {status}): stopping"
                )
                log.error("%s", self.gave_up)
                self.on_give_up()
                return
            self.restarts += 1
            log.warning(
                "the stream process exited (status %s): starting it again on port %s",
                status,
                self.port,
            )
            self._stopping.wait(RESTART_DELAY)

    def stop(self) -> None:
        """Stop it (SIGTERM, then SIGKILL after :data:`STREAMS_STOP_TIMEOUT` seconds) and the
        supervising thread."""
        self._stopping.set()
        with self._lock:
            child = self._child
        if child is not None and child.poll() is None:
            child.terminate()
            try:
                child.wait(STREAMS_STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        if self._thread.is_alive():
            self._thread.join(STREAMS_STOP_TIMEOUT)


def _wait_listening(host: str, port: int, child: subprocess.Popen[bytes], limit: float) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and child.poll() is None:
        try:
            with socket.create_connection(
                (host if host not in ("", "0.0.0.0") else "127.0.0.1", port), 0.2
            ):
                return
        except OSError:
            time.sleep(0.05)


def _stop_serving() -> None:
    """Ask this process to stop as SIGTERM would (granian's and gunicorn's masters stop
    gracefully on it)."""
    os.kill(os.getpid(), signal.SIGTERM)


@contextlib.contextmanager
def streams_beside(host: str, stream_port: int | None) -> Iterator[StreamProcess | None]:
    """Run the stream process (:class:`StreamProcess`) on ``stream_port`` while the block runs,
    and tell the workers where it is (``MUNCHLOG_STREAM_PORT``); stop it when the block ends.
    If it could not be kept running, the block was asked to stop (SIGTERM) and this raises
    ``SystemExit`` with the reason (one line, status 1). No ``stream_port``: nothing."""
    if not stream_port:
        yield None
        return
    check_port(host, stream_port)
    before = os.environ.get("MUNCHLOG_STREAM_PORT")
    os.environ["MUNCHLOG_STREAM_PORT"] = str(stream_port)
    owner = os.getpid()
    streams = StreamProcess(host, stream_port, on_give_up=_stop_serving)
    streams.start()
    try:
        yield streams
    finally:
        # Only in the process that started it: gunicorn forks its workers inside this block,
        # and a worker leaving (SystemExit) unwinds through it too; it stopped the stream
        # process it does not own and waited for it, holding every stop for gunicorn's 30 s.
        if os.getpid() == owner:
            streams.stop()
            # nothing sends streams to a stopped process (a caller that goes on in this process)
            if before is None:
                os.environ.pop("MUNCHLOG_STREAM_PORT", None)
            else:
                os.environ["MUNCHLOG_STREAM_PORT"] = before
            if streams.gave_up:
                raise SystemExit(streams.gave_up)

"""gunicorn settings for munchlog: ``gunicorn -c python:api.gunicorn_conf 'api.app:create_app()'``.

``munchlog serve`` applies the same settings. Why these (measured in ``bench/RESULTS.md``):

* **2 gthread workers x 2 threads.** A worker with one thread serves its keep-alive connections
  one request at a time, and the kernel hands connections to workers unevenly (8 tables could
  land 7:1): the busy worker queues while the other idles, and one slow request (an export)
  holds up every table on that worker. Threads let each worker take the next request while
  one waits on the database. Two beat four: the more threads, the longer the one holding the
  writer lock waits for the GIL (lock held about 535 us with 2, 610 us with 4).
* **A 1 ms GIL switch interval** (Python's default is 5 ms). A thread that has just committed
  (``fsync``) and still holds the SQLite writer lock (``domain/writer.py``) must get the GIL
  back to release it; with 5 ms slices it waits behind the other threads' Python work, and the
  other worker waits behind it.
"""

from __future__ import annotations

import sys
from typing import Any

worker_class = "gthread"
workers = 2
threads = 2
#: The interval :func:`post_worker_init` sets in each worker (seconds).
SWITCH_INTERVAL = 0.001


def post_worker_init(worker: Any) -> None:
    """Shorten the GIL switch interval in each worker (see the module docstring)."""
    sys.setswitchinterval(SWITCH_INTERVAL)

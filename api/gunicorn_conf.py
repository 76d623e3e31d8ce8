"""gunicorn settings for munchlog: ``gunicorn -c python:api.gunicorn_conf 'api.app:create_app()'``.

``munchlog serve`` applies the same settings. Why these (measured in ``bench/RESULTS.md``):

* **2 gthread workers x 4 threads.** A worker with one thread serves its keep-alive connections
  one request at a time: it queues while the other worker idles, and one slow request (an
  export) holds up every table on that worker. Threads let a worker take the next request
  while others wait on the database, and on SQLite the batches that queue up in one worker
  while another writes go to disk together (``adapters/sqlite_writer.py``'s group commit: one
  ``fsync`` for several batches). With the writer lock and group commit, 4 threads recorded
  about 7% more than 2 with 8 tables (2,105-2,159 against 1,988-2,022 actions/s), and 8 no
  more than 4 (``bench/RESULTS.md``).
* **A 1 ms GIL switch interval** (Python's default is 5 ms). A thread that has just committed
  (``fsync``) and still holds the SQLite writer lock (``adapters/sqlite_writer.py``) must get the GIL
  back to release it; with 5 ms slices it waits behind the other threads' Python work, and the
  other worker waits behind it.
* **At most 100 requests per keep-alive connection** (as nginx's ``keepalive_requests`` and
  Apache's ``MaxKeepAliveRequests``; gunicorn has no such setting, so :func:`pre_request`
  does it). A table's app keeps one connection open for a whole game, and the kernel hands
  connections to workers unevenly: 8 tables could sit 7:1 on the two workers for hours, and
  one worker (one core, one GIL) would set the pace for seven of them. Closing a connection
  after its 100th response makes the client reconnect, and an idle worker is the quicker to
  accept, so the load spreads over the workers again within a second.
"""

from __future__ import annotations

import sys
from typing import Any

worker_class = "gthread"
workers = 2
threads = 4
#: The interval :func:`post_worker_init` sets in each worker (seconds).
SWITCH_INTERVAL = 0.001
#: Responses on one keep-alive connection before it is closed (:func:`pre_request`).
KEEPALIVE_REQUESTS = 100


def post_worker_init(worker: Any) -> None:
    """Shorten the GIL switch interval in each worker (see the module docstring)."""
    sys.setswitchinterval(SWITCH_INTERVAL)


def pre_request(worker: Any, req: Any) -> None:
    """Close the connection after this response if it is the connection's
    :data:`KEEPALIVE_REQUESTS`-th (gunicorn answers it with ``Connection: close``); and log the
    request at debug level, as gunicorn's own ``pre_request`` does."""
    worker.log.debug("%s %s", req.method, req.path)
    if req.req_number % KEEPALIVE_REQUESTS == 0:
        req.must_close = True

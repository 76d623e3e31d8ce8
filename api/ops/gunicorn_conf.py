"""gunicorn settings for munchlog, the alternative server (``munchlog serve --server gunicorn``).

granian is the default (``api/ops/serving.py`` says why, with the figures in ``bench/RESULTS.md``).
To run gunicorn by hand with the same settings::

    gunicorn -c python:api.ops.gunicorn_conf 'api.ops.serving:worker_app()'

* **2 gthread workers x 4 threads**, as granian's 2 workers x 4 blocking threads: threads let a
  worker take the next request while others wait on the database, and batches that queue up
  in one worker while another writes go to disk together (group commit).
* **A 1 ms GIL switch interval** comes from :func:`api.ops.serving.worker_app`, which gunicorn
  loads in each worker after the fork, as granian does.
* **The keep-alive spread**: gunicorn drops the ``Connection`` header an app sets (so
  :class:`api.ops.serving.SpreadKeepAlive` has no effect here); :func:`pre_request` closes each
  connection after its :data:`api.ops.connections.KEEPALIVE_REQUESTS`-th response instead.
* **The body before the app**: :class:`api.ops.serving.WholeBody` reads each request's body before
  the app runs, as under granian; here it has no threads to spare (``threads`` are its app
  slots and gunicorn's only threads), so a slow client holds one of them.
* Facing the Internet, put a buffering proxy (nginx) in front of it, as of granian.
"""

from __future__ import annotations

from typing import Any

from api.ops.connections import GRACEFUL_TIMEOUT, KEEPALIVE_REQUESTS

worker_class = "gthread"
workers = 2
threads = 4
graceful_timeout = GRACEFUL_TIMEOUT
#: gunicorn's default access log line, with the path only (``%(U)s``: no query string, as
#: granian's) and without the referer and user agent.
access_log_format = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(M)sms'


def pre_request(worker: Any, req: Any) -> None:
    """Close the connection after this response if it is the connection's
    :data:`KEEPALIVE_REQUESTS`-th (gunicorn answers it with ``Connection: close``); and log the
    request at debug level, as gunicorn's own ``pre_request`` does."""
    worker.log.debug("%s %s", req.method, req.path)
    if req.req_number % KEEPALIVE_REQUESTS == 0:
        req.must_close = True

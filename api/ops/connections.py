"""How a worker's connections end, under granian (:mod:`api.ops.serving`) and gunicorn
(:mod:`api.ops.gunicorn_conf`) alike: both import these, neither the other."""

#: A worker closes the connection of every this-many-th response (:class:`SpreadKeepAlive`;
#: nginx's ``keepalive_requests`` default).
KEEPALIVE_REQUESTS = 1000
#: Seconds a worker may take to finish its requests in flight after SIGTERM.
GRACEFUL_TIMEOUT = 30

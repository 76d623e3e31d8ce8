"""The operator's endpoints: ``/healthz``, ``/readyz`` and ``/metrics``, all anonymous.

* ``GET /healthz`` -- the process is alive and answering: ``200 {"status": "ok"}``, without
  touching the database (a liveness probe must not fail because the database is slow: the
  process would be restarted for nothing).
* ``GET /readyz`` -- this instance can serve: the database answers a cheap query (the log's
  head, ``SELECT max(notification_id)``, bounded by ``EventStore.log_head``'s timeout), and the
  match histories' lag is reported (``{"status": "ready", "projections", "projection":
  {"position", "head", "lag"}, "max_lag"}``). ``503 storage/unavailable`` when the database
  does not answer, or this instance's last write was refused and a write probe still is
  (``EventStore.ensure_writable``); with ``MUNCHLOG_PROJECTIONS=worker`` and
  ``MUNCHLOG_READY_MAX_LAG`` set, ``503 projection/lagging`` when the lag is larger. (Inline, the lag is reported only: every
  history read catches up first, so no reader ever sees it.)
* ``GET /metrics`` -- Prometheus' text format (``api.ops.metrics``).

None of them reads a token (a bad ``Authorization`` header changes nothing) or names a game:
what they say is the same for anyone. ``/metrics`` says how busy the service is, by route; a
deployment that does not want that public routes only ``/api/`` and ``/games/`` from its proxy
(docs: README "Serving in production").
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Response, current_app, request
from flask.views import MethodView

from api.json_api.errors import StorageUnavailable, Unavailable
from api.json_api.routes.exports import history
from api.json_api.routes.games import ApiBlueprint
from api.ops.metrics import exposition
from service.histories import Lag
from service.mirrors import Mirrors

#: The OpenAPI ``security`` of an operation that reads no token at all.
NO_AUTH: list[dict[str, list[str]]] = []

blp = ApiBlueprint(
    "operations",
    __name__,
    description="For the operator: liveness, readiness and Prometheus metrics (anonymous).",
)


class HealthSchema(ma.Schema):
    status = ma.fields.String(required=True, metadata={"enum": ["ok"]})


class LagSchema(ma.Schema):
    position = ma.fields.Integer(
        required=True, metadata={"description": "the last notification the projection folded"}
    )
    head = ma.fields.Integer(required=True, metadata={"description": "the log's last one"})
    lag = ma.fields.Integer(required=True, metadata={"description": "head - position"})


class ReadySchema(ma.Schema):
    status = ma.fields.String(required=True, metadata={"enum": ["ready"]})
    projections = ma.fields.String(
        required=True,
        metadata={
            "enum": ["inline", "worker"],
            "description": "who folds the match histories (MUNCHLOG_PROJECTIONS)",
        },
    )
    projection = ma.fields.Nested(LagSchema, required=True)
    max_lag = ma.fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "MUNCHLOG_READY_MAX_LAG (null: the lag is not checked)"},
    )


def current_lag() -> Lag:
    """The match histories' :class:`~service.histories.Lag`; ``StorageUnavailable`` when the
    database does not answer (also when the projection's tables cannot be reached)."""
    try:
        return history().lag()
    except StorageUnavailable:
        raise
    except Exception as exc:
        # storage refusing (the projection's tables cannot be made on a read-only file, say):
        # the store notes it and opens new connections, so that it recovers by itself
        current_app.extensions["munchlog"].store.refusal(exc)
        raise StorageUnavailable(f"the database did not answer ({type(exc).__name__})") from exc


@blp.route("/healthz")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    @blp.doc(security=NO_AUTH)
    def get(self) -> dict[str, Any]:
        """Liveness: the process answers (no database access; anonymous)"""
        return {"status": "ok"}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.errors(503)
    @blp.response(200, ReadySchema)
    @blp.doc(security=NO_AUTH)
    def get(self) -> dict[str, Any]:
        """Readiness: the database answers; the match histories' lag (anonymous)

        503 `storage/unavailable` when the database does not answer in time, or when this
        instance's last write was refused by storage (a full disk, a read-only file) and a
        write probe is still refused (ready again once a write or the probe succeeds); 503
        `projection/lagging` when the histories are kept by `munchlog worker`
        (`MUNCHLOG_PROJECTIONS=worker`) and are more than `MUNCHLOG_READY_MAX_LAG`
        notifications behind the log.
        """
        lag = current_lag()
        current_app.extensions["munchlog"].store.ensure_writable()
        mode = current_app.config.get("MUNCHLOG_PROJECTIONS", "inline")
        max_lag = current_app.config.get("MUNCHLOG_READY_MAX_LAG")
        if mode == "worker" and max_lag is not None and lag.lag > max_lag:
            raise Unavailable(
                "projection/lagging",
                f"the match histories are {lag.lag} notifications behind the log "
                f"(position {lag.position}, head {lag.head}; MUNCHLOG_READY_MAX_LAG={max_lag})",
            )
        return {
            "status": "ready",
            "projections": mode,
            "projection": lag.as_dict(),
            "max_lag": max_lag,
        }


METRICS_RESPONSES = {
    "200": {
        "description": "Prometheus' text exposition format (OpenMetrics when asked for with "
        "Accept): requests by method, route template and status, their latency, batches, "
        "actions and events recorded, lost races and version conflicts, storage/damaged "
        "answers, and the match histories' position, the log's head and the lag",
        "content": {"text/plain": {"schema": {"type": "string"}}},
    }
}


@blp.route("/metrics")
class Metrics(MethodView):
    @blp.doc(security=NO_AUTH, responses=METRICS_RESPONSES)
    def get(self) -> Response:
        """Prometheus metrics (anonymous)"""
        mirrors = Mirrors(current_app.extensions["munchlog"]).all
        body, content_type = exposition(current_lag, request.headers.get("Accept"), mirrors)
        return Response(body, content_type=content_type)

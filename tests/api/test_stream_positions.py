"""Where a stream starts (issue #36 item 6): ``Last-Event-ID`` or ``?after=`` is an ASCII
version number, or the request is 400 ``request/invalid_query`` in the API's error shape -- at
the stream process and at the workers, whatever the string or the bytes.

Before: ``²`` passed ``str.isdigit`` and failed ``int`` (a plain-text 500 at the stream
process, a 500 at the workers) and ``int`` took the full-width digits one-two as 12."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.service.helpers import play_demo
from tests.streams import AsgiServer

pytestmark = pytest.mark.storage_agnostic

VERSION = rb"[ \t]*[0-9]{1,16}[ \t]*"
MAX_VERSION = 2**53 - 1
#: Strings and bytes that are versions, near-versions and anything at all.
TEXTS = st.one_of(
    st.from_regex(VERSION.decode(), fullmatch=True),
    st.text(alphabet="0123456789 \t+-_.²³¹\u0661\uff12\u0663\U0001d7d8e", max_size=6),
    st.text(max_size=12),
)
RAW = st.one_of(TEXTS.map(lambda s: s.encode("utf-8")), st.binary(max_size=12))
PROPERTY = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
STRANGE = [
    "²",
    "\uff11\uff12",
    "+1",
    "1_0",
    "\u0663",
    " ",
    "-0",
    "0x1",
    "1e3",
    "9" * 19,
    str(2**53),
    "\U0001d7d8",
]


def is_version(raw: bytes) -> bool:
    return re.fullmatch(VERSION, raw) is not None and int(raw) <= MAX_VERSION


@pytest.fixture
def streams(app: Flask) -> Iterator[AsgiServer]:
    server = AsgiServer(app, poll=0.01)
    yield server
    server.close()


@pytest.fixture
def gid(app: Flask) -> str:
    return str(play_demo(app.extensions["munchlog"], seed=3, max_actions=2).game_id)


def refused_400(status: int, content_type: str, body: str) -> None:
    assert status == 400, body
    assert content_type.startswith("application/json"), body
    error = json.loads(body)["error"]
    assert error["code"] == "request/invalid_query" and error["message"], error


def opened(streams: AsgiServer, gid: str, **kw: Any) -> None:
    stream = streams.request(f"/api/games/{gid}/stream", **kw)
    if stream.status == 200:
        stream.close()
        return
    stream.wait(lambda s: s.ended)
    refused_400(int(stream.status or 0), stream.headers.get("content-type", ""), stream.text)


# ---------------------------------------------------------------------------- the stream process


@PROPERTY
@given(raw=RAW)
@example(raw="²".encode())
@example(raw=b"\xb2")  # Last-Event-ID: \xb2, as the issue sent it
@example(raw="\uff11\uff12".encode())
def test_the_stream_process_takes_a_last_event_id_only_as_an_ascii_version(
    streams: AsgiServer, gid: str, raw: bytes
) -> None:
    stream = streams.request(f"/api/games/{gid}/stream", headers=[(b"last-event-id", raw)])
    if raw == b"" or is_version(raw):  # none (from the first event), or a version
        assert stream.status == 200, stream.text
        stream.close()
    else:
        stream.wait(lambda s: s.ended)
        refused_400(int(stream.status or 0), stream.headers["content-type"], stream.text)


@PROPERTY
@given(text=TEXTS)
@example(text="²")
@example(text="\uff11\uff12")
@example(text="")
def test_the_stream_process_takes_after_only_as_an_ascii_version(
    streams: AsgiServer, gid: str, text: str
) -> None:
    stream = streams.request(f"/api/games/{gid}/stream", query=f"after={quote(text)}")
    if is_version(text.encode("utf-8")):
        assert stream.status == 200, stream.text
        stream.close()
    else:
        stream.wait(lambda s: s.ended)
        refused_400(int(stream.status or 0), stream.headers["content-type"], stream.text)


# ---------------------------------------------------------------------------- the workers


@pytest.fixture
def redirecting(app: Flask) -> Iterator[FlaskClient]:
    """The workers' client, with a stream process known (the stream path answers 307)."""
    app.config["MUNCHLOG_STREAM_PORT"] = 8001
    yield app.test_client()
    app.config.pop("MUNCHLOG_STREAM_PORT")


@PROPERTY
@given(text=TEXTS)
@example(text="²")
@example(text="\uff11\uff12")
def test_the_workers_take_after_only_as_an_ascii_version(
    redirecting: FlaskClient, gid: str, text: str
) -> None:
    for path in (f"/api/games/{gid}/stream", f"/api/games/{gid}/events"):
        response = redirecting.get(f"{path}?after={quote(text)}")
        if is_version(text.encode("utf-8")):
            assert response.status_code in (200, 307), response.get_data(as_text=True)
        else:
            refused_400(
                response.status_code, response.content_type, response.get_data(as_text=True)
            )


@PROPERTY
@given(raw=RAW.filter(lambda b: not re.search(rb"[\r\n\x00]", b)))
@example(raw=b"\xb2")
@example(raw="\uff11\uff12".encode())
def test_the_workers_take_a_last_event_id_only_as_an_ascii_version(
    redirecting: FlaskClient, gid: str, raw: bytes
) -> None:
    header = raw.decode("latin-1")  # as a WSGI server hands it over
    response = redirecting.get(f"/api/games/{gid}/stream", headers={"Last-Event-ID": header})
    if raw == b"" or is_version(raw):
        assert response.status_code == 307, response.get_data(as_text=True)
        if is_version(raw):
            assert f"after={int(raw)}" in response.headers["Location"]
    else:
        refused_400(response.status_code, response.content_type, response.get_data(as_text=True))


@pytest.mark.parametrize("text", STRANGE)
def test_no_strange_number_is_a_position_anywhere(
    streams: AsgiServer, redirecting: FlaskClient, gid: str, text: str
) -> None:
    opened(streams, gid, query=f"after={quote(text)}")
    for path in (f"/api/games/{gid}/stream", f"/api/games/{gid}/events"):
        response = redirecting.get(f"{path}?after={quote(text)}")
        refused_400(response.status_code, response.content_type, response.get_data(as_text=True))

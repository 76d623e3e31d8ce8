"""The replay viewer's "follow live" (issue #26 item 3) in Debian's chromium, against a real
``munchlog serve`` (its stream process too): events recorded by another process appear without
a reload, the viewer standing on the last event moves to the new last one, the token never
appears in a URL the page requests, and every request stays on this server's two ports."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask

from api.app import create_app
from tests.api.test_streams import record_more
from tests.live import munchlog_serve
from tests.service.helpers import play_demo

pytestmark = pytest.mark.e2e

ORGANIZER = "e2e-follow-live-organizer"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("follow-live")
    with munchlog_serve(tmp, ORGANIZER) as (port, env):
        app: Flask = create_app(
            {"INSTANCE_PATH": str(tmp / "instance"), "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER}
        )
        try:
            yield {"port": port, "stream_port": env.stream_port, "app": app}
        finally:
            app.extensions["munchlog"].close()


def test_following_a_game_live_in_the_viewer(browser: Any, served: dict[str, Any]) -> None:
    app = served["app"]
    game = play_demo(app.extensions["munchlog"], seed=31, max_actions=6)
    gid, b = str(game.game_id), game.tokens["B"]
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    try:
        page.goto(f"http://127.0.0.1:{served['port']}/games/{gid}#token={b}&live=1")
        page.wait_for_selector("#live-status[data-state='live']")
        assert page.get_attribute("#follow", "aria-pressed") == "true"
        page.wait_for_selector(f'#version[data-version="{game.version}"]')
        current = record_more(app.test_client(), app, gid, game.tokens["table"], 5, seed=4)
        assert current > game.version
        # no reload: the timeline grows and the viewer, at the end, moves with it
        page.wait_for_selector(f'#version[data-version="{current}"]')
        assert page.locator("#last-version").inner_text() == str(current)
        # a viewer looking back stays where it is
        page.keyboard.press("Home")
        page.wait_for_selector('#version[data-version="1"]')
        later = record_more(app.test_client(), app, gid, game.tokens["table"], 3, seed=5)
        page.wait_for_selector(f"#last-version:text-is('{later}')")
        assert page.get_attribute("#version", "data-version") == "1"
        # stop following: the stream closes
        page.click("#follow")
        assert page.get_attribute("#follow", "aria-pressed") == "false"
        assert page.locator("#live-status").inner_text() == ""
    finally:
        context.close()
    ports = {served["port"], served["stream_port"]}
    assert all(urlsplit(u).port in ports for u in requested if u.startswith("http")), requested
    assert not [u for u in requested if b in u]
    assert any("/stream?ticket=" in u for u in requested)

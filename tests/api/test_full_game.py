"""What the store holds of a game's tokens (only their hashes), the organizer's included.

A complete game, what each seat sees, card ids and client times are use cases:
``tests/service/test_whole_game.py``."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.helpers import ORGANIZER_TOKEN, create_game

pytestmark = pytest.mark.storage_agnostic


def test_tokens_are_stored_only_as_hashes(app: Flask, client: FlaskClient) -> None:
    game = create_game(client)
    log = app.extensions["munchlog"]
    access = log.access(__import__("uuid").UUID(game["game_id"]))
    stored = repr(vars(access))
    for token in (game["table_token"], game["judge_token"], game["seats"]["A"]["token"]):
        assert token not in stored
    for notification in log.store.recorder.select_notifications(start=1, limit=100):
        blob = notification.state.decode("utf-8", "replace")
        for token in (game["table_token"], game["judge_token"], ORGANIZER_TOKEN):
            assert token not in blob

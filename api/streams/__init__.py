"""The stream process (``python -m api.streams.process``): a game's live events over
Server-Sent Events, in its own process beside the app, and its metrics."""

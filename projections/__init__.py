"""The read side: views, exports and histories, built only from events. Never imports api."""

"""JSON Schema pieces every family's card schema is built from (the kernel): a family
describes its cards for the OpenAPI document (``Family.card_components``) with these, and the
API registers them as ``components/schemas`` (``api.json_api.openapi.install``).

>>> ref("Card")
{'$ref': '#/components/schemas/Card'}
>>> text(10, "a name")["pattern"] == NO_NUL
True
"""

from __future__ import annotations

from typing import Any

#: No U+0000 (``api.json_api.inputs``), as a JSON Schema pattern (ECMA 262 and Python read it alike).
NO_NUL = "^[^\\x00]*$"


def ref(name: str) -> dict[str, str]:
    """A reference to the component ``name``."""
    return {"$ref": f"#/components/schemas/{name}"}


def text(max_length: int, description: str, **extra: Any) -> dict[str, Any]:
    """A string of at most ``max_length`` characters, without U+0000."""
    return {
        "type": "string",
        "maxLength": max_length,
        "pattern": NO_NUL,
        "description": description,
        **extra,
    }


def entry_of(*components: str) -> dict[str, Any]:
    """A seat's card entry: any of the card ``components`` (by name)."""
    return {"anyOf": [ref(name) for name in components]}

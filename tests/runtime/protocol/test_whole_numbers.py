"""A whole number a model writes as ``2.0`` is sent as ``2``: in a query, ``page=2.0`` (Mayan
answered "Invalid page."), and in a JSON body, where Go's and Java's integers refuse ``1.0``."""

from __future__ import annotations

from templates.runtime.protocol.arguments_text import whole_numbers


def test_whole_floats_become_integers_at_any_depth_and_others_stay() -> None:
    given = {"page": 2.0, "body": {"tag": 1.0, "ratio": 1.5, "ids": [3.0, 4], "name": "x"}}
    assert whole_numbers(given) == {
        "page": 2,
        "body": {"tag": 1, "ratio": 1.5, "ids": [3, 4], "name": "x"},
    }
    assert isinstance(whole_numbers(given)["page"], int)
    # what was given is not changed
    assert given["page"] == 2.0 and isinstance(given["page"], float)
    # beyond what an integer of 64 bits holds, a float stays a float
    assert isinstance(whole_numbers(1e30), float)
    assert whole_numbers(True) is True


def test_arguments_without_a_whole_float_are_returned_as_they_are() -> None:
    given = {"page": 2, "body": {"ids": [3, 4], "ratio": 1.5}}
    assert whole_numbers(given) is given

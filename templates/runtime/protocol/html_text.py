"""The words of an HTML page, for an error message: what a person would read on it.

An API behind a web framework answers some errors with a page (Django's and Rails' 500s, a proxy's
502): as markup, its first two thousand characters were script and styles, and its message never
reached the model (Mayan's "Server error: There's been an unexpected error"). ``page_text`` keeps
the title and the text of the body, without scripts, styles, templates and comments, whitespace
collapsed. Stdlib only (``html.parser``).
"""

from __future__ import annotations

from html.parser import HTMLParser

__all__ = ["page_text"]

# elements whose content is no text a person reads
_HIDDEN = frozenset({"script", "style", "template", "noscript", "svg", "head"})
# a table's cells, kept apart by a space
_CELLS = frozenset({"td", "th"})
# elements that end a line of text
_BLOCKS = frozenset(
    {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "title"}
)


class _Words(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title: list[str] = []
        self.words: list[str] = []
        self._hidden = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        elif tag in _HIDDEN:
            self._hidden += 1
        elif tag in _BLOCKS:
            self.words.append("\n")
        elif tag in _CELLS:
            self.words.append(" ")  # a table's cells apart (Netdata's data as html)

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag in _HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _BLOCKS:
            self.words.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title.append(data)
        elif not self._hidden:
            self.words.append(data.replace("\n", " "))  # lines are the blocks' own


def page_text(markup: str) -> str:
    """The title and the readable text of ``markup``, each line's whitespace collapsed."""
    parser = _Words()
    try:
        parser.feed(markup)
        parser.close()
    except (ValueError, AssertionError):  # markup the parser gives up on: shown as it came
        return markup
    lines = (" ".join(line.split()) for line in "".join(parser.words).split("\n"))
    body = [line for line in lines if line]
    title = " ".join("".join(parser.title).split())
    if title and body and body[0] == title:
        body = body[1:]
    return " | ".join([title, *body] if title else body)

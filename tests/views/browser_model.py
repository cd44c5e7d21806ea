"""A model of what the browser shows in a page's widgets, run after run (for AppTest).

AppTest reads a widget's value from session state, so it always sees the value the
page uses. The browser shows a widget's value only when the run sent it (the
proto's ``set_value``); a widget it already shows keeps what it showed (or what the
user set), and a newly drawn one shows its default. :class:`Browser` follows
those rules from the protos of each run, so a test (or the random walk) can
check after every run that what the browser shows is what the page uses.
"""

from __future__ import annotations


def _label(w) -> str:
    return f"{w.type} {w.label!r}"


class Browser:
    """What a browser would show for the main area's widgets, run after run."""

    KINDS = ("number_input", "slider", "selectbox", "radio", "checkbox", "toggle")

    def __init__(self) -> None:
        self.shown: dict[str, object] = {}

    @staticmethod
    def _from_proto(w, sent: bool):
        p = w.proto
        if w.type == "number_input":
            if sent:
                return p.value if p.HasField("value") else None
            return p.default if p.HasField("default") else None
        if w.type == "slider":
            return [float(x) for x in (p.value if sent else p.default)]
        if w.type in ("selectbox", "radio"):
            if sent:
                return p.raw_value if p.HasField("raw_value") else None
            return p.options[p.default] if p.HasField("default") else None
        return bool(p.value if sent else p.default)  # checkbox, toggle

    @staticmethod
    def used(w):
        """The value the page uses, as the browser would show it."""
        v = w.value
        if w.type == "slider":
            return [float(x) for x in (v if isinstance(v, tuple | list) else [v])]
        if w.type in ("selectbox", "radio"):
            return None if v is None else w.options[w.index]
        return v

    def widgets(self, at):
        for kind in self.KINDS:
            yield from getattr(at.main, kind)

    def after_run(self, at) -> None:
        """Update what is shown from the protos of the run that just ended."""
        shown = {}
        for w in self.widgets(at):
            if w.proto.set_value:
                shown[w.id] = self._from_proto(w, sent=True)
            elif w.id in self.shown:
                shown[w.id] = self.shown[w.id]
            else:
                shown[w.id] = self._from_proto(w, sent=False)
        self.shown = shown

    def user_sets(self, w, value) -> None:
        """The user puts ``value`` in widget ``w`` (call before the run it starts)."""
        w.set_value(value)
        self.shown[w.id] = self.used(w)

    def differences(self, at) -> list[str]:
        return [
            f"{_label(w)}: shows {self.shown[w.id]!r}, the page uses {self.used(w)!r}"
            for w in self.widgets(at)
            if self.shown[w.id] != self.used(w)
        ]

"""Transitional: names moved from a family module to :mod:`metrics.explain` keep their old path.

The app imported teaching helpers as ``metrics.curves.auc_pairs`` and the
like; each family module forwards the names of its ``_MOVED`` dict to their
new module through a module ``__getattr__`` built here, imported lazily
(the explain modules import the family modules, so no import cycle). The
app's imports move to the ``metrics`` names; remove this module after.
"""

from __future__ import annotations

import importlib

__all__ = ["forward_moved"]


def forward_moved(module_name: str, moved: dict[str, str]):
    """A module ``__getattr__`` that looks ``moved``'s names up in their new modules.

    Parameters
    ----------
    module_name : str
        The family module's ``__name__`` (for the error message).
    moved : dict of str to str
        Old name -> the dotted name of the module that now holds it.

    Returns
    -------
    callable
        ``__getattr__(name)``: the moved object, or AttributeError.

    Examples
    --------
    >>> getattr_ = forward_moved("old", {"sqrt": "math"})
    >>> getattr_("sqrt")(9.0)
    3.0
    >>> getattr_("cbrt")
    Traceback (most recent call last):
    ...
    AttributeError: module 'old' has no attribute 'cbrt'
    """

    def __getattr__(name: str):
        target = moved.get(name)
        if target is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        return getattr(importlib.import_module(target), name)

    return __getattr__

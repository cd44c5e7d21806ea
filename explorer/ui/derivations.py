"""Draw headline numbers derived on screen (:class:`explorer.derivation.Derivation`).

One way for every page: each derivation's LaTeX lines (``st.latex``), then its caption
``"<name>: <note>."`` when it has a note, both written as text (:func:`literal`): they
may quote a visitor's group label, sample id or refused value. While "Predict, then
reveal" hides the headline numbers, the lines (which end in those numbers) wait for
the Reveal too, as :func:`explorer.ui.classroom.derivations_hidden` says.
"""

from __future__ import annotations

from collections.abc import Iterable

import streamlit as st

from explorer.derivation import Derivation
from explorer.formatting import literal
from explorer.ui import classroom, report
from explorer.ui.language import t


def show(
    derivations: Iterable[Derivation],
    *,
    formulas: bool = False,
    warn_undefined: bool = False,
    where=None,
    wait_for_reveal: bool = True,
    hidden_note: bool = True,
) -> bool:
    """Draw ``derivations`` in order, each its lines and its caption.

    Parameters
    ----------
    derivations : iterable of Derivation
    formulas : bool
        Draw each derivation's general formula (when it has one) before its numbers.
    warn_undefined : bool
        A derivation with no line (its number is undefined) says why in an
        ``st.warning`` (``"<name>: <note>"``) rather than a caption.
    where : container, optional
        Where to draw (a column, an expander); the page's main area by default.
    wait_for_reveal : bool
        False for lines that end in no headline number (one class's AUC): they are
        drawn while the headline numbers are hidden too.
    hidden_note : bool
        While the numbers are hidden, say so with
        :func:`~explorer.ui.classroom.derivations_hidden`'s caption; pass False when
        the page has said it already for this part of the page.

    Returns
    -------
    bool
        Whether the derivations were drawn (False while "Predict, then reveal" hides
        the numbers).
    """
    if wait_for_reveal and not classroom.numbers_shown():
        if hidden_note:
            classroom.derivations_hidden(where)
        return False
    out = st if where is None else where
    for d in derivations:
        report.derivation(d, formulas)
        if formulas and d.formula:
            out.latex(d.formula)
        for line in d.lines:
            out.latex(line)
        if not d.note:
            continue
        # a name or note may quote the visitor's text (a group, a sample id, a refusal)
        name, note = literal(t(d.name)), literal(t(d.note))
        if warn_undefined and not d.lines:
            out.warning(t("${name}: ${note}", name=name, note=note))
        else:
            out.caption(t("${name}: ${note}.", name=name, note=note))
    return True

"""A scenario's effect beside it (:mod:`explorer.scenario_effects`): what changes, and
its numbers before and after side by side with the difference, shown as "?" while
"Predict, then reveal" hides the numbers."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer import scenario_effects
from explorer.formatting import short
from explorer.scenarios import Scenario
from explorer.ui import classroom
from explorer.ui.language import t


def signed(value: float) -> str:
    """A difference with its sign (``+0.25``, ``-3.869``, ``0``).

    Examples
    --------
    >>> signed(0.25), signed(-3.8685), signed(0.0)
    ('+0.25', '-3.869', '0')
    """
    return ("+" if value > 0 else "") + short(value)


def table(effect: scenario_effects.Effect, shown: bool) -> pd.DataFrame:
    """The effect's rows: the number, before, after and the difference, as text ("?"
    for each value while ``shown`` is False).

    Examples
    --------
    >>> e = scenario_effects.effect("dcg-top2")
    >>> table(e, True).values.tolist()
    [['DCG of row 0', '9.499', '5.631', '-3.869']]
    >>> table(e, False).values.tolist()
    [['DCG of row 0', '?', '?', '?']]
    """
    rows = [
        (t(r.metric), short(r.before), short(r.after), signed(r.difference))
        if shown
        else (t(r.metric), "?", "?", "?")
        for r in effect.rows
    ]
    before = t("before: ${side}", side=t(effect.before))
    after = t("after: ${side}", side=t(effect.after))
    return pd.DataFrame(rows, columns=["", before, after, t("difference")])


def show(sc: Scenario) -> None:
    """The effect of the scenario ``sc`` this page was opened on."""
    effect = scenario_effects.effect(sc.id)
    shown = classroom.numbers_shown()
    with st.container(border=True):
        changes = t(effect.changes)
        st.markdown(
            t("**Scenario: what changes.** ${changes}.", changes=changes[0].upper() + changes[1:])
        )
        st.dataframe(table(effect, shown), hide_index=True, width="stretch", key="scenario_effect")
        if effect.note and shown:
            st.caption(t("Why: ${note}.", note=t(effect.note)))
        elif not shown:
            st.caption(t("The numbers before and after, and why, come with Reveal."))

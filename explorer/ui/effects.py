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
        (r.metric, short(r.before), short(r.after), signed(r.difference))
        if shown
        else (r.metric, "?", "?", "?")
        for r in effect.rows
    ]
    return pd.DataFrame(
        rows, columns=["", f"before: {effect.before}", f"after: {effect.after}", "difference"]
    )


def show(sc: Scenario) -> None:
    """The effect of the scenario ``sc`` this page was opened on."""
    effect = scenario_effects.effect(sc.id)
    shown = classroom.numbers_shown()
    with st.container(border=True):
        st.markdown(f"**Scenario: what changes.** {effect.changes[0].upper()}{effect.changes[1:]}.")
        st.dataframe(table(effect, shown), hide_index=True, width="stretch", key="scenario_effect")
        if effect.note and shown:
            st.caption(f"Why: {effect.note}.")
        elif not shown:
            st.caption("The numbers before and after, and why, come with Reveal.")

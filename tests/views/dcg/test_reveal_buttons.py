"""Predict, then reveal on the DCG page: the worked-example buttons of
scikit-learn's dcg_score examples name their numbers ("Open 7.5") only once the
numbers are revealed; while the class guesses they say "Open example 3"."""

from __future__ import annotations

import metrics
from explorer.formatting import fmt
from explorer.pages.dcg_examples import SEED, SEED_EXAMPLES
from explorer.registry import script
from explorer.samples import load_sample
from tests.conftest import open_page


def _values() -> list[float]:
    """Each example's DCG, from metrics (one row, its k, its tie rule)."""
    ds = load_sample(SEED)
    y, s = ds.y_true, ds.score()
    return [
        metrics.dcg_score(y[row : row + 1], s[row : row + 1], k=k, ignore_ties=ties)
        for _, row, k, ties in SEED_EXAMPLES
    ]


def _examples(at) -> tuple[list[str], str]:
    """The example buttons' labels, and the lines beside them ("(row 1, k=1): ...")."""
    keys = [f"dcg_seed_example_{i}" for i in range(len(SEED_EXAMPLES))]
    labels = [at.button(key=k).label for k in keys]
    beside = [m.value for m in at.main.markdown if "** (row " in m.value]
    assert len(beside) == len(keys)
    return labels, "\n".join(beside)


def test_example_buttons_give_no_number_away_until_reveal():
    values = _values()
    assert [round(v, 3) for v in values] == [9.499, 5.631, 7.5, 5.0]  # the docstring's
    plain = open_page(script("dcg"), SEED)
    labels, text = _examples(plain)
    assert labels == [f"Open {printed}" for printed, *_ in SEED_EXAMPLES]
    assert all(f"**{fmt(v)}**" in text for v in values)

    at = open_page(script("dcg"), SEED, reveal="0")
    labels, text = _examples(at)
    assert labels == [f"Open example {i + 1}" for i in range(len(SEED_EXAMPLES))]
    for (printed, *_), v in zip(SEED_EXAMPLES, values, strict=True):
        assert printed not in " ".join(labels)
        assert fmt(v) not in text
    at.button(key="dcg_reveal").click().run()
    assert _examples(at) == _examples(plain)

    at.button(key="dcg_seed_example_2").click().run()  # opening one is a new view: hidden
    assert not at.exception
    assert _examples(at)[0][2] == "Open example 3"


def _on_screen(at) -> str:
    """Every text the page shows: markdown, captions, formulas, metrics, picker options."""
    parts = [m.value for m in at.main.markdown] + [c.value for c in at.main.caption]
    parts += [x.value for x in at.main.latex] + [str(m.value) for m in at.main.metric]
    parts += [str(o) for sb in at.main.selectbox for o in sb.options]
    return "\n".join(parts)


def test_an_opened_example_shows_no_sample_number_until_reveal():
    """Example 3 ("7.5": row 1 at k = 1, ties averaged) opened while the class guesses:
    the drill-down's derivation, its tie values and the picker's NDCGs wait for Reveal;
    after Reveal the derivation ends in metrics' value."""
    at = open_page(script("dcg"), SEED, reveal="0")
    at.button(key="dcg_seed_example_2").click().run()
    assert not at.exception and at.number_input(key="dcg_k").value == 1
    text = _on_screen(at)
    assert "7.5" not in text and "NDCG 0." not in text and "NDCG 1" not in text
    assert not [m for m in at.main.metric if "of this sample" in m.label]
    assert "The derivations of the numbers appear with them, after Reveal." in text
    # the scenario list's notes ("averaging their gains gives 7.5") wait as well
    assert "Watch: " not in text and "not shown while Predict, then reveal is on" in text
    at.button(key="dcg_reveal").click().run()
    ds = load_sample(SEED)
    value = metrics.dcg_score(ds.y_true[1:2], ds.score()[1:2], k=1)
    (dcg,) = [m.value for m in at.main.metric if m.label == "DCG of this sample"]
    assert dcg == fmt(value) and value == 7.5

"""Links reproduce the view (AppTest): exact settings, what-if edits, notices, "Copy link"."""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from explorer.datasets import Dataset
from explorer.formatting import literal
from explorer.links import decode_dataset, encode_dataset, fits_in_link
from explorer.registry import script
from explorer.samples import load_sample
from tests.conftest import APP, numbered_selectbox, rendered


def _value(v):
    return v[0] if isinstance(v, list) else v


def params(at: AppTest) -> dict[str, str]:
    return {k: _value(at.query_params[k]) for k in at.query_params}


def metrics_of(at: AppTest) -> list[tuple[str, str, str | None]]:
    return [(m.label, m.value, m.delta) for m in at.metric]


def open_app(page: str | None = None, sample: str | None = None, **query) -> AppTest:
    """A new session opening ``page`` (Home by default) at ``?ds=<sample>&<query>``."""
    at = AppTest.from_file(APP, default_timeout=30)
    if sample:
        at.query_params["ds"] = sample
    for k, v in query.items():
        at.query_params[k] = v
    if page:
        at.switch_page(page)
    at.run()
    assert not at.exception
    return at


def fresh_session(at: AppTest, page: str) -> AppTest:
    """A new browser session opening ``page`` with ``at``'s query parameters."""
    new = AppTest.from_file(APP, default_timeout=30)
    for k, v in params(at).items():
        new.query_params[k] = v
    new.switch_page(page).run()
    assert not new.exception
    return new


def copied_links(at: AppTest) -> list[str]:
    return [c.value for c in at.code if "?" in c.value]


# ---------------------------------------------------------------- exact settings
def test_a_large_outlier_shift_comes_back_exactly_in_a_fresh_session():
    page = script("regression")
    at = open_app(page, "diabetes")
    numbered_selectbox(at, "reg_outlier_sample").set_value(7).run()
    at.number_input(key="reg_outlier_shift").set_value(123456.789012345).run()
    at.number_input(key="reg_rmsle_demo_true").set_value(100.123456789).run()
    at.number_input(key="reg_rmsle_demo_gap").set_value(30.000000001).run()
    assert not at.exception
    assert params(at)["shift"] == "123456.789012345"
    fresh = fresh_session(at, page)
    assert fresh.session_state["reg_outlier_shift"] == 123456.789012345
    assert fresh.session_state["reg_rmsle_demo_true"] == 100.123456789
    assert fresh.session_state["reg_rmsle_demo_gap"] == 30.000000001
    assert metrics_of(fresh) == metrics_of(at)
    assert len(metrics_of(at)) >= 11


def test_round_settings_keep_their_short_form_in_the_url():
    at = open_app(script("regression"), "diabetes")
    at.number_input(key="reg_outlier_shift").set_value(400.0).run()
    assert params(at)["shift"] == "400"
    assert params(at)["rt"] == "200"


def test_multilabel_threshold_and_beta_come_back_exactly():
    page = script("multilabel")
    at = open_app(page, "digit_properties")
    at.number_input(key="ml_beta").set_value(1.2345678912345).run()
    at.session_state["ml_threshold"] = 0.30000000000000004  # a float a slider can hold
    at.run()
    assert not at.exception
    assert params(at)["t"] == "0.30000000000000004"
    fresh = fresh_session(at, page)
    assert fresh.session_state["ml_threshold"] == 0.30000000000000004
    assert fresh.session_state["ml_beta"] == 1.2345678912345
    assert metrics_of(fresh) == metrics_of(at)


# ---------------------------------------------------------------- what-if edits
LR = script("label_ranking")


def _edit(at: AppTest, cells: dict) -> None:
    at.session_state["lr_whatif_scores"] = {
        "edited_rows": {0: cells},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception


def lrap(at: AppTest) -> str:
    return next(m.value for m in at.metric if m.label == "LRAP")


def test_a_whatif_edit_travels_in_the_link():
    at = open_app(LR, "seed003_lrap")
    before = metrics_of(at)
    assert lrap(at) == "0.7778"
    _edit(at, {"human": 0.4})  # sample 0's true label drops to rank 3
    assert lrap(at) == "0.7222"
    assert params(at)["wi"] == "0:0=0.4"
    fresh = fresh_session(at, LR)
    assert lrap(fresh) == "0.7222"
    assert metrics_of(fresh) == metrics_of(at) != before
    assert any("what-if" in rendered(i.value) for i in fresh.info)
    # the seeded edit is the editor's data: Reset goes back to the model's scores
    fresh.button(key="lr_whatif_reset").click().run()
    assert not fresh.exception
    assert metrics_of(fresh) == before
    assert "wi" not in params(fresh)


def test_a_whatif_edit_travels_exactly():
    """0.1 + 0.2 beats 0.3: rounded to 0.3 the two labels would tie (LRAP 0.7222)."""
    at = open_app(LR, "seed003_lrap", i="0")
    _edit(at, {"cat": 0.3, "human": 0.1 + 0.2})
    assert params(at)["wi"] == "0:0=0.30000000000000004,1=0.3"
    assert lrap(at) == "0.7778" and metric_value(at, "Sample LRAP") == "0.5000"
    fresh = fresh_session(at, LR)
    assert metrics_of(fresh) == metrics_of(at)
    assert metric_value(fresh, "Sample LRAP") == "0.5000"


def metric_value(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_undoing_the_edit_drops_it_from_the_link():
    at = open_app(LR, "seed003_lrap")
    _edit(at, {"human": 2.0})
    assert params(at)["wi"] == "0:0=2"
    _edit(at, {"human": 0.75})  # the model's own score
    assert "wi" not in params(at)


def test_a_whatif_edit_follows_the_sample_it_was_made_on():
    at = open_app(LR, "seed003_lrap", i="0", wi="0:0=0.4")
    assert lrap(at) == "0.7222"
    numbered_selectbox(at, "lr_sample").set_value(2).run()
    assert not at.exception
    assert "wi" not in params(at)
    assert lrap(at) == "0.7778"
    numbered_selectbox(at, "lr_sample").set_value(0).run()  # the link's edit is gone for good
    assert lrap(at) == "0.7778"


@pytest.mark.parametrize(
    "wi",
    [
        "junk",
        "1:",
        "1:2",
        "1:2=x",
        "1:2=nan",
        "1:2=inf",
        "1:9=0.5",
        "1:-1=0.5",
        "7:0=0.5",
        "1:0=1,0=2",
        "x:0=1",
        "1:0=1e999",
        "2:0=0.5",
    ],  # fmt: skip
)
def test_a_malformed_whatif_param_is_ignored_with_a_notice(wi):
    at = open_app(LR, "seed003_lrap", i="1", wi=wi)
    assert not at.exception
    assert any("what-if" in w.value and "ignored" in rendered(w.value) for w in at.warning)
    assert lrap(at) == "0.7778"
    assert "wi" not in params(at)


def test_a_whatif_edit_of_a_shared_dataset_travels_with_it():
    """An edit on a dataset that itself travels in the link (data=)."""
    y = np.array([[1, 0, 0], [1, 0, 1], [1, 1, 0]])
    s = np.array([[0.75, 0.5, 1], [1, 0.2, 0.1], [0.9, 0.7, 0.6]]) / 3
    ds = Dataset("thirds", "multilabel", y, {"m": s}, label_names=("a", "b", "c"))
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["data"] = encode_dataset(ds)
    at.switch_page(LR).run()
    assert not at.exception
    _edit(at, {"c": 0.1 + 0.2})
    fresh = fresh_session(at, LR)
    assert metrics_of(fresh) == metrics_of(at)
    assert params(fresh)["wi"] == "0:2=0.30000000000000004"


# ---------------------------------------------------------------- unknown or damaged links
def test_an_unknown_sample_name_is_named_in_a_notice():
    at = open_app(ds="nonexistent")
    assert any(
        "'nonexistent'" in rendered(w.value) and "balanced" in rendered(w.value) for w in at.warning
    )
    assert at.session_state["active_dataset"] == "balanced"
    assert params(at)["ds"] == "balanced"


HOSTILE = "![x](http://attacker.example/p)\n\n<img src=x onerror=alert(1)> :red[2**53]"


def test_a_hostile_sample_name_in_a_link_is_quoted_as_text():
    at = open_app(ds=HOSTILE)
    (notice,) = [w.value for w in at.warning if "does not exist" in w.value]
    assert literal(repr(HOSTILE)) in notice  # escaped where it is placed
    assert repr(HOSTILE) in rendered(notice)  # and it reads as the link wrote it
    for syntax in ("![", "](", "<img", ":red[", "**", "\n\n"):
        assert syntax not in notice, syntax


def test_a_hostile_dataset_in_a_link_is_named_as_text():
    y = np.array([[1.0, 0.0], [0.0, 1.0]])
    s = np.array([[0.8, 0.3], [0.4, 0.9]])
    ds = Dataset(HOSTILE, "multilabel", y, {HOSTILE + " m": s}, label_names=("<b>a</b>", "*b*"))
    at = open_app(data=encode_dataset(ds))
    assert at.subheader[0].value == f"Active dataset: {literal(HOSTILE)}"
    assert any(f"model(s): {literal(HOSTILE + ' m')}" in c.value for c in at.caption)
    at.switch_page(script("curves")).run()  # the wrong-kind notice names it too
    assert f"**{literal(HOSTILE)}**" in at.info[0].value


def test_an_unknown_sample_on_another_page_is_named_too():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["ds"] = "seed999"
    at.switch_page(script("regression")).run()
    assert not at.exception
    assert any("'seed999'" in rendered(w.value) for w in at.warning)


def test_a_damaged_data_link_still_says_so():
    at = open_app(data="garbage")
    assert "damaged" in rendered(at.error[0].value)
    assert at.session_state["active_dataset"] == "balanced"


def test_a_link_dataset_named_like_a_sample_does_not_replace_the_sample():
    mine = Dataset("balanced", "binary", np.array([0, 1, 1]), {"m": np.array([0.2, 0.1, 0.9])})
    at = open_app(ds="balanced", data=encode_dataset(mine))
    assert at.session_state["active_dataset"] == "balanced (link)"
    assert at.metric[0].label == "ROC AUC" and at.metric[0].value == "0.5000"
    options = at.selectbox(key="dataset_picker").options
    assert len(options) == len(set(options))
    at.selectbox(key="dataset_picker").set_value("balanced").run()
    sample = load_sample("balanced")
    assert at.session_state["session_datasets"]["balanced (link)"].n_samples == 3
    assert at.metric[0].value != "0.5000"
    assert params(at)["ds"] == "balanced" and "data" not in params(at)
    assert sample.n_samples == 200


# ---------------------------------------------------------------- "Copy link" on every page
def _big() -> Dataset:
    rng = np.random.default_rng(0)
    n = 3000
    ds = Dataset("big.csv", "binary", (rng.random(n) < 0.4).astype(float), {"m": rng.random(n)})
    assert not fits_in_link(ds)
    return ds


@pytest.mark.parametrize("page", [script("home"), script("curves"), script("regression")])
def test_every_page_says_when_the_address_holds_no_dataset(page):
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state["session_datasets"] = {"big.csv": _big()}
    at.session_state["active_dataset"] = "big.csv"
    at.switch_page(page).run()
    assert not at.exception
    notes = [rendered(w.value) for w in at.warning if "does not hold the dataset" in w.value]
    assert len(notes) == 1 and "big.csv" in notes[0]
    links = copied_links(at)
    assert links and all("data=" not in link for link in links)


@pytest.mark.parametrize(("page", "sample"), [(script("home"), None), (script("curves"), None)])
def test_a_shareable_view_offers_its_link_quietly(page, sample):
    at = open_app(page, sample)
    assert not [w for w in at.warning if "does not hold" in w.value]
    (link,) = set(copied_links(at))
    assert link.endswith("?" + "&".join(f"{k}={v}" for k, v in params(at).items()))
    assert "ds=balanced" in link


def test_the_copied_link_holds_an_upload_and_the_page_settings():
    at = AppTest.from_file(APP, default_timeout=30)
    small = Dataset(
        "mine.csv", "binary", np.array([0, 1, 0, 1]), {"m": np.array([0.3, 0.1 + 0.2, 0.9, 0.2])}
    )
    at.session_state["session_datasets"] = {"mine.csv": small}
    at.session_state["active_dataset"] = "mine.csv"
    at.switch_page(script("curves")).run()
    assert not at.exception
    (link,) = set(copied_links(at))
    assert "data=" in link and "t=" in link
    token = params(at)["data"]
    back = decode_dataset(token)
    assert back.score().tobytes() == small.score().tobytes()

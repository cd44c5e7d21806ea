"""Widget state that cannot go stale, in AppTest.

Each page owns its keys (``dcg_k`` is not ``ret_k``), a page change drops the
other pages' keys and the URL's page settings, a dataset change drops every
page's, values from the URL or session state are checked against the dataset,
and a select box whose labels show numbers is redrawn when they change.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer import registry
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from explorer.ui import navigation, session, sidebar
from tests.conftest import APP, numbered_selectbox, rendered
from tests.views.browser_model import Browser

DCG, RET = script("dcg"), script("retrieval")


def metrics_of(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def open_page(sample: str, page: str, **params) -> AppTest:
    """A fresh session: the app opened on ``sample``, then ``page``."""
    at = AppTest.from_file(APP, default_timeout=30)
    if params:  # a link names its dataset
        at.query_params["ds"] = sample
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    if at.session_state["active_dataset"] != sample:
        at.selectbox(key="dataset_picker").set_value(sample).run()
    at.switch_page(page).run()
    assert not at.exception
    return at


def sidebar_click(at, page: str) -> None:
    """Go to ``page`` as a sidebar click does in the browser: without the query params."""
    at.query_params.clear()
    at.switch_page(page).run()


def page_keys(at, prefix: str) -> list[str]:
    return [k for k in at.session_state.keys() if k.startswith(prefix)]


def test_every_page_has_its_own_prefix():
    prefixes = list(registry.PREFIXES)
    assert len(set(prefixes)) == len(prefixes)
    for p in prefixes:  # no prefix starts another, and none starts a global key
        assert not any(q != p and q.startswith(p) for q in prefixes)
        for key in (
            session.ACTIVE,
            session.SESSION,
            sidebar.PICKER,
            navigation.PAGE,
            session.LINK_ERROR,
        ):
            assert not key.startswith(p)


@pytest.mark.parametrize("drop_params", [True, False], ids=["browser", "apptest"])
def test_dcg_with_k_all_then_retrieval_shows_a_fresh_retrieval_page(drop_params):
    """Retrieval crashed on int(None): DCG's k (None = all) was its k too."""
    at = open_page("diabetes_ranking", DCG)
    assert at.number_input(key="dcg_k").value is None and at.query_params["k"] == "all"
    if drop_params:
        sidebar_click(at, RET)
    else:  # AppTest keeps the query params on switch_page: the page change drops them
        at.switch_page(RET).run()
    assert not at.exception
    fresh = open_page("diabetes_ranking", RET)
    assert metrics_of(at) == metrics_of(fresh)
    ds = load_sample("diabetes_ranking")
    assert metrics_of(at)["P@K"] == fmt(metrics.precision_at_k(ds.y_true, ds.score(), k=5))
    assert at.slider(key="ret_k").value == 5 and at.query_params["k"] == "5"
    assert page_keys(at, "dcg_") == []


def test_retrieval_k1_then_dcg_shows_a_fresh_dcg_page():
    """DCG opened with retrieval's k = 1 (0.5000 where a fresh page shows 1.474)."""
    at = open_page("diabetes_ranking", RET)
    at.slider(key="ret_k").set_value(1).run()
    assert at.query_params["k"] == "1"
    sidebar_click(at, DCG)
    assert not at.exception
    fresh = open_page("diabetes_ranking", DCG)
    assert metrics_of(at) == metrics_of(fresh)
    ds = load_sample("diabetes_ranking")
    assert metrics_of(at)["NDCG"] == fmt(metrics.ndcg_score(ds.y_true, ds.score()))
    assert at.number_input(key="dcg_k").value is None and at.query_params["k"] == "all"
    assert page_keys(at, "ret_") == []


def test_dataset_switch_drops_the_page_params_and_keys():
    at = open_page("diabetes_ranking", DCG)
    at.number_input(key="dcg_k").set_value(2).run()
    at.toggle(key="dcg_ignore_ties").set_value(True).run()
    at.selectbox(key="dcg_model").set_value("tree").run()
    numbered_selectbox(at, "dcg_sample").set_value(7).run()
    assert at.query_params["model"] == "tree" and at.query_params["sample"] != "0"
    at.selectbox(key="dataset_picker").set_value("seed001_dcg").run()
    assert not at.exception
    # the URL and the page now hold the new dataset's defaults, not diabetes' settings
    fresh = open_page("seed001_dcg", DCG)
    assert metrics_of(at) == metrics_of(fresh)
    assert dict(at.query_params) == dict(fresh.query_params)
    assert at.query_params["k"] == "all" and at.query_params["ignore_ties"] == "0"


def test_dataset_switch_leaves_only_the_dataset_in_the_url():
    """The picker's callback drops every page setting (the page then writes its own)."""
    at = open_page("diabetes_ranking", RET)
    at.slider(key="ret_k").set_value(3).run()
    at.query_params["stale"] = "1"
    at.selectbox(key="dataset_picker").set_value("balanced").run()  # a page without settings
    assert not at.exception
    at.switch_page(script("home")).run()
    assert dict(at.query_params) == {"ds": "balanced"}
    assert page_keys(at, "ret_") == []


def test_open_7_5_toggle_ties_and_back_follows_the_sample_label():
    """Seed 001's tied example: 7.5, ignore ties 5.0, back 7.5; the label follows."""
    at = open_page("seed001_dcg", DCG)
    at.button(key="dcg_seed_example_2").click().run()
    for ties, want in ((None, "7.500"), (True, "5"), (False, "7.500")):
        if ties is not None:
            at.toggle(key="dcg_ignore_ties").set_value(ties).run()
        assert not at.exception
        shown = metrics_of(at)
        assert shown["DCG of this sample"] == want
        box = numbered_selectbox(at, "dcg_sample")
        assert box.value == 1
        assert box.options[box.index] == f"1 (NDCG {shown['NDCG of this sample']})"
    assert at.session_state["dcg_sample"] == 1


def test_k2_then_k3_and_exponential_gain_keep_the_label_fresh():
    at = open_page("seed001_dcg", DCG)
    ds = load_sample("seed001_dcg")
    numbered_selectbox(at, "dcg_sample").set_value(1).run()
    keys = set()
    for change in (("k", 2), ("k", 3), ("gain", "2^rel - 1"), ("ties", True)):
        if change[0] == "k":
            at.number_input(key="dcg_k").set_value(change[1]).run()
        elif change[0] == "gain":
            at.radio(key="dcg_gain").set_value(change[1]).run()
        else:
            at.toggle(key="dcg_ignore_ties").set_value(change[1]).run()
        assert not at.exception
        box = numbered_selectbox(at, "dcg_sample")
        keys.add(box.key)
        assert box.value == 1
        assert box.options[box.index] == f"1 (NDCG {metrics_of(at)['NDCG of this sample']})"
    assert len(keys) == 4  # each change of the numbers drew a fresh widget
    k3 = metrics.ndcg_score(ds.y_true[1:2], ds.score()[1:2], k=3)
    assert metrics_of(at)["NDCG of this sample"] != fmt(k3)  # gain and ties moved it


def test_table_row_click_reaches_the_numbered_select_box():
    at = open_page("seed001_dcg", DCG)
    at.session_state["dcg_sample"] = 1  # what the per-sample table's row click writes
    at.run()
    assert numbered_selectbox(at, "dcg_sample").value == 1
    ds = load_sample("seed001_dcg")
    row_dcg = metrics.dcg_per_sample(ds.y_true, ds.score())[1]
    assert metrics_of(at)["DCG of this sample"] == fmt(row_dcg)


@pytest.mark.parametrize(
    ("page", "sample", "params"),
    [
        (DCG, "diabetes_ranking", {"k": "999", "sample": "nope", "model": "x", "log_base": "0"}),
        (DCG, "diabetes_ranking", {"k": "-3", "gain": "?", "ignore_ties": "maybe"}),
        (RET, "diabetes_ranking", {"k": "999", "model": "x", "query": "nope", "rel_level": "0"}),
        (RET, "diabetes_ranking", {"k": "all", "max_grade": "-1", "preset": "sklearn"}),
        (script("label_ranking"), "seed003_lrap", {"i": "999", "page": "0", "sort": "x"}),
        (script("multilabel"), "digit_properties", {"t": "99", "k": "0", "label": "?"}),
        (script("multilabel"), "digit_properties", {"rule": "top_k", "k": "x", "sample": "?"}),
        (script("regression"), "diabetes", {"outlier": "-1", "shift": "inf", "rt": "x"}),
        (script("compare"), "digit_properties", {"a": "nope", "b": "9"}),
        (script("curves"), "balanced", {"t": "nan", "bins": "0", "cbins": "999", "opt": "?"}),
        (
            script("multiclass"),
            "digits10",
            {"k": "99", "class": "?", "ct": "x", "cp": "10", "norm": "?", "avg": "0"},
        ),
        (script("multiclass"), "iris", {"k": "-1", "sample": "nope", "model": "x"}),
    ],
)
def test_a_link_with_values_this_dataset_cannot_take_opens_with_valid_ones(page, sample, params):
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["ds"] = sample
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(page).run()
    assert not at.exception
    assert at.metric, "the page shows its numbers"


def test_dcg_k_beyond_the_items_is_all_of_them():
    at = open_page("seed001_dcg", DCG, k="99")
    assert at.number_input(key="dcg_k").value == 5  # seed 001 has 5 items
    assert metrics_of(at)["DCG"] == metrics_of(open_page("seed001_dcg", DCG))["DCG"]


SAMPLE_OF = {
    script("multiclass"): "iris",
    script("label_ranking"): "seed003_lrap",
    script("multilabel"): "digit_properties",
    script("regression"): "diabetes",
}


@pytest.mark.parametrize(
    ("page", "key", "stale"),
    [
        (RET, "ret_k", None),
        (RET, "ret_k", "five"),
        (RET, "ret_k", 99),
        (RET, "ret_rel_level", None),
        (RET, "ret_max_grade", None),
        (RET, "ret_query", 3),
        (RET, "ret_model", "gone"),
        (DCG, "dcg_k", "all"),
        (DCG, "dcg_k", 0),
        (DCG, "dcg_sample", "three"),
        (DCG, "dcg_sample", True),
        (DCG, "dcg_sample", 99),
        (DCG, "dcg_log_base_other", None),
        (DCG, "dcg_model", None),
        (script("label_ranking"), "lr_sample", None),
        (script("label_ranking"), "lr_sample", 7),
        (script("multilabel"), "ml_threshold", None),
        (script("multilabel"), "ml_top_k", 99),
        (script("multilabel"), "ml_inspect_sample", 4),
        (script("regression"), "reg_outlier_sample", "7"),
        (script("regression"), "reg_outlier_shift", None),
        (script("multiclass"), "mc_k", "five"),
        (script("multiclass"), "mc_class", "gone"),
        (script("multiclass"), "mc_cell_true", None),
        (script("multiclass"), "mc_sample", 3),
        (script("multiclass"), "mc_norm", "rows"),
    ],
)
def test_a_value_left_in_session_state_is_checked_before_use(page, key, stale):
    """A value of the wrong type or range, left in the page's key before it runs (as
    the shared ``k`` was), is replaced by the page's default: a fresh page's numbers."""
    sample = SAMPLE_OF.get(page, "diabetes_ranking")
    at = open_page(sample, script("home"))
    at.session_state[key] = stale
    at.switch_page(page).run()
    assert not at.exception
    fresh = open_page(sample, page)
    if (key, stale) == ("ret_k", 99):  # a k beyond the items is all of them
        fresh.slider(key="ret_k").set_value(10).run()
    assert metrics_of(at) == metrics_of(fresh)


def test_label_ranking_sample_label_follows_the_model():
    at = open_page("digit_properties", script("label_ranking"))
    numbered_selectbox(at, "lr_sample").set_value(4).run()
    first = numbered_selectbox(at, "lr_sample")
    first_key, first_labels = first.key, list(first.options)
    at.selectbox(key="lr_model").set_value("from_digit").run()
    assert not at.exception
    second = numbered_selectbox(at, "lr_sample")
    assert first_key != second.key and second.value == 4
    assert any(a != b for a, b in zip(first_labels, second.options, strict=True))


def test_multilabel_sample_label_follows_the_threshold():
    at = open_page("digit_properties", script("multilabel"), tab="errors")  # the picker's tab
    numbered_selectbox(at, "ml_inspect_sample").set_value("7").run()
    first = numbered_selectbox(at, "ml_inspect_sample")
    first_key, first_labels = first.key, list(first.options)
    at.slider(key="ml_threshold").set_value(0.05).run()
    assert not at.exception
    second = numbered_selectbox(at, "ml_inspect_sample")
    assert first_key != second.key and first_labels != second.options
    assert second.value == "7"  # the chosen sample stays


def test_regression_outlier_label_follows_the_model():
    at = open_page("diabetes", script("regression"))
    numbered_selectbox(at, "reg_outlier_sample").set_value(3).run()
    first_label = numbered_selectbox(at, "reg_outlier_sample").options[3]
    at.selectbox(key="reg_model").set_value("tree").run()
    assert not at.exception
    second = numbered_selectbox(at, "reg_outlier_sample")
    assert second.value == 3 and first_label != second.options[3]
    assert f"y_hat = {load_sample('diabetes').score('tree')[3]:.4g}" in second.options[3]


# ---------------------------------------------------------------------------------------
# Widgets show the values in use. AppTest reads a widget's value from session state, so
# it always sees the value the page uses; what a browser shows follows the widget
# protos instead. Browser models that: a widget sent with set_value shows the value
# sent; one the browser already showed keeps what it showed (or what the user set);
# one it did not show mounts at the proto's default.


def run(at, browser: Browser) -> None:
    at.run()
    assert not at.exception
    browser.after_run(at)
    assert browser.differences(at) == []


def open_link(page: str, params: dict) -> AppTest:
    """A fresh session opened on a link: ``params`` (with ``ds``), then ``page``."""
    at = AppTest.from_file(APP, default_timeout=30)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(page).run()
    assert not at.exception
    return at


def open_in_browser(page: str, **params) -> tuple[AppTest, Browser]:
    at = open_link(page, params)
    browser = Browser()
    browser.after_run(at)
    assert browser.differences(at) == []
    return at, browser


def test_browser_model_sees_the_reported_regression_sequence():
    """diabetes on Regression, the sidebar to seed002_auc8 and digits, back by "Open the
    sample 'diabetes'": before stop_page, "Move its prediction by" showed -1000000000
    and "True value y" -0.99 (their minimums) while the page used 0 and 200."""
    at, browser = open_in_browser(script("regression"), ds="diabetes")
    shift = at.number_input(key="reg_outlier_shift")
    browser.user_sets(shift, 25.0)
    run(at, browser)
    for other in ("seed002_auc8", "digits"):
        at.selectbox(key="dataset_picker").set_value(other)
        run(at, browser)
        assert not at.main.number_input
    at.button(key="open_fitting_sample").click()
    run(at, browser)
    assert browser.shown[at.number_input(key="reg_outlier_shift").id] == 0.0
    assert browser.shown[at.number_input(key="reg_rmsle_demo_true").id] == 200.0


def nudge(at, browser: Browser, most: int = 6) -> None:
    """Move up to ``most`` number boxes and sliders one step up, and tick the first
    checkbox or toggle, each as a user would, one run each."""
    moved = 0
    for kind in ("number_input", "slider"):
        for i in range(len(getattr(at.main, kind))):
            w = getattr(at.main, kind)[i]
            p = w.proto
            if moved == most or p.disabled or w.value is None or isinstance(w.value, tuple):
                continue
            up = w.value + (p.step or 1)
            if (p.max if kind == "slider" or p.has_max else up) < up:
                continue
            browser.user_sets(w, type(w.value)(up))
            run(at, browser)
            moved += 1
    ticks = [*at.main.checkbox, *at.main.toggle]
    if ticks:
        browser.user_sets(ticks[0], not ticks[0].value)
        run(at, browser)


#: page, its sample, two samples of other kinds (the page stops on them)
AWAY = [
    (script("curves"), "balanced", ("diabetes", "digits")),
    (script("label_ranking"), "seed003_lrap", ("seed002_auc8", "diabetes")),
    (script("dcg"), "seed001_dcg", ("seed002_auc8", "diabetes")),
    (script("retrieval"), "seed002_map", ("seed002_auc8", "diabetes")),
    (script("multilabel"), "digit_properties", ("seed002_auc8", "diabetes")),
    (script("regression"), "diabetes", ("seed002_auc8", "digits")),
]
#: page, its sample, another of a kind it shows
WITHIN = [
    (script("curves"), "balanced", "imbalanced"),
    (script("label_ranking"), "seed003_lrap", "digits"),
    (script("dcg"), "digits", "digit_properties"),
    (script("retrieval"), "seed002_map", "seed001_dcg"),
    (script("multilabel"), "digit_properties", "seed003_lrap"),
]


@pytest.mark.parametrize(("page", "sample", "away"), AWAY, ids=[a[0][6:-3] for a in AWAY])
def test_widgets_show_the_values_in_use_after_other_kinds_and_back(page, sample, away):
    at, browser = open_in_browser(page, ds=sample)
    nudge(at, browser)
    for other in away:
        at.selectbox(key="dataset_picker").set_value(other)
        run(at, browser)
    at.button(key="open_fitting_sample").click()
    run(at, browser)
    nudge(at, browser, most=1)
    assert metrics_of(at) == metrics_of(open_link(page, dict(at.query_params)))


@pytest.mark.parametrize(("page", "sample", "other"), WITHIN, ids=[w[0][6:-3] for w in WITHIN])
def test_widgets_show_the_values_in_use_after_a_switch_within_the_kind(page, sample, other):
    at, browser = open_in_browser(page, ds=sample)
    nudge(at, browser)
    at.selectbox(key="dataset_picker").set_value(other)
    run(at, browser)
    nudge(at, browser)
    at.selectbox(key="dataset_picker").set_value(sample)
    run(at, browser)


def test_multilabel_top_k_box_hidden_and_drawn_again_shows_its_k():
    at, browser = open_in_browser(script("multilabel"), ds="digit_properties", rule="top_k", k="3")
    assert at.number_input(key="ml_top_k").value == 3
    browser.user_sets(at.radio(key="ml_pred_rule"), "threshold")
    run(at, browser)
    browser.user_sets(at.number_input(key="ml_beta"), 1.5)
    run(at, browser)
    browser.user_sets(at.radio(key="ml_pred_rule"), "top_k")
    run(at, browser)
    assert browser.shown[at.number_input(key="ml_top_k").id] == 3 == int(at.query_params["k"])


def test_dcg_widgets_below_an_error_that_stopped_the_page_come_back_as_used():
    at, browser = open_in_browser(DCG, ds="digits", sample="2", tab="every")  # the table's tab
    browser.user_sets(at.number_input(key="dcg_per_sample_start"), 200)
    run(at, browser)
    browser.user_sets(at.selectbox(key="dcg_log_base"), "other")
    run(at, browser)
    browser.user_sets(at.number_input(key="dcg_log_base_other"), 1.0)
    run(at, browser)
    assert "log_base must not be 1" in rendered(at.error[0].value) and not at.main.metric
    browser.user_sets(at.number_input(key="dcg_log_base_other"), 2.0)
    run(at, browser)
    assert numbered_selectbox(at, "dcg_sample").value == 2 and at.query_params["sample"] == "2"


def test_curves_cell_list_shows_its_cell_after_a_switch_within_the_kind():
    """Found by the walk's browser model: after TN was picked and the sidebar switched to
    another binary sample, the box kept showing TN while the page listed TP."""
    at, browser = open_in_browser(script("curves"), ds="balanced", ttab="samples")
    browser.user_sets(at.selectbox(key="curves_cm_cell"), "TN")
    run(at, browser)
    at.selectbox(key="dataset_picker").set_value("seed002_roc6")
    run(at, browser)
    # a dataset change closes the tab (page settings reset); the user opens it again
    at.session_state["curves_t_tab"] = "Samples of a cell"
    run(at, browser)
    assert at.selectbox(key="curves_cm_cell").value == "TP"

"""Valid data that a page cannot show in full must not crash it.

Each dataset is uploaded on the Data page, as a user would, and each page is then
opened in that session: it shows the data, with the numbers of the ``metrics``
package, or says in words why a part cannot be shown. Scores spanning 100 or more,
negative logits, tied scores, scores of +-1e308 and 1e-308, one class, one label
column, one row, huge relevance grades, and a second upload whose label names differ.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.datasets import MAX_GRADE, Dataset
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from metrics import confusion_matrix
from tests.conftest import APP, metric, rendered
from tests.views.curves.drive import component, count, slide

CURVES, HOME, DATA = script("curves"), script("home"), script("data")
LABEL_RANKING, DCG, RETRIEVAL = script("label_ranking"), script("dcg"), script("retrieval")
MULTILABEL = script("multilabel")
BIGGEST = 1.7976931348623157e308


def notices(at) -> str:
    """Every error, warning, info and caption on the page, as one text."""
    return "\n".join(
        rendered(x.value) for kind in ("error", "warning", "info", "caption") for x in at.get(kind)
    )


def binary_csv(y, s) -> bytes:
    rows = "".join(f"{a},{b!r}\n" for a, b in zip(y, s, strict=True))
    return ("y_true,y_score\n" + rows).encode()


def matrix_csv(names, rows) -> bytes:
    return (",".join(names) + "\n" + "".join(",".join(map(str, r)) + "\n" for r in rows)).encode()


def upload_file(data: bytes, name: str = "mine.csv", query: dict | None = None) -> AppTest:
    """A fresh session that uploaded ``data`` on the Data page (which shows no error).

    ``query``: page settings put in the address after the upload (a new dataset drops
    the settings of the last one), as a user typing them into the address bar would.
    """
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page(DATA).run()
    at.file_uploader(key="data_upload_file").upload(name, data, "text/csv").run()
    assert not at.exception and not at.error, [rendered(e.value) for e in at.error]
    assert at.session_state["active_dataset"] == name
    at.query_params.update(query or {})
    return at


def upload_pair(at: AppTest, labels: bytes, scores: bytes, names=("l.csv", "s.csv")) -> AppTest:
    at.file_uploader(key="data_upload_labels").upload(names[0], labels, "text/csv")
    at.file_uploader(key="data_upload_scores").upload(names[1], scores, "text/csv")
    return at.run()


def pair_session(labels: bytes, scores: bytes) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page(DATA).run()
    upload_pair(at, labels, scores)
    assert not at.exception and not at.error, [rendered(e.value) for e in at.error]
    return at


def open_page(at: AppTest, page: str) -> AppTest:
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def check_operating_point(at, y, s, t):
    """The threshold metrics of the curves page equal the metrics package at ``t``."""
    pred = (np.asarray(s) >= t).astype(int)
    assert metric(at, "Precision") == fmt(metrics.precision_score(y, pred, zero_division=0.0))
    assert metric(at, "Recall") == fmt(metrics.recall_score(y, pred, zero_division=0.0))
    assert metric(at, "Accuracy") == fmt(metrics.accuracy_score(y, pred))
    (tp, fn), (fp, tn) = confusion_matrix(y, pred, labels=[1, 0])
    assert shown_counts(at) == [str(int(v)) for v in (tp, fp, fn, tn)]


def shown_counts(at) -> list[str]:
    """TP, FP, FN, TN as the curves page shows them: in the operating-point component's
    matrix, or on a range no float slider spans, in the server's."""
    if at.get("bidi_component"):
        return [count(component(at)["at_t"][k]) for k in ("tp", "fp", "fn", "tn")]
    return [metric(at, k) for k in ("TP", "FP", "FN", "TN")]


def check_curves_headline(at, y, s):
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(y, s))
    assert metric(at, "Average precision") == fmt(metrics.average_precision_score(y, s))


# ------------------------------------------------------------------ 1. any finite range
def test_curves_scores_spanning_150_have_a_float_threshold_slider():
    """Raw scores 3.5 .. 150 (BM25, counts) crashed: the slider got an int step."""
    y, s = [0, 1, 0, 1], [3.5, 150.0, 20.0, 99.0]
    at = open_page(upload_file(binary_csv(y, s)), CURVES)
    check_curves_headline(at, y, s)
    slider = component(at)["thresholds"]  # the operating-point component's positions
    assert isinstance(slider[1], float) and slider[1] - slider[0] == 1.0
    assert slider[0] == 0.0 and slider[-1] == math.nextafter(150.0, math.inf)
    check_operating_point(at, y, s, 0.5)  # the default: every sample positive
    slide(at, 99.0)
    assert not at.exception
    check_operating_point(at, y, s, 99.0)  # TP 2, FP 0
    assert metric(at, "Precision") == "1" and shown_counts(at)[3] == "2"
    at.number_input(key="curves_threshold_number").set_value(20.0).run()
    assert not at.exception
    check_operating_point(at, y, s, 20.0)
    assert component(at)["t"] == 20.0


def test_curves_negative_logits():
    y, s = [0, 1, 0, 1, 1], [-7.2, 4.1, -1.0, 2.0, -3.5]
    at = open_page(upload_file(binary_csv(y, s)), CURVES)
    check_curves_headline(at, y, s)
    slider = component(at)["thresholds"]
    assert slider[0] == -7.2 and slider[1] == -7.1
    slide(at, -2.0)
    assert not at.exception
    check_operating_point(at, y, s, -2.0)
    # log loss needs probabilities: a sentence says so instead of a number
    assert metric(at, "Log loss") == "n/a"
    assert "need probabilities" in notices(at)


def test_curves_all_scores_equal():
    y, s = [0, 1, 0, 1], [2.0, 2.0, 2.0, 2.0]
    at = open_page(upload_file(binary_csv(y, s)), CURVES)
    check_curves_headline(at, y, s)
    assert metric(at, "ROC AUC") == "0.5000"
    slide(at, 2.0)
    assert not at.exception
    check_operating_point(at, y, s, 2.0)


@pytest.mark.parametrize(("t", "expected"), [("1000", "top"), ("-1e300", 0.0), ("nan", 0.5)])
def test_curves_threshold_from_the_url_outside_the_range_is_clamped(t, expected):
    y, s = [0, 1, 0, 1], [3.5, 150.0, 20.0, 99.0]
    at = open_page(upload_file(binary_csv(y, s), query={"t": t}), CURVES)
    top = math.nextafter(150.0, math.inf)
    want = top if expected == "top" else expected
    assert component(at)["t"] == want
    assert at.number_input(key="curves_threshold_number").value == want
    check_operating_point(at, y, s, want)


# ------------------------------------------------------------------ 2. +-1e308, 1e-308
@pytest.mark.parametrize("big", [1e308, BIGGEST])
def test_curves_scores_of_plus_minus_1e308(big):
    """hi - lo overflows float64: the page steps through the distinct scores instead."""
    y, s = [0, 1, 0, 1], [-big, big, 0.0, 5.0]
    at = open_page(upload_file(binary_csv(y, s)), CURVES)
    check_curves_headline(at, y, s)
    assert "range wider than the largest float" in notices(at)
    stops = sorted(set(s))
    index = at.slider(key="curves_threshold_index")
    # negative scores read as logits: the threshold opens at 0, the first score >= 0
    assert index.value == 1
    check_operating_point(at, y, s, 0.0)
    for i, t in enumerate(stops):
        at.slider(key="curves_threshold_index").set_value(i).run()
        assert not at.exception
        assert at.number_input(key="curves_threshold_number").value == t
        check_operating_point(at, y, s, t)
        assert at.query_params["t"] in (repr(t), [repr(t)])
    last = at.slider(key="curves_threshold_index").max
    # above every score when a float lies above the highest one
    assert last == (len(stops) if big < BIGGEST else len(stops) - 1)
    at.number_input(key="curves_threshold_number").set_value(1.0).run()
    assert not at.exception
    check_operating_point(at, y, s, 1.0)
    assert at.slider(key="curves_threshold_index").value == stops.index(5.0)  # lowest >= 1


def test_curves_largest_float_says_predict_nothing_cannot_be_set():
    """No float lies above the largest one: the slider ends there, and the "predict
    nothing" candidate (+inf) says why it cannot be applied."""
    y, s = [0, 1, 0, 1], [0.1, BIGGEST, 0.3, 0.9]
    at = open_page(upload_file(binary_csv(y, s)), CURVES)
    check_curves_headline(at, y, s)
    assert component(at)["thresholds"][-1] == BIGGEST
    at.number_input(key="curves_cost_fn").set_value(0.0).run()
    at.radio(key="curves_optimize").set_value("min_cost").run()  # cost 0 at +inf: predict nothing
    assert not at.exception
    button = at.button(key="curves_apply_optimum")
    assert button.disabled and "no float lies above it" in button.label
    slide(at, BIGGEST)
    assert not at.exception
    check_operating_point(at, y, s, BIGGEST)
    assert shown_counts(at)[0] == "1"


def test_curves_tiny_scores_of_1e_308():
    y, s = [0, 1, 0, 1], [1e-308, 4e-308, 2e-308, 3e-308]
    at = open_page(upload_file(binary_csv(y, s)), CURVES)
    check_curves_headline(at, y, s)
    box = at.number_input(key="curves_threshold_number")
    assert box.format == "%.6g"  # four decimals would print 0.0000 for every score
    box.set_value(2.5e-308).run()
    assert not at.exception
    check_operating_point(at, y, s, 2.5e-308)
    assert metric(at, "Precision") == "1" and shown_counts(at)[0] == "2"


# ------------------------------------------------------------- 3. one class, one label, one row
ONE_CLASS = {"negatives only": [0, 0, 0], "positives only": [1, 1, 1]}
ONE_CLASS_SCORES = [0.1, 0.5, 0.9]
WRONG_KIND = "This page shows"


@pytest.mark.parametrize("case", ONE_CLASS)
def test_home_one_class_binary_shows_what_is_defined(case):
    """A binary file with one class crashed Home (ROC AUC raised)."""
    y, s = ONE_CLASS[case], ONE_CLASS_SCORES
    at = open_page(upload_file(binary_csv(y, s)), HOME)
    assert metric(at, "ROC AUC") == "n/a" and metric(at, "Gini") == "n/a"
    assert metric(at, "Average precision") == fmt(metrics.average_precision_score(y, s))
    text = notices(at)
    assert "**ROC AUC** cannot be computed" in text and "single class" in text


@pytest.mark.parametrize("case", ONE_CLASS)
def test_curves_one_class_binary_says_why(case):
    y, s = ONE_CLASS[case], ONE_CLASS_SCORES
    at = open_page(upload_file(binary_csv(y, s)), CURVES)
    assert "ROC AUC is undefined: y_true holds a single class" in notices(at)
    assert not at.error  # valid data: a sentence saying why, not an error box


@pytest.mark.parametrize("page", [LABEL_RANKING, DCG, RETRIEVAL, MULTILABEL])
def test_matrix_pages_name_the_kind_they_need_for_a_one_class_binary_file(page):
    at = open_page(upload_file(binary_csv([0, 0, 0], ONE_CLASS_SCORES)), page)
    assert WRONG_KIND in notices(at) and not at.metric


def check_retrieval(at, y, s):
    """The headline of Top-K retrieval at its defaults equals the metrics package."""
    y, s = np.asarray(y, dtype=float), np.asarray(s, dtype=float)
    k = min(5, y.shape[1])
    per_query = metrics.retrieval_per_query(y, s, k=k, max_grade=float(y.max()))
    means = metrics.retrieval_means(per_query, empty="zero")
    for label, name in [
        ("P@K", "P@K"),
        ("R@K", "R@K"),
        ("Hit rate@K", "hit rate@K"),
        ("MAP@K", "AP@K"),
        ("MRR", "RR"),
        ("ERR@K", "ERR@K"),
        ("NDCG@K", "NDCG@K"),
    ]:
        assert metric(at, label) == fmt(means[name]), label


# one label column: multilabel, 3 samples x 1 label
COLUMN_Y, COLUMN_S = [[1], [0], [1]], [[0.9], [0.2], [0.4]]
COLUMN = (matrix_csv(["a"], COLUMN_Y), matrix_csv(["a"], COLUMN_S))
# one row: multilabel, 1 sample x 3 labels
ROW_Y, ROW_S = [[1, 0, 1]], [[0.9, 0.2, 0.4]]
ROW = (matrix_csv(["a", "b", "c"], ROW_Y), matrix_csv(["a", "b", "c"], ROW_S))


def test_home_one_label_column_shows_lrap_and_says_why_not_the_others():
    """A labels/scores pair with one label column crashed Home (coverage error raised)."""
    at = open_page(pair_session(*COLUMN), HOME)
    y, s = np.array(COLUMN_Y), np.array(COLUMN_S)
    assert metric(at, "LRAP") == fmt(metrics.label_ranking_average_precision_score(y, s))
    assert metric(at, "Coverage error") == "n/a" and metric(at, "Ranking loss") == "n/a"
    text = notices(at)
    assert "**Coverage error** cannot be computed" in text
    assert "needs at least 2 columns (labels)" in text


@pytest.mark.parametrize(
    ("page", "why"),
    [
        (LABEL_RANKING, "needs at least 2 columns (labels)"),
        (DCG, "needs at least 2 columns (labels)"),
        (MULTILABEL, "at least two labels"),
        (CURVES, WRONG_KIND),
    ],
)
def test_pages_say_why_they_cannot_show_one_label_column(page, why):
    at = open_page(pair_session(*COLUMN), page)
    assert why in notices(at)


def test_retrieval_shows_one_label_column():
    at = open_page(pair_session(*COLUMN), RETRIEVAL)
    check_retrieval(at, COLUMN_Y, COLUMN_S)
    assert metric(at, "P@K") == fmt(2 / 3)


def test_one_row_pair_on_every_matrix_page():
    y, s = np.array(ROW_Y), np.array(ROW_S)
    at = open_page(pair_session(*ROW), HOME)
    assert metric(at, "Coverage error") == fmt(metrics.coverage_error(y, s))
    assert metric(at, "LRAP") == fmt(metrics.label_ranking_average_precision_score(y, s))
    assert metric(at, "Ranking loss") == fmt(metrics.label_ranking_loss(y, s))
    at = open_page(pair_session(*ROW), LABEL_RANKING)
    assert metric(at, "Coverage error") == fmt(metrics.coverage_error(y, s))
    assert metric(at, "LRAP") == fmt(metrics.label_ranking_average_precision_score(y, s))
    assert metric(at, "Ranking loss") == fmt(metrics.label_ranking_loss(y, s))
    at = open_page(pair_session(*ROW), DCG)
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s))
    assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s))
    at = open_page(pair_session(*ROW), RETRIEVAL)
    check_retrieval(at, y, s)
    at = open_page(pair_session(*ROW), MULTILABEL)
    pred = (s >= 0.5).astype(int)
    assert metric(at, "Hamming loss") == fmt(metrics.hamming_loss(y, pred))
    assert metric(at, "Subset accuracy") == fmt(metrics.accuracy_score(y, pred))
    at = open_page(pair_session(*ROW), CURVES)
    assert WRONG_KIND in notices(at)


# ------------------------------------------------------------- 4. relevance grades above 2**53
HUGE = 2**60
GRADES_Y = [[HUGE, 0, 1], [0, 1, 2]]
GRADES_S = [[0.9, 0.2, 0.4], [0.1, 0.5, 0.3]]


def data_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    return open_page(at, DATA)


def refused(at, *where):
    """The upload was refused with a notice naming ``where``; the data is unchanged."""
    assert not at.exception
    text = rendered(at.error[0].value)
    assert "Not loaded, your data is unchanged" in text and "above 2**53 - 1" in text
    for part in (*where, str(HUGE)):
        assert part in text
    assert at.session_state["active_dataset"] == "balanced"


def test_grade_above_2_53_in_a_labels_file_is_refused_at_upload():
    """A grade of 2**60 crashed Top-K retrieval (a number box's maximum past 2**53)."""
    at = upload_pair(data_page(), matrix_csv("abc", GRADES_Y), matrix_csv("abc", GRADES_S))
    refused(at, "l.csv", "line 2", 'column "a"')
    open_page(at, RETRIEVAL)  # the page shows the dataset the user had
    assert WRONG_KIND in notices(at)


def test_grade_above_2_53_in_a_long_table_and_in_qrels_is_refused():
    long = b"sample,label,y_true,y_score\nq,a,2,0.5\nq,b,%d,0.4\n" % HUGE
    at = data_page()
    at.file_uploader(key="data_upload_file").upload("long.csv", long, "text/csv").run()
    refused(at, "long.csv", "line 3", 'column "y_true"')
    at = data_page()
    qrels = b"q1 0 d1 1\nq1 0 d2 %d\n" % HUGE
    run = b"q1 Q0 d1 1 0.9 sys\nq1 Q0 d2 2 0.5 sys\n"
    at.file_uploader(key="data_upload_qrels").upload("qrels.txt", qrels, "text/plain")
    at.file_uploader(key="data_upload_run").upload("run.txt", run, "text/plain")
    at.run()
    refused(at, "qrels.txt", "line 2", "rel")


def test_grade_above_2_53_typed_in_the_editor_is_refused():
    at = data_page()
    at.selectbox(key="dataset_picker").set_value("seed001_dcg").run()
    at.session_state["data_editor_labels"] = {
        "edited_rows": {0: {at.data_editor[0].value.columns[0]: float(HUGE)}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    at.button(key="data_apply_edits").click().run()
    assert not at.exception
    assert "Not applied" in rendered(at.error[0].value) and "above 2**53 - 1" in rendered(
        at.error[0].value
    )
    assert at.session_state["active_dataset"] == "seed001_dcg"


def test_grade_at_2_53_minus_1_shows_on_retrieval_and_dcg():
    y = [[MAX_GRADE, 0, 1], [0, 1, 2]]
    labels, scores = matrix_csv("abc", y), matrix_csv("abc", GRADES_S)
    at = open_page(pair_session(labels, scores), RETRIEVAL)
    check_retrieval(at, y, GRADES_S)
    assert at.number_input(key="ret_rel_level").max == MAX_GRADE
    # 2^g - 1 overflows from grade 1024 on: the exponential gain is not offered, and says so
    assert at.radio(key="ret_gain").options == ["linear: g"]
    assert "overflows float64 from grade 1024 on" in notices(at)
    levels = at.dataframe[0].value
    levels = levels[levels["switch"] == "relevant from grade"]["convention"].tolist()
    assert levels == ["1", "2", str(MAX_GRADE)]  # the levels that change what is relevant
    at = open_page(pair_session(labels, scores), DCG)
    yy, ss = np.array(y, dtype=float), np.array(GRADES_S)
    assert metric(at, "DCG") == fmt(metrics.dcg_score(yy, ss))
    assert metric(at, "NDCG") == fmt(metrics.ndcg_score(yy, ss))
    at.radio(key="dcg_gain").set_value("2^rel - 1").run()
    assert not at.exception
    assert "overflows for grades of 1024 or more" in notices(at)


def test_retrieval_switchboard_lists_at_most_ten_grade_levels():
    """Grades 0..40 (click counts): ten levels, not forty rows of re-ranking."""
    y = [[g, 40 - g, g % 7] for g in range(41)]
    s = [[0.3, 0.2, 0.1]] * 41
    at = open_page(pair_session(matrix_csv("abc", y), matrix_csv("abc", s)), RETRIEVAL)
    check_retrieval(at, y, s)
    board = at.dataframe[0].value
    levels = board[board["switch"] == "relevant from grade"]["convention"].tolist()
    # ten of the forty levels, evenly spread over the distinct grades 1..40
    assert levels == ["1", "5", "10", "14", "18", "23", "27", "31", "36", "40"]


def test_retrieval_says_why_it_cannot_rank_a_grade_above_2_53_from_elsewhere():
    """A dataset that did not come through the readers (a link, a session): a sentence."""
    ds = Dataset("huge", "graded", np.array(GRADES_Y, dtype=float), {"m": np.array(GRADES_S)})
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["session_datasets"] = {"huge": ds}
    at.session_state["active_dataset"] = "huge"
    at.run()
    at = open_page(at, RETRIEVAL)
    assert "cannot rank **huge**" in notices(at) and "above 2**53 - 1" in notices(at)


# ------------------------------------------------------------- 5. the editor follows the dataset
NAMES = "data_editor_label_names"
FOUR_Y = [[1, 0, 1, 0], [0, 1, 0, 1]]
FOUR_S = [[0.9, 0.2, 0.1, 0.5], [0.3, 0.8, 0.2, 0.4]]


def test_second_pair_with_other_label_names_resets_the_editor():
    """From a sample (human, cat, dog) to an upload (a, b, c, cat): the names box kept the
    sample's names and the page crashed ("cannot reindex on an axis with duplicate
    labels")."""
    at = data_page()
    at.selectbox(key="dataset_picker").set_value("seed003_lrap").run()
    assert at.text_input(key=NAMES).value == "human, cat, dog"
    at.session_state["data_editor_labels"] = {  # a pending edit of the sample's last row
        "edited_rows": {2: {"dog": 0}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    names = ["a", "b", "c", "cat"]
    upload_pair(at, matrix_csv(names, FOUR_Y), matrix_csv(names, FOUR_S))
    assert not at.exception and not at.error
    assert at.text_input(key=NAMES).value == "a, b, c, cat"
    assert list(at.data_editor[0].value.columns) == names
    assert metric(at, "Samples") == "2" and metric(at, "Labels") == "4"
    # a second pair whose names overlap the first one's in another order
    upload_pair(
        at, matrix_csv(["cat", "x", "a"], [[1, 0, 0]]), matrix_csv(["cat", "x", "a"], [[1, 2, 3]])
    )
    assert not at.exception and not at.error
    assert at.text_input(key=NAMES).value == "cat, x, a"
    # the pending edit did not follow: applying now keeps the upload's values
    at.button(key="data_apply_edits").click().run()
    assert not at.exception and not at.error
    at = open_page(at, HOME)
    y, s = np.array([[1, 0, 0]]), np.array([[1.0, 2.0, 3.0]])
    assert metric(at, "LRAP") == fmt(metrics.label_ranking_average_precision_score(y, s))
    assert metric(at, "Coverage error") == fmt(metrics.coverage_error(y, s))


def typed(names: str) -> AppTest:
    at = data_page()
    at.selectbox(key="dataset_picker").set_value("seed003_lrap").run()
    at.text_input(key=NAMES).input(names).run()
    assert not at.exception
    return at


@pytest.mark.parametrize("names", ["cat, cat, dog", "human, dog, dog"])
def test_typed_duplicate_label_names_give_a_notice(names):
    at = typed(names)
    text = rendered(at.error[0].value)
    assert "must be different" in text and names.split(", ")[1] in text
    assert list(at.data_editor[0].value.columns) == ["human", "cat", "dog"]


def test_typed_empty_label_names_give_a_notice():
    at = typed(" , ")
    assert "at least one label name" in rendered(at.error[0].value)
    assert list(at.data_editor[0].value.columns) == ["human", "cat", "dog"]


def test_fewer_typed_names_rename_in_order_and_drop_the_last_labels():
    """'dog, x' for (human, cat, dog): renaming human to dog used to collide with the
    untouched third column dog and crash."""
    at = typed("dog, x")
    assert "2 names for 3 labels" in rendered(at.info[0].value) and "(dog) are removed" in rendered(
        at.info[0].value
    )
    assert list(at.data_editor[0].value.columns) == ["dog", "x"]
    at.button(key="data_apply_edits").click().run()
    assert not at.exception and not at.error
    assert at.session_state["active_dataset"] == "seed003_lrap (edited)"
    ds = at.session_state["session_datasets"]["seed003_lrap (edited)"]
    src = load_sample("seed003_lrap")
    assert ds.label_names == ("dog", "x")  # the values of human and cat, renamed
    np.testing.assert_array_equal(ds.y_true, src.y_true[:, :2])
    np.testing.assert_array_equal(ds.score(), src.score()[:, :2])
    at = open_page(at, HOME)
    y, s = src.y_true[:, :2], src.score()[:, :2]
    assert metric(at, "LRAP") == fmt(metrics.label_ranking_average_precision_score(y, s))


def test_more_typed_names_add_zero_labels():
    at = typed("human, cat, dog, bird")
    assert "(bird) are added" in rendered(at.info[0].value)
    assert list(at.data_editor[0].value.columns) == ["human", "cat", "dog", "bird"]
    assert (at.data_editor[0].value["bird"] == 0).all()

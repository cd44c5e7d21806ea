"""Nothing of one visitor reaches another: caches are process-wide, so two
sessions that upload the same numbers under other names and ids share computations
but must never see each other's names or ids on any page."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from explorer.registry import script
from tests.conftest import APP

PAGES_MATRIX = [script("data"), script("label_ranking"), script("dcg"), script("retrieval")]
PAGES_MATRIX_ML = [script("data"), script("label_ranking"), script("multilabel")]
PAGES_BINARY = [script("home"), script("data"), script("curves")]


def shown(at: AppTest) -> str:
    """Everything the page sends to the browser, as text (tables included)."""
    parts: list[str] = []

    def walk(node) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None:
            parts.append(str(proto))
            parts.append(proto.SerializeToString().decode("utf-8", "replace"))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(parts)


def matrix_files(name: str, ids: list[str], *, graded: bool) -> list[tuple[str, bytes]]:
    y = (
        [[3, 0, 1], [0, 2, 0], [1, 1, 0], [0, 0, 2]]
        if graded
        else [[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]]
    )
    s = [[0.9, 0.2, 0.4], [0.1, 0.3, 0.8], [0.5, 0.5, 0.2], [0.7, 0.6, 0.1]]
    head = "id,apple,pear,plum\n"
    labels = head + "".join(f"{i},{','.join(map(str, r))}\n" for i, r in zip(ids, y, strict=True))
    scores = head + "".join(f"{i},{','.join(map(str, r))}\n" for i, r in zip(ids, s, strict=True))
    return [(f"{name}.labels.csv", labels.encode()), (f"{name}.scores.csv", scores.encode())]


def binary_file(name: str, ids: list[str]) -> bytes:
    rows = [(0, 0.1), (1, 0.8), (0, 0.35), (1, 0.4)]
    body = "".join(f"{i},{y},{s}\n" for i, (y, s) in zip(ids, rows, strict=True))
    return ("id,y_true,y_score\n" + body).encode()


def visit(upload, pages: list[str]) -> list[str]:
    """A fresh session that uploads its files, then opens every page: what each shows."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page(script("data")).run()
    upload(at)
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    seen = []
    for page in pages:
        at.switch_page(page).run()
        assert not at.exception
        seen.append(shown(at))
    return seen


def upload_pair(files):
    def upload(at):
        (ln, lb), (sn, sb) = files
        at.file_uploader(key="data_upload_labels").upload(ln, lb, "text/csv")
        at.file_uploader(key="data_upload_scores").upload(sn, sb, "text/csv")

    return upload


def upload_one(name, data):
    def upload(at):
        at.file_uploader(key="data_upload_file").upload(name, data, "text/csv")

    return upload


SECRET_IDS = [f"PATIENT-SMITH-{i}" for i in range(4)]
MINE_IDS = [f"q{i}" for i in range(4)]


@pytest.mark.parametrize(("graded", "pages"), [(True, PAGES_MATRIX), (False, PAGES_MATRIX_ML)])
def test_same_numbers_under_other_names_and_ids_never_show_the_first_visitors(graded, pages):
    first = visit(upload_pair(matrix_files("hospitalX_secret", SECRET_IDS, graded=graded)), pages)
    assert any("PATIENT-SMITH-0" in text for text in first)  # the marker is shown to its owner
    second = visit(upload_pair(matrix_files("mine", MINE_IDS, graded=graded)), pages)
    for page, text in zip(pages, second, strict=True):
        assert "PATIENT-SMITH" not in text, page
        assert "hospitalX_secret" not in text, page
    assert any("q3" in text for text in second)


def test_one_file_binary_uploads_do_not_leak_names_or_ids():
    first = visit(upload_one("hospitalX_secret.csv", binary_file("s", SECRET_IDS)), PAGES_BINARY)
    assert any("hospitalX_secret" in text for text in first)
    second = visit(upload_one("mine.csv", binary_file("m", MINE_IDS)), PAGES_BINARY)
    for page, text in zip(PAGES_BINARY, second, strict=True):
        assert "PATIENT-SMITH" not in text, page
        assert "hospitalX_secret" not in text, page

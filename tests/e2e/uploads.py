"""Upload a pair of ``.npy`` matrices (labels, scores) through the Data page, as a user
does with data too big for a sample: the pages then show it as the active dataset."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from playwright.sync_api import Page

from tests.e2e.conftest import wait_for_run


def npy(path: Path, a: np.ndarray) -> Path:
    """``a`` saved as ``path`` (``.npy``)."""
    buf = io.BytesIO()
    np.save(buf, a)
    path.write_bytes(buf.getvalue())
    return path


def upload_pair(page: Page, app_url: str, folder: Path, y: np.ndarray, s: np.ndarray) -> None:
    """Upload labels ``y`` and scores ``s`` on the Data page and wait until they are the
    active dataset (the sidebar names its kind and size)."""
    page.goto(f"{app_url}/data")
    wait_for_run(page)
    page.set_input_files(
        ".st-key-data_upload_labels input[type=file]", npy(folder / "labels.npy", y)
    )
    wait_for_run(page)
    page.set_input_files(
        ".st-key-data_upload_scores input[type=file]", npy(folder / "scores.npy", s)
    )
    page.get_by_text(f"multilabel · {len(y)} samples").first.wait_for(timeout=60_000)
    wait_for_run(page)


def open_page(page: Page, title: str) -> None:
    """Open a page by its sidebar link (keeps the uploaded dataset active)."""
    page.get_by_test_id("stSidebarNavLink").filter(has_text=title).click()
    wait_for_run(page)

"""bench/load.py's machinery without a server: flags, marked data, report, results section."""

import re

from bench.load import MARK, LoadReport, hosted_flags, marked_csv, percentile, write_section
from explorer.io import read_upload


def test_hosted_flags_carry_the_hosted_limits():
    flags = hosted_flags()
    pairs = dict(zip(flags[::2], flags[1::2], strict=True))
    assert pairs["--client.showErrorDetails"] == "none"
    assert pairs["--server.maxUploadSize"] == "50"
    assert pairs["--server.enableXsrfProtection"] == "true"
    assert "--server.allowedHosts" not in pairs  # an empty list is left to the default


def test_marked_dataset_reads_as_binary_with_its_marked_ids():
    ds = read_upload("visitor07.csv", marked_csv(7).encode())
    assert ds.kind == "binary"
    assert ds.sample_ids[:2] == ("MARK07X-0", "MARK07X-1")
    assert {int(m.group(1)) for m in MARK.finditer(marked_csv(7) + " visitor07.csv")} == {7}


def test_percentile_nearest_rank():
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile(list(map(float, range(1, 101))), 95) == 95.0


def _report(**kw):
    base = dict(
        sessions=2,
        seconds=5,
        switches=10,
        p50=0.5,
        p95=1.5,
        own=20,
        foreign=[],
        errors=[],
        failures=[],
        rss_start=100 << 20,
        rss_peak=150 << 20,
        rss_after=110 << 20,
        ttl=5,
    )
    return LoadReport(**{**base, **kw})


def test_report_replaces_its_own_section_only(tmp_path):
    out = tmp_path / "results.md"
    out.write_text("# Benchmark results\n\n## Metrics\n\nkept\n")
    write_section(_report(foreign=["visitor 00 saw visitor01 on Data"]), out)
    write_section(_report(p50=0.25), out)
    text = out.read_text()
    assert text.count("## Load") == 1 and "kept" in text
    assert "| page switch p50 / p95 | 0.25 s / 1.50 s |" in text
    assert "| foreign markers seen | 0 |" in text
    assert re.search(r"server memory at peak \| 150 MB", text)

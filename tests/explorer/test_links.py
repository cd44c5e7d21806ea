"""Shareable links carry a dataset exactly, and refuse anything damaged (pure functions)."""

from __future__ import annotations

import base64
import json
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import metrics
from explorer.datasets import KINDS, Dataset
from explorer.io import DataError
from explorer.links import (
    INLINE_MAX_CHARS,
    decode_dataset,
    encode_dataset,
    fits_in_link,
    float_text,
)

#: floats that a lossy or sloppy encoding gets wrong
TRICKY = [
    0.1 + 0.2,
    0.3,
    1e-300,
    -0.0,
    0.0,
    5e-324,
    2.2250738585072014e-308,
    1.7976931348623157e308,
    -1.7976931348623157e308,
    float(2**53),
    float(-(2**53)),
    float(2**53 - 1),
    123456.789012345,
    1 / 3,
    2 / 3,
    1e16,
    1.5,
]
any_float = st.one_of(
    st.sampled_from(TRICKY),
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(-(2**53), 2**53).map(float),
)
non_negative = st.one_of(
    st.sampled_from([v for v in TRICKY if v >= 0]),
    st.floats(min_value=0, allow_nan=False, allow_infinity=False),
    st.integers(0, 2**53).map(float),
)
LABEL_VALUES = {
    "binary": st.sampled_from([0.0, 1.0, -0.0]),
    "multilabel": st.sampled_from([0.0, 1.0, -0.0]),
    # uploads and the editor refuse grades above 2**53 - 1, and so does a link
    "graded": st.one_of(st.integers(0, 4).map(float), non_negative.filter(lambda v: v < 2**53)),
    "regression": any_float,
}
text = st.text(min_size=1, max_size=8)


@st.composite
def datasets(draw, kind=None):
    kind = kind or draw(st.sampled_from(KINDS))
    n = draw(st.integers(1, 6))
    matrix = kind in ("multilabel", "graded", "multiclass")
    shape = (n, draw(st.integers(2 if kind == "multiclass" else 1, 4))) if matrix else (n,)
    size = int(np.prod(shape))

    def array(values):
        return np.array(draw(st.lists(values, min_size=size, max_size=size))).reshape(shape)

    def labels_of(kind):
        if kind != "multiclass":
            return array(LABEL_VALUES[kind])
        k = draw(st.lists(st.integers(0, shape[1] - 1), min_size=n, max_size=n))
        return np.eye(shape[1])[k]  # one-hot: one class per sample

    models = draw(st.lists(text, min_size=1, max_size=3, unique=True))
    weight = None
    if draw(st.booleans()):
        weights = st.lists(non_negative, min_size=n, max_size=n).filter(lambda w: max(w) > 0)
        weight = np.array(draw(weights))  # at least one positive weight, as uploads need
    labels = ()
    if len(shape) == 2 and draw(st.booleans()):
        labels = tuple(draw(st.lists(text, min_size=shape[1], max_size=shape[1], unique=True)))
    ids = tuple(
        draw(st.lists(st.text(min_size=1, max_size=6), min_size=n, max_size=n, unique=True))
    )
    name = draw(text.filter(str.strip))
    retrieved = items = None
    if kind in ("multilabel", "graded") and draw(st.booleans()):
        retrieved = array(st.booleans()).astype(bool)
        items = array(st.text(max_size=6)).astype(object)
    return Dataset(
        name,
        kind,
        labels_of(kind),
        {m: array(any_float) for m in models},
        sample_weight=weight,
        label_names=labels,
        sample_ids=ids,
        retrieved=retrieved,
        item_ids=items,
    )


def assert_bitwise_equal(a: np.ndarray, b: np.ndarray) -> None:
    assert a.dtype == b.dtype == np.float64
    assert a.shape == b.shape
    assert np.array_equal(a, b)
    assert a.tobytes() == b.tobytes()  # -0.0 and every last bit


def assert_same_dataset(back: Dataset, ds: Dataset) -> None:
    assert (back.name, back.kind) == (ds.name, ds.kind)
    assert_bitwise_equal(back.y_true, ds.y_true)
    assert list(back.scores) == list(ds.scores)
    for model, s in ds.scores.items():
        assert_bitwise_equal(back.scores[model], s)
    if ds.sample_weight is None:
        assert back.sample_weight is None
    else:
        assert_bitwise_equal(back.sample_weight, ds.sample_weight)
    assert back.label_names == ds.label_names
    assert back.sample_ids == ds.sample_ids
    for what in ("retrieved", "item_ids"):
        mine, theirs = getattr(back, what), getattr(ds, what)
        assert (mine is None) == (theirs is None)
        if mine is not None:
            assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
            assert mine.tolist() == theirs.tolist()
    assert back.fingerprint == ds.fingerprint


# ---------------------------------------------------------------- exact round trips
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(datasets())
def test_pack_unpack_gives_the_identical_dataset(ds):
    assert_same_dataset(decode_dataset(encode_dataset(ds)), ds)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_kind_round_trips_bit_for_bit(kind, data):
    ds = data.draw(datasets(kind))
    assert_same_dataset(decode_dataset(encode_dataset(ds)), ds)


def test_tied_looking_scores_keep_their_order_and_the_auc():
    """0.1 + 0.2 is not 0.3: a 12-digit link tied them, and ROC AUC moved 0.75 -> 0.875."""
    y = np.array([1, 0, 1, 0])
    s = np.array([0.3, 0.1 + 0.2, 0.9, 0.2])
    ds = Dataset("ties", "binary", y, {"m": s})
    back = decode_dataset(encode_dataset(ds))
    assert back.score()[0] != back.score()[1]
    assert metrics.roc_auc_score(back.y_true, back.score()) == 0.75


def test_full_precision_floats_travel_as_compactly_as_the_old_12_digit_links():
    """The binary section keeps exact links about as short as the old lossy ones."""
    rng = np.random.default_rng(0)
    n = 300
    ds = Dataset("r", "binary", (rng.random(n) < 0.5), {"m": rng.random(n)})
    rounded = Dataset("r", "binary", ds.y_true, {"m": np.round(ds.score(), 12)})
    lossy = {  # the version 1 payload: 12 significant digits
        "v": 1,
        "name": "r",
        "kind": "binary",
        "shape": [n],
        "y": ds.y_true.tolist(),
        "s": {"m": [float(f"{v:.12g}") for v in rounded.score()]},
        "w": None,
        "labels": [],
        "ids": list(ds.sample_ids),
    }
    old = base64.urlsafe_b64encode(zlib.compress(json.dumps(lossy).encode(), 9)).decode()
    assert len(encode_dataset(ds)) <= 0.9 * len(old)
    assert fits_in_link(ds) and len(encode_dataset(ds)) <= INLINE_MAX_CHARS


def test_round_decimals_stay_short():
    ds = Dataset("d", "binary", np.array([0, 1] * 50), {"m": np.arange(100) / 100})
    assert len(encode_dataset(ds)) < 500


#: made by the version 1 encoder (numbers rounded to 12 significant digits)
V1_TOKEN = (
    "eNpdjc0KwyAQhF-lzHmRaPBQXyV4MDVQidpC-kvIu3cMPZQuDLv77c-seMBpQQ1lgsMlx0NOdYZgTjWSlHu-pRzGKZMt53"
    "Dl2mCk94I3K6066ai_zOkCt6JwpVPGkvXUseWfYNtG2li_CZ7ff0ZZ3u-efDIg0HmkTiBOcWcvNH-_fQAiCDDm"
)


def test_version_1_links_still_open():
    ds = decode_dataset(V1_TOKEN)
    assert (ds.name, ds.kind, ds.label_names, ds.sample_ids) == (
        "old link",
        "multilabel",
        ("a", "b", "c"),
        ("x", "y"),
    )
    np.testing.assert_array_equal(ds.y_true, [[1, 0, 1], [0, 1, 0]])
    np.testing.assert_array_equal(ds.score(), [[0.25, 0.3, 0.9], [0.333333333333, 0.5, 0.125]])
    assert ds.sample_weight.tolist() == [1.0, 2.5]


def test_the_format_version_is_2():
    assert _unpack(encode_dataset(Dataset("a", "binary", [0, 1], {"m": [0.5, 0.25]})))[0]["v"] == 2


@pytest.mark.parametrize(
    ("value", "pretty", "text"),
    [
        (400.0, "g", "400"),
        (123456.789012345, "g", "123456.789012345"),
        (0.5, ".2f", "0.50"),
        (0.30000000000000004, ".2f", "0.30000000000000004"),
        (1e-300, "g", "1e-300"),
        (5e-324, "g", "4.94066e-324"),  # exact: it reads back as 5e-324
        (-0.0, "g", "-0"),
        (1.7976931348623157e308, "g", "1.7976931348623157e+308"),
    ],
)
def test_float_text_reads_back_as_the_same_float(value, pretty, text):
    assert float_text(value, pretty) == text
    back = float(text)
    assert np.float64(back).tobytes() == np.float64(value).tobytes()


@settings(max_examples=300)
@given(any_float, st.sampled_from(["g", ".2f", ".4g", ".0f"]))
def test_float_text_is_exact_for_any_float(value, pretty):
    assert np.float64(float(float_text(value, pretty))).tobytes() == np.float64(value).tobytes()


# ---------------------------------------------------------------- strict decoding
def _unpack(token: str) -> tuple[dict, bytes]:
    raw = zlib.decompress(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    head, _, blob = raw.partition(b"\n")
    return json.loads(head), blob


def _pack(payload, blob: bytes = b"", *, text: str | None = None) -> str:
    head = (text if text is not None else json.dumps(payload)).encode()
    raw = head + b"\n" + blob if blob else head
    return base64.urlsafe_b64encode(zlib.compress(raw)).decode()


GOOD = Dataset(
    "good",
    "multilabel",
    np.array([[1, 0], [0, 1], [1, 1]]),
    {"m": np.array([[0.123456789012345, 0.2], [1 / 3, 0.4], [0.5, 2 / 3]])},
    sample_weight=np.array([0.5, 1.0, 2.0]),
    label_names=("a", "b"),
)


def _good_payload() -> dict:
    payload, blob = _unpack(encode_dataset(GOOD))
    assert blob == b""  # too small for the binary section: plain JSON numbers
    return payload


def _edited(**changes) -> str:
    payload = _good_payload()
    payload.update(changes)
    return _pack(payload)


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        (_edited(s={"m": [0.1, "NaN", 0.3, 0.4, 0.5, 0.6]}), "not a number"),
        (_edited(s={"m": [0.1, True, 0.3, 0.4, 0.5, 0.6]}), "not a number"),
        (_edited(s={"m": [0.1, "0.2", 0.3, 0.4, 0.5, 0.6]}), "not a number"),
        (_edited(s={"m": [0.1, None, 0.3, 0.4, 0.5, 0.6]}), "not a number"),
        (_edited(s={"m": [0.1, 10**400, 0.3, 0.4, 0.5, 0.6]}), "not a finite number"),
        (_edited(s={"m": [0.1, 1e999, 0.3, 0.4, 0.5, 0.6]}), "not a finite number"),
        (_edited(s={"m": [0.1, 0.2, 0.3]}), "do not hold 6 numbers"),
        (_edited(s={"m": [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]]}), "do not hold 6 numbers"),
        (_edited(s=[[0.1, 0.2, 0.3, 0.4, 0.5, 0.6]]), "no model scores"),
        (_edited(s={}), "no model scores"),
        (_edited(w=[1.0, -1.0, 1.0]), "weights must be >= 0"),
        (_edited(w=[1.0, 1.0]), "do not hold 3 numbers"),
        (_edited(y=[1, 0, 0, 1, 2, 1]), "labels must be 0 or 1"),
        (_edited(kind="graded", y=[1, 0, 0, 1, -2, 1]), "grades must be >= 0"),
        (_edited(kind="binary"), "shape of 1"),
        (_edited(kind="nonsense"), "unknown kind"),
        (_edited(shape=[2, 3]), "do not hold"),
        (_edited(shape=[3, -2]), "shape of 2"),
        (_edited(shape=[3, 2.0]), "shape of 2"),
        (_edited(shape=[10**9, 10**9]), "too large"),
        (_edited(v=3), "unknown format version 3"),
        (_edited(v=True), "unknown format version True"),
        (_edited(v=None), "unknown format version None"),
        (_edited(name=""), "has no name"),
        (_edited(name=["x"]), "has no name"),
        (_edited(labels=["a"]), "label names do not match"),
        (_edited(labels=["a", "a"]), "must be different"),
        (_edited(labels="ab"), "list of text"),
        (_edited(ids=["1", "2"]), "sample ids do not match"),
        (_edited(ids=[1, 2, 3]), "list of text"),
        (_edited(r=[1, 0, 1]), "retrieved marks do not hold 6"),
        (_edited(r=[1, 0, 1, 1, 2, 1]), "retrieved marks do not hold 6"),
        (_edited(r=[1, 0, 1, 1, True, 1]), "not 0 or 1"),
        (_edited(r=[1, 0, 1, 1, 1.0, 1]), "not 0 or 1"),
        (_edited(r="101101"), "retrieved marks do not hold 6"),
        (_edited(items=["a", "b"]), "document ids do not hold 6"),
        (_edited(items=["a", "b", "c", "d", "e", 6]), "document ids must be texts"),
        (_edited(items=["a", "b", "c", "d", "e", "x" * 10_000]), "document ids must be texts"),
        (_edited(kind="multiclass", y=[1, 0, 0, 1, 1, 0], r=[1] * 6), "has no retrieved items"),
        (_pack([1, 2, 3]), "not a packed dataset"),
        (_pack("text"), "not a packed dataset"),
        (_pack(None, text='{"v": 2, "s": NaN}'), "not a finite number"),
        (_pack(None, text='{"v": 2, "s": Infinity}'), "not a finite number"),
        (_pack(None, text="[" * 100_000), "not a packed dataset"),
        (_pack(None, text='{"v": 2,'), "not a packed dataset"),
        ("", "not a packed dataset"),
        ("%%%", "not a packed dataset"),
        ("é", "not a packed dataset"),
    ],
)
def test_damaged_payloads_are_refused_with_a_data_error(token, reason):
    with pytest.raises(DataError, match="link's data parameter is damaged") as info:
        decode_dataset(token)
    assert reason in str(info.value)


def _packed_token(values: np.ndarray, extra: bytes = b"", cut: int = 0) -> str:
    """A version 2 token whose scores travel in the binary section."""
    ds = Dataset("p", "regression", np.arange(len(values)), {"m": values})
    payload, blob = _unpack(encode_dataset(ds))
    assert payload["s"]["m"] == "f8" and len(blob) == 8 * len(values)
    return _pack(payload, blob[: len(blob) - cut] + extra)


def test_the_binary_section_is_checked():
    values = np.random.default_rng(1).random(40)
    assert_bitwise_equal(decode_dataset(_packed_token(values)).score(), values)
    for token, reason in (
        (_packed_token(values, cut=1), "cut short"),
        (_packed_token(values, extra=b"\0"), "unexpected bytes"),
    ):
        with pytest.raises(DataError, match=reason):
            decode_dataset(token)
    for bad in (np.nan, np.inf, -np.inf):
        payload, blob = _unpack(_packed_token(values))
        planes = np.frombuffer(blob, np.uint8).reshape(8, -1).copy()
        planes[:, 3] = np.frombuffer(np.float64(bad).tobytes(), np.uint8)  # value 3 -> bad
        with pytest.raises(DataError, match="not a finite number"):
            decode_dataset(_pack(payload, planes.tobytes()))


def test_a_version_1_payload_has_no_binary_section():
    payload = _good_payload()
    payload["v"] = 1
    payload["s"] = {"m": "f8"}
    with pytest.raises(DataError, match="do not hold 6 numbers"):
        decode_dataset(_pack(payload, b"\0" * 48))


def test_a_huge_decompressed_payload_is_refused():
    bomb = base64.urlsafe_b64encode(zlib.compress(b" " * 5_000_000, 9)).decode()
    with pytest.raises(DataError, match="too large"):
        decode_dataset(bomb)


def test_non_finite_datasets_do_not_fit_in_a_link():
    ds = Dataset("inf", "regression", np.array([1.0, 2.0]), {"m": np.array([1.0, np.inf])})
    assert not fits_in_link(ds)
    with pytest.raises(ValueError, match="not finite"):
        encode_dataset(ds)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_mangled_token_is_a_data_error_or_a_valid_dataset(data):
    ds = data.draw(datasets())
    token = encode_dataset(ds)
    cut = data.draw(st.integers(0, len(token)))
    pos = data.draw(st.integers(0, len(token)))
    char = data.draw(st.sampled_from("AZaz09-_=+/%é "))
    mangled = data.draw(
        st.sampled_from(
            [token[:cut], token[:pos] + char + token[pos + 1 :], token[:pos] + char + token[pos:]]
        )
    )
    try:
        back = decode_dataset(mangled)
    except DataError:
        return
    assert isinstance(back, Dataset)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "v": st.sampled_from([1, 2]) | json_values,
            "name": st.just("x") | json_values,
            "kind": st.sampled_from(KINDS) | json_values,
            "shape": st.lists(st.integers(-1, 3), max_size=3) | json_values,
            "y": st.lists(st.sampled_from([0, 1, 0.5, "f8"]), max_size=9) | json_values,
            "s": st.dictionaries(st.text(max_size=2), st.lists(st.floats(), max_size=9))
            | json_values,
            "w": st.none() | st.lists(st.floats(), max_size=3) | json_values,
            "labels": st.lists(st.text(max_size=2), max_size=3) | json_values,
            "ids": st.lists(st.text(max_size=2), max_size=3) | json_values,
        },
    ),
    st.binary(max_size=80),
)
def test_a_hand_made_payload_is_a_data_error_or_a_valid_dataset(payload, blob):
    assume(payload)
    try:
        back = decode_dataset(_pack(payload, blob))
    except DataError:
        return
    assert isinstance(back, Dataset)
    assert np.isfinite(back.y_true).all()


def test_a_ranking_mask_and_document_ids_travel_and_old_links_open_without_them():
    y = np.array([[1, 0, 2], [0, 1, 0]])
    mask = np.array([[True, False, True], [True, True, False]])
    items = np.array([["d1", "d7", "d9"], ["d2", "d3", ""]], dtype=object)
    ds = Dataset("trec", "graded", y, {"m": y * 0.5}, retrieved=mask, item_ids=items)
    back = decode_dataset(encode_dataset(ds))
    assert back.retrieved.tolist() == mask.tolist()
    assert back.item_ids.tolist() == items.tolist()
    # a link made before a Dataset carried them (no "r", no "items") opens with None
    payload, blob = _unpack(encode_dataset(ds))
    del payload["r"], payload["items"]
    old = decode_dataset(_pack(payload, blob))
    assert old.retrieved is None and old.item_ids is None
    assert old.fingerprint != ds.fingerprint  # the mask changes the numbers

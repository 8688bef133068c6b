"""Chunking footprint: closed form against a brute-force sliding window."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from raglab_core import LabError, chunking
from tests.support.references import brute_force_windows


def test_hand_computed_footprint():
    # 1200 tokens, chunks of 512 every 448: windows [0,512) [448,960) [896,1200) -> 3 chunks,
    # 512 + 512 + 304 = 1328 = 1200 + 2·64 tokens per document.
    fp = chunking.footprint(10, 1200, 512, 64)
    assert (fp.stride, fp.chunks, fp.indexed_tokens, fp.duplicated_tokens) == (448, 30, 13280, 1280)
    assert fp.duplication == 1280 / 12000
    assert (fp.per_document, fp.corpus_tokens) == (3, 12000)
    assert chunking.stride(512, 64) == 448


def test_edge_cases():
    assert chunking.footprint(5, 0, 100, 10).chunks == 0
    assert chunking.footprint(0, 500, 100, 10).duplication == 0.0
    one = chunking.footprint(3, 100, 100, 99)
    assert (one.chunks, one.indexed_tokens, one.duplicated_tokens) == (3, 300, 0)
    assert chunking.footprint(1, 101, 100, 0).chunks == 2


@pytest.mark.parametrize(
    "args, field",
    [((1, 10, 0, 0), "chunk_size"), ((1, 10, 5, 5), "overlap"), ((1, 10, 5, -1), "overlap"), ((-1, 10, 5, 1), "documents")],
)
def test_invalid_arguments(args, field):
    with pytest.raises(LabError) as caught:
        chunking.footprint(*args)
    assert caught.value.field == field


def test_overlap_message_is_the_pages_hint():
    with pytest.raises(LabError, match="^Debe ser menor que el tamaño del chunk.$"):
        chunking.footprint(1, 10, 5, 7)


@given(
    documents=st.integers(0, 5),
    tokens=st.integers(0, 400),
    chunk_size=st.integers(1, 60),
    data=st.data(),
)
def test_closed_form_equals_brute_force(documents, tokens, chunk_size, data):
    overlap = data.draw(st.integers(0, chunk_size - 1))
    windows = brute_force_windows(tokens, chunk_size, overlap)
    indexed = sum(end - start for start, end in windows)
    fp = chunking.footprint(documents, tokens, chunk_size, overlap)
    assert fp.chunks == documents * len(windows)
    assert fp.indexed_tokens == documents * indexed
    assert fp.duplicated_tokens == documents * (indexed - tokens)
    assert fp.stride == chunk_size - overlap
    # No window lies wholly inside the previous one.
    assert all(b_end > a_end for (_, a_end), (_, b_end) in zip(windows, windows[1:]))


def test_a_trillion_tokens_in_closed_form():
    # Exact integers at 10**12 tokens, stride 1; how fast this is (O(1)) is bench/core.py's business.
    fp = chunking.footprint(1_000_000, 1_000_000, 256, 255)
    assert fp.chunks == 1_000_000 * (1 + (1_000_000 - 256))
    assert fp.indexed_tokens == 10**12 + 1_000_000 * (1_000_000 - 256) * 255

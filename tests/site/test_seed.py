"""The seed's labels are the UI's specification: each output's label and caption from the original
page (../shared/seed/, lines «Label—caption») stays verbatim in the form table and the built page.

One caption is completed rather than replaced: the seed's MRR caption «posición del primer
relevante» names the inverse of what MRR measures (issue 20, item 13), so the page shows
«1 / posición del primer relevante»: the seed's words, with the operation that makes them true.
"""

import html
import re

import pytest

from raglab_core.lab import form

from tests.conftest import ROOT

SEED_DIR = ROOT.parent / "shared" / "seed"
SEED_PAIRS = {  # label -> caption, as the seed writes them (empty caption: the seed has none)
    "Precision@k": "pureza del top-k",
    "Recall@k": "cobertura de relevantes conocidos",
    "MRR@k": "posición del primer relevante",
    "nDCG@k": "orden + relevancia graduada",
    "Chunks estimados": "",
    "Tokens indexados": "",
    "Duplicación por solape": "",
    "Stride": "",
}
COMPLETED = {"MRR@k": "1 / posición del primer relevante"}


def test_the_table_above_is_the_seeds_own_text():
    """Guards the table against drift from the seed itself, where the seed is present (a checkout
    without ../shared still checks the page against the table)."""
    seeds = sorted(SEED_DIR.glob("*.txt")) if SEED_DIR.is_dir() else []
    if not seeds:
        pytest.skip("no ../shared/seed beside this checkout")
    text = seeds[0].read_text("utf-8")
    for label, caption in SEED_PAIRS.items():
        assert f"{label}—{caption}\n" in text


@pytest.mark.parametrize("label", SEED_PAIRS)
def test_each_seed_label_and_caption_stays_verbatim(label):
    rows = [row for row in form.OUTPUTS if row["label"] == label and row["panel"] != "breakdown"]
    assert len(rows) == 1, label
    caption = SEED_PAIRS[label]
    if caption:
        assert rows[0]["hint"] == COMPLETED.get(label, caption)
        assert caption in rows[0]["hint"]


def test_the_built_page_shows_the_mrr_caption_as_the_inverse(site_dir):
    page = html.unescape((site_dir / "index.html").read_text("utf-8"))
    assert re.search(r'class="caption">\s*1 / posición del primer relevante\s*<', page)
    assert not re.search(r'class="caption">\s*posición del primer relevante', page)

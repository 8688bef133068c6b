"""The «Tu corpus» panel's part of the build: its sample's files and its settings in the page's configuration."""

from pathlib import Path

from raglab_core.corpus import panel

SAMPLE = ("state_of_the_union.md", "questions_df.csv", "LICENSE")


def corpus_config(folder: Path, files: dict) -> dict:
    """Add the sample (``folder``'s files, published under ``data/corpus/``) to ``files``; return the panel's
    ``lab_config`` entry: its settings and sentences (:func:`raglab_core.corpus.panel.page_settings`), the
    sample's corpus and evidence, and its licence's address."""
    urls = {}
    for name in SAMPLE:
        published = "LICENSE.txt" if name == "LICENSE" else name
        files[f"data/corpus/{published}"] = (folder / name).read_bytes()
        urls[name] = f"data/corpus/{published}"
    return {**panel.page_settings(), "sample": [urls[SAMPLE[0]], urls[SAMPLE[1]]], "licence": urls["LICENSE"]}

"""The «Tu corpus» panel's part of the build: its sample's files and its settings in the page's configuration."""

from pathlib import Path

from raglab_core.corpus import panel

SAMPLE = ("state_of_the_union.md", "questions_df.csv", "LICENSE")
# How a sample file is published when its own name would not do: the licence gets a type, and
# the Markdown corpus a .txt suffix, because a documentation site that holds the lab
# (`build.py export`) takes every .md file in its docs folder for a page of its own and renders it.
PUBLISHED = {"LICENSE": "LICENSE.txt", "state_of_the_union.md": "state_of_the_union.md.txt"}


def corpus_config(folder: Path, files: dict) -> dict:
    """Add the sample (``folder``'s files, published under ``data/corpus/``) to ``files``; return the panel's
    ``lab_config`` entry: its settings and sentences (:func:`raglab_core.corpus.panel.page_settings`), the
    sample's corpus and evidence, each as ``{url, name}`` (the name the panel shows and the results
    use, whatever the published file is called), and its licence's address."""
    urls = {}
    for name in SAMPLE:
        urls[name] = f"data/corpus/{PUBLISHED.get(name, name)}"
        files[urls[name]] = (folder / name).read_bytes()
    sample = [{"url": urls[name], "name": name} for name in SAMPLE[:2]]
    return {**panel.page_settings(), "sample": sample, "licence": urls["LICENSE"]}

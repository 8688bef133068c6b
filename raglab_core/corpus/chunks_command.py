"""The ``chunks`` command: chunking configurations measured on your own corpus (DESIGN §4.9).

::

    python -m raglab_core chunks CORPUS QUERIES [--qrels F] [--spans F]
        [--chunk C --overlap O | --sweep "C:O C:O ..."] [--baseline C:O] [--k1 0.9] [--b 0.4]
        [--depth 100] [--measures "..."] [--at 1,3,5,10] [--json] [--export-chunks F]
        [--chunks F --run F] [--write-runs DIR]

CORPUS is BEIR's ``corpus.jsonl``, a folder of ``.txt``/``.md`` files, or one such file; QUERIES is BEIR's
``queries.jsonl`` or TSV ``id<TAB>text``, or ``-`` when ``--spans`` is Chroma's ``questions_df.csv``
(which holds the queries). The corpus is read and tokenized once for every configuration
(:func:`raglab_core.corpus.evaluate.prepare`). Output: a table, or the JSON report
(:func:`raglab_core.corpus.sweep.report`); progress and warnings go to stderr. Exit status: 0, 1 for
a malformed input file (every problem listed, with its line), 2 for usage errors.

>>> args = build_parser().parse_args(["chunks", "corpus.jsonl", "-", "--sweep", "128:0 256:32"])
>>> configs_of(args)
[(128, 0), (256, 32)]
"""

import argparse
import os
import sys

from ..command_line import add_command, at_least, cannot_read, malformed
from ..errors import LabError
from ..runs.measures import parse_measures
from ..runs.decoding import format_name
from ..runs.statistics import p_text, p_value_text
from ..runs.trec import parse_qrels, parse_run
from .bm25 import B, DEPTH, K1
from .chroma import read_questions
from .documents import CorpusReader, documents_from_files, is_document_file
from .evaluate import CUTS, evaluate_chunks_run, prepare
from .exchange import ChunksReader, chunk_lines, run_lines
from .chunks import chunk_table
from .files import read_folder, read_path, read_text
from .queries import QueriesReader
from .spans import SpansReader
from .sweep import config_name, parse_config, parse_sweep, report, report_text, sweep

DEFAULT_CONFIG = (256, 32)


NAME = "chunks"
SUMMARY = "measure chunking configurations on your corpus (BM25 over the chunks, evidence spans)"
DESCRIPTION = (
    "Cut CORPUS into chunks for each configuration, retrieve with BM25 (Lucene's variant) for "
    "each query of QUERIES, and measure what the chunks retrieve against evidence spans (--spans) and "
    "document qrels (--qrels)."
)


def arguments(parser: argparse.ArgumentParser) -> None:
    """``chunks``'s arguments and options, on its ``parser`` (:func:`raglab_core.command_line.add_command`)."""
    add = parser.add_argument
    add("corpus", metavar="CORPUS", help="BEIR corpus.jsonl (_id, text, optional title) or a folder of .txt/.md files")
    add("queries", metavar="QUERIES",
        help="BEIR queries.jsonl or TSV id<TAB>text; '-' when --spans is Chroma's questions_df.csv")
    add("--qrels", help="document-level qrels in any format eval reads")
    add("--spans", help='evidence: JSONL {"query_id","doc_id","start","end"[,"text"]} or Chroma\'s questions_df.csv')
    add("--chunk", type=at_least(1), help="chunk size in tokens (with --overlap; default 256:32)")
    add("--overlap", type=at_least(0), help="overlap in tokens")
    add("--sweep", help='configurations "C:O C:O ...", each compared with the baseline')
    add("--baseline", help="the configuration the others are compared with (default: the first)")
    add("--k1", type=float, default=K1, help=f"BM25 k1 (default {K1})")
    add("--b", type=float, default=B, help=f"BM25 b (default {B})")
    add("--depth", type=at_least(1), default=DEPTH, help=f"chunks retrieved per query (default {DEPTH})")
    add("--measures", help="document-level measures (with --qrels), in eval's notation (default: eval's)")
    add("--at", default=",".join(map(str, CUTS)), help="cuts k of the evidence measures (default 1,3,5,10)")
    add("--json", action="store_true", help="print the JSON report instead of a table")
    add("--export-chunks", metavar="F", help="write the chunks of the (first) configuration as JSONL")
    add("--chunks", dest="chunks_file", metavar="F", help="your own chunks (JSONL, as --export-chunks writes)")
    add("--run", metavar="F", help="a run over your chunks (TREC, chunk ids as document ids); with --chunks")
    add("--write-runs", metavar="DIR", help="write each configuration's chunk run and document run (TREC)")


def configs_of(args) -> list:
    """The configurations asked for: ``--sweep``, or ``--chunk``/``--overlap``, or 256:32."""
    if args.sweep is not None:
        return parse_sweep(args.sweep)
    if args.chunk is not None or args.overlap is not None:
        return [parse_config(f"{args.chunk if args.chunk is not None else DEFAULT_CONFIG[0]}:"
                             f"{args.overlap if args.overlap is not None else 0}", "chunk")]
    return [DEFAULT_CONFIG]


def _cuts(text: str) -> list:
    try:
        cuts = sorted({int(item) for item in text.replace(" ", "").split(",") if item})
    except ValueError:
        cuts = []
    if not cuts or cuts[0] < 1:
        raise LabError("below_minimum", field="at", name="--at", minimum=1)
    return cuts


def _read(args):
    """Documents, queries and spans (and qrels) as the paths of ``args`` give them."""
    if os.path.isdir(args.corpus):
        documents = read_folder(args.corpus)
    elif is_document_file(format_name(args.corpus)):  # one .txt or .md file: a corpus of one document
        documents = documents_from_files([(os.path.basename(args.corpus), read_text(args.corpus, "corpus"))])
    else:
        documents = read_path(CorpusReader(args.corpus), args.corpus)
    spans, queries = [], None
    chroma = args.spans is not None and format_name(args.spans).lower().endswith(".csv")
    if chroma:
        queries, spans = read_questions(read_text(args.spans, "evidence"), documents, args.spans)
    if args.queries != "-":
        queries = read_path(QueriesReader(args.queries), args.queries)
    elif queries is None:
        raise LabError("below_minimum", field="queries", name="QUERIES ('-' needs --spans questions_df.csv)", minimum=1)
    if args.spans is not None and not chroma:
        spans = read_path(SpansReader(args.spans, documents, queries), args.spans)
    qrels = None
    if args.qrels is not None:
        qrels = parse_qrels(read_text(args.qrels, "qrels"), os.path.basename(args.qrels))
    return documents, queries, spans, qrels


def format_table(data) -> str:
    """The report as a plain-text table: one row per configuration, then its comparison with the baseline."""
    configs = data["configs"]
    if not configs:
        return "no configuration\n"
    names = list(configs[0]["mean"])
    header = ["config", "chunks", "indexed", "duplicated", *names]
    rows = [[c["name"], str(c["chunks"]), str(c["indexed_tokens"]), str(c["duplicated_tokens"]),
             *(f"{c['mean'][n]:.4f}" for n in names)] for c in configs]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(widths[0]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)).rstrip()
             for row in [header, *rows]]
    corpus = data["corpus"]
    head = (f"{corpus['documents']} documents, {corpus['tokens']} tokens, {corpus['queries']} queries, "
            f"{corpus['spans']} spans; BM25 k1={data['bm25']['k1']} b={data['bm25']['b']} depth={data['bm25']['depth']}")
    blocks = [head, "\n".join(lines)]
    for pair in data["comparisons"]:
        rows = []
        for name, result in pair["metrics"].items():
            low, high = result["ci95"]
            p_value = p_value_text(result["p_value"], pair["permutations"], result["p_value_exact"],
                                   result["p_value_se"], "en")
            rows.append(f"  {name:<18} {result['mean_delta']:+.4f}  [{low:+.4f}, {high:+.4f}]  "
                        f"p {p_value}  Holm p {p_text(result['p_value_adjusted'], result['p_value_exact'], 'en')}")
        blocks.append(f"{pair['candidate']} - {pair['baseline']} (baseline), over {pair['queries']} queries:\n"
                      + "\n".join(rows))
    return "\n\n".join(blocks) + "\n"


def run(args, parser) -> int:
    """``chunks``: read, chunk, retrieve, measure, print; return the exit status."""
    try:
        configs = configs_of(args)
        cuts = _cuts(args.at)
        measures = parse_measures(args.measures) if args.measures is not None else None
        if (args.chunks_file is None) != (args.run is None):
            parser.error("--chunks and --run go together")
        baseline = 0
        if args.baseline is not None:
            wanted = parse_config(args.baseline, "baseline")
            if wanted not in configs:
                raise LabError("config_baseline", field="baseline", value=args.baseline,
                               configs=", ".join(config_name(*c) for c in configs))
            baseline = configs.index(wanted)
    except LabError as error:
        parser.error(error.render("en"))
    try:
        documents, queries, spans, qrels = _read(args)
    except OSError as failure:
        return cannot_read(f"{parser.prog} chunks", failure)
    except LabError as error:
        return malformed([error.render("en")])
    prepared = prepare(documents, queries, spans)

    def progress(index, name, done, total):
        if done == total or done % 100 == 0:
            print(f"\r{name}: {done}/{total} queries", end="" if done < total else "\n", file=sys.stderr)

    try:
        if args.chunks_file is not None:
            chunk_spans = read_path(ChunksReader(args.chunks_file, documents), args.chunks_file)
            chunk_run = parse_run(read_text(args.run, "run"), os.path.basename(args.run))
            results = [evaluate_chunks_run(prepared, chunk_spans, chunk_run, cuts=cuts, qrels=qrels, measures=measures,
                                           chunks_name=os.path.basename(args.chunks_file),
                                           run_name=os.path.basename(args.run))]
        else:
            results = sweep(prepared, configs, k1=args.k1, b=args.b, depth=args.depth, cuts=cuts, qrels=qrels,
                            measures=measures, progress=progress)
    except LabError as error:
        return malformed([error.render("en")])
    data = report(prepared, results, baseline, k1=args.k1, b=args.b, depth=args.depth)
    if args.export_chunks and args.chunks_file is None:
        table = chunk_table(prepared.corpus, *configs[0])
        with open(args.export_chunks, "w", encoding="utf-8") as out:
            out.writelines(line + "\n" for line in chunk_lines(table, documents))
    if args.write_runs:
        os.makedirs(args.write_runs, exist_ok=True)
        for result in results:
            stem = result.name.replace(":", "-")
            for kind, found in (("chunks", result.chunk_run), ("documents", result.document_run)):
                with open(os.path.join(args.write_runs, f"{stem}.{kind}.txt"), "w", encoding="utf-8") as out:
                    out.writelines(line + "\n" for line in run_lines(found, f"bm25-{stem}"))
    for warning in data["warnings"]:
        print(f"warning: {warning['message']}", file=sys.stderr)
    sys.stdout.write(report_text(data) if args.json else format_table(data))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """A parser with only ``chunks`` (for the doctest; the command line's is :mod:`raglab_core.__main__`'s)."""
    parser = argparse.ArgumentParser(prog="python -m raglab_core")
    add_command(parser.add_subparsers(dest="command"), sys.modules[__name__])
    return parser

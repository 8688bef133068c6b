"""Benchmark of the chunking sweep: our BM25 over the chunks against bm25s on the same tokens.

Run: .venv/bin/python bench/corpus.py [--scale N] [--repeat N] [--configs "128:0 128:16 ..."] [--only ours|bm25s]
(not a test; prints a table). A SciFact-sized synthetic corpus (scale 1: 5,000 documents with titles,
about 1.5 M tokens, 300 queries of about 12 words), drawn from a seeded Zipfian vocabulary (s = 1.0,
60,000 words), is tokenized once; then for each of the 9 configurations (128/256/512 tokens x overlap
0, 1/8, 1/4), interleaved (the side that goes first alternates from one configuration, and one repeat,
to the next):

* ours: ``raglab_core.corpus.evaluate.evaluate_config`` (windows, BM25 postings, the top 100 chunks
  of every query, the MaxP document run);
* bm25s 0.3.16 (``method="lucene"``, k1 = 0.9, b = 0.4, numpy backend), given the same chunks as
  lists of our term numbers with our vocabulary (its fastest input), ``index`` then ``retrieve(k=100)``.

Peak memory is each side's sweep alone in a fresh process (``--only``; resource.getrusage's
ru_maxrss, which includes the interpreter and generating the corpus; on Linux also the resident memory
before the sweep and its peak during the sweep alone, read from /proc/self/status after resetting the
peak). Times are wall and CPU (``time.process_time``; the machine may be shared, and CPU time is the
steadier figure). Each configuration also checks our scores against bm25s's ``get_scores`` (not timed):
the worst relative difference over the chunks we retrieve, and how many chunks bm25s scores above our
last one by more than 1e-5 that we did not retrieve ("missed", 0 when the runs agree). Reading and tokenizing is timed apart
(it is shared by every configuration, and bm25s is given its result).

On a shared machine one sweep's ratio moves by 10 % or more from run to run: ``--repeat N`` runs the
interleaved sweep N times and prints the median ratio (the table shows the first repeat, ``--verbose``
every one).
"""

import argparse
import gc
import itertools
import json
import pathlib
import random
import resource
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from raglab_core.corpus.chunks import chunk_table  # noqa: E402
from raglab_core.corpus.documents import Document  # noqa: E402
from raglab_core.corpus.evaluate import evaluate_config, prepare  # noqa: E402

TOLERANCE = 1e-5
CONFIGS = "128:0 128:16 128:32 256:0 256:32 256:64 512:0 512:64 512:128"
SEED = 38


def synthetic(scale: int = 1, seed: int = SEED):
    """``({id: Document}, {qid: text})``: 5,000·scale documents of about 300 tokens, 300 queries."""
    rng = random.Random(seed)
    syllables = [c + v for c in "bcdfghjklmnprstvz" for v in "aeiou"] + ["qu", "ch", "ll", "rr"]
    words, seen = [], set()
    while len(words) < 60_000:
        word = "".join(rng.choice(syllables) for _ in range(rng.choice((1, 2, 2, 3, 3, 4))))
        if word not in seen:
            seen.add(word)
            words.append(word)
    cumulative = list(itertools.accumulate(1 / rank for rank in range(1, len(words) + 1)))
    documents = {}
    for number in range(5000 * scale):
        length = max(20, int(rng.lognormvariate(5.52, 0.55)))
        title = " ".join(rng.choices(words, cum_weights=cumulative, k=rng.randint(6, 14))).capitalize()
        body = rng.choices(words, cum_weights=cumulative, k=length)
        text = ". ".join(" ".join(body[i: i + 18]).capitalize() for i in range(0, length, 18)) + "."
        documents[f"doc{number}"] = Document(f"doc{number}", text, title)
    queries = {f"q{n}": " ".join(rng.choices(words, cum_weights=cumulative, k=rng.randint(6, 18))) + "?"
               for n in range(300)}
    return documents, queries


def ours(prepared, chunk, overlap):
    """``(wall seconds, CPU seconds, the Evaluation)``."""
    started, cpu = time.perf_counter(), time.process_time()
    result = evaluate_config(prepared, chunk, overlap, depth=100, cuts=[1])
    return time.perf_counter() - started, time.process_time() - cpu, result


def bm25s_side(prepared, chunk, overlap):
    import bm25s

    table = chunk_table(prepared.corpus, chunk, overlap)
    terms = prepared.corpus.terms
    chunks = [terms[d][first:last].tolist() for d, first, last in zip(table.documents, table.firsts, table.lasts)]
    queries = [terms for terms in prepared.terms.values() if terms]
    vocabulary = {number: number for number in range(len(prepared.corpus.vocabulary))}
    gc.collect()
    started, cpu = time.perf_counter(), time.process_time()
    retriever = bm25s.BM25(k1=0.9, b=0.4, method="lucene")
    retriever.index((chunks, vocabulary), show_progress=False)
    retriever.retrieve(queries, k=100, show_progress=False)
    return time.perf_counter() - started, time.process_time() - cpu, retriever


def agreement(prepared, chunk, overlap, result, retriever):
    """Worst relative difference between our scores and bm25s's (``get_scores``, every chunk) over the chunks we
    retrieved, and the chunks bm25s scores clearly above our last one that we miss (should be 0)."""
    numbers = {chunk_id: number for number, chunk_id in enumerate(chunk_table(prepared.corpus, chunk, overlap).chunk_ids)}
    worst, missed = 0.0, 0
    for qid, terms in prepared.terms.items():
        run = result.chunk_run[qid]
        if not terms:
            continue
        theirs = retriever.get_scores(terms)
        for chunk_id, score in run.items():
            worst = max(worst, abs(score - float(theirs[numbers[chunk_id]])) / score)
        if run:
            last = min(run.values())
            chosen = {numbers[chunk_id] for chunk_id in run}
            missed += sum(1 for number in (theirs > last * (1 + TOLERANCE)).nonzero()[0] if number not in chosen)
    return worst, missed


def parse_configs(text):
    return [tuple(map(int, item.split(":"))) for item in text.split()]


def _resident(field):
    """``VmHWM`` (peak) or ``VmRSS`` (now) of this process in MB, from /proc (``None`` elsewhere)."""
    try:
        for line in pathlib.Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None


def only(side, scale, configs):
    """One side's sweep in this process: seconds, peak resident memory of the whole process (MB), and, on Linux,
    the resident memory before the sweep and its peak during the sweep alone (the peak is reset first)."""
    documents, queries = synthetic(scale)
    prepared = prepare(documents, queries)
    gc.collect()
    before = _resident("VmRSS")
    try:
        pathlib.Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current VmRSS
    except OSError:
        pass
    started = time.perf_counter()
    for chunk, overlap in configs:
        (ours if side == "ours" else bm25s_side)(prepared, chunk, overlap)
        gc.collect()
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"side": side, "seconds": seconds, "peak_mb": peak, "before_mb": before,
                      "sweep_peak_mb": _resident("VmHWM"), "tokens": prepared.corpus.tokens}))


def memory(side, scale, configs):
    command = [sys.executable, __file__, "--only", side, "--scale", str(scale),
               "--configs", " ".join(f"{c}:{o}" for c, o in configs)]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--configs", default=CONFIGS)
    parser.add_argument("--only", choices=("ours", "bm25s"))
    parser.add_argument("--no-bm25s", action="store_true", help="time ours only (e.g. at --scale 10)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run the interleaved sweep N times (the sides alternate first) and print the median ratio")
    parser.add_argument("--verbose", action="store_true", help="print every configuration of every repeat")
    args = parser.parse_args()
    configs = parse_configs(args.configs)
    if args.only:
        return only(args.only, args.scale, configs)
    started = time.perf_counter()
    documents, queries = synthetic(args.scale)
    generated = time.perf_counter() - started
    started = time.perf_counter()
    prepared = prepare(documents, queries)
    shared = time.perf_counter() - started
    print(f"corpus: {len(documents)} documents, {prepared.corpus.tokens} tokens, {len(queries)} queries "
          f"(generated in {generated:.1f} s; tokenized and positions grouped once in {shared:.1f} s)")
    print(f"{'config':>8} {'chunks':>7} {'ours s':>7} {'bm25s s':>7} {'ratio':>6} {'ours cpu':>8} {'bm25s cpu':>9} "
          f"{'ratio':>6} {'worst rel. diff':>15} {'missed':>6}")
    sweeps = []  # (ours wall, bm25s wall, ours cpu, bm25s cpu) of each repeat
    for repeat in range(args.repeat):
        totals = {"ours": [0.0, 0.0], "bm25s": [0.0, 0.0]}
        worst_all, missed_all = 0.0, 0
        for number, (chunk, overlap) in enumerate(configs):
            sides = [("ours", ours), ("bm25s", bm25s_side)]
            if args.no_bm25s:
                sides = sides[:1]
            elif (number + repeat) % 2:
                sides.reverse()
            timed = {}
            for name, run in sides:
                gc.collect()
                timed[name] = run(prepared, chunk, overlap)
                totals[name][0] += timed[name][0]
                totals[name][1] += timed[name][1]
            wall, cpu, result = timed["ours"]
            line = f"{chunk}:{overlap:<4} {result.footprint.chunks:>7} {wall:>7.2f} "
            if "bm25s" in timed:
                their_wall, their_cpu, retriever = timed["bm25s"]
                if repeat == 0:
                    worst, missed = agreement(prepared, chunk, overlap, result, retriever)
                    worst_all, missed_all = max(worst_all, worst), missed_all + missed
                    agreed = f"{worst:>15.1e} {missed:>6}"
                else:
                    agreed = ""
                line += (f"{their_wall:>7.2f} {wall / their_wall:>6.2f} {cpu:>8.2f} {their_cpu:>9.2f} "
                         f"{cpu / their_cpu:>6.2f} {agreed}")
            else:
                line += f"{'':>7} {'':>6} {cpu:>8.2f}"
            del timed, result
            if repeat == 0 or args.verbose:
                print(line, flush=True)
        (wall, cpu), (their_wall, their_cpu) = totals["ours"], totals["bm25s"]
        sweeps.append((wall, their_wall, cpu, their_cpu))
        line = f"{'sweep':>8} {'':>7} {wall:>7.2f} "
        if their_wall:
            line += (f"{their_wall:>7.2f} {wall / their_wall:>6.2f} {cpu:>8.2f} {their_cpu:>9.2f} "
                     f"{cpu / their_cpu:>6.2f} ")
            line += f"{worst_all:>15.1e} {missed_all:>6}" if repeat == 0 else f"(repeat {repeat + 1})"
        else:
            line += f"{'':>7} {'':>6} {cpu:>8.2f}"
        print(line, flush=True)
    if args.repeat > 1 and not args.no_bm25s:
        walls = sorted(ours / theirs for ours, theirs, _, _ in sweeps)
        cpus = sorted(ours / theirs for _, _, ours, theirs in sweeps)
        print(f"sweep ratio over {args.repeat} repeats: wall median {statistics.median(walls):.2f} "
              f"(min {walls[0]:.2f}, max {walls[-1]:.2f}); CPU median {statistics.median(cpus):.2f} "
              f"(min {cpus[0]:.2f}, max {cpus[-1]:.2f})")
    wall = statistics.median(sweep[0] for sweep in sweeps)
    print(f"ours, with the shared tokenization: {wall + shared:.2f} s" + (" (median sweep)" if args.repeat > 1 else ""))
    del prepared, documents
    gc.collect()
    for side in ("ours",) if args.no_bm25s else ("ours", "bm25s"):
        figures = memory(side, args.scale, configs)
        during = ""
        if figures["sweep_peak_mb"] is not None:
            during = (f"; {figures['before_mb']:.0f} MB resident before the sweep, "
                      f"{figures['sweep_peak_mb']:.0f} MB at most during it")
        print(f"peak memory, {side} sweep alone (fresh process, corpus included): {figures['peak_mb']:.0f} MB "
              f"({figures['seconds']:.1f} s{during})")


if __name__ == "__main__":
    sys.exit(main())

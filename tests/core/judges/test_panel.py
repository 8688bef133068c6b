"""«¿Te fías de tus juicios?» in «Tus datos» (raglab_core.judges.agreement_session and .panel): the page's session
reads a judge's qrels beside the reference's, and its download and view carry exactly what `agree --json` prints for the
same files; the reading puts the warnings first and never claims more than the numbers license."""

import json

import pytest

from raglab_core.__main__ import main
from raglab_core.browser import EvaluationBridge
from raglab_core.judges.agreement_session import AgreementSession
from raglab_core.runs.inputs import read_all

from tests.support.trec_data import qrels_lines, reversed_judge_collection as collection, run_lines


@pytest.fixture(scope="module")
def texts():
    reference, judge, runs = collection()
    return {"qrels": "".join(qrels_lines(reference)), "judge": "".join(qrels_lines(judge)),
            **{slot: "".join(run_lines(run)) for slot, run in zip("ABC", runs)}}


NAMES = {"qrels": "people.txt", "judge": "llm.txt", "A": "a.txt", "B": "b.txt", "C": "c.txt"}


def cli_json(tmp_path, texts, slots, capsys):
    for slot in ("qrels", "judge", *slots):
        (tmp_path / NAMES[slot]).write_text(texts[slot])
    assert main(["agree", *(str(tmp_path / NAMES[slot]) for slot in ("qrels", "judge", *slots)), "--json"]) == 0
    return capsys.readouterr().out


def session(texts, slots, **settings):
    """The page's session over whole texts, with their sizes (the progress: the judge's qrels have no share)."""
    heard = []
    sizes = [len(texts[slot]) for slot in ("qrels", *slots)]
    found = AgreementSession({"qrels": NAMES["qrels"], "judge": NAMES["judge"], "runs": [NAMES[s] for s in slots],
                              "sizes": sizes, "files": [True] * len(sizes), **settings},
                             lambda fraction, text: heard.append(fraction))
    read_all(found, lambda slot: [texts[slot][:100], texts[slot][100:]])
    panel = found.finish()
    assert heard == sorted(heard) and (not slots or heard[-1] == 1.0)
    return found, panel


def test_without_runs_the_view_and_the_download_are_agree_json(tmp_path, texts, capsys):
    expected = cli_json(tmp_path, texts, (), capsys)
    found, panel = session(texts, ())
    assert found.agreement_json() == expected
    report = json.loads(expected)
    view = panel["agreement"]
    values = {figure["name"]: figure["value"] for figure in view["figures"] if figure["name"]}
    labels = report["labels"]
    assert values == {"pairs": labels["n"], "exact": labels["exact"], "kappa": labels["kappa"],
                      "kappa_linear": labels["kappa_linear"], "kappa_quadratic": labels["kappa_quadratic"],
                      "alpha_ordinal": labels["alpha_ordinal"], "alpha_interval": labels["alpha_interval"],
                      "pabak": labels["binary"][0]["pabak"], "bias": labels["bias"]["mean"]}
    assert [[cell["count"] for cell in row["cells"]] for row in view["confusion"]["rows"]] == labels["confusion"]
    assert [w["code"] for w in view["warnings"]] == [w["code"] for w in report["warnings"]]
    assert view["systems"] is None and "means" not in panel
    said = view["reading"]
    assert "carga tus runs" in said["verdict"] and "fiable" not in json.dumps(view, ensure_ascii=False)
    assert len(" ".join([said["verdict"], *said["lines"], said["summary"]]).split()) <= 80  # verdict first, short


def test_with_runs_the_system_rows_and_flips_are_agree_json_and_the_verdict_names_the_flip(tmp_path, texts, capsys):
    expected = cli_json(tmp_path, texts, "ABC", capsys)
    found, panel = session(texts, "ABC")
    assert found.agreement_json() == expected
    systems = json.loads(expected)["systems"]
    rows = panel["agreement"]["systems"]["measures"]
    assert [(row["measure"], row["tau_b"], row["tau_ap"], row["flips"]) for row in rows] == [
        (measure, a["kendall_tau_b"], a["tau_ap"], len(a["flips"])) for measure, a in systems["agreement"].items()]
    significant = [f for a in systems["agreement"].values() for f in a["flips"] if f["significant"]]
    assert significant, "the collection is built to flip a pair the reference separates"
    view = panel["agreement"]
    shown = view["systems"]["flips"]
    assert [flip["significant"] for flip in shown] == sorted((flip["significant"] for flip in shown), reverse=True)
    assert view["reading"]["verdict"].startswith("El juez invierte «")
    assert "se mantiene" not in view["reading"]["text"] and "fiable" not in json.dumps(view, ensure_ascii=False)
    # the evaluation's own panel is there too, under the reference's qrels
    assert [run["name"] for run in panel["means"]] == ["a.txt", "b.txt", "c.txt"]
    lines = view["systems"]["slopegraph"]["lines"]
    assert {line["run"] for line in lines if line["kind"] == "significant"} >= {significant[0]["baseline"],
                                                                                significant[0]["candidate"]}


def test_the_switch_evaluates_the_runs_with_the_judges_qrels_and_leaves_the_agreement_alone(texts):
    plain, _ = session(texts, "AB")
    switched, panel = session(texts, "AB", judge_for_runs=True)
    assert switched.agreement_json() == plain.agreement_json()
    judge_means = switched.agreement["systems"]["judge_means"]
    first = switched.report["measures"][0]
    assert [cell["raw"] for cell in (run["cells"][0] for run in panel["means"])] == [
        judge_means[name][first] for name in ("a.txt", "b.txt")]
    assert "juicios a comparar" in panel["agreement"]["systems"]["note"]
    # the query detail too: the runs' first documents, graded by the judge
    shown = switched.query_detail("q0")["runs"][0]["documents"]
    judge = {doc: int(grade) for qid, _, doc, grade in (line.split() for line in texts["judge"].splitlines())
             if qid == "q0"}
    assert len(shown) == 8 and [d["grade"] for d in shown] == [judge[d["id"]] for d in shown]


def test_the_bridge_names_a_bad_judge_file_and_downloads_the_agreement(texts):
    bridge = EvaluationBridge(json.dumps({"qrels": "people.txt", "judge": "llm.txt", "runs": []}))
    read_all(bridge, lambda slot: ["q1 0 a x\n" if slot == "judge" else texts[slot]])
    failed = json.loads(bridge.finish())
    assert failed["ok"] is False and failed["slot"] == "judge" and "llm.txt" in failed["message"]
    bridge = EvaluationBridge(json.dumps({"qrels": "people.txt", "judge": "llm.txt", "runs": []}))
    read_all(bridge, lambda slot: [texts[slot]])
    assert json.loads(bridge.finish())["ok"]
    saved = json.loads(bridge.download("agreement"))
    assert saved["name"] == "raglab-acuerdo.json" and json.loads(saved["text"])["labels"]["n"] == 25 * 8

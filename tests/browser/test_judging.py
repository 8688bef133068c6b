"""The judging page (dist/juzgar/, issue 51): judge by keyboard alone and lose nothing (a reload, a context closed
without unload, a second tab), storage refused, a hostile corpus shown as text, axe at 1280 and 390 px."""

import json

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from raglab_core.judges.exports import export_json
from raglab_core.judges.grades import merge_grades
from raglab_core.judges.job import make_job
from raglab_core.judges.pair_view import DISPLAY_CHARACTERS
from raglab_core.runs.statistics import SEED
from raglab_core.judges.progress import resume_index

from ..support.chromium import CHROMIUM_ARGS, find_test_chromium

PROGRESS = "[data-judging-progress]"
JUDGING = "[data-judging]"


def open_page(page, base_url, fresh=False):
    """The judging page, Python ready; ``fresh``: its storage emptied first (the shared context keeps other tests' jobs)."""
    if fresh:
        page.goto(base_url + "data/juzgar/run-bm25-128-16.txt")  # the same origin, no script holding the database open
        page.evaluate("() => new Promise((done) => { const q = indexedDB.deleteDatabase('raglab-juzgar');"
                      " q.onsuccess = q.onerror = q.onblocked = done; })")
    page.goto(base_url + "juzgar/")
    expect(page.locator("html")).to_have_attribute("data-judge-ready", "true", timeout=90_000)


def shown(page) -> tuple:
    judging = page.locator(JUDGING)
    return judging.get_attribute("data-query"), judging.get_attribute("data-doc")


def press(page, key: str, typed: list) -> None:
    """Grade the pair on screen by key; wait until the next pair's progress says it was stored."""
    done = int(page.locator(PROGRESS).get_attribute("data-done"))
    typed.append((*shown(page), int(key)))
    page.keyboard.press(key)
    expect(page.locator(PROGRESS)).to_have_attribute("data-done", str(done + 1))


def downloaded(page, action: str) -> str:
    with page.expect_download() as info:
        page.locator(f'[data-action="{action}"]').click()
    return open(info.value.path(), encoding="utf-8").read()


def qrels_of(typed: list) -> str:
    return "".join(f"{q} 0 {d} {g}\n" for q, d, g in sorted(typed))


def test_judged_by_keyboard_through_a_reload_a_crash_and_a_second_tab(playwright, base_url, tmp_path):
    launch = dict(executable_path=find_test_chromium(), args=CHROMIUM_ARGS, service_workers="block",
                  viewport={"width": 1280, "height": 900}, accept_downloads=True)
    context = playwright.chromium.launch_persistent_context(tmp_path / "profile", **launch)
    page = context.new_page()
    open_page(page, base_url)
    page.locator('[data-action="sample-job"]').click()
    expect(page.locator(JUDGING)).to_be_visible(timeout=30_000)
    expect(page.locator(PROGRESS)).to_have_attribute("data-total", "20")
    typed = []
    for key in "302":
        press(page, key, typed)
    # (a) A reload resumes at once at the same pair, every grade kept.
    at = shown(page)
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-judge-ready", "true", timeout=90_000)
    expect(page.locator(PROGRESS)).to_have_attribute("data-done", "3", timeout=30_000)
    assert shown(page) == at
    for key in "11":
        press(page, key, typed)
    # (b) The context closed right after the writes (no unload of the page's own), then opened on the same profile.
    at = shown(page)
    context.close()
    context = playwright.chromium.launch_persistent_context(tmp_path / "profile", **launch)
    page = context.new_page()
    open_page(page, base_url)
    expect(page.locator(PROGRESS)).to_have_attribute("data-done", "5", timeout=30_000)
    assert shown(page) == at
    # (c) A second tab on the same job grades; the first sees its grades, and goes on after them.
    second = context.new_page()
    open_page(second, base_url)
    expect(second.locator(PROGRESS)).to_have_attribute("data-done", "5", timeout=30_000)
    assert shown(second) == at
    second.bring_to_front()
    for key in "23":
        press(second, key, typed)
    expect(page.locator(PROGRESS)).to_have_attribute("data-done", "7")
    page.bring_to_front()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator(JUDGING)).to_have_attribute("data-index", "7")
    press(page, "0", typed)
    # `u` undoes the last grade, then it is given again.
    page.keyboard.press("u")
    expect(page.locator(PROGRESS)).to_have_attribute("data-done", "7")
    press(page, "1", typed)
    del typed[-2]
    assert downloaded(page, "export-qrels") == qrels_of(typed)
    # In order: the grades' moments follow the order they were typed in.
    exported = json.loads(downloaded(page, "export-json"))
    moments = [exported["grades"][f"{q}\t{d}"]["at"] for q, d, _ in typed]
    assert moments == sorted(moments) and len(set(moments)) == len(moments)
    context.close()


REFUSE_STORAGE = "IDBFactory.prototype.open = function () { throw new DOMException('refused', 'SecurityError'); };"


def test_refused_storage_is_said_at_once_and_the_export_still_works(page, base_url):
    page.add_init_script(REFUSE_STORAGE)
    open_page(page, base_url)
    warning = page.locator("[data-storage-warning]")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("no deja guardar datos")
    page.locator('[data-action="sample-job"]').click()
    expect(page.locator(JUDGING)).to_be_visible(timeout=30_000)
    typed = []
    for key in "21":
        press(page, key, typed)
    assert downloaded(page, "export-qrels") == qrels_of(typed)


HOSTILE = {
    "html": '<b onclick="x()">negrita</b><img src=x onerror="window.pwned=1">',
    "script": "<script>window.pwned = 1</script> consulta",
    "long": "consulta" + "x" * 1_000_000,
    "rtl": "مرحبا بالعالم \u202e consulta שלום",
    "emoji": "👩🏽‍💻 consulta 🇪🇸 " * 20,
    "nul": "antes\u0000después consulta",
}


def test_a_hostile_corpus_is_shown_as_text(page, base_url, tmp_path):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"_id": key, "title": "<i>t</i>", "text": text}) + "\n"
                              for key, text in HOSTILE.items()), encoding="utf-8")
    queries = tmp_path / "queries.tsv"
    queries.write_text("q1\t<script>window.pwned=1</script> consulta\n", encoding="utf-8")
    run = tmp_path / "run.txt"
    run.write_text("".join(f"q1 Q0 {key} {rank} {10 - rank} r\n" for rank, key in enumerate(HOSTILE, 1)), encoding="utf-8")
    page.set_viewport_size({"width": 390, "height": 844})
    open_page(page, base_url, fresh=True)
    page.locator('[data-file-for="queries"]').set_input_files(str(queries))
    page.locator('[data-file-for="corpus"]').set_input_files(str(corpus))
    page.locator('[data-file-for="run-a"]').set_input_files(str(run))
    page.locator('[data-action="start-judging"]').click()
    expect(page.locator(PROGRESS)).to_have_attribute("data-total", str(len(HOSTILE)), timeout=30_000)
    seen = set()
    for _ in HOSTILE:
        doc = page.locator(JUDGING).get_attribute("data-doc")
        seen.add(doc)
        text = page.locator("[data-judge-text]").text_content()
        expected = HOSTILE[doc]
        assert text == (expected[:DISPLAY_CHARACTERS] if doc == "long" else expected)
        # Only text and <mark> inside the pair: nothing the corpus wrote became an element.
        tags = page.evaluate("() => [...document.querySelectorAll('[data-judging] .judge-pair *')].map(e => e.tagName)")
        assert set(tags) <= {"H3", "SPAN", "P", "ARTICLE", "H4", "DIV", "MARK"}, tags
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        if len(seen) < len(HOSTILE):
            page.keyboard.press("ArrowRight")
            expect(page.locator(JUDGING)).not_to_have_attribute("data-doc", doc)
    assert seen == set(HOSTILE)
    assert page.evaluate("() => window.pwned") is None


# Two tabs' grades for one pair ({grade, at}; grade None: an undo), each case (held, incoming): a newer one, an
# older one, a tie, an undo newer and older than the grade held, and pairs only one side has.
MERGES = [
    ({"q\ta": {"grade": 1, "at": 5}}, {"q\ta": {"grade": 3, "at": 6}}),
    ({"q\ta": {"grade": 1, "at": 5}}, {"q\ta": {"grade": 3, "at": 4}}),
    ({"q\ta": {"grade": 1, "at": 5}}, {"q\ta": {"grade": 3, "at": 5}}),
    ({"q\ta": {"grade": 2, "at": 5}}, {"q\ta": {"grade": None, "at": 9}}),
    ({"q\ta": {"grade": None, "at": 9}}, {"q\ta": {"grade": 2, "at": 5}, "q\tb": {"grade": 0, "at": 1}}),
    ({}, {"q\tb": {"grade": 0, "at": 1}}),
    ({"q\tc": {"grade": 1, "at": 2}}, {}),
]


def test_the_page_resumes_and_merges_as_python_says_with_the_command_lines_seed(page, base_url, tmp_path):
    """An imported job opens where raglab_core.judges.progress.resume_index says (partly graded: its first pair
    without a grade; every pair graded: the last), two tabs' grades meet as merge_grades has them meet, and the seed
    setting's default is the command line's (pool --seed)."""
    open_page(page, base_url, fresh=True)
    expect(page.locator('[data-setting="seed"]')).to_have_value(str(SEED))
    for held, incoming in MERGES:
        merged = page.evaluate("([held, incoming]) => window.raglabJudgeStore.merged(held, incoming)", [held, incoming])
        assert merged == merge_grades(held, incoming), (held, incoming)
    pairs = [("q1", "a"), ("q1", "b"), ("q2", "c"), ("q2", "d")]
    queries = tmp_path / "queries.tsv"
    queries.write_text("q1\tgatos\nq2\tperros\n", encoding="utf-8")
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"_id": doc, "text": f"texto {doc}"}) + "\n" for _, doc in pairs), encoding="utf-8")
    page.locator('[data-file-for="queries"]').set_input_files(str(queries))
    page.locator('[data-file-for="corpus"]').set_input_files(str(corpus))
    for created, graded in (("2026-01-01T00:00:00Z", 2), ("2026-01-02T00:00:00Z", len(pairs))):
        job = make_job({}, pairs, {}, created=created)
        grades = {f"{q}\t{d}": {"grade": 1, "at": 1000 + n} for n, (q, d) in enumerate(job["pairs"][:graded])}
        exported = tmp_path / f"job-{graded}.json"
        exported.write_text(export_json(job, grades), encoding="utf-8")
        page.locator('[data-file-for="job"]').set_input_files(str(exported))
        page.locator('[data-action="start-judging"]').click()
        expect(page.locator(PROGRESS)).to_have_attribute("data-done", str(graded), timeout=30_000)
        expect(page.locator(JUDGING)).to_have_attribute("data-index", str(resume_index(job, grades)))
        assert shown(page) == tuple(job["pairs"][resume_index(job, grades)])
        page.locator('[data-action="close-job"]').click()
        expect(page.locator(JUDGING)).to_be_hidden()


def test_axe_finds_no_violations_on_the_judging_page(page, base_url):
    """At 1280 and 390 px, one job judged (the page loaded once: the widths change under it)."""
    open_page(page, base_url, fresh=True)
    page.locator('[data-action="sample-job"]').click()
    expect(page.locator(PROGRESS)).not_to_have_attribute("data-total", "0", timeout=30_000)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        results = Axe().run(page, options={"runOnly": {"type": "tag", "values": [
            "wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]}})
        violations = results.response["violations"]
        assert violations == [], (width, [(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in violations])


def test_the_sample_job_goes_on_into_tus_datos_and_the_agreement(page, base_url):
    """Pool, judge, then «Comparar con el juez» on the sample job: the lab opens at «¿Te fías de tus juicios?» with the grades typed as
    the reference and the sample's synthetic judge as the judge, compared on exactly the judged pairs; the judge's
    grades were never on the judging page."""
    judge_text = page.request.get(base_url + "data/juzgar/juez-lexico.txt").text()
    judge = {tuple(line.split()[::2]): int(line.split()[3]) for line in judge_text.splitlines()}
    open_page(page, base_url, fresh=True)
    page.locator('[data-action="sample-job"]').click()
    expect(page.locator(PROGRESS)).to_have_attribute("data-total", "20", timeout=30_000)
    typed = []
    for key in "3102":
        press(page, key, typed)
    assert "juez-lexico" not in page.locator(JUDGING).text_content()
    page.locator('[data-action="compare-judge"]').click()
    page.wait_for_url(base_url + "#te-fias")
    expect(page.locator("[data-data-status]")).to_have_text("Evaluación terminada.", timeout=90_000)
    agree = sum(judge[(query, doc)] == grade for query, doc, grade in typed)
    # the lab evaluates the sample's two runs with these qrels too (as «Evaluar en Tus datos» does, without a judge)
    expect(page.locator('[data-panel-output="means"] th')).to_have_text(["run-bm25-128-16.txt", "run-bm25-256-32.txt"])
    expect(page.locator('[data-agreement="pairs"]')).to_have_attribute("data-value", "4")
    assert float(page.locator('[data-agreement="exact"]').get_attribute("data-value")) == pytest.approx(agree / 4)

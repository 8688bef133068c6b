"""What a careful learner found (issue 20), in a real Chromium: honest sliders and totals, readable
links, «Restablecer» and «Copiar enlace»; and the lab's protocol after a refused state (issue 19)."""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from raglab_core import compute

from ..conftest import load_scenario
from ..support.lab_page import RENDERED_TEXT, TARGETS, Lab


pytestmark = pytest.mark.one_lab_page  # `lab`: the module's one page, reset (tests/browser/conftest.py)


def test_a_slider_never_shows_a_value_the_state_does_not_hold(page, base_url):
    """Issue 20, item 3: ?umbral=0 and ?k=abc: the echo says what the URL said, the slider shows no thumb."""
    lab = Lab(page, base_url, "?k=1&umbral=0")
    lab.expect_matches_core()
    umbral = lab.control("umbral")
    expect(page.locator('[data-echo="umbral"]')).to_have_text("0")
    expect(umbral).to_have_attribute("aria-invalid", "true")
    expect(umbral).to_have_attribute("data-unheld", "")
    expect(umbral).to_have_attribute("aria-valuetext", "0")
    expect(page.locator('[data-error-for="umbral"]')).to_have_text("Debe ser un entero entre 1 y 3 (la escala de grados va de 0 a 3).")
    expect(page.locator('[data-note-for="recall"]')).to_have_text("Sin calcular: corrige el umbral.")
    lab.press("umbral", "ArrowRight")  # the user moves it: it holds its value again
    lab.expect_matches_core()
    expect(umbral).not_to_have_attribute("data-unheld", "")
    expect(umbral).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator('[data-echo="umbral"]')).to_have_text(umbral.input_value())

    lab = Lab(page, base_url, "?k=abc")
    lab.expect_matches_core()
    expect(page.locator('[data-echo="k"]')).to_have_text("abc")  # not 7, the slider's midpoint
    expect(lab.control("k")).to_have_attribute("data-unheld", "")
    expect(lab.control("k")).to_have_value("1")  # at its minimum: no filled track up to 7 either

    for name in ("precision", "recall", "mrr", "ndcg", "relevant_in_k"):  # item 4: every «—» says why
        expect(page.locator(f'[data-note-for="{name}"]')).to_have_text("Sin calcular: corrige k.")
    # QA: the DCG@k card under the breakdown showed a bare «—» too.
    expect(page.locator('[data-note-for="dcg"]')).to_have_text("Sin calcular: corrige k.")

    lab = Lab(page, base_url, "?k=05&solape=064")  # what Python reads as 5 and 64 is held
    lab.expect_matches_core()
    expect(lab.control("k")).to_have_value("5")
    expect(lab.control("k")).not_to_have_attribute("data-unheld", "")
    expect(page.locator('[data-companion-for="solape"]')).to_have_value("64")
    expect(page.locator('[data-companion-for="solape"]')).not_to_have_attribute("data-unheld", "")
    assert lab.errors == []


def test_a_valid_value_between_a_companions_steps_is_held(page, base_url):
    """QA: ?solape=99 (the overlap that never cuts a 100-token evidence) is valid, yet its slider, whose
    step is 16, showed no thumb, as if the state did not hold it; typing 64 brings the steps back."""
    lab = Lab(page, base_url, "?solape=99&evidencia=100")
    lab.expect_matches_core()
    solape = page.locator('[data-companion-for="solape"]')
    expect(solape).to_have_value("99")
    expect(solape).not_to_have_attribute("data-unheld", "")
    lab.type("chunk", "500")  # 500 = 16 + 484, off the chunk slider's steps too
    lab.expect_matches_core()
    expect(page.locator('[data-companion-for="chunk"]')).to_have_value("500")
    lab.type("solape", "64")
    lab.expect_matches_core()
    expect(solape).to_have_value("64")
    expect(solape).to_have_attribute("step", "16")
    assert lab.errors == []


def test_an_emptied_total_follows_the_threshold_again(page, base_url):
    """Issue 20, item 5: emptying «Relevantes totales conocidos» returns it to automatic, with no error."""
    lab = Lab(page, base_url, "?total=20")
    lab.expect_matches_core()
    lab.type("total", "")
    view = lab.expect_matches_core()
    assert view["controls"]["total"] == {"value": 8, "error": None, "set": False, "raised_from": None}
    expect(page.locator('[data-error-for="total"]')).to_have_text("")
    lab.control("total").blur()  # leaving the field: the state drops the total, the field shows the count in use
    expect(lab.control("total")).to_have_value("8")
    assert "total" not in lab.url_params(lambda params: "total" not in params)
    lab.press("umbral", "End")
    del lab.state["total"]
    lab.expect_matches_core()
    expect(lab.control("total")).to_have_value("3")
    assert lab.errors == []


def test_shared_urls_keep_their_commas(page, base_url):
    """Issue 20, item 14: grades are written readably; the encoded form is still read."""
    lab = Lab(page, base_url, "?grades=0%2C2%2C1%2C3%2C0%2C2%2C3%2C1%2C0%2C2%2C1%2C3")
    lab.state["grades"] = "0,2,1,3,0,2,3,1,0,2,1,3"
    lab.expect_matches_core()
    lab.grade("d01", 1)
    lab.expect_matches_core()
    query = urlsplit(page.url).query
    assert "grades=1,2,1,3,0,2,3,1,0,2,1,3" in query and "%2C" not in query
    assert lab.errors == []


def test_reset_and_copy_link(lab, base_url):
    """Issue 20, item 15 (DESIGN §4.3), by keyboard."""
    page = lab.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url.rstrip("/"))
    lab.press("k", "ArrowLeft", 2)
    lab.press("umbral", "ArrowLeft")
    lab.press("rerank", "End")
    for name, value in (("total", "20"), ("docs", "5"), ("solape", "100")):
        lab.type(name, value)
    lab.grade("d04", 0)
    lab.expect_matches_core()
    assert lab.url_params()["k"] == "3"
    announced = page.locator("[data-announce]")
    # The new values announced (debounced): what the reset brings back is a change to announce again.
    expect(announced).not_to_have_text(re.compile(r"^(Valores del escenario restablecidos\.)?$"))
    copy = page.locator('[data-action="copy-link"]')
    copy.focus()
    page.keyboard.press("Enter")
    expect(announced).to_have_text("Enlace copiado: pégalo para compartir este estado del laboratorio.")
    assert page.evaluate("navigator.clipboard.readText()") == page.url
    reset = page.locator('[data-action="reset"]')
    reset.focus()
    page.keyboard.press("Enter")
    assert urlsplit(page.url).query == ""
    lab.state = {"scenario": lab.scenario}
    view = lab.expect_matches_core()
    assert view == compute({"scenario": load_scenario()})
    for name, value in load_scenario()["defaults"].items():
        expect(lab.control(name)).to_have_value(str(value))
    expect(lab.control("total")).to_have_value("8")
    # The reset's message stays first when the new values' announcement (debounced) follows it.
    expect(announced).to_have_text(re.compile(r"^Valores del escenario restablecidos\. \S"))


def test_reset_before_python_is_ready_restores_the_server_render(page, base_url):
    page.route("**/*worker*.js", lambda route: route.abort())  # Python never comes
    page.goto(base_url + "?k=2&umbral=3&grades=3,3,3,3,3,3,3,3,3,3,3,3")
    server = page.evaluate("""() => Array.from(document.querySelectorAll('[data-output]'),
                                               (node) => [node.dataset.output, node.textContent])""")
    expect(page.locator('[data-busy-region][aria-busy="true"]')).not_to_have_count(0)
    page.locator('[data-action="reset"]').click()
    assert urlsplit(page.url).query == ""
    expect(page.locator("[data-busy-region][aria-busy]")).to_have_count(0)  # the values shown are the state's
    expect(page.locator("html")).not_to_have_attribute("data-pending", "true")
    assert page.evaluate("""() => Array.from(document.querySelectorAll('[data-output]'),
                                             (node) => [node.dataset.output, node.textContent])""") == server
    expect(page.locator('[name="k"]')).to_have_value("5")
    expect(page.locator('[data-echo="k"]')).to_have_text("5")


# The worker's reply to the next compute the user asks for is an error, and arrives late: the
# user's next change is queued behind it meanwhile. <html data-python-idle> says, once every listener has
# seen a reply, whether Python has answered every state sent to it (those computed ahead included).
BREAK_NEXT_COMPUTE = """(() => {
  const post = Worker.prototype.postMessage;
  let sent = 0, answered = 0;
  const counted = new WeakSet();
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === "lab-compute") sent += 1;
    if (window.__breakNext && message && message.type === "lab-compute" && !message.ahead) {
      window.__breakNext = false;
      message = { ...message, state: { ...message.state, scenario: null } };
      this.__delayErrors = true;
    }
    return post.call(this, message, ...rest);
  };
  const listen = Worker.prototype.addEventListener;
  Worker.prototype.addEventListener = function (type, listener, ...rest) {
    if (type !== "message") return listen.call(this, type, listener, ...rest);
    return listen.call(this, type, (event) => {
      if (event.data && ["lab-view", "lab-refusal"].includes(event.data.type) && !counted.has(event)) {
        counted.add(event);
        answered += 1;
        setTimeout(() => { document.documentElement.dataset.pythonIdle = String(sent === answered); });
      }
      if (event.data && event.data.type === "lab-refusal" && this.__delayErrors) {
        this.__delayErrors = false;
        setTimeout(() => listener(event), 400);
      } else {
        listener(event);
      }
    }, ...rest);
  };
})();"""


def test_after_an_error_reply_the_queued_state_is_sent(page, base_url):
    """Issue 19, item 4: a refused state does not leave the user's next one waiting for another input."""
    page.add_init_script(BREAK_NEXT_COMPUTE)
    lab = Lab(page, base_url, "?docs=5")  # a state outside the build-time view table: k's go to Python
    lab.expect_matches_core()
    expect(page.locator("html")).to_have_attribute("data-python-idle", "true")  # the states computed ahead are done
    page.evaluate("""() => {
      window.__breakNext = true;
      const k = document.querySelector('[name="k"]');
      for (const value of ["9", "8"]) {
        k.value = value;
        k.dispatchEvent(new Event("input", {bubbles: true}));
      }
    }""")
    lab.edit("k", "8")
    lab.expect_matches_core()  # k = 8 was sent after the error, and shown
    refused = [error for error in lab.errors if error.startswith("raglab:")]  # the refused state's console report
    assert len(refused) == 1
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "ready")
    assert [error for error in lab.errors if error not in refused] == []


# --- layout: no jump, 24 px targets, the phone, popovers, names (issue 20, items 8–13) ---------------


def test_the_page_height_holds_while_scrolling(page, base_url):
    """Item 8: the document's height stays within 1 % from top to bottom (it moved by 20 % with
    content-visibility and a guessed intrinsic size)."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(base_url)
    heights = []
    y = 0
    while True:
        # scrolled, then two frames: the blocks brought near the viewport are laid out by the first (a second's
        # guard, should no frame come)
        page.evaluate("(y) => new Promise((done) => { window.scrollTo(0, y); setTimeout(done, 1000); "
                      "requestAnimationFrame(() => requestAnimationFrame(done)); })", y)
        height = page.evaluate("document.documentElement.scrollHeight")
        heights.append(height)
        if y > height:
            break
        y += 700
    assert max(heights) <= min(heights) * 1.01, heights


def test_every_target_is_24_px_on_a_phone(lab):
    """Item 9: every control at 390 px wide is at least 24 × 24 CSS px (WCAG 2.5.8), the «?» of the
    sticky strip included."""
    page = lab.page
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(TARGETS) == []
    page.set_viewport_size({"width": 1280, "height": 800})
    assert page.evaluate(TARGETS) == []


OVERLAPS = """() => [...document.querySelectorAll('.output')].flatMap((card) => {
  const button = card.querySelector('.define'), name = card.querySelector('dt');
  if (!button || !name || !button.offsetParent) return [];
  const range = document.createRange();
  range.selectNodeContents(name);
  const a = range.getBoundingClientRect(), b = button.getBoundingClientRect();
  const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
  return apart ? [] : [name.textContent];
})"""


def test_no_card_name_lies_under_its_question_mark(page, base_url):
    """QA at 390 px: the sticky strip's «?» covered the «k» of «Precision@k»."""
    page.goto(base_url + "?rerank=13")
    for width, height in ((390, 844), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate(OVERLAPS) == [], width


def test_on_a_phone_the_numbers_stay_in_view_while_a_grade_changes(lab):
    """Item 9: the sticky strip stays over «Ranking visible» too, and does not cover the select in use."""
    page = lab.page
    page.set_viewport_size({"width": 390, "height": 844})
    select = page.locator('[data-grade-for="d10"]')
    select.focus()
    select.press("ArrowUp")  # keyboard: grade 1
    lab.edit("grades", "0,2,1,3,0,2,3,1,0,1,1,0")
    lab.expect_matches_core()
    strip = page.locator(".panel-ranking .outputs").bounding_box()
    for name in ("precision", "recall", "mrr", "ndcg"):
        box = page.locator(f'[data-output="{name}"]').bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= 844, (name, box)
    chosen = select.bounding_box()
    assert chosen["y"] >= strip["y"] + strip["height"] and chosen["y"] + chosen["height"] <= 844, (chosen, strip)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_definition_opens_beside_its_button_without_covering_the_value(page, base_url):
    """Item 10: the Stride definition no longer sits on «448 tokens». Issue 49: every definition opens next to
    its «?» (under a control's whole block, one opened 250 px away), on the desktop and the phone. Layout only:
    Python is not started (its boot would only cost the lane CPU)."""
    page.route("**/assets/worker.*.js", lambda route: route.abort())
    page.goto(base_url)
    keys = page.locator("main button[data-define]").evaluate_all("bs => bs.map(b => b.dataset.define)")
    assert len(keys) >= 10
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        for key in keys:
            button = page.locator(f'main button[data-define="{key}"]')
            button.scroll_into_view_if_needed()
            button.click()
            popover = page.locator(f"#def-{key}")
            expect(popover).to_be_visible()
            box, own = popover.bounding_box(), button.bounding_box()
            value = page.locator(f'[data-output="{key}"]')
            if value.count():
                shown = value.bounding_box()
                overlap_x = box["x"] < shown["x"] + shown["width"] and shown["x"] < box["x"] + box["width"]
                overlap_y = box["y"] < shown["y"] + shown["height"] and shown["y"] < box["y"] + box["height"]
                assert not (overlap_x and overlap_y), (width, key, box, shown)
            distance = max(box["y"] - (own["y"] + own["height"]), own["y"] - (box["y"] + box["height"]))
            assert 0 <= distance < 72, (width, key, box, own)  # next to its «?», not in the middle of the viewport
            assert 0 <= box["x"] and box["x"] + box["width"] <= width, (width, key, box)
            page.keyboard.press("Escape")
            expect(popover).to_be_hidden()


def test_names_sources_and_sections_a_learner_can_tell_apart(lab):
    """Items 11 and 13: the sources of what the page computes; formula boxes and grade selects named."""
    page = lab.page
    sources = page.evaluate(RENDERED_TEXT, ".sources")
    for name in ("Voorhees", "Burges", "Smucker", "trec_eval", "ir-measures", "ranx", "Järvelin"):
        assert name in sources, name
    labels = page.locator(".formula").evaluate_all("(nodes) => nodes.map((node) => node.getAttribute('aria-label'))")
    assert len(labels) == 7 and len(set(labels)) == 7 and "Fórmula" not in labels
    assert "Fórmula de nDCG@k" in labels
    expect(page.get_by_role("combobox", name="Grado de d04, «nDCG: ganancia acumulada con descuento»")).to_have_count(1)
    expect(page.locator("#unretrieved-title")).to_have_text("Juzgados que la primera etapa nunca devolvió")
    assert "no recuperados" not in page.evaluate(RENDERED_TEXT, "main")


def test_on_a_phone_the_data_captions_fit_their_tables(page, base_url):
    """Item 9: the comparison caption was clipped at «(10 00…»: sticky, it was wider than its wrapper."""
    page.set_viewport_size({"width": 390, "height": 844})
    Lab(page, base_url)
    page.click('[data-action="sample"]')
    expect(page.locator("[data-data-status]")).to_have_text("Evaluación terminada.", timeout=60_000)
    for caption in page.locator(".data-result caption").all():
        if not caption.is_visible():
            continue
        caption.scroll_into_view_if_needed()
        box = caption.bounding_box()
        wrap = caption.evaluate("(node) => { const r = node.closest('.table-wrap').getBoundingClientRect(); return [r.left, r.right]; }")
        assert wrap[0] - 1 <= box["x"] and box["x"] + box["width"] <= wrap[1] + 1, (caption.inner_text(), box, wrap)


MATH_METRICS = """() => {
  const box = (node) => node.getBoundingClientRect();
  const mrr = document.querySelector('.formula[aria-label="Fórmula de MRR@k"] math');
  const sum = Array.from(mrr.querySelectorAll("munder > mo")).find((mo) => mo.textContent === "\\u2211");
  const below = sum.nextElementSibling;
  const letter = mrr.querySelector("mtext");
  const cases = document.querySelector('.formula[aria-label="Fórmula de m"] math');
  const brace = Array.from(cases.querySelectorAll("mo")).find((mo) => mo.textContent === "{");
  const table = cases.querySelector("mtable");
  const cells = Array.from(cases.querySelectorAll("mtr > mtd:first-child"), box);
  return {
    sum: box(sum).height, letter: box(letter).height, sumBottom: box(sum).bottom, belowTop: box(below).top,
    brace: box(brace).height, table: box(table).height, lefts: cells.map((cell) => Math.round(cell.left)),
    align: Array.from(cases.querySelectorAll("mtd"), (cell) => getComputedStyle(cell).textAlign),
  };
}"""


def test_formulas_render_as_mathematics(lab):
    """Item 12: with a math font named (not `math` alone, which resolved to a text serif), Σ is a large
    operator with «q ∈ Q» under it, not over it, and the piecewise brace spans its rows, aligned left."""
    page = lab.page
    page.locator("#metodo").scroll_into_view_if_needed()
    shown = page.evaluate(MATH_METRICS)
    assert shown["sum"] > 1.4 * shown["letter"], shown
    assert shown["belowTop"] >= shown["sumBottom"] - 2, shown
    assert shown["brace"] >= 0.8 * shown["table"], shown
    assert len(set(shown["lefts"])) == 1 and set(shown["align"]) == {"left"}, shown

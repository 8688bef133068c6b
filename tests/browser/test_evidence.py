"""The evidence on the chunk-window strip (DESIGN §4.5), live: moved by keyboard and pointer, marked by Python."""

import pytest
from playwright.sync_api import expect

from raglab_core import compute

from ..support.lab_page import Lab, settled_box


pytestmark = pytest.mark.one_lab_page  # `lab`: the module's one page, reset (tests/browser/conftest.py)


MARKS = """() => {
  const strip = document.querySelector('[data-output="chunk-windows"]');
  const e = strip.querySelector("[data-evidence]");
  return {evidence: [e.dataset.start, e.dataset.end],
          windows: Array.from(strip.querySelectorAll("[data-window]"), (w) => [w.dataset.holds, w.dataset.touches]),
          scale: document.querySelector("[data-windows-scale]").textContent,
          valuetext: document.querySelector('[name="posicion"]').getAttribute("aria-valuetext")};
}"""


def expected_marks(state):
    view = compute(state)
    w, position = view["chunk_windows"], view["controls"]["posicion"]
    e = w["evidence"]
    return {"evidence": [str(e["start"]), str(e["end"])] if e else ["", ""],
            "windows": [[str(win["holds"]).lower(), str(win["touches"]).lower()] for win in w["shown"]],
            "scale": w["scale"], "valuetext": position["valuetext"]}


def wait_for_marks(lab, timeout=10_000):
    expected = expected_marks(lab.state)
    deadline = lab.page.evaluate("Date.now()") + timeout
    while True:
        shown = lab.page.evaluate(MARKS)
        if shown == expected or lab.page.evaluate("Date.now()") > deadline:
            break
        lab.page.wait_for_timeout(20)
    assert shown == expected
    return shown


def test_the_span_moves_by_keyboard_and_python_marks_the_windows(lab):
    page = lab.page
    shown = wait_for_marks(lab)
    assert shown["evidence"] == ["430", "530"] and shown["windows"] == [["false", "true"], ["false", "true"], ["false", "false"]]
    assert lab.press("posicion", "ArrowRight", 18) == "448"
    shown = wait_for_marks(lab)
    assert shown["windows"][1] == ["true", "false"] and shown["valuetext"] == "tokens 448–548, entera en un chunk"
    assert lab.url_params()["posicion"] == "448"
    lab.expect_matches_core()
    assert lab.press("posicion", "End") == "1100"
    assert wait_for_marks(lab)["windows"][2] == ["true", "false"]
    # A longer evidence: Python narrows the slider's range and clamps the drawn span.
    lab.type("evidencia", "600")
    shown = wait_for_marks(lab)
    assert shown["evidence"] == ["600", "1200"]
    expect(page.locator('[name="posicion"]')).to_have_attribute("max", "600")
    lab.expect_matches_core()
    expect(page.locator('[data-output="containment"]')).to_have_attribute("data-value", "0.0")
    # Longer than the document: no error, the outputs say why they are undefined, no span drawn.
    lab.type("evidencia", "2000")
    lab.expect_matches_core()
    assert wait_for_marks(lab)["evidence"] == ["", ""]
    expect(page.locator('[data-error-for="evidencia"]')).to_have_text("")
    expect(page.locator('[name="posicion"]')).to_be_disabled()


def test_the_span_is_dragged_on_the_strip(lab):
    """The strip is the slider: drag the drawn span, and it follows the pointer (its centre under it)."""
    page = lab.page
    stage = page.locator(".strip-stage")
    box = settled_box(stage)
    span = page.locator("[data-evidence]")
    start = settled_box(span)
    middle = box["y"] + box["height"] / 2
    page.mouse.move(start["x"] + start["width"] / 2, middle)
    page.mouse.down()
    target = box["x"] + box["width"] * 0.75
    page.mouse.move(target, middle, steps=8)
    page.mouse.up()
    value = page.locator('[name="posicion"]').input_value()
    assert 800 < int(value) < 900  # 75 % of the way: the span's centre near token 900
    lab.edit("posicion", value)
    wait_for_marks(lab)
    moved = span.bounding_box()
    assert abs(moved["x"] + moved["width"] / 2 - target) < 12
    assert lab.url_params()["posicion"] == value
    lab.expect_matches_core()


def test_the_zoom_is_said_and_a_url_position_is_applied(page, base_url):
    lab = Lab(page, base_url, "?docs=10000000&tokens_doc=10000000&chunk=1&solape=0&evidencia=5&posicion=3")
    shown = wait_for_marks(lab)
    assert shown["scale"].replace("\u00a0", " ") == "Se dibujan los tokens 0–12 de 10 000 000: las 12 primeras ventanas."
    assert shown["evidence"] == ["3", "8"]
    expect(page.locator("[data-windows-scale]")).to_be_visible()
    lab.expect_matches_core()
    assert lab.errors == []


def test_reset_brings_the_span_back_to_the_border(page, base_url):
    lab = Lab(page, base_url, "?evidencia=300&posicion=900")
    assert wait_for_marks(lab)["evidence"] == ["900", "1200"]
    page.locator('[data-action="reset"]').click()
    lab.state = {"scenario": lab.scenario}
    shown = wait_for_marks(lab)
    assert shown["evidence"] == ["430", "530"] and shown["valuetext"] == "tokens 430–530, partida"
    assert lab.url_params() == {}
    lab.expect_matches_core()
    # Following the border again: a new overlap moves the span with it.
    lab.type("solape", "200")
    assert wait_for_marks(lab)["evidence"] == ["362", "462"]  # (312 + 512 - 100) // 2
    assert lab.errors == []

/* agreement.js — «¿Te fías de tus juicios?» in «Tus datos»: raglab_core.judges.panel.agreement_view written out.
 *
 * data.js calls `window.raglabAgreement.show(panel, view)` when an evaluation came with a judge's qrels; this
 * file only writes Python's view as text nodes (its figures, the confusion and binary tables, the systems'
 * order and the slopegraph Python laid out). Loaded after panel-kit.js and before data.js (boot.js, on the
 * panel's first use). It words and computes nothing.
 */
(() => {
  "use strict";

  const kit = window.raglabPanelKit;
  const { el } = kit;

  /** Write `view` (raglab_core.judges.panel.agreement_view) into the agreement's part of `panel`. */
  function show(panel, view) {
    const $ = (selector) => panel.querySelector(selector);
    const said = (name) => panel.querySelector(`[data-agreement-output="${name}"]`);
    $("[data-data-agreement]").hidden = false;
    said("files").textContent = view.files;
    // Warnings first: they say what the verdict below rests on.
    const warned = $('[data-output="agreement-warnings"]');
    warned.replaceChildren(...view.warnings.map((warning) => el("li", { "data-code": warning.code }, warning.text)));
    $("[data-agreement-warnings]").hidden = view.warnings.length === 0;
    kit.reading(said("reading"), view.reading); // raglab_core.readings: the verdict first
    $('[data-panel-output="agreement"]').replaceChildren(
      ...view.figures.map((figure) => {
        const item = el("div", figure.name ? { "data-agreement": figure.name, "data-value": figure.value ?? "" } : {});
        const value = el("dd", {}, figure.text);
        value.append(el("span", { class: "figure-note" }, figure.note));
        item.append(el("dt", {}, figure.label), value);
        return item;
      })
    );
    const confusion = view.confusion;
    said("confusion-caption").textContent = confusion.caption;
    said("confusion-head").replaceChildren(kit.headRow([confusion.corner, ...confusion.columns]));
    said("confusion-rows").replaceChildren(
      ...confusion.rows.map((row) => {
        const line = el("tr");
        line.append(el("th", { scope: "row" }, row.header));
        for (const cell of row.cells) {
          line.append(el("td", { "data-reference": cell.reference, "data-judge": cell.judge, "data-count": cell.count,
            "data-shade": cell.shade }, cell.text));
        }
        return line;
      })
    );
    said("binary-caption").textContent = view.binary.caption;
    said("binary-head").replaceChildren(kit.headRow(view.binary.columns));
    said("binary-rows").replaceChildren(
      ...view.binary.rows.map((row) => {
        const line = el("tr");
        line.append(el("th", { scope: "row" }, row.threshold), ...row.cells.map((text) => el("td", {}, text)));
        return line;
      })
    );
    const systems = view.systems;
    $("[data-agreement-systems]").hidden = !systems;
    if (!systems) return;
    said("switch-note").textContent = systems.note;
    said("systems-caption").textContent = systems.caption;
    said("systems-head").replaceChildren(kit.headRow(systems.columns));
    said("systems-rows").replaceChildren(
      ...systems.measures.map((row) => {
        const line = el("tr", { "data-system-measure": row.measure, "data-tau-b": row.tau_b ?? "",
          "data-tau-ap": row.tau_ap ?? "", "data-flips": row.flips });
        line.append(el("th", { scope: "row" }, row.measure), ...row.cells.map((text) => el("td", {}, text)));
        return line;
      })
    );
    said("flips-title").textContent = systems.flips_title;
    said("flips").replaceChildren(
      ...systems.flips.map((flip) => el("li", { "data-significant": String(flip.significant) }, flip.text))
    );
    drawSlopes(said, systems.slopegraph);
  }

  /** The runs' order under either qrels: Python laid out both layouts; the one that fits is drawn. */
  function drawSlopes(said, wide) {
    const chart = said("slopegraph");
    const figure = chart.closest("figure");
    const plot = figure.clientWidth >= wide.width ? wide : wide.narrow;
    said("slopegraph-title").textContent = plot.title;
    chart.setAttribute("aria-label", plot.description);
    chart.setAttribute("viewBox", `0 0 ${plot.width} ${plot.height}`);
    chart.style.aspectRatio = `${plot.width} / ${plot.height}`;
    chart.dataset.layout = plot === wide ? "wide" : "narrow";
    const shape = kit.svg;
    const parts = [
      shape("text", { x: plot.x1, y: 14, "text-anchor": "end", class: "heading" }, plot.left_label),
      shape("text", { x: plot.x2, y: 14, "text-anchor": "start", class: "heading" }, plot.right_label),
    ];
    for (const line of plot.lines) {
      const group = shape("g", { class: `slope ${line.kind}`, "data-run": line.run });
      group.append(
        shape("title", {}, line.text),
        shape("line", { x1: plot.x1, y1: line.y1, x2: plot.x2, y2: line.y2 }),
        shape("circle", { cx: plot.x1, cy: line.y1, r: 3 }),
        shape("circle", { cx: plot.x2, cy: line.y2, r: 3 }),
        shape("text", { x: plot.x1 - 8, y: line.y1 + 4, "text-anchor": "end" }, line.left),
        shape("text", { x: plot.x2 + 8, y: line.y2 + 4, "text-anchor": "start" }, line.right)
      );
      parts.push(group);
    }
    chart.replaceChildren(...parts);
  }

  window.raglabAgreement = { show };
})();

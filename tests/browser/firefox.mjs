// Drive the lab in Firefox (puppeteer-core over WebDriver BiDi) and print what it shows, as JSON.
//
//   node tests/browser/firefox.mjs FIREFOX URL [DATA]
//
// Loads URL, waits for <html data-ready="true">, reads every [data-output][data-value], presses
// ArrowRight on the k slider, waits for the outputs to change, and reads them again. The Python
// test (test_firefox.py) compares both readings with raglab_core.compute run in CPython.
// With DATA (a JSON file: {qrels, runs: [text, …], measures, judge?}), it then pastes those texts into «Tus
// datos», fuses runs a and b (the page's defaults: RRF), and reads the lettered table, the readings, the
// agreement's figures (with `judge`, a judge's qrels) and a query's detail, at 390 px wide too. With DATA's `corpus` ({sweep}), it measures «Tu corpus»'s sample with
// that sweep and reads each configuration's row (its cells' data-value) and the plot's points. With DATA's
// `judging`, it opens the judging page at 390 px, starts the sample job, grades two pairs by key, reloads, and
// reads the progress and the pair shown (the grades kept in IndexedDB across the reload).
import { readFile } from "node:fs/promises";
import puppeteer from "puppeteer-core";

const [executablePath, url, dataPath] = process.argv.slice(2);
// A cold start of Firefox took 25 s on a loaded machine (puppeteer's default wait is 30 s).
const browser = await puppeteer.launch({ browser: "firefox", executablePath, headless: true, timeout: 120_000 });
try {
  const page = await browser.newPage();
  const problems = [];
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  page.on("pageerror", (error) => problems.push(String(error)));
  await page.goto(url);
  await page.waitForSelector("html[data-ready=true]", { timeout: 90_000 });
  const read = () =>
    page.evaluate(() => ({
      boot: document.documentElement.dataset.boot,
      k: document.querySelector('[name="k"]').value,
      outputs: Object.fromEntries(
        Array.from(document.querySelectorAll("[data-output][data-value]"), (node) => [node.dataset.output, node.dataset.value])
      ),
    }));
  const before = await read();
  await page.focus('[name="k"]');
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(
    (precision) => document.querySelector('[data-output="precision"]').dataset.value !== precision,
    { timeout: 10_000 },
    before.outputs.precision
  );
  const after = await read();
  const request = dataPath ? JSON.parse(await readFile(dataPath, "utf8")) : null;
  const data = request ? await manyRuns(page, request) : null;
  const corpus = request && request.corpus ? await corpusSample(page, request.corpus) : null;
  const judging = request && request.judging ? await judgeSample(page, new URL("juzgar/", url).href) : null;
  console.log(JSON.stringify({ before, after, data, corpus, judging, problems }));
} finally {
  await browser.close();
}

async function manyRuns(page, data) {
  await page.evaluate((data) => {
    const paste = (slot, text) => {
      const area = document.querySelector(`[data-paste-for="${slot}"]`);
      area.value = text;
      area.dispatchEvent(new Event("input"));
    };
    paste("qrels", data.qrels);
    if (data.judge) paste("judge-qrels", data.judge); // «¿Te fías de tus juicios?» beside the evaluation
    data.runs.forEach((text, index) => paste(`run-${"abcdefghijkl"[index]}`, text));
    for (const box of document.querySelectorAll("[data-fuse-source]")) box.checked = Number(box.dataset.fuseSource) < 2;
    const measures = document.querySelector('[data-setting="measures"]');
    measures.value = data.measures;
    measures.dispatchEvent(new Event("input"));
    document.querySelector('[data-action="fuse"]').click();
  }, data);
  await page.waitForFunction(
    () => document.querySelectorAll('[data-panel-output="pairs"] tr[data-pair]').length > 0 &&
      document.querySelector('[data-panel="data"]').getAttribute("aria-busy") === "false",
    { timeout: 120_000 }
  );
  const shown = await page.evaluate(() => ({
    names: Array.from(document.querySelectorAll('[data-panel-output="means"] th[scope="row"]'), (th) => th.textContent),
    means: Array.from(document.querySelectorAll('[data-panel-output="means"] tr'), (row) =>
      Array.from(row.querySelectorAll("td[data-raw]"), (td) => [Number(td.dataset.raw), td.dataset.beats || ""])),
    pairs: Array.from(document.querySelectorAll('[data-panel-output="pairs"] tr[data-pair]'), (row) => [
      row.dataset.pair,
      Object.fromEntries(Array.from(row.querySelectorAll("[data-measure]"), (cell) => [cell.dataset.measure,
        [cell.dataset.meanDelta, cell.dataset.pValue, cell.dataset.pAdjusted].map(Number)])),
    ]),
    reading: document.querySelector('[data-panel-output="many-reading"]').textContent,
    agreement: Object.fromEntries(Array.from(document.querySelectorAll("[data-agreement]"), (node) =>
      [node.dataset.agreement, node.dataset.value])),
  }));
  await page.click('[data-panel-output="per-query"] tr[data-query="q07"] th button');
  await page.waitForSelector('[data-panel-output="query-detail"]:not([hidden]) .query-detail-run');
  await page.setViewport({ width: 390, height: 844 });
  shown.detail = await page.evaluate(() => {
    const strip = document.querySelector("[data-detail-runs]");
    return {
      columns: Array.from(strip.querySelectorAll(".query-detail-run"), (column) =>
        Array.from(column.querySelectorAll("li"), (li) => li.dataset.doc)),
      scrolls: strip.scrollWidth > strip.clientWidth,
      pageWidth: document.documentElement.scrollWidth,
    };
  });
  return shown;
}

async function corpusSample(page, corpus) {
  await page.evaluate((sweep) => {
    const field = document.querySelector('[data-setting="sweep"]');
    field.value = sweep;
    field.dispatchEvent(new Event("input"));
    document.querySelector('[data-action="corpus-sample"]').click();
  }, corpus.sweep);
  await page.waitForFunction(
    () => document.querySelector("[data-corpus-status]").textContent === "Medición terminada.",
    { timeout: 180_000 }
  );
  return page.evaluate(() => ({
    rows: Array.from(document.querySelectorAll('[data-corpus-output="configs"] tr[data-config]'), (row) => [
      row.dataset.config,
      Object.fromEntries(Array.from(row.querySelectorAll("[data-measure]"), (cell) => [cell.dataset.measure, Number(cell.dataset.value)])),
    ]),
    points: document.querySelectorAll('[data-corpus-output="plot"] g.point').length,
    pageWidth: document.documentElement.scrollWidth,
  }));
}

async function judgeSample(page, judgingUrl) {
  await page.setViewport({ width: 390, height: 844 });
  await page.goto(judgingUrl);
  await page.waitForSelector("html[data-judge-ready=true]", { timeout: 90_000 });
  await page.click('[data-action="sample-job"]');
  const progress = () => page.$eval("[data-judging-progress]", (node) => [node.dataset.done, node.dataset.total]);
  await page.waitForFunction(() => document.querySelector("[data-judging-progress]")?.dataset.total === "20", { timeout: 90_000 });
  const pairs = [];
  for (const [index, key] of ["2", "0"].entries()) {
    pairs.push(await page.$eval("[data-judging]", (node) => [node.dataset.query, node.dataset.doc]));
    await page.keyboard.press(key);
    await page.waitForFunction((done) => document.querySelector("[data-judging-progress]").dataset.done === done,
      { timeout: 10_000 }, String(index + 1));
  }
  const next = await page.$eval("[data-judging]", (node) => [node.dataset.query, node.dataset.doc]);
  await page.reload();
  await page.waitForFunction(() => document.querySelector("[data-judging-progress]")?.dataset.done === "2", { timeout: 90_000 });
  return {
    pairs, next, progress: await progress(),
    resumed: await page.$eval("[data-judging]", (node) => [node.dataset.query, node.dataset.doc]),
    marks: await page.$$eval("[data-judging] mark", (marks) => marks.length),
    pageWidth: await page.evaluate(() => document.documentElement.scrollWidth),
  };
}

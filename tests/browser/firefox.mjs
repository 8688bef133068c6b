// Drive the lab in Firefox (puppeteer-core over WebDriver BiDi) and print what it shows, as JSON.
//
//   node tests/browser/firefox.mjs FIREFOX URL
//
// Loads URL, waits for <html data-ready="true">, reads every [data-output][data-value], presses
// ArrowRight on the k slider, waits for the outputs to change, and reads them again. The Python
// test (test_firefox.py) compares both readings with raglab_core.compute run in CPython.
import puppeteer from "puppeteer-core";

const [executablePath, url] = process.argv.slice(2);
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
  console.log(JSON.stringify({ before, after, problems }));
} finally {
  await browser.close();
}

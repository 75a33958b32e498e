// Opens HTML reports in headless Chromium (Debian's package) through
// playwright-core, one browser for them all, waits until each page's charts
// are drawn, and prints one JSON line a page, in the order given:
// {"errors": [console errors and page errors], "charts": [{"name", "width", "height", "marks", "bands"}],
//  "summary": the text of the page's #summary, "lead": the name of the chart beside it}.
// A screenshot of each whole page is written to the path given after it.
//
//   node check_page.mjs USER_DATA_DIR REPORT.html SCREENSHOT.png [REPORT.html SCREENSHOT.png ...]
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(new URL("../../lib/rackbench/charts/package.json", import.meta.url));
const { chromium } = require("playwright-core");
const [user_data_dir, ...pairs] = process.argv.slice(2);

async function check(context, page_path, screenshot_path) {
  const page = await context.newPage();
  const errors = [];
  page.on("console", (msg) => { if (msg.type() === "error") errors.push(msg.text()); });
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("request", (request) => { if (!request.url().startsWith("file:")) errors.push(`network request: ${request.url()}`); });
  await page.goto(pathToFileURL(page_path).href);
  await page.waitForFunction(() => document.body.dataset.chartsDrawn !== undefined, null, { timeout: 60000 })
    .catch(() => errors.push("charts were not drawn within 60 s"));
  const charts = await page.$$eval("figure.chart", (figures) => figures.map((f) => {
    const svg = f.querySelector("svg");
    const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
    return { name: f.dataset.name, width: box.width, height: box.height,
             marks: svg ? svg.querySelectorAll(".role-mark > path, .role-mark > rect, .role-mark path").length : 0,
             bands: svg ? [...svg.querySelectorAll(".mark-area path")].filter((p) => (p.getAttribute("d") || "").length > 8).length : 0 };
  }));
  const summary = await page.$eval("#summary", (s) => s.innerText).catch(() => null);
  const lead = await page.$eval(".lead figure.chart", (f) => f.dataset.name).catch(() => null);
  await page.screenshot({ path: screenshot_path, fullPage: true });
  await page.close();
  process.stdout.write(JSON.stringify({ errors, charts, summary, lead }) + "\n");
}

const context = await chromium.launchPersistentContext(user_data_dir, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"],
});
try {
  for (let i = 0; i < pairs.length; i += 2) await check(context, pairs[i], pairs[i + 1]);
} finally {
  await context.close();
}

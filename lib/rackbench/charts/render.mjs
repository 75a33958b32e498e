// Renders Vega-Lite chart specs to SVG files with Node, for rackbench reports.
//
//   node render.mjs jobs.json
//
// jobs.json: a JSON array of {"path": "/abs/file.svg", "spec": <Vega-Lite spec>}.
// Each spec is compiled to Vega, rendered headless to SVG and written to its
// path. stdout: one line per file written. Exit 1 with the spec's path on the
// first spec that fails, so the caller can say which chart broke.
import { readFileSync, writeFileSync } from "node:fs";
import * as vega from "vega";
import { compile } from "vega-lite";

const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const job of jobs) {
  try {
    const view = new vega.View(vega.parse(compile(job.spec).spec), { renderer: "none" });
    const svg = await view.toSVG();
    view.finalize();
    writeFileSync(job.path, svg);
    process.stdout.write(`${job.path}\n`);
  } catch (error) {
    process.stderr.write(`chart ${job.path}: ${error.message}\n`);
    process.exit(1);
  }
}

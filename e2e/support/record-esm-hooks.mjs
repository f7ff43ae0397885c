// Loader hooks of record-modules.mjs (they run on Node's loader thread): each ES module's path, as it loads.
import { appendFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

let file = "";

export function initialize(data) {
  file = data.file;
}

export async function load(url, context, nextLoad) {
  if (url.startsWith("file:")) appendFileSync(file, `${fileURLToPath(url)}\n`);
  return nextLoad(url, context);
}

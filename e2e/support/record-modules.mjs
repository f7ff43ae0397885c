// Preloaded into a server under test with `--import`: it writes the path of every module the
// process ran to the file RECORD_MODULES_FILE names, one a line, so a test can tell which builds
// of its libraries ran.
// - CommonJS (React and most libraries): written when the process exits. Node also caches, unrun,
//   the modules a CommonJS file might re-export (both branches of React's
//   `if (NODE_ENV === "production")`) to read their export names: those are not `loaded`.
// - ES modules (React Router's packages, the server's own bundle): written by a loader hook
//   (record-esm-hooks.mjs) as each is loaded.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";

const cache = createRequire(import.meta.url).cache;
const file = process.env.RECORD_MODULES_FILE;
if (file) {
  register("./record-esm-hooks.mjs", import.meta.url, { data: { file } });
  process.on("exit", () =>
    appendFileSync(
      file,
      Object.values(cache)
        .flatMap((module) => (module?.loaded ? [`${module.id}\n`] : []))
        .join(""),
    ),
  );
}

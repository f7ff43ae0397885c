// Preloaded into a server under test with `--import`: when the process exits, it writes the
// path of every CommonJS module it ran (React and most libraries are CommonJS) to the file
// RECORD_MODULES_FILE names, one a line, so a test can tell which builds of them ran. Node also
// caches, unrun, the modules a CommonJS file might re-export (both branches of React's
// `if (NODE_ENV === "production")`) to read their export names: those are not `loaded`.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const cache = createRequire(import.meta.url).cache;
const file = process.env.RECORD_MODULES_FILE;
if (file)
  process.on("exit", () =>
    writeFileSync(
      file,
      Object.values(cache)
        .flatMap((module) => (module?.loaded ? [module.id] : []))
        .join("\n"),
    ),
  );

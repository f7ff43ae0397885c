import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";
import { ROOT, startAppServer } from "./support/app-server";

const RECORDER = path.join(ROOT, "e2e/support/record-modules.mjs");

/**
 * Starts the built server with NODE_ENV as given ("" is unset), renders a page, stops it, and
 * returns the modules it loaded (a library that reads NODE_ENV picks its build when it loads; React's server
 * renderer and React Router are in the server's bundle, which must carry their production builds).
 */
async function modulesLoadedWith(nodeEnv: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "weatherbot-modules-"));
  const file = path.join(dir, "modules.txt");
  try {
    const server = await startAppServer({ NODE_ENV: nodeEnv, RECORD_MODULES_FILE: file }, { nodeArgs: ["--import", RECORDER] });
    let output = "";
    try {
      const page = await fetch(`${server.baseURL}/`, { headers: { connection: "close" } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<html");
    } finally {
      await server.stop();
      output = server.output();
    }
    expect(existsSync(file), `the server did not exit cleanly:\n${output}`).toBe(true);
    return { modules: readFileSync(file, "utf8").split("\n"), output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The server build's code: its entry and its chunks. */
function bundledServerCode(): string {
  const assets = path.join(ROOT, "build/server/assets");
  return [
    path.join(ROOT, "build/server/index.js"),
    ...readdirSync(assets)
      .filter((name) => name.endsWith(".js"))
      .map((name) => path.join(assets, name)),
  ]
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
}

test.describe("the built server runs React and React Router in production mode", () => {
  // Each starts a server of its own: nothing here uses the shared one.
  test.describe.configure({ mode: "parallel" });

  for (const [label, nodeEnv] of [
    ["NODE_ENV unset", ""],
    ["NODE_ENV=development", "development"],
    ["NODE_ENV=test", "test"],
  ] as const) {
    test(`with ${label}, only the production builds of React's server renderer and React Router run`, async () => {
      const { modules, output } = await modulesLoadedWith(nodeEnv);
      // ES modules are recorded too: the server's own bundle is one.
      expect(modules).toContain(path.join(ROOT, "build/server/index.js"));
      // React's server renderer is in the bundle (scripts/react-dom-server-plugin.ts: its production build, changed),
      // so no file of react-dom/server is loaded at all.
      expect(modules.filter((file) => /[\\/]react-dom[\\/]cjs[\\/]react-dom-server\./.test(file))).toEqual([]);
      expect(bundledServerCode()).toContain("} else pageText += chunk;");
      // No library that reads NODE_ENV loaded its development build either.
      expect(modules.filter((file) => /[\\/]cjs[\\/][^\\/]*\.development\.js$/.test(file))).toEqual([]);
      // React Router's development build (its dev-only warnings and checks on every request) neither.
      expect(modules.filter((file) => /[\\/]react-router[\\/]dist[\\/]development[\\/]/.test(file))).toEqual([]);
      expect(output).toContain("(production)");
    });
  }
});

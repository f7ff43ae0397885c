import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";
import { ROOT, startAppServer } from "./support/app-server";

const RECORDER = path.join(ROOT, "e2e/support/record-modules.mjs");

/**
 * Starts the built server with NODE_ENV as given ("" is unset), renders a page, stops it, and
 * returns the modules it loaded (a library that reads NODE_ENV picks its build when it loads; React Router is in the
 * server's bundle, which must carry its production build).
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

test.describe("the built server runs React and React Router in production mode", () => {
  // Each starts a server of its own: nothing here uses the shared one.
  test.describe.configure({ mode: "parallel" });

  for (const [label, nodeEnv] of [
    ["NODE_ENV unset", ""],
    ["NODE_ENV=development", "development"],
    ["NODE_ENV=test", "test"],
  ] as const) {
    test(`with ${label}, only the production builds of React and React Router run`, async () => {
      const { modules, output } = await modulesLoadedWith(nodeEnv);
      // ES modules are recorded too: the server's own bundle is one.
      expect(modules).toContain(path.join(ROOT, "build/server/index.js"));
      // No library that reads NODE_ENV loaded its development build either.
      expect(modules.filter((file) => /[\\/]cjs[\\/][^\\/]*\.development\.js$/.test(file))).toEqual([]);
      // React Router's development build (its dev-only warnings and checks on every request) neither.
      expect(modules.filter((file) => /[\\/]react-router[\\/]dist[\\/]development[\\/]/.test(file))).toEqual([]);
      expect(output).toContain("(production)");
    });
  }
});

/**
 * What the GraphQL client libraries (urql, @urql/core, graphcache, graphql-ws) add to the
 * first load: every name the browser code imports from them, bundled alone the way the
 * production build bundles it (tree-shaken, minified), gzipped. graphql-ws counts only if
 * a first-load file carries it (the app imports it on the first subscription).
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Rollup } from "vite";
import { ROOT } from "../../e2e/support/app-server";

const PACKAGES = /^(urql|@urql\/core|@urql\/exchange-graphcache(?:\/[\w-]+)?|graphql-ws)$/;
/** A string only graphql-ws's code holds: its WebSocket subprotocol. */
const GRAPHQL_WS_MARKER = "graphql-transport-ws";

async function browserSources(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (file !== path.join(ROOT, "app/api")) files.push(...(await browserSources(file)));
    } else if (/\.tsx?$/.test(entry.name) && !/\.server\.tsx?$/.test(entry.name)) {
      files.push(file);
    }
  }
  return files;
}

/** Named value imports (not types) from the client libraries, by package. */
async function clientLibraryImports(): Promise<Map<string, Set<string>>> {
  const imports = new Map<string, Set<string>>();
  for (const file of await browserSources(path.join(ROOT, "app"))) {
    const source = await readFile(file, "utf8");
    for (const match of source.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+"([^"]+)"/g)) {
      if (match[1] || !PACKAGES.test(match[3]!)) continue;
      const names = match[2]!
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name && !name.startsWith("type "));
      if (names.length === 0) continue;
      const set = imports.get(match[3]!) ?? new Set();
      for (const name of names) set.add(name.split(/\s+as\s+/)[0]!);
      imports.set(match[3]!, set);
    }
  }
  return imports;
}

async function bundledGzipKb(code: string): Promise<number> {
  const output = (await build({
    configFile: false,
    logLevel: "silent",
    root: ROOT,
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    plugins: [
      {
        name: "measured-entry",
        enforce: "pre",
        resolveId: (id) => (id.endsWith("measured-entry") ? "\0measured-entry" : null),
        load: (id) => (id === "\0measured-entry" ? code : null),
      },
    ],
    build: {
      write: false,
      minify: "esbuild",
      lib: { entry: "measured-entry", formats: ["es"], fileName: "measured" },
      rollupOptions: { external: ["react", "react-dom", "react/jsx-runtime", "graphql"] },
    },
  })) as Rollup.RollupOutput[];
  const chunks = output.flatMap((result) => result.output).filter((item): item is Rollup.OutputChunk => item.type === "chunk");
  return chunks.reduce((sum, chunk) => sum + gzipSync(chunk.code, { level: 9 }).length, 0) / 1024;
}

/** `firstLoadFiles`: the built files the first visit loads (paths under build/client). */
export async function benchClientLibraries(firstLoadFiles: string[]) {
  const imports = await clientLibraryImports();
  const firstLoadText = (await Promise.all(firstLoadFiles.map((file) => readFile(path.join(ROOT, "build/client", file), "utf8")))).join(
    "\n",
  );
  const graphqlWsInFirstLoad = firstLoadText.includes(GRAPHQL_WS_MARKER);
  const counted = [...imports].filter(([pkg]) => pkg !== "graphql-ws" || graphqlWsInFirstLoad);
  const entry = counted
    .map(([pkg, names], index) => `export { ${[...names].map((name) => `${name} as n${index}_${name}`).join(", ")} } from "${pkg}";`)
    .join("\n");
  return {
    kb: await bundledGzipKb(entry),
    packages: counted.map(([pkg, names]) => `${pkg} (${[...names].sort().join(", ")})`),
    graphqlWsInFirstLoad,
  };
}

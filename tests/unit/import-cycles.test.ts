import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

// The one check for import cycles (ESLint's import-x/no-cycle skips type-only imports, and let the circle
// graphql-endpoint ↔ request-log ↔ metrics ↔ request-id through). A circle of modules is a tangle whatever the
// import's kind, so this graph has every import: values, types, re-exports and dynamic imports, as TypeScript resolves them.

const { config } = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts"))
    .map((file) => path.join(dir, file));
}

/** Each file's imports among `files` (imports of packages and of generated route types lead outside and are left out). */
function importGraph(files: string[]): Map<string, string[]> {
  const inside = new Set(files);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
      const targets = importedFiles
        .map(({ fileName }) => ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule?.resolvedFileName)
        .filter((target): target is string => target !== undefined && inside.has(target));
      return [file, [...new Set(targets)]];
    }),
  );
}

/** The circles in the graph, one per back edge found by a depth-first walk, as paths relative to the project. */
function importCycles(dir: string): string[][] {
  const graph = importGraph(sourceFiles(dir));
  const cycles: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (file: string) => {
    stack.push(file);
    for (const target of graph.get(file)!) {
      const at = stack.indexOf(target);
      if (at >= 0) cycles.push([...stack.slice(at), target].map((step) => path.relative(ROOT, step)));
      else if (!done.has(target)) visit(target);
    }
    stack.pop();
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  return cycles;
}

describe("import cycles", () => {
  it("app/ has none, counting type-only imports", () => {
    expect(importCycles(path.join(ROOT, "app"))).toEqual([]);
  });

  it("finds a circle that value imports close, and one that a type import closes", () => {
    expect(importCycles(path.join(ROOT, "tests/fixtures/lint"))).toHaveLength(1);
    expect(importCycles(path.join(ROOT, "tests/fixtures/import-cycles"))).toEqual([
      ["tests/fixtures/import-cycles/type-a.ts", "tests/fixtures/import-cycles/type-b.ts", "tests/fixtures/import-cycles/type-a.ts"],
    ]);
  });
});

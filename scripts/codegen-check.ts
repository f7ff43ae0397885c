// `npm test`'s freshness check: every file `npm run codegen` writes is generated again in memory, formatted as the
// codegen hook formats it (Prettier), and compared with the file in the tree. Nothing is written.
// (`graphql-codegen --check` compares before the Prettier hook runs, so it would call every formatted file stale.)
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { generate, loadCodegenConfig } from "@graphql-codegen/cli";
import { format, resolveConfig } from "prettier";

/** The generated files that differ from what the schema and the operations give now. */
export async function staleGeneratedFiles(cwd = process.cwd()): Promise<string[]> {
  const { config } = await loadCodegenConfig({ configFilePath: path.join(cwd, "codegen.ts") });
  const outputs = await generate({ ...config, cwd, silent: true, hooks: {} }, false);
  const stale: string[] = [];
  for (const { filename, content } of outputs) {
    const file = path.resolve(cwd, filename);
    const expected = await format(content, { ...(await resolveConfig(file)), filepath: file });
    const actual = await readFile(file, "utf8").catch(() => null);
    if (actual !== expected) stale.push(path.relative(cwd, file));
  }
  return stale;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const stale = await staleGeneratedFiles();
  if (stale.length > 0) {
    console.error(`Stale generated files (run \`npm run codegen\` and commit them):\n${stale.map((file) => `  - ${file}`).join("\n")}`);
    process.exit(1);
  }
  console.log("Generated files are up to date.");
}

/**
 * Reads V8 CPU profiles (`node --cpu-prof`, see compare-api.ts --profile) and prints where
 * the time went as shares of the busy time (idle left out): the functions that used most
 * of it themselves, and the share of every sample whose stack holds a function matching
 * one of the patterns given (its own time and everything it called). `--packages` adds the self time by where the
 * code comes from: a package, Node's own modules, a chunk of the build, or V8 (natives and the garbage collector).
 * `--phases` splits a page server's busy time by what each sample was part of (PHASES: the first that its stack
 * holds, in their order): React's render, the API's execution, the loaders, and so on.
 *
 *   npx tsx scripts/bench/cpu-profile.ts [--top 25] [--packages] [--phases] [--match async_hooks --match collectTables] FILE.cpuprofile...
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: "string", default: "25" },
    packages: { type: "boolean", default: false },
    phases: { type: "boolean", default: false },
    match: { type: "string", multiple: true, default: [] },
  },
});

/** A function as a reader recognises it: its name and where it is. */
function frameName({ functionName, url, lineNumber }: ProfileNode["callFrame"]): string {
  const where = url ? `${url.replace(/^file:\/\//, "").replace(/^.*\/node_modules\//, "")}:${lineNumber + 1}` : "";
  return `${functionName || "(anonymous)"} ${where}`.trim();
}

/** Where a function's code comes from: its package, Node's module, the build's chunk, or V8 itself. */
function origin({ functionName, url }: ProfileNode["callFrame"]): string {
  if (!url) return functionName.startsWith("(") ? functionName : "V8 natives";
  const inPackage = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inPackage) return inPackage[1]!;
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  if (url.includes("/build/server/assets/")) return `build ${path.basename(url).replace(/-[\w-]{8}\.js$/, "")}`;
  return path.relative(process.cwd(), url.replace(/^file:\/\//, ""));
}

const IDLE = "(idle)";
const GC = "(garbage collector)";

/** A page request's parts, each by a function on its stack; a sample counts for the first of these its stack holds. */
const PHASES: ReadonlyArray<readonly [string, RegExp]> = [
  ["React's render and output", /^performWork /],
  ["the API's execution", /graphql-yoga|@envelop|graphql\/execution/],
  ["the loaders", /^callLoaderOrAction /],
  ["React Router's request handling", /^(requestHandler|handleDocumentRequest) /],
  ["HTTP parsing and Express", /^parserOnIncoming /],
  ["loading modules (start-up)", /module_job/],
];

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  /** Which of `patterns` a node's stack holds anywhere (memoised per node). */
  const stackMatcher = (patterns: readonly RegExp[]) => {
    const stackMatches = new Map<number, boolean[]>();
    const matchesOf = (id: number): boolean[] => {
      let found = stackMatches.get(id);
      if (found) return found;
      const name = frameName(byId.get(id)!.callFrame);
      const up = parent.has(id) ? matchesOf(parent.get(id)!) : patterns.map(() => false);
      found = patterns.map((pattern, i) => up[i]! || pattern.test(name));
      stackMatches.set(id, found);
      return found;
    };
    return matchesOf;
  };
  const patterns = (values.match ?? []).map((text) => new RegExp(text));
  const matchesOf = stackMatcher(patterns);
  const phasesOf = stackMatcher(PHASES.map(([, pattern]) => pattern));
  const byPhase = new Map<string, number>();

  const self = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  const inclusive = patterns.map(() => 0);
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const name = frameName(byId.get(id)!.callFrame);
    if (name === IDLE) return;
    busy += delta;
    self.set(name, (self.get(name) ?? 0) + delta);
    const from = origin(byId.get(id)!.callFrame);
    byOrigin.set(from, (byOrigin.get(from) ?? 0) + delta);
    matchesOf(id).forEach((hit, j) => {
      if (hit) inclusive[j]! += delta;
    });
    const phase = name === GC ? "garbage collection" : (PHASES[phasesOf(id).indexOf(true)]?.[0] ?? "everything else");
    byPhase.set(phase, (byPhase.get(phase) ?? 0) + delta);
  });

  const share = (micros: number) => `${((micros / busy) * 100).toFixed(1).padStart(5)} %`;
  console.log(`\n${path.basename(path.dirname(file))}/${path.basename(file)}: ${(busy / 1e6).toFixed(2)} s busy`);
  console.log("  self time, top functions:");
  for (const [name, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
    console.log(`    ${share(micros)}  ${name}`);
  if (values.packages) {
    console.log("  self time, by where the code comes from:");
    for (const [from, micros] of [...byOrigin].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
      console.log(`    ${share(micros)}  ${from}`);
  }
  if (values.phases) {
    console.log("  busy time by part of the request:");
    for (const [phase, micros] of [...byPhase].sort((a, b) => b[1] - a[1])) console.log(`    ${share(micros)}  ${phase}`);
  }
  if (patterns.length) console.log("  stacks holding (self + callees):");
  patterns.forEach((pattern, i) => console.log(`    ${share(inclusive[i]!)}  /${pattern.source}/`));
}

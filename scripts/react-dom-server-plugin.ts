import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "vite";

const require = createRequire(import.meta.url);

/** React's server renderer for Node, production build: what `react-dom/server` loads in the built server. */
export const REACT_DOM_SERVER_FILE = path.join(
  path.dirname(require.resolve("react-dom/package.json")),
  "cjs/react-dom-server.node.production.js",
);

/**
 * `find` must occur exactly `times` times (default once). With `until`, the code from `find` up to (not including) the
 * next `until` is replaced: a whole function, without copying its text here.
 */
type Change = { why: string; find: string; until?: string; replace: string; times?: number };

/**
 * Seven changes to React's server renderer (react-dom 19.3), in eight places, each giving the same page for less
 * work: it writes the page as text (the first four), measures no string's bytes (the fifth), and runs in no
 * AsyncLocalStorage (the last two). docs/performance.md has their figures.
 */
export const REACT_DOM_SERVER_CHANGES: readonly Change[] = [
  {
    why:
      "Its writer encodes each of the page's chunks (some 6,000 a signed-in page, a dozen characters each) into 4 KB " +
      "byte buffers as it goes: a call into the encoder per chunk, a seventh of the page's CPU. The page is joined as " +
      "text instead, which V8 does without copying, and the destination gets it (and each long text) as strings, " +
      "encoded in one pass. React's build for Bun writes text the same way.",
    find: "function writeChunk(destination, chunk) {",
    until: "function writeToDestination(destination, view) {",
    replace: `function writeChunk(destination, chunk) {
  if (2048 < chunk.length) {
    0 < pageText.length && writeToDestination(destination, pageText);
    pageText = "";
    writeToDestination(destination, chunk);
  } else pageText += chunk;
}
var pageText = "";
`,
  },
  {
    why: "What is left of the page's text goes to the destination when React ends a pass of writing.",
    find: `function completeWriting(destination) {
  currentView &&
    0 < writtenBytes &&
    destination.write(currentView.subarray(0, writtenBytes));
  currentView = null;`,
    replace: `function completeWriting(destination) {
  0 < pageText.length && destination.write(pageText);
  pageText = "";`,
  },
  {
    why: 'The bits of markup React keeps ready (`<div`, `>`, `="`) stay text, to be joined with the rest.',
    find: `function stringToPrecomputedChunk(content) {
  return textEncoder.encode(content);
}`,
    replace: `function stringToPrecomputedChunk(content) {
  return content;
}`,
  },
  {
    why: "A pass of writing starts with an empty text, not a new byte buffer.",
    find: "currentView = new Uint8Array(4096);",
    replace: 'pageText = "";',
    times: 2,
  },
  {
    why:
      "It measures the UTF-8 length of every string of every finished part (Buffer.byteLength, 4 % of the page's CPU) " +
      "only to decide which finished Suspense boundaries to send apart from the page (`progressiveChunkSize`) and, " +
      "for those over 500 bytes, to render their fallbacks in case. entry.server.tsx sends the page whole and never " +
      "apart (its progressiveChunkSize is infinite): the sizes change nothing it sends, and the fallbacks of " +
      "boundaries that finished are no longer rendered for nothing.",
    find: `function finishedSegment(request, boundary, segment) {
  if (null !== byteLengthOfChunk) {`,
    replace: `function finishedSegment(request, boundary, segment) {
  if (false) {`,
  },
  {
    why:
      "It runs its work inside an AsyncLocalStorage, for resource hints (`preload`, `preinit`) called outside the " +
      "render, after an await; the app calls them only while rendering. On Node 20 one store in use turns on promise " +
      "hooks for every promise of the process: the API's, the loaders', Express's (decision 002 met the same cost).",
    find: `    return requestStorage.run(request, performWork, request);`,
    replace: `    return performWork(request);`,
  },
  {
    why: "The same storage, around the early resource hints sent after the first pass of work.",
    find: `      requestStorage.run(
        request,
        enqueueEarlyPreloadsAfterInitialWork,
        request
      );`,
    replace: `      enqueueEarlyPreloadsAfterInitialWork(request);`,
  },
];

/**
 * React's server renderer with REACT_DOM_SERVER_CHANGES made. Each must find its code exactly where it expects
 * (as many times as it says): a React whose renderer differs fails the build, and whoever updates React
 * looks at each change again rather than getting a renderer changed in ways nobody read.
 */
export function patchReactDomServer(code: string): string {
  let patched = code;
  for (const change of REACT_DOM_SERVER_CHANGES) {
    const found = patched.split(change.find).length - 1;
    const expected = change.times ?? 1;
    const start = patched.indexOf(change.find);
    const end = change.until === undefined ? -1 : patched.indexOf(change.until, start);
    if (found !== expected || (change.until !== undefined && end < 0)) {
      throw new Error(
        `react-dom's server renderer is not the one scripts/react-dom-server-plugin.ts was written for: ` +
          `found ${found} (not ${expected}) of the code to change for "${change.why.slice(0, 60)}…". Review the changes against this React.`,
      );
    }
    patched =
      change.until === undefined
        ? patched.split(change.find).join(change.replace)
        : patched.slice(0, start) + change.replace + patched.slice(end);
  }
  return patched;
}

/** Production builds only: the server build bundles React's server renderer, changed (REACT_DOM_SERVER_CHANGES). */
export function reactDomServer(): Plugin {
  return {
    name: "weatherbot:react-dom-server",
    apply: "build",
    enforce: "pre",
    resolveId(source) {
      return this.environment.name === "ssr" && source === "react-dom/server" ? REACT_DOM_SERVER_FILE : null;
    },
    transform(code, id) {
      return id === REACT_DOM_SERVER_FILE ? { code: patchReactDomServer(code), map: null } : null;
    },
  };
}

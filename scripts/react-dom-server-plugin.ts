import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "vite";

const require = createRequire(import.meta.url);

/** React's server renderer for Node, production build: what `react-dom/server` loads in the built server. */
export const REACT_DOM_SERVER_FILE = path.join(
  path.dirname(require.resolve("react-dom/package.json")),
  "cjs/react-dom-server.node.production.js",
);

/** `find` must occur exactly `times` times (default once). */
type Change = { why: string; find: string; replace: string; times?: number };

/**
 * Four changes to React's server renderer (react-dom 19.3), in five places, each giving the same page for less
 * work: its strings written without a view each (the first two), no byte length of every string, no
 * AsyncLocalStorage (the last two). A signed-in page spends 7–8 % less CPU (alternating runs; decision 017).
 */
export const REACT_DOM_SERVER_CHANGES: readonly Change[] = [
  {
    why: "The byte writer's 4 KB buffers are Buffers, for the change below (a Buffer is a Uint8Array: every other use stays).",
    find: "new Uint8Array(4096)",
    replace: "Buffer.allocUnsafeSlow(4096)",
    times: 8,
  },
  {
    why:
      "Its byte writer encodes each string of the page into its 4 KB buffer through a new view of the buffer's free " +
      "part (`subarray`): some 2,500 views per signed-in page, a seventh of all it allocates. A string that surely " +
      "fits (3 bytes per UTF-16 unit at most) is now written at its offset by the Buffer itself.",
    find: `      else {
        var target = currentView;
        0 < writtenBytes && (target = currentView.subarray(writtenBytes));`,
    replace: `      else if (3 * chunk.length <= currentView.length - writtenBytes) {
        writtenBytes += currentView.write(chunk, writtenBytes);
        currentView.length === writtenBytes &&
          (writeToDestination(destination, currentView),
          (currentView = Buffer.allocUnsafeSlow(4096)),
          (writtenBytes = 0));
      } else {
        var target = currentView;
        0 < writtenBytes && (target = currentView.subarray(writtenBytes));`,
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
    if (found !== expected) {
      throw new Error(
        `react-dom's server renderer is not the one scripts/react-dom-server-plugin.ts was written for: ` +
          `found ${found} (not ${expected}) of the code to change for "${change.why.slice(0, 60)}…". Review the changes against this React.`,
      );
    }
    patched = patched.split(change.find).join(change.replace);
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

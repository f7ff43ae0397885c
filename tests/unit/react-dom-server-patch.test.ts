import { AsyncLocalStorage } from "node:async_hooks";
import { readFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import path from "node:path";
import { Writable } from "node:stream";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { patchReactDomServer, REACT_DOM_SERVER_FILE } from "../../scripts/react-dom-server-plugin";

type Renderer = typeof import("react-dom/server");
type React = typeof import("react");

const require = createRequire(import.meta.url);

/**
 * A CommonJS file of React's, compiled from `code`, whose `require`s of React's packages get `packages`: the tests run
 * with NODE_ENV=test, and React's production renderer must be given its production React (as in the built server).
 */
function compiled<T>(file: string, code: string, packages: Record<string, unknown>): T {
  const module = new Module(file) as Module & { _compile(code: string, filename: string): void; paths: string[] };
  module.filename = file;
  module.paths = (Module as unknown as { _nodeModulePaths(from: string): string[] })._nodeModulePaths(path.dirname(file));
  const load = module.require.bind(module);
  module.require = ((id: string) => (id in packages ? packages[id] : load(id))) as NodeJS.Require;
  module._compile(code, file);
  return module.exports as T;
}

/** A file of a package's own, past its `exports` (which name only its entry points). */
const fileOf = (pkg: string, file: string) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);
const React = require(fileOf("react", "cjs/react.production.js")) as React;
const reactDomFile = fileOf("react-dom", "cjs/react-dom.production.js");
const ReactDOM = compiled(reactDomFile, readFileSync(reactDomFile, "utf8"), { react: React });
const rendererFrom = (code: string) => compiled<Renderer>(REACT_DOM_SERVER_FILE, code, { react: React, "react-dom": ReactDOM });

const original = readFileSync(REACT_DOM_SERVER_FILE, "utf8");
const unchanged = rendererFrom(original);
const changed = rendererFrom(patchReactDomServer(original));

/** What the renderer hands its destination, as entry.server.tsx renders a page: whole, once everything is ready. */
function writesOf(renderer: Renderer, element: ReactNode): Promise<(string | Uint8Array)[]> {
  return new Promise((resolve, reject) => {
    const { pipe } = renderer.renderToPipeableStream(element, {
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        const writes: (string | Uint8Array)[] = [];
        const page = new Writable({
          decodeStrings: false,
          write(chunk: string | Uint8Array, _encoding, done) {
            writes.push(chunk);
            done();
          },
        });
        page.on("finish", () => resolve(writes));
        pipe(page);
      },
      onShellError: reject,
      onError: reject,
    });
  });
}

const render = async (renderer: Renderer, element: ReactNode) =>
  Buffer.concat((await writesOf(renderer, element)).map((chunk) => (typeof chunk === "string" ? Buffer.from(chunk) : chunk)));

// Elements of React's production build, like the renderer under test (the tests run with NODE_ENV=test).
const { createElement: h, lazy, Suspense } = React;

const Later = lazy(async () => ({ default: ({ children }: { children: ReactNode }) => h("section", { className: "later" }, children) }));

/** Texts in every width of UTF-8 (1 to 4 bytes), some long enough to cross the writer's 4 KB buffers. */
const TEXTS = ["plain", "Wetter für Köln", "ça gèle", "東京の天気", "🌧️ rain 🌩️", "x".repeat(1_500), "é".repeat(1_400), "☀".repeat(1_366)];
const text = (i: number) => TEXTS[i % TEXTS.length]!;

/** Sixty cards of texts, attributes, escaped characters and a lazy part in a Suspense boundary each. */
function page(onFallback?: () => void): ReactNode {
  const Fallback = () => {
    onFallback?.();
    return h("p", { className: "skeleton" }, "loading");
  };
  const cards = Array.from({ length: 60 }, (_, i) =>
    h(
      "article",
      { key: i, id: `card-${i}`, className: `card card-${i % 3}`, "data-testid": "card", "aria-label": text(i) },
      h("h3", { title: text(i + 1) }, text(i)),
      h("p", null, i, " ", text(i + 2), " ", h("b", null, '<&"')),
      h(Suspense, { fallback: h(Fallback) }, h(Later, null, text(i + 3).repeat(2))),
    ),
  );
  return h("html", { lang: "en" }, h("body", null, cards));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("React's server renderer as the build bundles it (scripts/react-dom-server-plugin.ts)", () => {
  it("finds every piece of code it changes in the installed React, exactly where it expects it", () => {
    expect(() => patchReactDomServer(original)).not.toThrow();
    expect(() => patchReactDomServer(original.replace("function finishedSegment(", "function finishSegment("))).toThrow(
      /not the one scripts\/react-dom-server-plugin.ts was written for/,
    );
    // A function replaced whole must end where it expects.
    expect(() => patchReactDomServer(original.replace("function writeToDestination(", "function writeOut("))).toThrow(
      /not the one scripts\/react-dom-server-plugin.ts was written for/,
    );
  });

  it("gives byte for byte the page React gives, in every width of UTF-8 and across its buffers", async () => {
    // Once to load the lazy part: both renders then find it ready, as the server's render finds its preloaded chunks.
    await render(unchanged, page());
    const expected = await render(unchanged, page());
    const actual = await render(changed, page());
    expect(expected.byteLength).toBeGreaterThan(100_000);
    expect(actual.equals(expected)).toBe(true);
    expect(actual.toString("utf8")).toContain("東京の天気");
  });

  it("hands on the page as text, joined, encoding none of it and measuring no string's bytes", async () => {
    await render(changed, page());
    const encodeInto = vi.spyOn(TextEncoder.prototype, "encodeInto");
    const encode = vi.spyOn(Buffer.prototype, "write");
    const byteLength = vi.spyOn(Buffer, "byteLength");
    const writes = await writesOf(changed, page());
    expect(writes.every((chunk) => typeof chunk === "string")).toBe(true);
    // The page's thousands of chunks joined: one text between two long ones (over 2,048 characters) at most.
    const long = writes.filter((chunk) => chunk.length > 2_048).length;
    expect(long).toBeGreaterThan(10);
    expect(writes.length).toBeLessThanOrEqual(2 * long + 1);
    expect(encodeInto).not.toHaveBeenCalled();
    expect(encode).not.toHaveBeenCalled();
    expect(byteLength).not.toHaveBeenCalled();

    // React as it ships encodes its chunks into byte buffers as it goes.
    const shipped = await writesOf(unchanged, page());
    expect(shipped.some((chunk) => typeof chunk !== "string")).toBe(true);
    expect(encodeInto.mock.calls.length).toBeGreaterThan(1_000);
  });

  it("does not render the fallback of a boundary that finished, and turns on no AsyncLocalStorage", async () => {
    const run = vi.spyOn(AsyncLocalStorage.prototype, "run");
    let fallbacks = 0;
    await render(
      changed,
      page(() => fallbacks++),
    );
    expect(fallbacks).toBe(0);
    expect(run).not.toHaveBeenCalled();

    // React as it ships renders the fallbacks of boundaries over 500 bytes, in case it sends them apart.
    await render(
      unchanged,
      page(() => fallbacks++),
    );
    expect(fallbacks).toBeGreaterThan(0);
    expect(run).toHaveBeenCalled();
  });
});

import { createHash } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, offlinePageHeader } from "~/server/csp.server";
import { renderOfflinePage } from "../../scripts/offline-page-plugin";

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
const html = renderOfflinePage(path.resolve(import.meta.dirname, "../.."));

describe("the offline page's Content-Security-Policy", () => {
  it("sits in the page before anything it governs and allows only the page's own inline script and style", () => {
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    expect(policy).toBeTruthy();
    expect(html.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(html.indexOf("<style>"));
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(policy!.split("; ")).toEqual([
      "default-src 'none'",
      `script-src ${sha256(script)}`,
      `style-src ${sha256(style)}`,
      "img-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
    ]);
    // One inline script and one style: nothing else would be allowed to run or apply.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html.match(/<style/g)).toHaveLength(1);
    expect(html).not.toMatch(/ style="| on\w+="/);
  });

  it("is sent as a header too, with frame-ancestors (which a meta tag cannot carry)", () => {
    const header = offlinePageHeader(html)!;
    expect(header).toMatch(/^default-src 'none'; script-src 'sha256-[^']+'; .*; frame-ancestors 'none'$/);
    expect(offlinePageHeader("<html></html>")).toBeNull();
  });
});

describe("the pages' Content-Security-Policy", () => {
  it("trusts what nonced scripts load ('strict-dynamic'), not hosts", () => {
    expect(contentSecurityPolicy("abc")).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic';");
  });
});

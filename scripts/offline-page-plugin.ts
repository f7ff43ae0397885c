import fs from "node:fs";
import path from "node:path";
import postcss from "postcss";
import type { Plugin } from "vite";
import { offlinePagePolicy } from "../app/server/csp.server";
import { DEFAULT_LOCALE, LOCALE_COOKIE, SUPPORTED_LOCALES } from "../app/lib/i18n/config";

type OfflineTexts = { title: string; body: string; retry: string; home: string; name: string };

function textsOf(root: string, locale: string): OfflineTexts {
  const common = JSON.parse(fs.readFileSync(path.join(root, "locales", locale, "common.json"), "utf8"));
  return {
    name: common.app.name,
    title: common.pwa.offlineTitle,
    body: common.pwa.offlineBody,
    retry: common.pwa.offlineRetry,
    home: common.pwa.offlineHome,
  };
}

/**
 * The app's font, as app/app.css's `@theme` names it for every page, read with a CSS parser, so the offline page
 * never looks like another app's (it had system-ui, issue 35).
 */
function appFontStack(root: string): string {
  const file = path.join(root, "app", "app.css");
  let stack: string | undefined;
  postcss.parse(fs.readFileSync(file, "utf8"), { from: file }).walkAtRules("theme", (theme) =>
    theme.walkDecls("--font-sans", (declaration) => {
      stack = declaration.value;
    }),
  );
  if (!stack) throw new Error("app/app.css's @theme names no --font-sans: the offline page's font cannot follow the app's");
  return stack.replace(/\s+/g, " ").trim();
}

const style = (root: string) => `
:root{color-scheme:light dark;--bg:#fff;--text:#1e293b;--muted:#475569;--accent:#166534;--border:#e2e8f0}
@media (prefers-color-scheme:dark){:root{--bg:#0f172a;--text:#f1f5f9;--muted:#cbd5e1;--accent:#4ade80;--border:#334155}}
body{margin:0;min-height:100dvh;display:grid;place-items:center;background:var(--bg);color:var(--text);font:16px/1.5 ${appFontStack(root)}}
main{max-width:28rem;padding:2rem 1.5rem;text-align:center}
img{width:72px;height:72px}
h1{font-size:1.5rem;margin:1rem 0 .5rem}
p{color:var(--muted);margin:0 0 1.5rem}
.actions{display:flex;gap:.75rem;justify-content:center;flex-wrap:wrap}
button,a{font:inherit;padding:.5rem 1rem;border-radius:.5rem;border:1px solid var(--border);color:var(--text);background:transparent;text-decoration:none;cursor:pointer}
button{background:var(--accent);border-color:var(--accent);color:var(--bg);font-weight:600}
:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The branded page the service worker shows for a URL never visited online. It is a
 * static file (precached), so it carries every locale's texts from `locales/` and picks
 * one the way the server does: the locale cookie, then the browser's languages. Its CSP
 * allows nothing but its own inline script and style, by hash; it is in a meta tag, so it
 * holds wherever the page comes from (the service worker's precache included), and the
 * server sends it as a header too (see offlinePageHeader).
 */
export function renderOfflinePage(root: string): string {
  const css = style(root);
  const texts = Object.fromEntries(SUPPORTED_LOCALES.map((locale) => [locale, textsOf(root, locale)]));
  const fallback = texts[DEFAULT_LOCALE]!;
  const script =
    `(()=>{const t=${JSON.stringify(texts).replace(/</g, "\\u003c")};` +
    `const c=document.cookie.match(/(?:^|; )${LOCALE_COOKIE.name}=([^;]+)/);` +
    `const wanted=[c&&decodeURIComponent(c[1]),...navigator.languages].filter(Boolean);` +
    `let l=wanted.find(w=>t[w]);if(!l){for(const w of wanted){l=Object.keys(t).find(k=>k.split("-")[0]===w.split("-")[0]);if(l)break;}}` +
    `if(!l)return;const x=t[l];document.documentElement.lang=l;document.title=x.title+" · "+x.name;` +
    `for(const e of document.querySelectorAll("[data-text]"))e.textContent=x[e.dataset.text];` +
    `document.getElementById("retry").addEventListener("click",()=>location.reload());})();`;
  return `<!doctype html>
<html lang="${DEFAULT_LOCALE}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${offlinePagePolicy(script, css)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="theme-color" content="#0f172a">
<title>${escapeHtml(fallback.title)} · ${escapeHtml(fallback.name)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${css}</style>
</head>
<body>
<main id="offline-page">
<img src="/icons/icon-192.png" alt="">
<h1 data-text="title">${escapeHtml(fallback.title)}</h1>
<p data-text="body">${escapeHtml(fallback.body)}</p>
<div class="actions"><button id="retry" type="button" data-text="retry">${escapeHtml(fallback.retry)}</button><a href="/" data-text="home">${escapeHtml(fallback.home)}</a></div>
</main>
<script>${script}</script>
</body>
</html>
`;
}

/** Emits `offline.html` into the client build, where the service worker's precache finds it. */
export function offlinePage(root: string): Plugin {
  return {
    name: "weatherbot:offline-page",
    apply: "build",
    generateBundle() {
      if (this.environment?.name !== "client") return;
      this.emitFile({ type: "asset", fileName: "offline.html", source: renderOfflinePage(root) });
    },
  };
}

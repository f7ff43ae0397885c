import { readFile } from "node:fs/promises";
import type { PagesFixture } from "../../page-fixture";

let fixture: Promise<PagesFixture> | undefined;

/** The pages' content, written by the benchmark before it starts this server (BARE_PAGE_FIXTURE), read once. */
export function pagesFixture(): Promise<PagesFixture> {
  const file = process.env.BARE_PAGE_FIXTURE;
  if (!file) throw new Error("BARE_PAGE_FIXTURE names no fixture file");
  fixture ??= readFile(file, "utf8").then((text) => JSON.parse(text) as PagesFixture);
  return fixture;
}

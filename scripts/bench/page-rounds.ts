/**
 * The page benchmark's bookkeeping (scripts/bench/pages.ts): which server loads which page in
 * which turn, what counts as a full page, and the figures made of the rounds.
 */
import type { ErrorTest, LoadResult } from "./load";
import { median } from "./median";

export type PageKind = "signed-in" | "visitor";
export type ServerKind = "app" | "bare";

export type Turn = { round: number; page: PageKind; server: ServerKind };

/**
 * Every round loads every page on both servers; the server that goes first alternates from
 * round to round (and from page to page), so neither always meets the machine in the state
 * the other left it in.
 */
export function schedule(rounds: number, pages: readonly PageKind[]): Turn[] {
  const turns: Turn[] = [];
  for (let round = 0; round < rounds; round++) {
    pages.forEach((page, index) => {
      const servers: ServerKind[] = (round + index) % 2 === 0 ? ["app", "bare"] : ["bare", "app"];
      for (const server of servers) turns.push({ round, page, server });
    });
  }
  return turns;
}

const CLOSING = Buffer.from("</html>");

function count(body: Buffer, marker: Buffer): number {
  let found = 0;
  for (let at = body.indexOf(marker); at !== -1; at = body.indexOf(marker, at + marker.length)) found++;
  return found;
}

/**
 * A full page: a 200 whose HTML got to its end and holds each marker as often as asked
 * (a redirect, the error page or a visitor's page in place of a signed-in one fails it).
 */
export function notFullPage(markers: ReadonlyArray<{ text: string; times: number }>): ErrorTest {
  const encoded = markers.map(({ text, times }) => ({ marker: Buffer.from(text), times }));
  return ({ status, body }) =>
    status !== 200 ||
    body.lastIndexOf(CLOSING) === -1 ||
    body.subarray(body.lastIndexOf(CLOSING)).toString().trim() !== "</html>" ||
    encoded.some(({ marker, times }) => count(body, marker) !== times);
}

export type Rounds = { rps: number; p50: number; p99: number; requests: number; errors: number; samples: LoadResult[] };

/** A server's figures for one page: the medians of its rounds. */
export function summarise(samples: LoadResult[]): Rounds {
  return {
    rps: median(samples.map((sample) => sample.rps)),
    p50: median(samples.map((sample) => sample.p50)),
    p99: median(samples.map((sample) => sample.p99)),
    requests: samples.reduce((sum, sample) => sum + sample.requests, 0),
    errors: samples.reduce((sum, sample) => sum + sample.errors, 0),
    samples,
  };
}

/** The app's share of the bare page: per round (both measured in it, under the same drift), then the median. */
export function shareOfBare(app: LoadResult[], bare: LoadResult[]): { median: number; perRound: number[] } {
  if (app.length !== bare.length || app.length === 0) throw new Error("A share needs as many rounds of each server, at least one");
  const perRound = app.map((sample, round) => sample.rps / bare[round]!.rps);
  return { median: median(perRound), perRound };
}

import { LRUCache } from "lru-cache";
import { parseCapAlert } from "./cap-document.server";
import type { CapMessage } from "./cap-message.server";
import { asFeedError, FeedError } from "./feed-error.server";
import { fetchBody, type FetchBodyOptions } from "./fetch-body.server";
import { parseMeteoAlarmAtom } from "./meteoalarm-atom.server";
import { decodeXmlText } from "./text-decoding.server";

export type MeteoAlarmClientOptions = Omit<FetchBodyOptions, "accept" | "service" | "maxBytes"> & {
  /** METEOALARM_URL. */
  baseUrl: string;
  /** The most bytes of a country's feed (a big country's, on a stormy day, runs to a few MB). */
  maxFeedBytes: number;
  /** The most bytes of one CAP document. */
  maxDocumentBytes: number;
  /** The most CAP documents read for one feed; the rest are served from their feed entries. */
  maxDocuments: number;
  /** CAP documents read at once. */
  concurrency: number;
};

export type CountryWarnings = {
  messages: CapMessage[];
  /** Update/Cancel messages whose documents could not be read (see WarningsOutcome.incomplete). */
  incomplete: string[];
};

const SERVICE = "MeteoAlarm";
const TRANSPORT = new Set(["timeout", "unreachable", "http-error"]);

/**
 * MeteoAlarm over HTTP: a country's Atom feed, then each CAP 1.2 document it links to (from the
 * configured base, whatever host the link names: a feed's links never lead this server elsewhere).
 * A CAP message never changes once published, so documents are cached by path for a day and a feed
 * that lists the same warnings again costs one request.
 */
export function createMeteoAlarmClient(options: MeteoAlarmClientOptions) {
  const documents = new LRUCache<string, CapMessage>({ max: 5_000, ttl: 24 * 3_600_000 });
  const feedOptions: FetchBodyOptions = {
    ...options,
    maxBytes: options.maxFeedBytes,
    accept: "application/atom+xml, application/xml;q=0.9",
    service: SERVICE,
  };
  const documentOptions: FetchBodyOptions = {
    ...options,
    maxBytes: options.maxDocumentBytes,
    accept: "application/cap+xml, application/xml;q=0.9",
    service: SERVICE,
  };

  async function documentAt(path: string): Promise<CapMessage> {
    const cached = documents.get(path);
    if (cached) return cached;
    const { bytes, contentType } = await fetchBody(new URL(`${options.baseUrl}${path}`), documentOptions);
    const message = parseCapAlert(decodeXmlText(bytes, contentType, SERVICE), SERVICE);
    documents.set(path, message);
    return message;
  }

  return {
    /** The messages of a country's feed (`slug` from METEOALARM_FEEDS); throws a FeedError when the feed cannot be read. */
    async country(slug: string): Promise<CountryWarnings> {
      const feedUrl = new URL(`${options.baseUrl}/feeds/meteoalarm-legacy-atom-${slug}`);
      const { bytes, contentType } = await fetchBody(feedUrl, feedOptions);
      const entries = parseMeteoAlarmAtom(decodeXmlText(bytes, contentType, SERVICE), feedUrl);
      const messages: CapMessage[] = [];
      const incomplete: string[] = [];
      const failures: FeedError[] = [];
      const queue = entries.map((entry, index) => ({ entry, read: index < options.maxDocuments }));
      const workers = Array.from({ length: Math.min(options.concurrency, queue.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const { entry, read } = next;
          try {
            if (!read) throw new FeedError(`more than ${options.maxDocuments} CAP documents in one feed`, "too-large");
            messages.push(await documentAt(entry.documentPath));
          } catch (error) {
            failures.push(asFeedError(error));
            // An Alert starts its own chain: its feed entry says enough. An Update or Cancel without
            // its document cannot say which warning it changes.
            if (entry.summary.msgType === "Alert") messages.push(entry.summary);
            else incomplete.push(entry.summary.identifier);
          }
        }
      });
      await Promise.all(workers);
      // Every document out of reach while the feed answers: the service is failing, not one document.
      if (entries.length > 0 && failures.length === entries.length && failures.every((failure) => TRANSPORT.has(failure.reason))) {
        throw failures[0]!;
      }
      return { messages, incomplete };
    },
  };
}

export type MeteoAlarmClient = ReturnType<typeof createMeteoAlarmClient>;

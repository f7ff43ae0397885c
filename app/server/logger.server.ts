import pino, { type DestinationStream, type Logger } from "pino";
import type { LOG_LEVELS } from "./env.server";

export type LogLevel = (typeof LOG_LEVELS)[number];
export type { Logger };

/**
 * The server's log: one JSON object per line on stdout (decision 015), for whatever collects
 * the container's output. Lines carry `time` (ISO 8601), `level` as a word, `msg`, and the
 * request's `reqId` where there is one; errors go under `err` with their stack. No pretty
 * printing here: `npx pino-pretty` reads these lines for a person. Writes are asynchronous
 * (lines written while one write is under way leave together), and what is still buffered
 * is written out when the process exits.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: pino.stdSerializers.err },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

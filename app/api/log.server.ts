/**
 * Where the API's own log lines go. The server (app/server/logger.server.ts) hands it its JSON
 * logger once at startup; until then, and wherever the API runs without the server (tests,
 * scripts), warnings and errors go to the console as before, so the tests' guard still fails on an error.
 * One sink per process: log lines leave the process on one stdout anyway.
 */

export type LogFields = Record<string, unknown>;

/** pino's call shape (fields, then message), so the server's logger is one as it is. */
export type ApiLogger = {
  error(fields: LogFields, message: string): void;
  warn(fields: LogFields, message: string): void;
  info(fields: LogFields, message: string): void;
  debug(fields: LogFields, message: string): void;
};

/** The message first, then an error if there is one: what the console lines said before the JSON logs. */
function toConsole(write: (...args: unknown[]) => void) {
  return (fields: LogFields, message: string) => (fields.err === undefined ? write(message) : write(message, fields.err));
}

/** Warnings and errors only: the per-request and per-tick lines are the server's log's, not a test run's. */
export const consoleLogger: ApiLogger = {
  error: toConsole((...args) => console.error(...args)),
  warn: toConsole((...args) => console.warn(...args)),
  info: () => {},
  debug: () => {},
};

/**
 * Where a caller that logs a line of its own per request (the server's /graphql endpoint)
 * wants the operation described: it goes into that line instead of a second one.
 */
export type OperationLogRecord = { op?: string; type?: string; errors?: readonly string[] };

let sink: ApiLogger = consoleLogger;

/** The API's log: every call goes to the sink set last. */
export const apiLog: ApiLogger = {
  error: (fields, message) => sink.error(fields, message),
  warn: (fields, message) => sink.warn(fields, message),
  info: (fields, message) => sink.info(fields, message),
  debug: (fields, message) => sink.debug(fields, message),
};

/** Sends the API's log lines to `logger` (the server's, at startup). */
export function setApiLogger(logger: ApiLogger): void {
  sink = logger;
}

import type { Server } from "node:http";
import type { Duplex } from "node:stream";

/** Node's HTTP parser's refusals, by the code of its error: the status and a line that says why. */
const REFUSALS: Record<string, readonly [status: string, text: string]> = {
  HPE_HEADER_OVERFLOW: ["431 Request Header Fields Too Large", "The request's headers (or its address) are too long."],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: ["413 Payload Too Large", "The request's chunk extensions are too long."],
  ERR_HTTP_REQUEST_TIMEOUT: ["408 Request Timeout", "The request took too long to arrive."],
};
const BAD_REQUEST = ["400 Bad Request", "The request is not valid HTTP (a body shorter than its Content-Length, say)."] as const;

/**
 * Requests Node's HTTP parser refuses never reach a handler, and Node answers them with a status and an empty
 * body (a 20 KB query string: 431; a body shorter than its Content-Length: 400), which a person or a proxy's log
 * cannot read (issue 35). `clientError` is Node's place to answer them instead: the same status, with one line of
 * plain text. The request's language is unknown (its headers did not parse), so the line is English.
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Gone, or an answer already under way on this connection: nothing can be said any more.
    if (error.code === "ECONNRESET" || !socket.writable || (socket as Duplex & { bytesWritten?: number }).bytesWritten) {
      socket.destroy();
      return;
    }
    const [status, text] = REFUSALS[error.code ?? ""] ?? BAD_REQUEST;
    const body = `${text}\n`;
    socket.end(
      `HTTP/1.1 ${status}\r\n` +
        "Content-Type: text/plain; charset=utf-8\r\n" +
        "X-Content-Type-Options: nosniff\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "Connection: close\r\n\r\n" +
        body,
    );
  });
}

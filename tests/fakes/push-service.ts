import { createECDH, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
// web-push's own dependency: the receiving side of RFC 8291, as a browser would decrypt.
// @ts-expect-error http_ece ships no types
import ece from "http_ece";

export type ReceivedPush = { path: string; headers: Record<string, string | string[] | undefined>; body: Buffer };

/**
 * A loopback push service (the Mozilla/Google endpoint a browser would give): records
 * every push request and answers 201, or whatever status a path is told to answer.
 * `subscription()` makes a browser-like key pair so a test can decrypt what arrived.
 */
export async function startFakePushService() {
  const received: ReceivedPush[] = [];
  const statusFor = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(statusFor.get(path) ?? 201);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    received,
    /** What the push at this path will be answered with from now on (e.g. 410 Gone). */
    answer(path: string, status: number) {
      statusFor.set(path, status);
    },
    /** A subscription as PushSubscription.toJSON() gives it, and a decrypt for its pushes. */
    subscription(name: string) {
      const keys = createECDH("prime256v1");
      keys.generateKeys();
      const auth = randomBytes(16);
      return {
        endpoint: `${url}/push/${name}`,
        p256dh: keys.getPublicKey("base64url"),
        auth: auth.toString("base64url"),
        decrypt: (body: Buffer) =>
          JSON.parse(
            (ece.decrypt(body, { version: "aes128gcm", privateKey: keys, authSecret: auth.toString("base64url") }) as Buffer).toString(
              "utf8",
            ),
          ) as {
            title: string;
            body: string;
            tag: string;
            url: string;
            kind: string;
          },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

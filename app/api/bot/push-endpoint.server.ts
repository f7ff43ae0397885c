import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";

/**
 * Where the server may send Web Push requests. An endpoint comes from a browser, that is
 * from whoever calls savePushSubscription, and the server then POSTs to it on every
 * message: without these rules anyone could make it post into its own network. Push
 * services are public HTTPS hosts, so only those are accepted; loopback is allowed only
 * when PUSH_ALLOW_LOOPBACK says so (the tests' push service listens there).
 */

export type EndpointPolicy = { allowLoopback: boolean };

function v4Octets(address: string): number[] {
  return address.split(".").map(Number);
}

function isLoopbackV4([a]: number[]): boolean {
  return a === 127;
}

/** Outside every special-purpose IPv4 range (private, loopback, link-local, shared, documentation, multicast, reserved). */
function isPublicV4(octets: number[]): boolean {
  const [a = 0, b = 0, c = 0] = octets;
  return !(
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 192 && b === 88 && c === 99) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113) ||
    a >= 224
  );
}

/** The eight 16-bit groups of an IPv6 address (with or without a dotted IPv4 tail or a zone). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = v4Octets(dotted[1]!);
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (part: string) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const start = parse(head);
  const end = tail === undefined ? [] : parse(tail);
  return [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end];
}

/** The IPv4 address an IPv6 one carries (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96), if any. */
function embeddedV4(groups: number[]): number[] | null {
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  const mapped = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff;
  const nat64 = g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  return mapped || nat64 ? [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff] : null;
}

function isLoopbackV6(groups: number[]): boolean {
  const v4 = embeddedV4(groups);
  if (v4) return isLoopbackV4(v4);
  return groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1;
}

/** Global unicast (2000::/3) outside its special blocks; an embedded IPv4 address is judged as IPv4. */
function isPublicV6(groups: number[]): boolean {
  const v4 = embeddedV4(groups);
  if (v4) return isPublicV4(v4);
  const [g0 = 0, g1 = 0] = groups;
  if ((g0 & 0xe000) !== 0x2000) return false; // ::, ::1, fc00::/7, fe80::/10, ff00::/8 and the rest
  if (g0 === 0x2001 && g1 < 0x200) return false; // 2001::/23: Teredo, benchmarking, ORCHID …
  if (g0 === 0x2001 && g1 === 0xdb8) return false; // documentation
  if (g0 === 0x2002) return false; // 6to4 would carry any IPv4 address
  return true;
}

/** Whether the server may connect to this IP address under `policy`. */
export function isAllowedAddress(address: string, policy: EndpointPolicy): boolean {
  const family = isIP(address);
  if (family === 4) return isPublicV4(v4Octets(address)) || (policy.allowLoopback && isLoopbackV4(v4Octets(address)));
  if (family === 6) {
    const groups = v6Groups(address);
    return isPublicV6(groups) || (policy.allowLoopback && isLoopbackV6(groups));
  }
  return false;
}

const NOT_PUBLIC = "endpoint must be a push service on the public internet, not a private, loopback or local address";

/** What is wrong with a push endpoint under `policy`, or null when the server may post to it. */
export function endpointProblem(raw: string, policy: EndpointPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "endpoint must be a URL";
  }
  if (raw.length > 2048) return "endpoint must be at most 2048 characters long";
  if (url.username || url.password) return "endpoint must not carry a user name or password";
  // WHATWG URLs write every IP address in one canonical form (IPv6 in brackets).
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const name = host.replace(/\.$/, "");
  const isLocalName = name === "localhost" || name.endsWith(".localhost");
  const loopback = isIP(host)
    ? !isAllowedAddress(host, { allowLoopback: false }) && isAllowedAddress(host, { allowLoopback: true })
    : isLocalName;
  if (loopback && policy.allowLoopback)
    return url.protocol === "https:" || url.protocol === "http:" ? null : "endpoint must be an https URL of a push service";
  if (isLocalName || (isIP(host) && !isAllowedAddress(host, policy))) return NOT_PUBLIC;
  if (url.protocol !== "https:") return "endpoint must be an https URL of a push service";
  return null;
}

type Resolve = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for sockets that resolves a name and refuses it when any of its addresses is
 * not allowed: the check happens where the connection is made, so a name that answered
 * with a public address before and a private one now (DNS rebinding) is still refused.
 */
export function guardedLookup(allowLoopback: boolean, resolve: Resolve = dns.lookup as unknown as Resolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const refused = addresses.find((found) => !isAllowedAddress(found.address, { allowLoopback }));
      if (refused || addresses.length === 0) {
        const problem = Object.assign(
          new Error(`${hostname} resolves to ${refused?.address ?? "nothing"}, not a public address: not sent`),
          {
            code: "EADDRNOTPUBLIC",
          },
        );
        return callback(problem, "", 0);
      }
      if ((options as dns.LookupAllOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export type PushRequest = { method: string; headers: Record<string, string>; body: Buffer | null };

/**
 * Sends one push request and resolves with the push service's status. Node's own HTTP
 * client (not fetch) because it lets every connection go through `guardedLookup`.
 */
export function postPush(endpoint: string, request: PushRequest, policy: EndpointPolicy, timeoutMs = 10_000): Promise<number> {
  const problem = endpointProblem(endpoint, policy);
  if (problem) return Promise.reject(new Error(`${problem}: not sent`));
  const url = new URL(endpoint);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(
      url,
      { method: request.method, headers: request.headers, lookup: guardedLookup(policy.allowLoopback), timeout: timeoutMs },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    outgoing.on("error", reject);
    outgoing.end(request.body ?? undefined);
  });
}

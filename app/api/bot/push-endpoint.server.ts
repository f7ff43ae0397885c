import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Where the server may send Web Push requests. An endpoint comes from a browser, that is
 * from whoever calls savePushSubscription, and the server then POSTs to it on every
 * message: without these rules anyone could make it post into its own network. Push
 * services are public HTTPS hosts, so only those are accepted; loopback is allowed only
 * when PUSH_ALLOW_LOOPBACK says so (the tests' push service listens there).
 */

export type EndpointPolicy = { allowLoopback: boolean };

// ipaddr.js names the special-purpose ranges (IANA's registries); the two prefixes below are what it has no name for.
// Its "unicast" is everything unnamed, unassigned IPv6 space (::/8, 4000::/2 …) too: only global unicast is public.
const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");
// NAT64's well-known prefix (RFC 6052) carries an IPv4 address in its last 32 bits, as ::ffff:0:0/96 does.
const NAT64 = ipaddr.parseCIDR("64:ff9b::/96");

/** The address as the network will treat it: an IPv6 one that carries an IPv4 address is that IPv4 address. */
function effectiveAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed;
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  if (v6.match(NAT64)) return new ipaddr.IPv4(v6.toByteArray().slice(12));
  return v6;
}

/** Whether the server may connect to this IP address under `policy`. */
export function isAllowedAddress(address: string, policy: EndpointPolicy): boolean {
  if (!isIP(address)) return false; // only the canonical forms: ipaddr.js would also read "0x7f.1" and the like
  // ipaddr.js reads the deprecated IPv4-compatible form ::a.b.c.d (how Node writes ::/96) as IPv4-mapped; ::/96 is no public range.
  if (/^::\d+\.\d+\.\d+\.\d+(%.*)?$/.test(address)) return false;
  const effective = effectiveAddress(address);
  const range = effective.range();
  if (range === "loopback") return policy.allowLoopback;
  return range === "unicast" && (effective.kind() === "ipv4" || effective.match(GLOBAL_UNICAST));
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

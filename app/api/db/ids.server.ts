import { randomBytes } from "node:crypto";

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): time-ordered, with a counter for ids made in the same
 * millisecond, so sorting by id keeps the order things were written in this process.
 */
export function timeOrderedId(now: number = Date.now()): string {
  if (now <= lastMs) {
    sequence++;
    if (sequence > 0xfff) {
      lastMs++;
      sequence = 0;
    }
  } else {
    lastMs = now;
    sequence = 0;
  }
  const bytes = randomBytes(16);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  return uuidV7(bytes, lastMs, sequence);
}

/** `bytes` (random, variant bits set) with the millisecond and counter of a UUIDv7 written in, as text. */
function uuidV7(bytes: Buffer, ms: number, counter: number): string {
  bytes[0] = Math.floor(ms / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(ms / 2 ** 32) & 0xff;
  bytes[2] = (ms >>> 24) & 0xff;
  bytes[3] = (ms >>> 16) & 0xff;
  bytes[4] = (ms >>> 8) & 0xff;
  bytes[5] = ms & 0xff;
  bytes[6] = 0x70 | ((counter >>> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A time-ordered id that sorts after `previous` (an id another process may have made): now's,
 * when that is later; else `previous`'s millisecond with the next counter value.
 */
export function timeOrderedIdAfter(previous: string, now: number = Date.now()): string {
  const candidate = timeOrderedId(now);
  if (previous === "" || candidate > previous) return candidate;
  const hex = previous.replace(/-/g, "");
  let ms = parseInt(hex.slice(0, 12), 16);
  let counter = parseInt(hex.slice(13, 16), 16) + 1;
  if (counter > 0xfff) {
    ms++;
    counter = 0;
  }
  return uuidV7(Buffer.from(candidate.replace(/-/g, ""), "hex"), ms, counter);
}

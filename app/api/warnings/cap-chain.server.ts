import { LRUCache } from "lru-cache";
import type { CapMessage } from "./cap-message.server";

/**
 * A warning's stable id across its Update and Cancel messages: the first message of its CAP
 * `references` chain. The NWS lists the whole chain in every message; MeteoAlarm's senders
 * often list only the message replaced, so the roots seen are remembered (a week, bounded) to
 * follow a chain message by message. Both services' ids never meet: one memory each.
 */
export function createChainMemory(max = 20_000) {
  const roots = new LRUCache<string, string>({ max, ttl: 7 * 24 * 3_600_000 });
  return {
    /** The root of the message's chain; remembers it for the message and everything it references. */
    rootOf(message: CapMessage): string {
      const oldestFirst = [...message.references].sort((a, b) => (a.sent ?? "").localeCompare(b.sent ?? ""));
      const first = oldestFirst[0];
      const root = first ? (roots.get(first.identifier) ?? first.identifier) : (roots.get(message.identifier) ?? message.identifier);
      roots.set(message.identifier, root);
      for (const reference of oldestFirst) if (!roots.has(reference.identifier)) roots.set(reference.identifier, root);
      return root;
    },
  };
}

export type ChainMemory = ReturnType<typeof createChainMemory>;

export type ChainedMessage = { root: string; message: CapMessage };

/**
 * The current message of each warning: messages grouped by their chain's root, the latest sent
 * kept (a Cancel outranks what it cancels when both carry the same time). Messages that are not
 * real warnings (CAP status other than Actual; Ack and Error messages) are left out.
 */
export function currentMessages(messages: readonly CapMessage[], chains: ChainMemory): ChainedMessage[] {
  const rank = { Alert: 0, Update: 1, Cancel: 2 } as const;
  const latest = new Map<string, ChainedMessage>();
  const ordered = messages
    .filter((message) => message.msgType !== null && message.status.toLowerCase() === "actual")
    // Oldest first, so a chain's root is known before the messages that reference it.
    .sort((a, b) => (a.sent ?? "").localeCompare(b.sent ?? "") || rank[a.msgType!] - rank[b.msgType!]);
  for (const message of ordered) {
    const root = chains.rootOf(message);
    latest.set(root, { root, message });
  }
  return [...latest.values()];
}

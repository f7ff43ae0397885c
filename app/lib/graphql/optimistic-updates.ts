import type { OptimisticMutationConfig } from "@urql/exchange-graphcache";

/**
 * What a mutation made offline shows until the server has it: the offline exchange keeps
 * a mutation for later only when it has one of these (mark read and rename place).
 */
export const optimisticUpdates: OptimisticMutationConfig = {
  markRead(args, cache) {
    const ids = (args.ids as string[]) ?? [];
    const me = cache.resolve("Query", "me") as string | null;
    const newlyRead = ids.filter((id) => cache.resolve({ __typename: "Message", id }, "readAt") == null).length;
    const unread = me ? ((cache.resolve(me, "unreadCount") as number | null) ?? 0) : 0;
    const recipient = me ? { __typename: "User", id: cache.resolve(me, "id"), unreadCount: Math.max(0, unread - newlyRead) } : null;
    const readAt = new Date().toISOString();
    return ids.map((id) => ({ __typename: "Message", id, readAt, recipient }));
  },
  renamePlace(args) {
    return { __typename: "Place", id: args.id as string, label: args.label as string };
  },
};

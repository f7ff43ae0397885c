import type { OptimisticMutationConfig } from "@urql/exchange-graphcache";

/**
 * What a mutation made offline shows until the server has it: the offline exchange keeps
 * a mutation for later only when it has one of these (mark read and rename place).
 */
export const optimisticUpdates: OptimisticMutationConfig = {
  markRead(args, cache) {
    const readAt = new Date().toISOString();
    // Only messages still unread here: the markRead update counts each one down.
    return ((args.ids as string[]) ?? [])
      .filter((id) => cache.resolve({ __typename: "Message", id }, "readAt") == null)
      .map((id) => ({ __typename: "Message", id, readAt }));
  },
  renamePlace(args) {
    return { __typename: "Place", id: args.id as string, label: args.label as string };
  },
};

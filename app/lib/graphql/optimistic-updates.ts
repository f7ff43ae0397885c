import type { OptimisticMutationConfig } from "@urql/exchange-graphcache";

/**
 * What a mutation made offline shows until the server has it: the offline exchange keeps
 * a mutation for later only when it has one of these. Mark read is not here yet: while an
 * optimistic mutation is pending, live messages land in layers replayed after its result,
 * so a message the server already counted in markRead's unread count was counted twice.
 */
export const optimisticUpdates: OptimisticMutationConfig = {
  renamePlace(args) {
    return { __typename: "Place", id: args.id as string, label: args.label as string };
  },
};

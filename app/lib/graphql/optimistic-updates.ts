import type { OptimisticMutationConfig } from "@urql/exchange-graphcache";
import type { SettingsInput } from "./documents.generated";

/** Every field of SettingsInput: checked against the schema's generated type (a field added there fails tsc here). */
const SETTINGS_FIELDS = Object.keys({
  language: true,
  timeZone: true,
  hour12: true,
  temperatureUnit: true,
  windSpeedUnit: true,
  precipitationUnit: true,
  quietHoursEnabled: true,
  quietFrom: true,
  quietTo: true,
  pushEnabled: true,
} satisfies Record<keyof SettingsInput, true>) as (keyof SettingsInput)[];

/**
 * What a mutation made offline shows until the server has it: the offline exchange keeps
 * a mutation for later only when it has one of these (mark read, mark all read, rename
 * place, delete message, preferences). Anything whose answer the server must make (a search, a new
 * place, a log-in) has none: offline it fails and the user is told it needs a connection.
 */
export const optimisticUpdates: OptimisticMutationConfig = {
  markRead(args, cache) {
    const readAt = new Date().toISOString();
    // Only messages still unread here: the markRead update counts each one down.
    return ((args.ids as string[]) ?? [])
      .filter((id) => cache.resolve({ __typename: "Message", id }, "readAt") == null)
      .map((id) => ({ __typename: "Message", id, readAt }));
  },
  // Like marking one message (issue 35): the markAllRead update marks every cached message read and the count 0.
  markAllRead(_args, cache) {
    const me = cache.resolve("Query", "me") as string | null;
    return me ? { __typename: "User", id: cache.resolve(me, "id") as string, unreadCount: 0 } : null;
  },
  renamePlace(args) {
    return { __typename: "Place", id: args.id as string, label: args.label as string };
  },
  // The answer is the id; the deleteMessage update takes the message out of every cached page.
  deleteMessage: (args) => args.id as string,
  updateSettings(args, cache) {
    const me = cache.resolve("Query", "me") as string | null;
    const settings = me ? (cache.resolve(me, "settings") as string | null) : null;
    if (!settings) return null;
    const input = (args.input ?? {}) as Record<string, unknown>;
    const merged: Record<string, unknown> = { __typename: "Settings", id: cache.resolve(settings, "id") };
    // Every field the answer would carry: the changed ones from the input, the rest as cached.
    for (const field of SETTINGS_FIELDS) merged[field] = input[field] ?? cache.resolve(settings, field);
    return merged;
  },
};

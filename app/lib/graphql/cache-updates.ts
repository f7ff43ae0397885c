import { ReadAtFragmentDoc as READ_AT, UnreadCountFragmentDoc as UNREAD_COUNT } from "./later-documents.generated";
import type { Cache, Data, UpdatesConfig } from "@urql/exchange-graphcache";

/*
 * How each mutation of the domain changes cached lists, so a list on screen is right
 * the moment a mutation returns, with no refetch. Changed fields of an entity (a
 * renamed place, a read message) need nothing here: graphcache merges them by key.
 */

type Keyed = { __typename?: string; id?: string };

/** The lists a user's object of this type appears in: a root field, and the field on `me`. */
const LIST_FIELDS: Record<string, Array<{ on: "Query" | "me"; field: string }>> = {
  Place: [
    { on: "Query", field: "places" },
    { on: "me", field: "places" },
  ],
  Briefing: [{ on: "Query", field: "briefings" }],
  AlertRule: [{ on: "Query", field: "alertRules" }],
};

function ownerKey(cache: Cache, on: "Query" | "me"): string | null {
  if (on === "Query") return "Query";
  return (cache.resolve("Query", "me") as string | null) ?? null;
}

function editLists(cache: Cache, typename: string, edit: (links: string[]) => string[]) {
  for (const { on, field } of LIST_FIELDS[typename] ?? []) {
    const owner = ownerKey(cache, on);
    if (!owner) continue;
    const links = cache.resolve(owner, field) as string[] | null;
    // A list nobody has asked for yet is not invented here: it is fetched when needed.
    if (Array.isArray(links)) cache.link(owner, field, edit(links));
  }
}

function append(cache: Cache, entity: Keyed | null | undefined) {
  if (!entity?.__typename) return;
  const key = cache.keyOfEntity(entity as Data);
  if (!key) return;
  editLists(cache, entity.__typename, (links) => (links.includes(key) ? links : [...links, key]));
}

/** A removed place takes its own alert rules and its slots in briefings with it (the server did the same). */
function detachPlace(cache: Cache, placeKey: string | null) {
  if (!placeKey) return;
  const rules = cache.resolve("Query", "alertRules") as string[] | null;
  if (Array.isArray(rules)) {
    const gone = rules.filter((rule) => cache.resolve(rule, "place") === placeKey);
    cache.link(
      "Query",
      "alertRules",
      rules.filter((rule) => !gone.includes(rule)),
    );
    for (const rule of gone) cache.invalidate(rule);
  }
  for (const briefing of (cache.resolve("Query", "briefings") as string[] | null) ?? []) {
    const places = cache.resolve(briefing, "places") as string[] | null;
    if (places?.includes(placeKey))
      cache.link(
        briefing,
        "places",
        places.filter((place) => place !== placeKey),
      );
  }
}

/**
 * A restored place goes back to its position; its rules and briefing slots come back
 * from the server the next time those lists are shown.
 */
function restorePlace(cache: Cache, place: (Keyed & { position?: number }) | null | undefined) {
  const key = place ? cache.keyOfEntity(place as Data) : null;
  if (!place?.id || !key) return;
  // Its address, asked for while it was gone, was answered null: it is the place again.
  cache.link("Query", "place", { id: place.id }, key);
  editLists(cache, "Place", (links) => {
    const rest = links.filter((link) => link !== key);
    rest.splice(Math.min(place.position ?? rest.length, rest.length), 0, key);
    return rest;
  });
  cache.invalidate("Query", "alertRules");
  cache.invalidate("Query", "briefings");
}

function remove(cache: Cache, typename: string, id: string | null | undefined) {
  if (!id) return;
  const key = cache.keyOfEntity({ __typename: typename, id });
  editLists(cache, typename, (links) => links.filter((link) => link !== key));
  cache.invalidate({ __typename: typename, id });
}

/** Removes a message from every cached page of the inbox; an unread one no longer counts. */
function removeMessage(cache: Cache, id: string) {
  const key = cache.keyOfEntity({ __typename: "Message", id });
  if (cache.resolve(key, "readAt") === null) adjustUnreadCount(cache, -1);
  for (const field of cache.inspectFields("Query").filter((info) => info.fieldName === "messages")) {
    const connection = cache.resolve("Query", field.fieldKey) as string | null;
    if (!connection) continue;
    const edges = cache.resolve(connection, "edges") as string[] | null;
    if (edges)
      cache.link(
        connection,
        "edges",
        edges.filter((edge) => edge !== key),
      );
  }
  cache.invalidate({ __typename: "Message", id });
}

function adjustUnreadCount(cache: Cache, by: number) {
  const me = cache.resolve("Query", "me") as string | null;
  const unread = me ? (cache.resolve(me, "unreadCount") as number | null) : null;
  if (!me || typeof unread !== "number") return;
  cache.writeFragment(UNREAD_COUNT, {
    __typename: "User",
    id: cache.resolve(me, "id") as string,
    unreadCount: Math.max(0, unread + by),
  });
}

/**
 * Puts a new message at the top of the first page of the inbox and counts it as unread.
 * A message can arrive twice (the "send now" result, then the live stream): `counted`
 * (one set per cache) makes it count once.
 */
function prependMessage(cache: Cache, counted: Set<string>, message: (Keyed & { readAt?: string | null }) | null | undefined) {
  const key = message ? cache.keyOfEntity(message as Data) : null;
  if (!message || !key || counted.has(key)) return;
  counted.add(key);
  for (const field of cache.inspectFields("Query").filter((info) => info.fieldName === "messages" && !info.arguments?.after)) {
    const connection = cache.resolve("Query", field.fieldKey) as string | null;
    const edges = connection ? (cache.resolve(connection, "edges") as string[] | null) : null;
    if (connection && edges && !edges.includes(key)) cache.link(connection, "edges", [key, ...edges]);
  }
  if (!message.readAt) adjustUnreadCount(cache, 1);
}

/**
 * Undo of a deleted message: back into the cached page its time belongs to (ids are
 * time-ordered, newest first), counted as unread again if it was.
 */
function restoreMessage(cache: Cache, message: (Keyed & { readAt?: string | null }) | null | undefined) {
  const key = message ? cache.keyOfEntity(message as Data) : null;
  const id = message?.id;
  if (!message || !key || !id) return;
  for (const field of cache.inspectFields("Query").filter((info) => info.fieldName === "messages")) {
    const connection = cache.resolve("Query", field.fieldKey) as string | null;
    const edges = connection ? (cache.resolve(connection, "edges") as string[] | null) : null;
    if (!connection || !edges || edges.includes(key)) continue;
    const ids = edges.map((edge) => cache.resolve(edge, "id") as string);
    const oldest = ids[ids.length - 1];
    if (oldest !== undefined && id < oldest && cache.resolve(connection, "hasMore") !== false) continue;
    const at = ids.findIndex((other) => other < id);
    cache.link(connection, "edges", at === -1 ? [...edges, key] : [...edges.slice(0, at), key, ...edges.slice(at)]);
    if (!message.readAt) adjustUnreadCount(cache, 1);
    return;
  }
}

/** After "mark all read": every cached message read, the unread count zero. */
function markAllMessagesRead(cache: Cache, readAt: string, upTo: string | null | undefined) {
  const until = upTo ? Date.parse(upTo) : Infinity;
  for (const field of cache.inspectFields("Query").filter((info) => info.fieldName === "messages")) {
    const connection = cache.resolve("Query", field.fieldKey) as string | null;
    const edges = connection ? ((cache.resolve(connection, "edges") as string[] | null) ?? []) : [];
    for (const edge of edges) {
      // Newer than `upTo`: arrived after the reader saw the list, as the server leaves it unread.
      if (cache.resolve(edge, "readAt") === null && !(Date.parse(cache.resolve(edge, "createdAt") as string) > until)) {
        cache.writeFragment(READ_AT, {
          __typename: "Message",
          id: cache.resolve(edge, "id") as string,
          readAt,
        });
      }
    }
  }
  const me = cache.resolve("Query", "me") as string | null;
  if (me)
    cache.writeFragment(UNREAD_COUNT, {
      __typename: "User",
      id: cache.resolve(me, "id") as string,
      unreadCount: 0,
    });
}

type Result = Record<string, unknown>;
const field = <T>(result: Result, name: string) => result[name] as T;

/** The updates for one cache. */
export function createCacheUpdates(): UpdatesConfig {
  const counted = new Set<string>();
  // The unread count moves by deltas only (+1 per live unread message, −1 per message read):
  // taking the server's count from a mark-read answer counted twice a live message that
  // the answer already included. `read` makes each message count down once.
  const read = new Set<string>();
  return {
    Mutation: {
      addPlace: (result, _args, cache) => append(cache, field<Keyed>(result, "addPlace")),
      removePlace: (result, _args, cache) => {
        const id = field<string>(result, "removePlace");
        if (id) detachPlace(cache, cache.keyOfEntity({ __typename: "Place", id }));
        remove(cache, "Place", id);
      },
      restorePlace: (result, _args, cache) => restorePlace(cache, field<Keyed>(result, "restorePlace")),
      reorderPlaces: (result, _args, cache) => {
        const ordered = field<Keyed[] | null>(result, "reorderPlaces") ?? [];
        const keys = ordered.map((place) => cache.keyOfEntity(place as Data)).filter((key): key is string => Boolean(key));
        editLists(cache, "Place", () => keys);
      },
      // Briefings run at wall-clock times: a new zone moves every next run (the server did it), so the list is fetched again.
      updateSettings: (_result, args, cache) => {
        if ((args.input as { timeZone?: string | null } | undefined)?.timeZone) cache.invalidate("Query", "briefings");
      },
      saveBriefing: (result, _args, cache) => append(cache, field<Keyed>(result, "saveBriefing")),
      deleteBriefing: (result, _args, cache) => remove(cache, "Briefing", field<string>(result, "deleteBriefing")),
      // Back in the order the server keeps.
      restoreBriefing: (_result, _args, cache) => cache.invalidate("Query", "briefings"),
      saveAlertRule: (result, _args, cache) => append(cache, field<Keyed>(result, "saveAlertRule")),
      addAlertRules: (result, _args, cache) => {
        for (const rule of field<Keyed[] | null>(result, "addAlertRules") ?? []) append(cache, rule);
      },
      deleteAlertRule: (result, _args, cache) => remove(cache, "AlertRule", field<string>(result, "deleteAlertRule")),
      restoreMessage: (result, _args, cache) => restoreMessage(cache, field<Keyed & { readAt?: string | null }>(result, "restoreMessage")),
      deleteMessage: (result, _args, cache) => {
        const id = field<string>(result, "deleteMessage");
        if (id) removeMessage(cache, id);
      },
      sendBriefingNow: (result, _args, cache) => prependMessage(cache, counted, field<Keyed>(result, "sendBriefingNow")),
      markAllRead: (_result, args, cache) => markAllMessagesRead(cache, new Date().toISOString(), args.upTo as string | null | undefined),
      markRead: (result, _args, cache, info) => {
        let newlyRead = 0;
        for (const message of field<Keyed[] | null>(result, "markRead") ?? []) {
          const key = cache.keyOfEntity(message as Data);
          if (!key || read.has(key)) continue;
          // An optimistic write is undone when the answer comes: only the answer's own count sticks.
          if (!info.optimistic) read.add(key);
          newlyRead++;
        }
        adjustUnreadCount(cache, -newlyRead);
      },
    },
    Subscription: {
      messageReceived: (result, _args, cache) => prependMessage(cache, counted, field<Keyed>(result, "messageReceived")),
    },
  };
}

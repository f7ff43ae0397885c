import { timeOrderedLowerBound } from "../../shared/live-cursor";
import { untilSessionEnds } from "../auth/session-stream.server";
import { requireSession, requireUserId } from "../context.server";
import type { MessageTable } from "../db/tables";
import { removeMessageWithSnapshot, restoreRemovedMessage } from "../db/message-removal.server";
import { RESTORE_WINDOW_MS } from "../db/removed-items.server";
import { apiError, badInput, notFound } from "../errors.server";
import { cacheable, cacheableFields } from "../result-cache.server";
import { messageText } from "../bot/message-text.server";
import { parseMessageContent } from "../../shared/message-content";
import type { ApiContext } from "../context.server";
import type { GraphQLResolveInfo } from "graphql";
import type { MessageResolvers, Resolvers } from "./resolvers.generated";

const encodeCursor = (row: MessageTable) => Buffer.from(`${row.created_at}|${row.id}`).toString("base64url");
function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt))) throw badInput("Unknown cursor", "after");
  return { createdAt, id };
}

async function textForViewer(message: MessageTable, context: ApiContext, info: GraphQLResolveInfo) {
  if (!message.content) return { title: message.title, body: message.body };
  const settings =
    info.operation.operation === "subscription"
      ? await context.db.selectFrom("settings").selectAll().where("user_id", "=", message.user_id).executeTakeFirst()
      : await context.loaders.settings.load(message.user_id);
  return messageText(message, settings);
}

export const MAX_PAGE = 100;
/** A reconnecting client gets at most this many missed messages; older ones are paged in the inbox. */
const MAX_CATCH_UP = 200;
const MESSAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const messagesResolvers: Resolvers = {
  Query: {
    messages: cacheable(async (_, args, context) => {
      const userId = requireUserId(context);
      const first = args.first ?? 30;
      if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE) throw badInput(`first must be from 1 to ${MAX_PAGE}`, "first");
      let query = context.db.selectFrom("messages").selectAll().where("user_id", "=", userId);
      if (args.unreadOnly) query = query.where("read_at", "is", null);
      if (args.after) {
        const cursor = decodeCursor(args.after);
        query = query.where((eb) =>
          eb.or([eb("created_at", "<", cursor.createdAt), eb.and([eb("created_at", "=", cursor.createdAt), eb("id", "<", cursor.id)])]),
        );
      }
      const rows = await query
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(first + 1)
        .execute();
      const page = rows.slice(0, first);
      const last = page[page.length - 1];
      return { edges: page, endCursor: last ? encodeCursor(last) : null, hasMore: rows.length > first };
    }),
  },
  User: {
    unreadCount: cacheable((user, _, context) => context.loaders.unreadCount.load(user.id)),
  },
  Message: {
    // Read from the row alone.
    ...cacheableFields<MessageResolvers>({
      createdAt: (message) => message.created_at,
      readAt: (message) => message.read_at,
      urgent: (message) => message.urgent === 1,
    }),
    // Formatted for the viewer (always the message's owner) as they are now: their settings are read
    // through the loader, so a cached answer goes when they change. A subscription's context lives as
    // long as it does, so each message it delivers reads them afresh.
    title: cacheable(async (message, _, context, info) => (await textForViewer(message, context, info)).title),
    body: cacheable(async (message, _, context, info) => (await textForViewer(message, context, info)).body),
    content: cacheable((message) => parseMessageContent(message.content)),
    recipient: cacheable(async (message, _, context) => {
      const { id, email, created_at } = await context.loaders.user.load(message.user_id);
      return { id, email, created_at };
    }),
    place: cacheable(async (message, _, context) => {
      if (!message.place_id) return null;
      return (await context.loaders.place.load({ userId: message.user_id, id: message.place_id })) ?? null;
    }),
    briefing: cacheable(async (message, _, context) => {
      if (!message.briefing_id) return null;
      return (await context.loaders.briefing.load({ userId: message.user_id, id: message.briefing_id })) ?? null;
    }),
  },
  Mutation: {
    async markRead(_, { ids }, context) {
      const userId = requireUserId(context);
      if (ids.length > MAX_PAGE) throw badInput(`At most ${MAX_PAGE} ids at once`, "ids");
      if (ids.length === 0) return [];
      await context.db
        .updateTable("messages")
        .set({ read_at: context.now().toISOString() })
        .where("user_id", "=", userId)
        .where("id", "in", ids)
        .where("read_at", "is", null)
        .execute();
      // In id order on either database (PostgreSQL gives rows in no particular order without one).
      return context.db.selectFrom("messages").selectAll().where("user_id", "=", userId).where("id", "in", ids).orderBy("id").execute();
    },
    async markAllRead(_, { upTo }, context) {
      const { userId, user } = requireSession(context);
      await context.db
        .updateTable("messages")
        .set({ read_at: context.now().toISOString() })
        .where("user_id", "=", userId)
        .where("read_at", "is", null)
        // Stored as toISOString writes them: compared as text in the same form.
        .$if(upTo != null, (update) => update.where("created_at", "<=", new Date(upTo!).toISOString()))
        .execute();
      return user;
    },
    async deleteMessage(_, { id }, context) {
      const userId = requireUserId(context);
      const removed = await context.db.transaction().execute((trx) => removeMessageWithSnapshot(trx, userId, id, context.now()));
      if (!removed) throw notFound("Message");
      return id;
    },
    async restoreMessage(_, { id }, context) {
      const userId = requireUserId(context);
      const row = await context.db.transaction().execute((trx) => restoreRemovedMessage(trx, userId, id, context.now()));
      if (!row) {
        throw apiError("NOT_FOUND", `Nothing to restore: no message was deleted here in the last ${RESTORE_WINDOW_MS / 60_000} minutes`);
      }
      return row;
    },
  },
  Subscription: {
    messageReceived: {
      async subscribe(_, { after }, context) {
        const session = requireSession(context);
        const userId = session.userId;
        if (after != null && !MESSAGE_ID.test(after)) throw badInput("after must be a message id", "after");
        // Listen first, then read what was missed: a message written in between is in
        // one or both, and the stream keeps each message once.
        // Without `after`: messages from now on (ids are made from the real clock, like this bound).
        const stream = context.inbox.subscribe(userId, after?.toLowerCase() ?? timeOrderedLowerBound(Date.now()));
        if (after != null) {
          try {
            stream.replay(await context.inbox.since(userId, after.toLowerCase(), MAX_CATCH_UP));
          } catch (error) {
            await stream.return!();
            throw error;
          }
        }
        return untilSessionEnds(stream, session, context);
      },
      resolve: (row: MessageTable) => row,
    },
  },
};

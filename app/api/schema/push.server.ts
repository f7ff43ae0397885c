import { randomUUID } from "node:crypto";
import { requireUserId, type ApiContext } from "../context.server";
import { endpointProblem } from "../bot/push-endpoint.server";
import { badInput } from "../errors.server";
import type { Resolvers } from "./resolvers.generated";

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const decodedLength = (value: string) => Buffer.from(value, "base64url").length;

function validEndpoint(raw: string, context: ApiContext): string {
  const problem = endpointProblem(raw, context.push.endpointPolicy);
  if (problem) throw badInput(problem, "endpoint");
  return new URL(raw).toString();
}

export const pushResolvers: Resolvers = {
  Query: {
    pushPublicKey: (_, __, context) => context.vapidPublicKey,
  },
  Mutation: {
    async savePushSubscription(_, args, context) {
      const userId = requireUserId(context);
      const endpoint = validEndpoint(args.endpoint, context);
      // An uncompressed P-256 public key is 65 bytes; the auth secret 16.
      if (!BASE64URL.test(args.p256dh) || decodedLength(args.p256dh) !== 65) throw badInput("p256dh must be a P-256 public key", "p256dh");
      if (!BASE64URL.test(args.auth) || decodedLength(args.auth) !== 16) throw badInput("auth must be 16 bytes, base64url", "auth");
      // One browser, one subscription: whoever saves it last (the account now signed in there) gets it.
      const row = {
        id: randomUUID(),
        user_id: userId,
        endpoint,
        p256dh: args.p256dh,
        auth: args.auth,
        created_at: context.now().toISOString(),
      };
      await context.db
        .insertInto("push_subscriptions")
        .values(row)
        .onConflict((conflict) => conflict.column("endpoint").doUpdateSet({ user_id: userId, p256dh: row.p256dh, auth: row.auth }))
        .execute();
      return true;
    },
    async deletePushSubscription(_, { endpoint }, context) {
      const userId = requireUserId(context);
      const result = await context.db
        .deleteFrom("push_subscriptions")
        .where("endpoint", "=", endpoint)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  },
};

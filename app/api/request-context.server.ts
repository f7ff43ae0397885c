import { randomUUID } from "node:crypto";
import { sessionTokenFromCookie } from "../shared/session-cookie";
import type { ApiContext, ApiServices } from "./context.server";
import type { ChangeTracker } from "./db/change-tracker.server";
import type { Db } from "./db/database.server";
import { isDatabaseUnavailable } from "./db/unavailable.server";
import { Loaders } from "./loaders.server";
import type { OutageAnswer } from "./outage-answer.server";
import { newResultHints, RequestReads } from "./result-cache.server";

/** What yoga gives an operation's context to start from: its request, and who the caller says the client is. */
export type YogaContext = { request: Request; clientIp?: string; requestId?: string };

const REQUEST_DB = Symbol("request db");
const REQUEST_LOADERS = Symbol("request loaders");
/** A context's own fields behind its inherited `db` and `loaders` (see inheritedContext). */
type RequestOwn = { reads: RequestReads; [REQUEST_DB]?: Db; [REQUEST_LOADERS]?: Loaders };

function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (match) return match[1]!;
  // The app's own pages carry it in their HttpOnly session cookie.
  return sessionTokenFromCookie(request.headers.get("Cookie"));
}

/**
 * What every operation's context inherits: the services, and the request's logging Kysely and its loaders, made when
 * a resolver first asks for them (a cached answer runs no resolver). Inherited, not copied: copying twenty services and
 * defining two accessors on each context left it in V8's slow dictionary mode, and every later read of it paid
 * (compare-api: 312 → 251 µs of CPU per request).
 */
function inheritedContext(services: ApiServices, changes: ChangeTracker): object {
  return Object.create(services, {
    db: {
      get(this: RequestOwn) {
        return (this[REQUEST_DB] ??= changes.reads.logTo(services.db, this.reads));
      },
    },
    loaders: {
      get(this: RequestOwn & { db: Db }) {
        return (this[REQUEST_LOADERS] ??= new Loaders(this.db));
      },
    },
  } satisfies PropertyDescriptorMap);
}

/**
 * Fills yoga's context of an operation in place, making it the operation's ApiContext (yoga and envelop use that
 * object throughout); an outage is the API's retryable answer.
 */
export function createContextFiller(
  services: ApiServices,
  changes: ChangeTracker,
  unavailable: OutageAnswer,
): (context: YogaContext) => Promise<void> {
  const requestContext = inheritedContext(services, changes);

  async function buildContext(context: YogaContext): Promise<void> {
    // On PostgreSQL: hear every write other instances committed before this request came, so no cached answer or read is stale.
    const heard = changes.sync();
    if (heard) await heard;
    // Every query of the request, its session's included, runs on its own Kysely, which logs what it reads.
    const reads = new RequestReads(changes);
    const token = bearerToken(context.request);
    const session = token ? await services.sessionLookup.find(token, reads) : null;
    if (session) services.lastSeen.seen(session.id);
    // One assign of a literal, then the prototype: V8 keeps a context's shape cheap to extend that way round.
    Object.assign(context, {
      reads,
      session: session
        ? {
            id: session.id,
            userId: session.user_id,
            expiresAt: session.expires_at,
            user: { id: session.user_id, email: session.email, created_at: session.created_at },
          }
        : null,
      clientIp: context.clientIp ?? "unknown",
      userAgent: context.request.headers.get("user-agent"),
      requestId: context.requestId ?? randomUUID(),
      resultHints: newResultHints(),
    } satisfies Omit<ApiContext, keyof ApiServices | "loaders">);
    Object.setPrototypeOf(context, requestContext);
  }

  return async (context) => {
    try {
      await buildContext(context);
    } catch (error) {
      // The session lookup meets the database first: an outage here is the same retryable
      // answer as in a resolver (yoga does not pass context errors through maskError).
      if (isDatabaseUnavailable(error)) throw unavailable(error);
      throw error;
    }
  };
}

/** setTimeout's longest delay (about 24.8 days); a later end is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type WatchedSession = { id: string; expiresAt: string };

/**
 * Who is listening with a session (its subscriptions, its WebSocket), told once when
 * the session ends: logged out in this process, found revoked or gone by the follower
 * (another instance logged it out: see session-follower.server.ts) or at a delivery, or
 * at its expiry time.
 */
export function createSessionEnds(now: () => Date) {
  const listeners = new Map<string, Set<() => void>>();

  function end(sessionId: string) {
    const forSession = listeners.get(sessionId);
    if (!forSession) return;
    listeners.delete(sessionId);
    for (const listener of forSession) listener();
  }

  return {
    end,
    /** The sessions someone here is listening with (the follower checks them in the database). */
    watched: (): string[] => [...listeners.keys()],
    /** Calls `listener` once when the session ends; the function returned stops watching. */
    watch(session: WatchedSession, listener: () => void): () => void {
      let timer: NodeJS.Timeout | undefined;
      const forSession = listeners.get(session.id) ?? new Set<() => void>();
      listeners.set(session.id, forSession);
      const stop = () => {
        clearTimeout(timer);
        forSession.delete(once);
        if (forSession.size === 0 && listeners.get(session.id) === forSession) listeners.delete(session.id);
      };
      const once = () => {
        stop();
        listener();
      };
      forSession.add(once);
      const arm = () => {
        const left = Date.parse(session.expiresAt) - now().getTime();
        if (left <= 0) return once();
        timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
        timer.unref();
      };
      arm();
      return stop;
    },
  };
}

export type SessionEnds = ReturnType<typeof createSessionEnds>;

import { describe, expect, it } from "vitest";
import { createUserCaches, FORGOTTEN_USER_MEMORY_MS, type UserCache } from "~/api/user-caches.server";

/** A cache of values per user, as the API's caches hold them. */
function cache(...users: string[]) {
  const held = new Set(users);
  return { held, users: () => held, forgetUser: (userId: string) => void held.delete(userId) } satisfies UserCache & { held: Set<string> };
}

describe("the caches that hold users' data", () => {
  it("drop a deleted account from every cache, and again for a while after (a late reader may put it back)", () => {
    let now = 0;
    const caches = createUserCaches(() => now);
    const answers = cache("ada", "bob");
    const sessions = cache("ada");
    caches.add(answers);
    caches.add(sessions);
    expect([...caches.users()].sort()).toEqual(["ada", "bob"]);

    caches.forgetUser("ada");
    expect([...caches.users()]).toEqual(["bob"]);
    // A request that read Ada's rows before the deletion caches them after it.
    sessions.held.add("ada");
    now += FORGOTTEN_USER_MEMORY_MS - 1;
    caches.sweepForgotten();
    expect([...caches.users()]).toEqual(["bob"]);

    // Long after, the id is no longer remembered: a new account could not have it anyway (ids are random).
    now += 2;
    caches.sweepForgotten();
    sessions.held.add("ada");
    caches.sweepForgotten();
    expect([...caches.users()].sort()).toEqual(["ada", "bob"]);
  });
});

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Migrator } from "kysely";
import { describe, expect, it } from "vitest";
import { migrations } from "~/api/db/migrations.server";
import { plainKysely, testDatabaseTarget } from "../support/test-database";

describe("migration 0007_removed_items", () => {
  it("moves the places kept for undo into the one store for every kind, so they can still be restored", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "weatherbot-removed-items-"));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration test opens the database before and after the schema it knows
    const db = plainKysely<any>(await testDatabaseTarget(dir, { empty: true }));
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    try {
      expect((await migrator.migrateTo("0005_removed_places")).error).toBeUndefined();
      await db
        .insertInto("users")
        .values({ id: "u1", email: "kept@example.com", password_hash: "x", created_at: "2026-06-01T06:00:00.000Z" })
        .execute();
      await db
        .insertInto("removed_places")
        .values({ place_id: "p1", user_id: "u1", removed_at: "2026-06-01T06:00:00.000Z", snapshot: '{"place":{"id":"p1"}}' })
        .execute();

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await db.selectFrom("removed_items").selectAll().execute()).toEqual([
        { kind: "place", item_id: "p1", user_id: "u1", removed_at: "2026-06-01T06:00:00.000Z", snapshot: '{"place":{"id":"p1"}}' },
      ]);
      const tables = await db.introspection.getTables();
      expect(tables.map((table) => table.name)).not.toContain("removed_places");
      expect(tables.map((table) => table.name)).toContain("removed_items");
    } finally {
      await db.destroy();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

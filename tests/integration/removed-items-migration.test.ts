import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrations } from "~/api/db/migrations.server";

describe("migration 0007_removed_items", () => {
  it("moves the places kept for undo into the one store for every kind, so they can still be restored", async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration test opens the database before and after the schema it knows
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(":memory:") }) });
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
      const tables = await sql<{ name: string }>`select name from sqlite_schema where type = 'table' and name = 'removed_places'`.execute(
        db,
      );
      expect(tables.rows).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});

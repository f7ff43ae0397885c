import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { openDatabase } from "~/api/db/database.server";
import { startPostgresServer, type PostgresServer } from "./postgres-server";
import { databaseUrlFor, withAdmin, type TestPostgres } from "./test-database";

/**
 * Global setup of the `integration-postgres` project: a PostgreSQL server for the run
 * (TEST_POSTGRES_ADMIN_URL points at one already running instead), and a migrated
 * template database that each test's database is copied from: copying is cheaper than
 * running every migration again.
 */
export default async function setup(project: TestProject) {
  const external = process.env.TEST_POSTGRES_ADMIN_URL;
  let server: PostgresServer | undefined;
  if (!external) server = await startPostgresServer();
  const adminUrl = external ?? server!.adminUrl;
  const prefix = `wbt_${process.pid}_${randomBytes(2).toString("hex")}_`;
  const template = `${prefix}template`;

  const dropOurs = () =>
    withAdmin(adminUrl, async (client) => {
      const { rows } = await client.query<{ datname: string }>("select datname from pg_database where starts_with(datname, $1)", [prefix]);
      for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
    });

  try {
    await withAdmin(adminUrl, (client) => client.query(`create database "${template}"`));
    const { db } = await openDatabase(databaseUrlFor(adminUrl, template));
    await db.destroy();
  } catch (error) {
    if (external) await dropOurs().catch(() => {});
    await server?.stop();
    throw error;
  }

  const provided: TestPostgres = { adminUrl, prefix, template };
  project.provide("testPostgres", provided);

  return async () => {
    // A server of our own goes with everything in it; on someone else's, only our databases go.
    if (server) await server.stop();
    else await dropOurs();
  };
}

import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

// The project's own eslint.config.js.
const eslint = new ESLint({ cwd: ROOT });

async function ruleIds(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

describe("lint boundaries", () => {
  it("refuses app/api importing app code outside app/shared", async () => {
    const code = 'import { SESSION_COOKIE } from "../server/session.server";\nexport const name = SESSION_COOKIE;\n';
    expect(await ruleIds(code, "app/api/lint-fixture.server.ts")).toContain("import-x/no-restricted-paths");
  });

  it("lets app/api import app/shared", async () => {
    const code = 'import { GRAPHQL_PATH } from "../shared/graphql-path";\nexport const path = GRAPHQL_PATH;\n';
    expect(await ruleIds(code, "app/api/lint-fixture.server.ts")).toEqual([]);
  });

  it("refuses app/shared importing the rest of the project", async () => {
    const code = 'import { formatClock } from "../lib/display-settings";\nexport const clock = formatClock;\n';
    expect(await ruleIds(code, "app/shared/lint-fixture.ts")).toContain("import-x/no-restricted-paths");
  });

  it("refuses migrations importing the domain (or anything of the project but the column types)", async () => {
    const migration = "app/api/db/migrations.server.ts";
    for (const code of [
      'import { ruleKey } from "../bot/rule-key";\nexport const key = ruleKey;\n',
      'import { coordinateKey } from "~/api/weather/forecast";\nexport const key = coordinateKey;\n',
      'import type { Database } from "./tables";\nexport type Tables = Database;\n',
      'import { GRAPHQL_PATH } from "../../shared/graphql-path";\nexport const path = GRAPHQL_PATH;\n',
    ]) {
      expect(await ruleIds(code, migration)).toContain("import-x/no-restricted-paths");
    }
    const allowed =
      'import { sql } from "kysely";\nimport { columnTypes } from "./column-types.server";\nexport const used = [sql, columnTypes];\n';
    expect(await ruleIds(allowed, migration)).toEqual([]);
  });

  it("refuses client code importing app/api or app/server", async () => {
    const api = 'import { createApi } from "~/api/index.server";\nexport const create = createApi;\n';
    const server = 'import { GRAPHQL_PATH } from "~/server/graphql-endpoint.server";\nexport const path = GRAPHQL_PATH;\n';
    expect(await ruleIds(api, "app/components/lint-fixture.tsx")).toContain("import-x/no-restricted-paths");
    expect(await ruleIds(server, "app/lib/lint-fixture.ts")).toContain("import-x/no-restricted-paths");
  });

  it("lets route modules import app/server but not app/api", async () => {
    const server = 'import { getI18n } from "~/server/i18n/middleware.server";\nexport const i18n = getI18n;\n';
    const api = 'import { createApi } from "~/api/index.server";\nexport const create = createApi;\n';
    expect(await ruleIds(server, "app/routes/lint-fixture.tsx")).toEqual([]);
    expect(await ruleIds(api, "app/routes/lint-fixture.tsx")).toContain("import-x/no-restricted-paths");
  });
});

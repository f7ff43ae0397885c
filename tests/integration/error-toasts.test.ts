import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import i18next from "i18next";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import en from "../../locales/en-US/common.json";
import { createBrowserGraphQL } from "~/lib/graphql/browser-client";
import { VIEWER_QUERY } from "~/lib/graphql/documents";
import { SILENT_OPERATION, reportGraphQLError } from "~/lib/graphql/install-browser";
import { toastStore } from "~/lib/toast/toast-store";

/** An API that fails every operation with two GraphQL errors. */
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ errors: [{ message: "Boom" }, { message: "Bang" }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const errorToasts = () => toastStore.all().filter((toast) => toast.variant === "error");

describe("failed operations in the browser", () => {
  it("a component's failed operation becomes one error toast in the user's words, the protocol text only in the log; a loader's does not", async () => {
    await i18next.init({ lng: "en-US", resources: { "en-US": { common: en } }, defaultNS: "common", initAsync: false });
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    const client = createBrowserGraphQL({ url, onError: reportGraphQLError }).current();
    await client.query(VIEWER_QUERY, {}, SILENT_OPERATION).toPromise();
    expect(errorToasts()).toEqual([]);

    await client.query(VIEWER_QUERY, {}, { requestPolicy: "network-only" }).toPromise();
    await client.query(VIEWER_QUERY, {}, { requestPolicy: "network-only" }).toPromise();
    expect(errorToasts()).toHaveLength(1);
    expect(errorToasts()[0]).toMatchObject({ title: en.errors.serverError });
    expect(errorToasts()[0]!.description).toBeUndefined();
    expect(warned).toHaveBeenCalledWith("[graphql] Viewer failed: GraphQL response contains errors: Boom, Bang");
  });
});

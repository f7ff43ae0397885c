import { describe, expect, it } from "vitest";
import { SESSION_LIFETIME_SECONDS } from "~/api/auth/sessions.server";
import { LogOutDocument } from "~/lib/account-documents.generated";
import { RemovePlaceDocument } from "~/lib/graphql/later-documents.generated";
import { codes, testApis } from "../support/api-server";
import {
  TestCachedAddPlaceDocument as ADD,
  TestCachedMeDocument as ME,
  TestCachedPlaceIdsDocument as PLACE_IDS,
  TestCachedPlaceLabelsDocument as PLACE_LABELS,
  TestCachedRenameDocument,
  TestCachedViewerDocument as VIEWER,
} from "../support/documents.generated";

const api = testApis();

// Typed documents (read-caches.graphql, and the app's own): the answers below are read with their generated result types.

/**
 * Sessions and place lists are cached in memory between requests. These tests prove that
 * nothing cached outlives a change, whether this process or another one on the same
 * database made it.
 */
describe("what the API caches in memory", () => {
  it("sees another process's log-out, rename and new place at once", async () => {
    const here = await api();
    const there = await api({ dataDir: here.dataDir, databaseUrl: here.databaseUrl, fake: here.fake });
    const token = await here.signUp("kept@example.com");
    const { data } = await here.gql(ADD, { label: "Home" }, { token });
    expect((await here.gql(ME, {}, { token })).data!.me).toEqual({ email: "kept@example.com", places: [{ label: "Home" }] });

    await there.gql(TestCachedRenameDocument, { id: data!.addPlace.id }, { token });
    expect((await here.gql(ME, {}, { token })).data!.me!.places).toEqual([{ label: "Flat" }]);
    await there.gql(ADD, { label: "Office" }, { token });
    expect((await here.gql(ME, {}, { token })).data!.me!.places).toEqual([{ label: "Flat" }, { label: "Office" }]);

    expect((await there.gql(LogOutDocument, {}, { token })).data).toEqual({ logOut: true });
    const refused = await here.gql(ME, {}, { token });
    expect(refused.data!.me).toBeNull();
    expect(codes(await here.gql(PLACE_IDS, {}, { token }))).toEqual(["UNAUTHENTICATED"]);
  });

  it("sees its own log-out and place changes at once, and one user's change leaves another's list as it was", async () => {
    const t = await api();
    const alice = await t.signUp();
    const bob = await t.signUp();
    await t.gql(ADD, { label: "Alice's" }, { token: alice });
    await t.gql(ADD, { label: "Bob's" }, { token: bob });
    expect((await t.gql(PLACE_LABELS, {}, { token: alice })).data!.places).toEqual([{ label: "Alice's" }]);
    const removed = (await t.gql(PLACE_IDS, {}, { token: bob })).data!.places[0]!.id;
    await t.gql(RemovePlaceDocument, { id: removed }, { token: bob });
    expect((await t.gql(PLACE_LABELS, {}, { token: bob })).data!.places).toEqual([]);
    expect((await t.gql(PLACE_LABELS, {}, { token: alice })).data!.places).toEqual([{ label: "Alice's" }]);

    await t.gql(LogOutDocument, {}, { token: alice });
    expect(codes(await t.gql(PLACE_IDS, {}, { token: alice }))).toEqual(["UNAUTHENTICATED"]);
    expect((await t.gql(PLACE_LABELS, {}, { token: bob })).data!.places).toEqual([]);
  });

  it("lets a session expire on time, though nothing was written", async () => {
    let now = Date.parse("2026-06-01T12:00:00Z");
    const t = await api({ now: () => new Date(now) });
    const token = await t.signUp();
    expect((await t.gql(VIEWER, {}, { token })).data!.me).not.toBeNull();
    now += SESSION_LIFETIME_SECONDS * 1000 - 1;
    expect((await t.gql(VIEWER, {}, { token })).data!.me).not.toBeNull();
    now += 1;
    expect((await t.gql(VIEWER, {}, { token })).data!.me).toBeNull();
  });
});

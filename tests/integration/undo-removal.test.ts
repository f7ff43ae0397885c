import type { TypedDocumentNode } from "@urql/core";
import { describe, expect, it } from "vitest";
import { DeleteMessageDocument, MarkReadDocument, RestoreMessageDocument } from "~/lib/graphql/signed-in-documents.generated";
import { DeleteBriefingDocument, RemovePlaceDocument } from "~/lib/graphql/later-documents.generated";
import { codes, testApis } from "../support/api-server";
import {
  TestUndoAddPlaceDocument,
  TestUndoBriefingsDocument as BRIEFINGS,
  TestUndoInboxDocument as INBOX,
  TestUndoRestoreBriefingDocument,
  TestUndoRestorePlaceDocument,
  TestUndoSaveBriefingDocument,
  TestUndoSendBriefingNowDocument,
} from "../support/documents.generated";

const api = testApis();

// Typed documents (undo-removal.graphql, and the app's own): the answers below are read with their generated result types.

async function userWithBriefing(now: () => Date) {
  const t = await api({ now });
  const token = await t.signUp();
  const gql = <R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables?: V, as = token) =>
    t.gql(document, variables, { token: as });
  const place = (await gql(TestUndoAddPlaceDocument)).data!.addPlace;
  const briefing = (await gql(TestUndoSaveBriefingDocument, { ids: [place.id] })).data!.saveBriefing;
  const send = async () => (await gql(TestUndoSendBriefingNowDocument, { id: briefing.id })).data!.sendBriefingNow.id;
  return { t, token, gql, place, briefing, send };
}

describe("undo of a deleted message", () => {
  it("puts it back in its place in the inbox, unread as it was, once, within 10 minutes, for its owner only", async () => {
    let now = Date.parse("2026-06-01T06:00:00Z");
    const { t, gql, send } = await userWithBriefing(() => new Date(now));
    const [first, second, third] = [await send(), await send(), await send()];
    await gql(MarkReadDocument, { ids: [third!] });
    const before = (await gql(INBOX)).data!;
    expect(before.me!.unreadCount).toBe(2);

    expect((await gql(DeleteMessageDocument, { id: second! })).data!.deleteMessage).toBe(second);
    expect((await gql(INBOX)).data!.messages.edges.map((edge) => edge.id)).toEqual([third, first]);
    expect((await gql(INBOX)).data!.me!.unreadCount).toBe(1);

    const RESTORE = RestoreMessageDocument;
    const mallory = await t.signUp();
    const refused = await gql(RESTORE, { id: second! }, mallory);
    expect(codes(refused)).toEqual(["NOT_FOUND"]);
    expect(refused.errors![0]!.message).toBe("Nothing to restore: no message was deleted here in the last 10 minutes");

    now += 9 * 60_000;
    expect((await gql(RESTORE, { id: second! })).data!.restoreMessage.id).toBe(second);
    expect((await gql(INBOX)).data).toEqual(before);
    expect(codes(await gql(RESTORE, { id: second! }))).toEqual(["NOT_FOUND"]);

    // Past the window it is gone for good.
    await gql(DeleteMessageDocument, { id: first! });
    now += 10 * 60_000 + 1;
    expect(codes(await gql(RESTORE, { id: first! }))).toEqual(["NOT_FOUND"]);
  });
});

describe("undo of a deleted briefing", () => {
  it("puts it back with its places and its messages' links; a run due meanwhile waits for the next one", async () => {
    let now = Date.parse("2026-06-01T06:58:00Z");
    const { gql, briefing, place, send } = await userWithBriefing(() => new Date(now));
    const message = await send();
    const before = (await gql(BRIEFINGS)).data!.briefings;
    expect(before).toEqual([
      { id: briefing.id, name: "Morning", enabled: true, nextRunAt: "2026-06-01T07:00:00.000Z", places: [{ id: place.id }] },
    ]);

    expect((await gql(DeleteBriefingDocument, { id: briefing.id })).data!.deleteBriefing).toBe(briefing.id);
    expect((await gql(BRIEFINGS)).data!.briefings).toEqual([]);
    expect((await gql(INBOX)).data!.messages.edges.find((edge) => edge.id === message)!.briefing).toBeNull();

    // Back after 07:00: its next run is tomorrow's, not a late one now.
    now = Date.parse("2026-06-01T07:05:00Z");
    const RESTORE = TestUndoRestoreBriefingDocument;
    const restored = await gql(RESTORE, { id: briefing.id });
    expect(restored.errors).toBeUndefined();
    expect(restored.data!.restoreBriefing).toEqual({
      id: briefing.id,
      name: "Morning",
      nextRunAt: "2026-06-02T07:00:00.000Z",
      places: [{ id: place.id }],
    });
    expect((await gql(INBOX)).data!.messages.edges.find((edge) => edge.id === message)!.briefing).toEqual({
      id: briefing.id,
    });
    expect(codes(await gql(RESTORE, { id: briefing.id }))).toEqual(["NOT_FOUND"]);
  });
});

describe("removed places", () => {
  it("are kept in the same store and still come back", async () => {
    const { gql, place } = await userWithBriefing(() => new Date("2026-06-01T06:00:00Z"));
    await gql(RemovePlaceDocument, { id: place.id });
    expect((await gql(TestUndoRestorePlaceDocument, { id: place.id })).data!.restorePlace).toEqual({
      id: place.id,
    });
  });
});

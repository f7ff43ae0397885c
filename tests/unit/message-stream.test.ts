import { describe, expect, it, vi } from "vitest";
import { createMessageStream } from "~/api/bot/message-stream";
import type { MessageTable } from "~/api/db/tables";

const row = (id: string) => ({ id }) as MessageTable;

describe("a subscriber's message stream", () => {
  it("buffers what arrives before anyone asks, and hands it out in order", async () => {
    const stream = createMessageStream(() => {}, "");
    stream.push(row("a"));
    stream.push(row("b"));
    expect((await stream.next()).value).toEqual(row("a"));
    expect((await stream.next()).value).toEqual(row("b"));
    const waiting = stream.next();
    stream.push(row("c"));
    expect((await waiting).value).toEqual(row("c"));
  });

  it("puts replayed messages first and keeps each message once", async () => {
    const stream = createMessageStream(() => {}, "");
    stream.push(row("m2")); // arrived live while the missed ones were being read
    stream.push(row("m3"));
    stream.replay([row("m1"), row("m2")]);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await stream.next()).value!.id);
    expect(ids).toEqual(["m1", "m2", "m3"]);
  });

  it("takes a message once however often it arrives: live twice, or live after a catch-up delivered it", async () => {
    const stream = createMessageStream(() => {}, "");
    stream.push(row("a"));
    stream.push(row("a")); // the writer's publish, then the follower's copy
    expect((await stream.next()).value).toEqual(row("a"));
    stream.replay([row("a"), row("b")]);
    stream.push(row("b"));
    stream.push(row("c"));
    const ids = [];
    for (let i = 0; i < 2; i++) ids.push((await stream.next()).value!.id);
    expect(ids).toEqual(["b", "c"]);
    stream.push(row("c"));
    stream.push(row("d"));
    expect((await stream.next()).value).toEqual(row("d"));
  });

  it("does not deliver live what the subscriber already has (at or before its `after`)", async () => {
    const stream = createMessageStream(() => {}, "m2");
    stream.push(row("m1"));
    stream.push(row("m2"));
    stream.push(row("m3"));
    expect((await stream.next()).value).toEqual(row("m3"));
  });

  it("ends at once when the subscriber leaves, even with a next() waiting, and unregisters", async () => {
    const onClose = vi.fn();
    const stream = createMessageStream(onClose, "");
    const pending = stream.next();
    await stream.return!();
    await expect(pending).resolves.toEqual({ value: undefined, done: true });
    expect(onClose).toHaveBeenCalledOnce();
    stream.push(row("late"));
    await expect(stream.next()).resolves.toEqual({ value: undefined, done: true });
  });
});

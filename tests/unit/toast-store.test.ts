import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TOAST_LIMITS } from "~/lib/toast/toast";
import { createToastStore } from "~/lib/toast/toast-store";

describe("TOAST_LIMITS", () => {
  it("matches docs/product-constants.md", () => {
    expect(TOAST_LIMITS).toEqual({
      maxVisible: 5,
      durationMs: 5000,
      // A toast with a button (Undo) waits for a keyboard user to reach it with F8.
      actionDurationMs: 10_000,
      gapPx: 16,
      swipeThreshold: 50,
      hotkey: ["F8"],
      removeDelayMs: 200,
    });
  });
});

describe("createToastStore", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const titles = (toasts: { title: string }[]) => toasts.map((toast) => toast.title);

  it("shows at most five open toasts, oldest first", () => {
    const store = createToastStore();
    const ids = ["1", "2", "3", "4", "5", "6"].map((title) => store.show({ title }));
    expect(titles(store.visible())).toEqual(["1", "2", "3", "4", "5"]);

    store.dismiss(ids[0]!);
    expect(titles(store.visible())).toEqual(["2", "3", "4", "5", "6"]);
  });

  it("defaults the variant to info", () => {
    const store = createToastStore();
    store.show({ title: "a" });
    store.show({ title: "b", variant: "error" });
    expect(store.all().map((toast) => toast.variant)).toEqual(["info", "error"]);
  });

  it("keeps a dismissed toast closed for 200 ms, then removes it", () => {
    const store = createToastStore();
    const id = store.show({ title: "bye" });
    store.dismiss(id);
    expect(store.all()).toEqual([expect.objectContaining({ id, open: false })]);
    expect(store.visible()).toEqual([]);

    vi.advanceTimersByTime(199);
    expect(store.all()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.all()).toEqual([]);
  });

  it("does not add the same id twice", () => {
    const store = createToastStore();
    expect(store.show({ id: "flash", title: "first" })).toBe("flash");
    expect(store.show({ id: "flash", title: "second" })).toBe("flash");
    expect(titles(store.all())).toEqual(["first"]);
  });

  it("tells subscribers about changes until they unsubscribe", () => {
    const store = createToastStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const id = store.show({ title: "hi" });
    expect(listener).toHaveBeenCalledTimes(1);
    store.dismiss(id);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    vi.advanceTimersByTime(TOAST_LIMITS.removeDelayMs);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

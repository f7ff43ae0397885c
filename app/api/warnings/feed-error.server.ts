import type { UnavailableReason } from "./official-warning.server";

/** Why a warning service's answer could not be used; the layer turns it into an "unavailable" outcome. */
export class FeedError extends Error {
  constructor(
    message: string,
    readonly reason: UnavailableReason,
    /** The answer's HTTP status; null when there was no answer. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = "FeedError";
  }
}

/** Any error as a FeedError (one that is not is a fault of this layer's own). */
export function asFeedError(error: unknown): FeedError {
  if (error instanceof FeedError) return error;
  return new FeedError(error instanceof Error ? error.message : String(error), "internal");
}

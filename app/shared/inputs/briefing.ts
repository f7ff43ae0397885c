import * as z from "zod/mini";
import { nameText } from "./issues";

export const BRIEFING_NAME_MAX_LENGTH = 60;

/**
 * A briefing as the API takes it (BriefingInput). The editor checks its draft with it
 * before sending, the API before saving; that the places are the user's own is the API's
 * to check (PLACES_NOT_OWNED). Enums and times are the GraphQL schema's to check.
 */
export const briefingInput = z.object({
  name: nameText(BRIEFING_NAME_MAX_LENGTH, "BRIEFING_NAME_REQUIRED"),
  enabled: z.nullish(z.boolean()),
  // The same place twice is one slot.
  placeIds: z.pipe(
    z.pipe(
      z.array(z.string()),
      z.transform((ids: string[]) => [...new Set(ids)]),
    ),
    z.array(z.string()).check(z.minLength(1, "PLACES_REQUIRED")),
  ),
  period: z.string(),
  time: z.string(),
  days: z.array(z.string()).check(z.minLength(1, "DAYS_REQUIRED")),
  // Besides the inbox; null keeps the briefing's own. Whether EMAIL can be sent is the API's to say.
  delivery: z.nullish(z.array(z.string())),
});

export type BriefingInput = z.input<typeof briefingInput>;

import * as z from "zod/mini";
import { addIssue } from "./issues";

export const PLACE_LABEL_MAX_LENGTH = 60;

// Control characters (NUL, bell, ...) and bidirectional overrides, which make a label read other than it is.
export const LABEL_CONTROL_CHARACTER = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

/** A place's own name for itself: trimmed, runs of whitespace (line breaks, tabs) folded into one space first. */
export const placeLabel = z
  .pipe(
    z.string(),
    z.transform((raw: string) => raw.trim().replace(/\s+/g, " ")),
  )
  .check(
    z.superRefine((label: string, context) => {
      // One problem at a time, the one to fix first.
      if (LABEL_CONTROL_CHARACTER.test(label)) addIssue(context, null, "LABEL_CONTROL_CHARACTERS");
      else if (label.length === 0) addIssue(context, null, "LABEL_REQUIRED");
      else if (label.length > PLACE_LABEL_MAX_LENGTH) addIssue(context, null, "LABEL_TOO_LONG", { max: PLACE_LABEL_MAX_LENGTH });
    }),
  );

/** renamePlace's input, and the places list's label field. */
export const renamePlaceInput = z.object({ label: placeLabel });

/**
 * addPlace's input: a search result (`locationId`) or a coordinate, with an optional label
 * (none: the location's name). The add-place form sends a search result.
 */
export const addPlaceInput = z
  .object({
    locationId: z.nullish(z.string()),
    latitude: z.nullish(z.number().check(z.refine((value: number) => value >= -90 && value <= 90, "LATITUDE_RANGE"))),
    longitude: z.nullish(z.number().check(z.refine((value: number) => value >= -180 && value <= 180, "LONGITUDE_RANGE"))),
    label: z.nullish(placeLabel),
  })
  .check(
    z.superRefine((place, context) => {
      if (!place.locationId && (typeof place.latitude !== "number" || typeof place.longitude !== "number")) {
        addIssue(context, "locationId", "LOCATION_REQUIRED");
      }
    }),
  );

export type AddPlaceInput = z.input<typeof addPlaceInput>;

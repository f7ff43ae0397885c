import type { TFunction } from "i18next";
import type { Client } from "urql";
import { nearestWithin, type Coordinates } from "~/lib/geolocation";
import type { PlaceRowFieldsFragment as PlaceSummary } from "~/lib/graphql/documents.generated";
import { ADD_PLACE_AT_MUTATION } from "~/lib/graphql/later-documents";
import { placeCardId } from "~/lib/place-card-id";
import { showToast } from "~/lib/toast/toast-store";

/** Opens a place (the switcher's address) and brings it into view once it is on the page (a new one renders after its mutation). */
async function revealPlace(placeId: string, open: (placeId: string) => Promise<void> | void) {
  await open(placeId);
  requestAnimationFrame(() => document.getElementById(placeCardId(placeId))?.scrollIntoView({ block: "start", behavior: "smooth" }));
}

/**
 * "Use my location" for someone signed in: shows the saved place they are at, else saves the
 * position as "Current location". Loaded on the first press (not part of the first load).
 */
export async function showOrAddPlaceAt(
  at: Coordinates,
  places: readonly PlaceSummary[],
  client: Client,
  t: TFunction,
  open: (placeId: string) => Promise<void> | void,
): Promise<void> {
  const near = nearestWithin(places, at);
  if (near) {
    showToast({ title: t("location.shown", { label: near.label }), variant: "success" });
    return revealPlace(near.id, open);
  }
  const result = await client.mutation(ADD_PLACE_AT_MUTATION, { ...at, label: t("location.label") }).toPromise();
  const added = result.data?.addPlace;
  if (!added) {
    showToast({ title: t("location.addFailed"), variant: "error" });
    return;
  }
  showToast({ title: t("addPlace.added", { label: added.label }), variant: "success" });
  await revealPlace(added.id, open);
}

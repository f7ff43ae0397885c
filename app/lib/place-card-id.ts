/** The id of a saved place's card in the list: "Use my location" brings it into view by it. */
export const placeCardId = (placeId: string) => `place-${placeId}`;

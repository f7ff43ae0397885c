/**
 * Whether a point lies inside a polygon (points [latitude, longitude]), by ray casting: fine for
 * warning areas, which are small next to the Earth and do not cross the antimeridian in Europe.
 */
export function containsPoint(polygon: ReadonlyArray<readonly [number, number]>, latitude: number, longitude: number): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [latI, lonI] = polygon[i]!;
    const [latJ, lonJ] = polygon[j]!;
    if (latI > latitude !== latJ > latitude && longitude < ((lonJ - lonI) * (latitude - latI)) / (latJ - latI) + lonI) {
      inside = !inside;
    }
  }
  return inside;
}

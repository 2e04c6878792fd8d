/**
 * The map point picker's geometry: a plain box over Uzbekistan's bounding box (no tiles —
 * the machines the portal runs on may have no internet).
 */

/** Uzbekistan's bounding box, degrees WGS 84. */
export const UZ_BOUNDS = { minLat: 37.1, maxLat: 45.6, minLng: 55.9, maxLng: 73.2 } as const;

/** A point as the schema stores it. */
export interface GeoPoint {
  lat: number;
  lng: number;
}

const round6 = (n: number): number => Math.round(n * 1e6) / 1e6;

/**
 * The point under a click at (x, y) inside a box of `width` × `height` pixels (north up).
 * @example pointAt(0, 0, 100, 50) // { lat: 45.6, lng: 55.9 }
 */
export function pointAt(x: number, y: number, width: number, height: number): GeoPoint {
  const fx = Math.min(Math.max(x / width, 0), 1);
  const fy = Math.min(Math.max(y / height, 0), 1);
  return {
    lat: round6(UZ_BOUNDS.maxLat - fy * (UZ_BOUNDS.maxLat - UZ_BOUNDS.minLat)),
    lng: round6(UZ_BOUNDS.minLng + fx * (UZ_BOUNDS.maxLng - UZ_BOUNDS.minLng)),
  };
}

/** Where a point sits in the box, as fractions 0..1 from the left and the top; undefined outside. */
export function positionOf(point: Partial<GeoPoint> | undefined): { x: number; y: number } | undefined {
  if (typeof point?.lat !== 'number' || typeof point.lng !== 'number') return undefined;
  const x = (point.lng - UZ_BOUNDS.minLng) / (UZ_BOUNDS.maxLng - UZ_BOUNDS.minLng);
  const y = (UZ_BOUNDS.maxLat - point.lat) / (UZ_BOUNDS.maxLat - UZ_BOUNDS.minLat);
  return x >= 0 && x <= 1 && y >= 0 && y <= 1 ? { x, y } : undefined;
}

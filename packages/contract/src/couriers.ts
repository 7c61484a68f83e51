import { trackingNumberPlaceholder, type Courier } from './lab-settings.ts';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The lab's courier a dispatch names, by its name as staff type it: "DHL Express" is the lab's
 * "DHL", "ups" its "UPS"; a name only inside a word ("Groups Logistics") is not.
 */
export function findCourier(couriers: readonly Courier[], courier: string): Courier | undefined {
  return couriers.find((known) =>
    new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(known.name.trim())}($|[^\\p{L}\\p{N}])`, 'iu').test(courier),
  );
}

/** The courier's tracking page for a shipment (the lab's couriers, a Settings list), or undefined for a courier it does not list. */
export function courierTrackingUrl(
  couriers: readonly Courier[],
  courier: string,
  trackingNumber: string,
): string | undefined {
  const known = findCourier(couriers, courier);
  return known && trackingNumber.trim()
    ? known.trackingUrl.replaceAll(trackingNumberPlaceholder, encodeURIComponent(trackingNumber.trim()))
    : undefined;
}

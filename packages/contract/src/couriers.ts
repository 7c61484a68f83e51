/**
 * Tracking pages of the couriers labs ship aligners with, by the courier's name as staff type
 * it ("DHL Express", "FedEx", "ups"). Another courier's number stays plain text.
 */
const trackingPages: { name: RegExp; url: (trackingNumber: string) => string }[] = [
  {
    name: /\bdhl\b/i,
    url: (n) => `https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=${n}`,
  },
  { name: /\bups\b/i, url: (n) => `https://www.ups.com/track?tracknum=${n}` },
  { name: /\bfed\s?ex\b/i, url: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}` },
  { name: /\busps\b/i, url: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}` },
];

/** The courier's tracking page for a shipment, or undefined for a courier it does not know. */
export function courierTrackingUrl(courier: string, trackingNumber: string): string | undefined {
  const page = trackingPages.find((known) => known.name.test(courier));
  return page && trackingNumber.trim() ? page.url(encodeURIComponent(trackingNumber.trim())) : undefined;
}

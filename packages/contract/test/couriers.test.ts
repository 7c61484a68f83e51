import { describe, expect, it } from 'vitest';
import { courierTrackingUrl } from '../src/couriers.ts';

describe('courierTrackingUrl', () => {
  it("links the known couriers' tracking pages, by the name as staff type it", () => {
    expect(courierTrackingUrl('DHL Express', 'JD0146000099')).toBe(
      'https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=JD0146000099',
    );
    expect(courierTrackingUrl('ups', ' 1Z999AA10123456784 ')).toBe(
      'https://www.ups.com/track?tracknum=1Z999AA10123456784',
    );
    expect(courierTrackingUrl('FedEx Ground', '449044304137821')).toBe(
      'https://www.fedex.com/fedextrack/?trknbr=449044304137821',
    );
    expect(courierTrackingUrl('USPS', '9400 1000')).toBe(
      'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400%201000',
    );
  });

  it('leaves other couriers, look-alike words and empty numbers without a link', () => {
    expect(courierTrackingUrl('Local courier', 'A1')).toBeUndefined();
    expect(courierTrackingUrl('Groups Logistics', 'A1')).toBeUndefined();
    expect(courierTrackingUrl('DHL', '  ')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { courierTrackingUrl } from '../src/couriers.ts';
import { defaultLabSettings, labSettings } from '../src/lab-settings.ts';

const couriers = defaultLabSettings.couriers;

describe('courierTrackingUrl', () => {
  it("links the lab's couriers' tracking pages, by the name as staff type it", () => {
    expect(courierTrackingUrl(couriers, 'DHL Express', 'JD0146000099')).toBe(
      'https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=JD0146000099',
    );
    expect(courierTrackingUrl(couriers, 'ups', ' 1Z999AA10123456784 ')).toBe(
      'https://www.ups.com/track?tracknum=1Z999AA10123456784',
    );
    expect(courierTrackingUrl(couriers, 'FedEx Ground', '449044304137821')).toBe(
      'https://www.fedex.com/fedextrack/?trknbr=449044304137821',
    );
    expect(courierTrackingUrl(couriers, 'USPS', '9400 1000')).toBe(
      'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400%201000',
    );
  });

  it('leaves other couriers, look-alike words and empty numbers without a link', () => {
    expect(courierTrackingUrl(couriers, 'Local courier', 'A1')).toBeUndefined();
    expect(courierTrackingUrl(couriers, 'Groups Logistics', 'A1')).toBeUndefined();
    expect(courierTrackingUrl(couriers, 'DHL', '  ')).toBeUndefined();
  });

  it("follows the lab's list: a courier it adds is linked, one it removes no longer", () => {
    const own = [{ name: 'Swift Post', trackingUrl: 'https://swift.example/t/{trackingNumber}?x={trackingNumber}' }];
    expect(courierTrackingUrl(own, 'swift post (next day)', 'A/1')).toBe('https://swift.example/t/A%2F1?x=A%2F1');
    expect(courierTrackingUrl(own, 'DHL', 'A1')).toBeUndefined();
  });
});

describe('labSettings', () => {
  it('takes the defaults and refuses a tracking link without the placeholder, with a clear message', () => {
    expect(labSettings.parse(defaultLabSettings)).toEqual(defaultLabSettings);
    const result = labSettings.safeParse({
      ...defaultLabSettings,
      couriers: [{ name: 'Swift', trackingUrl: 'https://swift.example/track' }],
    });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Tracking link must contain {trackingNumber} where the tracking number goes',
    ]);
    expect(labSettings.safeParse({ ...defaultLabSettings, timeZone: 'Mars/Olympus' }).error?.issues[0]?.message).toBe(
      'Time zone must be a time zone name such as Europe/Berlin or UTC',
    );
  });
});

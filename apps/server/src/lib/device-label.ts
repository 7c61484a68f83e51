import Bowser from 'bowser';

/** The major version only: 'Chrome 131', not 'Chrome 131.0.6778.85'. */
const major = (version: string | undefined) => version?.split('.')[0];

/**
 * A short label for a User-Agent, for people to recognise their devices: 'Chrome 131 on
 * Windows', 'Safari 17 on iOS', 'curl'; 'Unknown device' when there is none.
 */
export function deviceLabel(userAgent: string): string {
  if (!userAgent.trim()) return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, major(parsed.browser.version)].filter(Boolean).join(' ');
  const os = parsed.os.name;
  if (browser && os) return `${browser} on ${os}`;
  return browser || os || userAgent.slice(0, 40);
}

import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, useBrowser, newPage, screenshots } from '../helpers/browser.ts';
import { eventually } from '../helpers/doctor-form.ts';

const browser = useBrowser();

describe('Terms page', () => {
  it('is public, without the signed-in layout, and readable', async () => {
    const page = await newPage(browser());
    await page.goto('/terms');
    await eventually(() => page.getByRole('heading', { name: 'Terms and Conditions', level: 1 }).isVisible()).toBe(
      true,
    );
    expect(await page.getByRole('heading', { level: 2 }).count()).toBeGreaterThanOrEqual(5);
    expect(await page.getByRole('navigation', { name: 'Main menu' }).count()).toBe(0);
    await expectNoSeriousA11yViolations(page);
    await screenshots(page, 'terms');
  });
});

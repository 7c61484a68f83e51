import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiLogin, createActiveDoctor } from '../helpers/api.ts';
import {
  expectNoSeriousA11yViolations,
  useBrowser,
  newPage,
  openSignedIn,
  screenshots,
  settle,
} from '../helpers/browser.ts';
import { asciiStl, submitCase } from '../helpers/cases.ts';
import { scaled } from '../helpers/test-time.ts';

/**
 * Issue 24, docs/decisions/uploads.md § Photo thumbnails and the gallery: the case page shows each
 * photo's thumbnail, not the original, and a gallery opens the originals with zoom and keys.
 */

const browser = useBrowser();
let doctor: Awaited<ReturnType<typeof createActiveDoctor>>;
let submitted: { CaseId: number; TrackingNo: string };

vi.setConfig({ expect: { poll: { timeout: scaled(15_000) } } });

/** A photo with a left-to-right gradient and a label, so the screenshots show which one is open. */
async function photo(width: number, height: number, label: string, format: 'jpeg' | 'png') {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g"><stop offset="0" stop-color="#e9b8a0"/><stop offset="1" stop-color="#7a4b3a"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <text x="50%" y="55%" font-size="${Math.round(height / 6)}" text-anchor="middle" fill="#fff" font-family="sans-serif">${label}</text>
  </svg>`;
  const image = sharp(Buffer.from(svg));
  return new Uint8Array(await (format === 'jpeg' ? image.jpeg({ quality: 90 }) : image.png()).toBuffer());
}

beforeAll(async () => {
  doctor = await createActiveDoctor();
  const token = await apiLogin(doctor.username, doctor.password);
  submitted = await submitCase(token, {
    maxillaryScan: { name: 'upper.stl', data: asciiStl(0) },
    opv: { name: 'opg.png', data: await photo(900, 450, 'OPG', 'png'), type: 'image/png' },
    frontSmiling: { name: 'smile.jpg', data: await photo(2400, 1600, 'Smile', 'jpeg'), type: 'image/jpeg' },
    otherFiles: { name: 'extra.png', data: await photo(600, 800, 'Extra', 'png'), type: 'image/png' },
  });
});

const gallery = (page: Page, fileName: string) => page.getByRole('dialog', { name: fileName });
const focusedImage = (page: Page) =>
  page.evaluate(() => document.activeElement?.querySelector('img')?.getAttribute('alt') ?? null);

describe('Case photos', () => {
  it('shows thumbnails, opens the originals in a gallery with zoom and arrow keys, and gives focus back', async () => {
    const page = await newPage(browser());
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await openSignedIn(page, doctor.username, doctor.password, `/cases/${submitted.CaseId}`);

    const thumbnail = page.getByRole('link', { name: 'smile.jpg' }).getByRole('img', { name: 'smile.jpg' });
    await expect
      .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBe(320);
    await settle(page);
    const photoRequests = requested.filter((url) => /^\/api\/case\/file(s|-thumbnails)\//.test(url));
    expect(photoRequests.filter((url) => url.startsWith('/api/case/file-thumbnails/'))).toHaveLength(3);
    expect(photoRequests.filter((url) => url.startsWith('/api/case/files/'))).toEqual([]);
    await screenshots(page, 'case-gallery-thumbnails');
    await expectNoSeriousA11yViolations(page);

    // In the page's order: X-Ray OPG first, then the other files.
    await page.getByRole('link', { name: 'opg.png' }).click();
    await expect.poll(() => gallery(page, 'opg.png').isVisible()).toBe(true);
    expect(await gallery(page, 'opg.png').getByText('1 of 3 · X-Ray OPG').isVisible()).toBe(true);
    await page.keyboard.press('ArrowRight');
    const smile = gallery(page, 'smile.jpg');
    await expect.poll(() => smile.getByText('2 of 3 · Front Smiling').isVisible()).toBe(true);
    const original = smile.getByRole('img', { name: 'smile.jpg' });
    await expect.poll(() => original.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(2400);
    expect(requested.some((url) => /^\/api\/case\/files\/\d+\/smile\.jpg$/.test(url))).toBe(true);
    const download = smile.getByRole('link', { name: 'Download' });
    expect(await download.getAttribute('download')).toBe('smile.jpg');
    expect(await download.getAttribute('href')).toMatch(/^\/api\/case\/files\/\d+\/smile\.jpg$/);

    // Fit, then 100% (the photo's own pixels, scrolled), zoom in and out, back to fit.
    const shownWidth = () => original.evaluate((image: HTMLImageElement) => image.getBoundingClientRect().width);
    expect(await shownWidth()).toBeLessThan(1280);
    await smile.getByRole('button', { name: '100%' }).click();
    await expect.poll(shownWidth).toBe(2400);
    await smile.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(shownWidth).toBe(3600);
    expect(await smile.getByText('150%').isVisible()).toBe(true);
    await smile.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(shownWidth).toBe(2400);
    await smile.getByRole('button', { name: 'Fit' }).click();
    await expect.poll(shownWidth).toBeLessThan(1280);
    await screenshots(page, 'case-gallery-dialog');
    await expectNoSeriousA11yViolations(page);

    await page.keyboard.press('ArrowRight');
    await expect.poll(() => gallery(page, 'extra.png').getByText('3 of 3 · Other File').isVisible()).toBe(true);
    // The last photo: Right stays, Left goes back.
    await page.keyboard.press('ArrowRight');
    expect(await gallery(page, 'extra.png').isVisible()).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => smile.isVisible()).toBe(true);

    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // Focus is back on the thumbnail of the photo last shown.
    await expect.poll(() => focusedImage(page)).toBe('smile.jpg');
    await page.close();
  });

  it('works on a phone: the gallery fills the screen, its buttons in reach', async () => {
    const page = await newPage(browser(), 375);
    await openSignedIn(page, doctor.username, doctor.password, `/cases/${submitted.CaseId}`);
    await page.getByRole('link', { name: 'smile.jpg' }).click();
    const smile = gallery(page, 'smile.jpg');
    await expect
      .poll(() =>
        smile.getByRole('img', { name: 'smile.jpg' }).evaluate((image: HTMLImageElement) => image.naturalWidth),
      )
      .toBe(2400);
    await settle(page);
    for (const name of ['Previous photo', 'Next photo', 'Zoom in', 'Zoom out', 'Close the photo gallery']) {
      expect(await smile.getByRole('button', { name }).isVisible(), name).toBe(true);
    }
    // Zoomed, the photo scrolls: the frame is focusable and named (axe's scrollable-region-focusable).
    await smile.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(() => smile.getByRole('group', { name: /^smile\.jpg zoomed/ }).isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await smile.getByRole('button', { name: 'Close the photo gallery' }).click();
    await expect.poll(() => focusedImage(page)).toBe('smile.jpg');
    await page.close();
  });
});

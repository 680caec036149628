/**
 * /docs in a real browser, driven by playwright-core: the Chromium build that the
 * `@sparticuz/chromium` devDependency ships inside its npm package (unpacked into the test run's
 * own temporary folder), so that `npm install && npm test` needs no browser on the machine and no
 * download beyond the npm registry; or the build CHROMIUM_PATH names. Never skipped: a browser
 * that does not start fails the run.
 */
import bundled from '@sparticuz/chromium';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLive, type LiveServer } from '../helpers/live-server.ts';
import { buildTestApp } from '../helpers/test-app.ts';

let server: LiveServer;
let browser: Browser;
beforeAll(async () => {
  server = await listenLive((await buildTestApp()).app);
  browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? (await bundled.executablePath()),
    // Flags for a closed network: no background calls home, no sandbox as root in CI.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => {
  await browser.close();
  await server.close();
});
// playwright-core starts Chromium with a fresh temporary profile of its own.

describe('/docs', () => {
  it('lists every endpoint of the served spec, and a token can be entered to try them', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/docs`);
    await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    const normalised = paths.map((path) => path.replaceAll('\u200b', '').trim());
    for (const path of [
      '/v1/stock',
      '/v1/stock/{id}',
      '/v1/products',
      '/v1/products/{id}',
      '/healthz',
    ]) {
      expect(normalised).toContain(path);
    }
    await authorize(page, 'quantity-demo-token');

    // Try GET /v1/stock/{id} from the page, as a client team would.
    const operation = page.locator('#operations-stock-getStock');
    await operation.locator('.opblock-summary').click();
    // The docs open in "try it out" mode; the button then reads "Cancel".
    const tryOut = operation.locator('button.try-out__btn');
    if ((await tryOut.textContent())?.includes('Try it out') === true) await tryOut.click();
    await operation.locator('input[placeholder="id"]').fill('1');
    await operation.locator('button.execute').click();
    const responseBody = operation
      .locator('.live-responses-table .response-col_description pre')
      .first();
    await expect
      .poll(async () => responseBody.textContent(), { timeout: 15_000 })
      .toContain('"quantity"');
    await page.close();
  });

  it('a first Execute of a list lists the catalogue: no filter is pre-filled', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/docs`);
    await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });
    await authorize(page, 'status-demo-token');
    const operation = page.locator('#operations-stock-listStock');
    await operation.locator('.opblock-summary').click();
    const tryOut = operation.locator('button.try-out__btn');
    if ((await tryOut.textContent())?.includes('Try it out') === true) await tryOut.click();
    await operation.locator('button.execute').click();
    const requestUrl = operation.locator('.request-url pre');
    await expect
      .poll(async () => requestUrl.textContent(), { timeout: 15_000 })
      .toContain('/v1/stock');
    const url = new URL((await requestUrl.textContent()) ?? '');
    expect([...url.searchParams.keys()].sort()).toEqual(['limit', 'page']);
    const body = operation.locator('.live-responses-table .response-col_description pre').first();
    await expect.poll(async () => body.textContent(), { timeout: 15_000 }).toContain('"links"');
    const answer = JSON.parse((await body.textContent()) ?? '') as { data: unknown[] };
    expect(answer.data).toHaveLength(10);
    await page.close();
  });

  it("shows the project's name, not Fastify's logo", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/docs`);
    const logo = page.locator('#swagger-ui .topbar a.link img');
    await logo.waitFor({ timeout: 20_000 });
    const source = (await logo.getAttribute('src')) ?? '';
    const [, base64 = ''] = /^data:image\/svg\+xml;base64,(.*)$/.exec(source) ?? [];
    expect(Buffer.from(base64, 'base64').toString()).toContain('>stockmock</text>');
    expect(await page.title()).toContain('stockmock');
    await page.close();
  });
});

/** Enters a bearer token in the docs' "Authorize" dialog, as a client team would. */
async function authorize(page: Page, token: string): Promise<void> {
  await page.locator('button.authorize').first().click();
  await page.locator('.modal-ux input').first().fill(token);
  await page.locator('.modal-ux button.modal-btn.auth.authorize').click();
  await page.locator('.modal-ux button.btn-done').click();
}

import { describe, expect, test } from 'vitest';
import { expectVisible, loginAndLand, useBrowser } from './support/browser';
import { en, text } from './support/locales';
import { apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

// R3: the search page counts its hits as each language counts (i18next plural rules): one hit is
// "1 result", more are "n results".

const portal = usePortal();
const session = useBrowser();

/** How many hits the portal finds for a keyword, as the API answers it. */
async function hits(keyword: string): Promise<number> {
  const token = await apiLogin(portal.url, 'demo');
  const answer = await fetch(`${portal.url}/oga/search?keyword=${encodeURIComponent(keyword)}`, { headers: { authorization: `Bearer ${token}` } });
  return ((await answer.json()) as { data: { total: number } }).data.total;
}

describe('R3: the search page counts its results', () => {
  test('one hit says "1 result", several say "n results"', async () => {
    const one = 'Exhibitor manual 2027';
    expect(await hits(one), `one hit for "${one}"`).toBe(1);
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/search?keyword=${encodeURIComponent(one)}`);
    await expectVisible(page.getByText(en('search.count_one', { count: 1 }), { exact: true }), '"1 result"');
    expect(await page.getByText(en('search.count', { count: 1 }), { exact: true }).count(), 'never "1 results"').toBe(0);

    const several = 'S0';
    const total = await hits(several);
    expect(total, `several hits for "${several}"`).toBeGreaterThan(1);
    await page.goto(`${portal.url}/search?keyword=${several}`);
    await expectVisible(page.getByText(en('search.count', { count: total }), { exact: true }), `"${total} results"`);
    expect(text('en', 'search.count_one', { count: 1 })).toBe('1 result');
  });
});

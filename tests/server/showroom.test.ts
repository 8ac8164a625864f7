import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../support/pdf-text';
import { call, createTestApp, ENGINES, get, login, put, recordUpload, type TestApp } from './helpers';

// CT5: the digital showroom (from submitted S01/S02 as forms.yaml declares), published or not, at
// a public address; the poster PDF read back with pdftotext (poppler), as a reader would.

describe.each(ENGINES)('showroom on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let participationId: number;
  let slug: string;
  let logoId: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    [demo, limited] = await Promise.all([login(t.app, 'demo'), login(t.app, 'limited')]);
    participationId = (await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', 'demo').executeTakeFirstOrThrow()).participation_id!;
    logoId = 'L'.repeat(43);
    await recordUpload(t.app, participationId, 'logo', { id: logoId, name: 'logo.jpg', size: 100, type: 'jpeg', dpi: 300 });
    // What demo submitted: the showroom reads submitted data only (the seed's entries replaced).
    await t.app.db.deleteFrom('form_entries').where('participation_id', '=', participationId).where('form_id', 'in', ['s01', 's02']).execute();
    await t.app.db
      .insertInto('form_entries')
      .values([
        {
          participation_id: participationId,
          form_id: 's01',
          status: 'submitted',
          data: '{}',
          submitted_data: JSON.stringify({
            company: {
              companyName: 'Borneo Botanica Sdn Bhd',
              description: 'Rainforest honey and herbs.',
              website: 'https://borneo.example',
              logo: { id: logoId, name: 'logo.jpg', size: 100, type: 'jpeg', dpi: 300 },
            },
          }),
        },
        {
          participation_id: participationId,
          form_id: 's02',
          status: 'draft',
          data: JSON.stringify({ products: [{ productName: 'Draft only product' }] }),
          submitted_data: JSON.stringify({ products: [{ productName: 'Wild Tualang Honey', brandName: 'Borneo Botanica', description: 'Raw honey.', newLaunch: true }] }),
        },
      ])
      .execute();
  });
  afterAll(async () => t?.close());

  it('CT5 the preview is built from submitted S01/S02 only; the demo showroom is published at its address', async () => {
    const state = (await get(t.app, '/oga/showroom', demo)).data;
    expect(state).toMatchObject({ published: true, slug: 'afhe2027-borneo-botanica' });
    expect(state.url).toMatch(/\/showroom\?s=afhe2027-borneo-botanica$/);
    expect(state.showroom.company).toMatchObject({ name: 'Borneo Botanica Sdn Bhd', description: 'Rainforest honey and herbs.', logo: { id: logoId } });
    expect(state.showroom.products.map((p: { name: string }) => p.name)).toEqual(['Wild Tualang Honey']);
    slug = state.slug;
  });

  it('CT5 the public page needs no login and shows published data only; unpublishing hides it', async () => {
    const open = await call(t.app, 'GET', `/oga/public/showrooms/${slug}`);
    expect(open.code).toBe(200);
    expect(open.data).toMatchObject({ exhibitor: 'Borneo Botanica', booth: 'Hall 3 · B12', event: 'ASEAN Food & Hospitality Expo 2027' });
    expect(JSON.stringify(open.data)).not.toContain('Draft only product');
    expect((await put(t.app, '/oga/showroom', { published: false }, demo)).data.published).toBe(false);
    expect((await call(t.app, 'GET', `/oga/public/showrooms/${slug}`)).code).toBe(404);
    expect((await put(t.app, '/oga/showroom', { published: true }, demo)).data.published).toBe(true);
    // Another exhibitor's showroom is its own; guesses and odd input are simply not found.
    // limited holds no Digital Showroom module; a guessed address is simply not found.
    expect((await get(t.app, '/oga/showroom', limited)).code).toBe(403);
    expect((await call(t.app, 'GET', '/oga/public/showrooms/afhe2027-kopi-nusantara')).code).toBe(404);
    for (const odd of ['x', '%00', 'A'.repeat(81), '../etc']) expect((await call(t.app, 'GET', `/oga/public/showrooms/${encodeURIComponent(odd)}`)).status).not.toBe(500);
  });

  it('CT5 P5 the public page serves only the files the showroom shows', async () => {
    const other = 'B'.repeat(43);
    await recordUpload(t.app, participationId, 'businessCard', { id: other, name: 'card.jpg', size: 100, type: 'jpeg', dpi: 300 });
    expect((await call(t.app, 'GET', `/oga/public/showrooms/${slug}/files/${other}`)).code).toBe(404);
    // The logo is listed; its bytes were never written in this test, so it is "not found" too — never a 500.
    expect((await call(t.app, 'GET', `/oga/public/showrooms/${slug}/files/${logoId}`)).status).not.toBe(500);
  });

  it('CT5 the poster PDF holds the company, the booth number and the showroom address, in Japanese and Chinese too', async () => {
    for (const [language, line] of [
      ['en', 'Visit us at booth'],
      ['ja', 'ぜひお立ち寄りください'],
      ['cn', '扫码查看我们的产品'],
    ] as const) {
      for (const size of ['A4', 'A3']) {
        const response = await t.app.inject({ method: 'GET', url: `/oga/showroom/poster?size=${size}`, headers: { authorization: `Bearer ${demo}`, language } });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('application/pdf');
        const text = await pdfText(response.rawPayload, { layout: true });
        expect(text, `${language} ${size}`).toContain('Hall 3 · B12');
        expect(text).toContain('Borneo Botanica Sdn Bhd');
        expect(text).toContain(line);
        expect(text).toContain(`showroom?s=${slug}`);
      }
    }
    expect((await get(t.app, '/oga/showroom/poster', demo, { query: { size: 'A0' } })).status).toBe(400);
  });
});

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMAS_DIR } from '../../src/server/plugins/forms/form-set';
import { createTestApp, ENGINES, get, login, post, type TestApp } from './helpers';

// What a form gives other features is data. The lead's interests (LD2, LD3) are
// the labels of the list a form declares in forms.yaml `provides.leadInterests`: a changed
// declaration, read from a copy of schemas/ in a temporary folder, changes what the lead offers
// without any TypeScript.

type FormsList = { forms: Array<Record<string, unknown> & { id: string }> };

describe.each(ENGINES)('forms as data: provided lists on %s', (engine) => {
  let t: TestApp;
  let root: string;
  let formsDir: string;
  let demo: string;
  let leadUrl: string;
  const listFile = () => join(formsDir, 'forms', 'forms.yaml');
  const original = () => readFileSync(join(SCHEMAS_DIR, 'forms', 'forms.yaml'), 'utf8');

  /** Rewrites forms.yaml with each form's entry changed, then reloads the forms as the watcher would. */
  const declare = (change: (form: FormsList['forms'][number]) => void) => {
    const list = parse(original()) as FormsList;
    for (const form of list.forms) change(form);
    writeFileSync(listFile(), stringify(list));
    return t.app.forms.reload('test');
  };
  const interests = async () => (await get(t.app, leadUrl, demo)).data.products as string[];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'portal-forms-data-'));
    formsDir = join(root, 'schemas');
    cpSync(SCHEMAS_DIR, formsDir, { recursive: true });
    cpSync(join(SCHEMAS_DIR, '..', 'locales'), join(root, 'locales'), { recursive: true });
    t = await createTestApp(engine, { formsDir });
    demo = await login(t.app, 'demo');
    const user = await t.app.db.selectFrom('users').select('participation_id').where('login', '=', 'demo').executeTakeFirstOrThrow();
    const scanned = await post<{ results: Array<{ leadId: number }> }>(
      t.app,
      '/oga/leads/scan',
      { clientScanId: `forms-data-${engine}`, badgeCode: 'HANDWRITTEN-11', scannedAt: new Date().toISOString() },
      demo,
    );
    leadUrl = `/oga/leads/${scanned.data.results[0]!.leadId}`;
    const products = {
      products: [
        { productName: 'Wild Tualang Honey', brandName: 'Borneo Botanica' },
        { productName: 'Bario Rice Crackers', brandName: 'Highland Table' },
      ],
    };
    const guests = {
      invitations: [
        { name: 'Datin Farah Ismail', company: 'Pasar Segar Sdn. Bhd.' },
        { name: 'Nguyen Van An', company: 'Saigon Foods' },
      ],
    };
    await t.app.db
      .insertInto('form_entries')
      .values([
        { participation_id: user.participation_id!, form_id: 's02', data: JSON.stringify(products), submitted_data: JSON.stringify(products), status: 'submitted' },
        { participation_id: user.participation_id!, form_id: 'vip', data: JSON.stringify(guests), status: 'draft' },
      ])
      .execute();
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("the project declares S02's product names as the interests", async () => {
    expect(await interests()).toEqual(['Wild Tualang Honey', 'Bario Rice Crackers']);
  });

  it('another item field, another form, or no provider at all: the lead follows the declaration', async () => {
    const brands = declare((form) => {
      if (form.id === 's02') form.provides = { leadInterests: { list: 'products', label: 'brandName' } };
    });
    expect(brands.problems).toEqual([]);
    expect(await interests()).toEqual(['Borneo Botanica', 'Highland Table']);

    // The provider is any form with a list: the VIP guests' names (its draft, as nothing is submitted).
    const moved = declare((form) => {
      if (form.id === 's02') delete form.provides;
      if (form.id === 'vip') form.provides = { leadInterests: { list: 'invitations', label: 'name' } };
    });
    expect(moved.problems).toEqual([]);
    expect(await interests()).toEqual(['Datin Farah Ismail', 'Nguyen Van An']);

    expect(declare((form) => delete form.provides).problems).toEqual([]);
    expect(await interests()).toEqual([]);
  });

  it("F11 an event's patch removing the provided label is refused whole by the live reload, at the patch's removal; the lead keeps its interests", async () => {
    expect(declare(() => undefined).problems).toEqual([]);
    const patchFile = join(formsDir, 'events', 'HALAL2026', 's02.patch.json');
    writeFileSync(patchFile, JSON.stringify({ schema: { properties: { products: { items: { properties: { productName: null } } } } } }));
    try {
      const refused = t.app.forms.reload('test');
      const at = '/schema/properties/products/items/properties/productName';
      expect(refused.problems).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            file: 'events/HALAL2026/s02.patch.json',
            path: at,
            message: expect.stringMatching(/^forms\/forms\.yaml \/forms\/\d+\/provides\/leadInterests\/label names "products\.productName"/),
          }),
          expect.objectContaining({
            file: 'events/HALAL2026/s02.patch.json',
            path: at,
            message: expect.stringMatching(/^forms\/forms\.yaml \/showroom\/products\/fields\/name names "products\.productName"/),
          }),
        ]),
      );
      expect(await interests()).toEqual(['Wild Tualang Honey', 'Bario Rice Crackers']);
    } finally {
      rmSync(patchFile);
    }
    expect(t.app.forms.reload('test').problems).toEqual([]);
  });

  it('a wrong declaration is refused whole with its place, and the forms in use keep answering', async () => {
    expect(declare(() => undefined).problems).toEqual([]);
    const refused = declare((form) => {
      if (form.id === 's02') form.provides = { leadInterests: { list: 'products', label: 'productNmae' } };
      if (form.id === 'vip') form.provides = { leadInterests: { list: 'invitations', label: 'name' } };
    });
    expect(refused.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          file: 'forms/forms.yaml',
          path: expect.stringMatching(/^\/forms\/\d+\/provides\/leadInterests\/label$/),
          message: '"products.productNmae" is not a field of the form',
        }),
        expect.objectContaining({ file: 'forms/forms.yaml', path: '/forms', message: expect.stringContaining('provided by more than one form (s02, vip)') }),
      ]),
    );
    expect(await interests()).toEqual(['Wild Tualang Honey', 'Bario Rice Crackers']);
    writeFileSync(listFile(), original());
    expect(t.app.forms.reload('test').problems).toEqual([]);
  });
});

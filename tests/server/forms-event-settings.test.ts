import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/server/lib/messages';
import { bodyOf, createTestApp, ENGINES, get, login, post, put, type TestApp } from './helpers';

// O2 F5 O1: the extra-badge fee and the booth height limit are the event's
// settings, in the model of deadlines and quotas: forms.yaml names them (`setting:`) and gives the
// default, the organiser sets the event's values in the console. The form's help values and fee
// (the definition the exhibitor's page receives) and the server's approval rule follow the event.

const s03 = (height: number) => ({
  contractor: { company: 'Kuala Lumpur Stand Works', email: 'works@klsw.example', contactPerson: 'Tan Mei Ling' },
  contractorType: 'contractor',
  boothHeight: height,
});

type Definition = { fee?: { price: string; currency: string }; approval?: { when: string; limit?: number } };

describe.each(ENGINES)('forms as data: event settings on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let organiser: string;
  let eventUrl: string;

  const definitionOf = async (token: string, formId: string) => (await get(t.app, `/oga/forms/${formId}`, token)).data.definition as Definition;
  const statusOf = async (token: string, formId: string) =>
    ((await get(t.app, '/oga/forms', token)).data as Array<{ id: string; status: string }>).find((f) => f.id === formId)!.status;
  /** The organiser's event as the console has it, with some settings changed, saved. */
  const saveEvent = async (change: Record<string, unknown>, language = 'en') => {
    const { id: _id, ...input } = (await get(t.app, eventUrl, organiser)).data as Record<string, unknown>;
    return put(t.app, eventUrl, { ...input, ...change }, organiser, { headers: { language } });
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    [demo, limited, organiser] = await Promise.all([login(t.app, 'demo'), login(t.app, 'limited'), login(t.app, 'organiser')]);
    const current = (await get(t.app, '/oga/organiser/current-event', organiser)).data as { id: number };
    eventUrl = `/oga/organiser/events/${current.id}`;
  });
  afterAll(async () => t?.close());

  it("the console lists the settings forms.yaml names, each with its default; an event without values uses forms.yaml's", async () => {
    const vocabulary = (await get(t.app, '/oga/organiser/vocabulary', organiser)).data as { settings: Array<Record<string, unknown>> };
    expect(vocabulary.settings).toEqual(
      expect.arrayContaining([
        { name: 'extraBadgeFee', kind: 'money', default: '10.00', currency: 'MYR', forms: ['s04'] },
        { name: 'boothHeightLimit', kind: 'number', default: '2.44', forms: ['s03'] },
      ]),
    );
    expect(((await get(t.app, eventUrl, organiser)).data as { settings: unknown }).settings).toEqual({});
    expect((await definitionOf(demo, 's04')).fee).toMatchObject({ price: '10.00', currency: 'MYR' });
    expect((await definitionOf(demo, 's03')).approval).toMatchObject({ when: 'above', limit: 2.44 });
  });

  it('a value that is no price or no positive number, or a name no form declares, is refused beside its field in the caller’s language', async () => {
    const refused = await saveEvent({ settings: { extraBadgeFee: '12.505', boothHeightLimit: '0', parkingFee: '5' } }, 'ja');
    expect(refused).toMatchObject({ code: 601, error: 'validationFailed', msg: translate('ja', 'organiser.validation.fee') });
    expect(refused.data.fields).toEqual({
      'settings.extraBadgeFee': 'organiser.validation.fee',
      'settings.boothHeightLimit': 'organiser.validation.settingNumber',
      'settings.parkingFee': 'organiser.validation.unknownName',
    });
    expect(((await get(t.app, eventUrl, organiser)).data as { settings: unknown }).settings).toEqual({});
  });

  it("the organiser's fee and limit are what the exhibitor's form shows and what the approval rule applies", async () => {
    expect(bodyOf(await saveEvent({ currency: 'SGD', settings: { extraBadgeFee: '12.5', boothHeightLimit: ' 3 ', extraBadgeFeeTypo: '' } }))).toMatchObject({ code: 200 });
    expect(((await get(t.app, eventUrl, organiser)).data as { settings: unknown }).settings).toEqual({ extraBadgeFee: '12.5', boothHeightLimit: '3' });
    // The fee total before submitting and the help texts ({{price}}, {{currency}}, {{limit}}) read these.
    expect((await definitionOf(demo, 's04')).fee).toEqual({ list: 'badges', flag: 'extra', price: '12.50', currency: 'SGD', setting: 'extraBadgeFee' });
    expect((await definitionOf(demo, 's03')).approval).toMatchObject({ when: 'above', limit: 3 });

    // 2.8 m is above forms.yaml's 2.44 m but within the event's 3 m: no decision needed.
    expect((await post(t.app, '/oga/forms/s03/submit', { data: s03(2.8), version: 0 }, limited)).code).toBe(200);
    expect(await statusOf(limited, 's03')).toBe('submitted');
    expect((await post(t.app, '/oga/forms/s03/submit', { data: s03(3.2), version: 0 }, demo)).code).toBe(200);
    expect(await statusOf(demo, 's03')).toBe('pendingApproval');
  });

  it("emptied again, the event's settings give way to forms.yaml's defaults", async () => {
    expect(bodyOf(await saveEvent({ currency: 'MYR', settings: {} }))).toMatchObject({ code: 200 });
    expect((await definitionOf(demo, 's04')).fee).toMatchObject({ price: '10.00', currency: 'MYR' });
    expect((await definitionOf(demo, 's03')).approval).toMatchObject({ limit: 2.44 });
  });
});

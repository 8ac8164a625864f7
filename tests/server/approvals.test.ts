import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, createTestApp, ENGINES, get, login, post, type TestApp } from './helpers';

// O1: submissions that need the organiser (extra badges, booths above 2.44 m, VIP lists) wait
// as "pending approval"; the organiser of the event approves or rejects with a comment, and the
// exhibitor sees the decision on the form and in the list.

const badge = (n: number, extra = false) => ({ firstName: 'Aisyah', lastName: 'Rahman', email: `badge${n}@borneo.example`, ...(extra ? { extra: true } : {}) });
const s03 = (height: number) => ({
  contractor: { company: 'Kuala Lumpur Stand Works', email: 'works@klsw.example', contactPerson: 'Tan Mei Ling' },
  contractorType: 'contractor',
  boothHeight: height,
});

describe.each(ENGINES)('O1 approvals on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let organiser: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    [demo, limited, organiser] = await Promise.all([login(t.app, 'demo'), login(t.app, 'limited'), login(t.app, 'organiser')]);
  });
  afterAll(async () => t?.close());

  const statusOf = async (token: string, formId: string) =>
    ((await get(t.app, '/oga/forms', token)).data as Array<{ id: string; status: string }>).find((f) => f.id === formId)!.status;

  it('F5 O1 extra badges wait for the organiser; without extras the form is simply submitted', async () => {
    expect((await post(t.app, '/oga/forms/s04/submit', { data: { badges: [badge(1)] }, version: 0 }, limited)).code).toBe(200);
    expect(await statusOf(limited, 's04')).toBe('submitted');
    expect((await post(t.app, '/oga/forms/s04/submit', { data: { badges: [badge(1), badge(2, true)] }, version: 0 }, demo)).code).toBe(200);
    expect(await statusOf(demo, 's04')).toBe('pendingApproval');
    const entry = ((await get(t.app, '/oga/forms/s04', demo)).data as { entry: { approval: unknown } }).entry;
    expect(entry.approval).toEqual({ status: 'pending', comment: null, decidedAt: null });
  });

  it('O1 the organiser lists what waits; exhibitors cannot', async () => {
    const waiting = (await get(t.app, '/oga/approvals', organiser)).data as Array<{ formCode: string; exhibitor: string; boothNum: string }>;
    expect(waiting).toContainEqual(expect.objectContaining({ formCode: 'S04', exhibitor: 'Borneo Botanica', boothNum: 'Hall 3 · B12' }));
    expect(waiting.some((w) => w.exhibitor === 'Kopi Nusantara' && w.formCode === 'S04')).toBe(false);
    expect((await get(t.app, '/oga/approvals', demo)).code).toBe(403);
  });

  it('O1 a rejection needs a comment; the exhibitor then sees "rejected" and the comment', async () => {
    const waiting = (await get(t.app, '/oga/approvals', organiser)).data as Array<{ id: number; formCode: string }>;
    const id = waiting.find((w) => w.formCode === 'S04')!.id;
    expect(bodyOf(await post(t.app, `/oga/approvals/${id}`, { decision: 'rejected' }, organiser))).toMatchObject({ code: 601, error: 'commentRequired' });
    expect((await post(t.app, `/oga/approvals/${id}`, { decision: 'rejected', comment: 'Extra badges are sold out.' }, organiser)).code).toBe(200);
    expect(await statusOf(demo, 's04')).toBe('rejected');
    const entry = ((await get(t.app, '/oga/forms/s04', demo)).data as { entry: { approval: { status: string; comment: string } } }).entry;
    expect(entry.approval).toMatchObject({ status: 'rejected', comment: 'Extra badges are sold out.' });
    // Decided once: a second decision finds nothing waiting.
    expect((await post(t.app, `/oga/approvals/${id}`, { decision: 'approved' }, organiser)).code).toBe(404);
    expect((await post(t.app, `/oga/approvals/${id}`, { decision: 'approved' }, demo)).code).toBe(403);
  });

  it('F4 O1 a booth above 2.44 m waits for approval, one at 2.40 m does not; approval is shown', async () => {
    expect((await post(t.app, '/oga/forms/s03/submit', { data: s03(2.4), version: 0 }, limited)).code).toBe(200);
    expect(await statusOf(limited, 's03')).toBe('submitted');
    expect((await post(t.app, '/oga/forms/s03/submit', { data: s03(3.2), version: 0 }, demo)).code).toBe(200);
    expect(await statusOf(demo, 's03')).toBe('pendingApproval');
    const waiting = (await get(t.app, '/oga/approvals', organiser)).data as Array<{ id: number; formCode: string; data: { boothHeight: number } }>;
    const booth = waiting.find((w) => w.formCode === 'S03')!;
    expect(booth.data.boothHeight).toBe(3.2);
    expect((await post(t.app, `/oga/approvals/${booth.id}`, { decision: 'approved', comment: 'Structural drawing accepted.' }, organiser)).code).toBe(200);
    expect(await statusOf(demo, 's03')).toBe('approved');
    const approved = (await get(t.app, '/oga/approvals?status=approved', organiser)).data as Array<{ formCode: string; comment: string }>;
    expect(approved).toContainEqual(expect.objectContaining({ formCode: 'S03', comment: 'Structural drawing accepted.' }));
  });

  it('F8 O1 every VIP list waits for the organiser', async () => {
    const data = { invitations: [{ name: 'Datuk Lim Wei', email: 'lim.wei@example.com', company: 'Lim Holdings' }] };
    expect((await post(t.app, '/oga/forms/vip/submit', { data, version: 0 }, demo)).code).toBe(200);
    expect(await statusOf(demo, 'vip')).toBe('pendingApproval');
  });
});

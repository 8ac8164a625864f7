import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/server/lib/messages';
import { addRivalOrganiser, createTestApp, DEMO_PASSWORD, ENGINES, get, login, post, recordUpload, type TestApp } from './helpers';

// O1 complete: the organiser sees what it decides (booth design, height, badge names
// with the extra ones marked, the guests), approves several at once, and the exhibitor gets the
// decision and comment by e-mail in its language through the queue; each decision is audited.

interface Waiting {
  id: number;
  formCode: string;
  exhibitor: string;
  summary: Array<{ field: string; kind: string; value?: unknown; file?: { id: string; name: string } | null; items?: Array<{ text: string; flagged: boolean }> }>;
}

describe.each(ENGINES)('O1 approvals, complete, on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let organiser: string;
  let rival: string;
  const design = { id: 'D'.repeat(43), name: 'booth-b12.pdf', size: 4096, type: 'pdf', dpi: null };

  beforeAll(async () => {
    t = await createTestApp(engine);
    const db = t.app.db;
    await addRivalOrganiser(t.app);
    // The exhibitor works in Japanese: its decisions are written in Japanese.
    demo = await login(t.app, 'demo', DEMO_PASSWORD, { headers: { language: 'ja' } });
    [limited, organiser, rival] = await Promise.all([login(t.app, 'limited'), login(t.app, 'organiser'), login(t.app, 'rival')]);
    const demoParticipation = (await db.selectFrom('users').select('participation_id').where('login_key', '=', 'demo').executeTakeFirstOrThrow()).participation_id!;
    await recordUpload(t.app, demoParticipation, 'boothDesign', design);
    const badge = (firstName: string, extra = false) => ({ firstName, lastName: 'Rahman', email: `${firstName}@borneo.example`, extra });
    const booth = {
      contractor: { company: 'KL Stand Works', email: 'works@klsw.example', contactPerson: 'Tan Mei Ling' },
      contractorType: 'contractor',
      boothHeight: 3.2,
      boothDesign: design,
    };
    for (const [form, data] of [
      ['s04', { badges: [badge('Aisyah'), badge('Hafiz', true)] }],
      ['s03', booth],
      ['vip', { invitations: [{ name: 'Datuk Lim Wei', email: 'lim.wei@example.com', company: 'Lim Holdings' }] }],
    ] as const) {
      const result = await post(t.app, `/oga/forms/${form}/submit`, { data, version: 0 }, demo);
      expect(result.code, JSON.stringify(result)).toBe(200);
    }
  });
  afterAll(async () => t?.close());

  const waiting = async (token = organiser) => (await get<Waiting[]>(t.app, '/oga/approvals', token)).data;
  const mails = () => t.app.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'demo@borneo-botanica.example').orderBy('id').execute();

  it('shows what is decided: the badge names with the extra one marked, the booth design and height, the guests', async () => {
    const list = await waiting();
    const badges = list.find((w) => w.formCode === 'S04')!;
    expect(badges.summary[0]!.items).toEqual([
      { text: 'Aisyah Rahman', flagged: false },
      { text: 'Hafiz Rahman', flagged: true },
    ]);
    const booth = list.find((w) => w.formCode === 'S03')!;
    expect(booth.summary.find((s) => s.field === 'boothHeight')!.value).toBe(3.2);
    expect(booth.summary.find((s) => s.kind === 'file')!.file).toMatchObject({ id: design.id, name: design.name });
    expect(list.find((w) => w.formCode === 'VIP')!.summary[0]!.items![0]!.text).toBe('Datuk Lim Wei Lim Holdings');
    // The organiser may open the design it decides on.
    const file = await t.app.inject({ method: 'GET', url: `/oga/uploads/${design.id}`, headers: { authorization: `Bearer ${organiser}` } });
    expect(file.statusCode).not.toBe(403);
  });

  it('bulk approval: refused to another organisation (nothing decided), to exhibitors and without a token', async () => {
    const ids = (await waiting()).filter((w) => w.formCode !== 'S04').map((w) => w.id);
    expect((await post(t.app, '/oga/approvals/bulk', { ids }, rival)).code).toBe(404);
    expect((await post(t.app, '/oga/approvals/bulk', { ids }, limited)).code).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/oga/approvals/bulk', payload: { ids } })).json().code).toBe(401);
    // One id of another event (or unknown) spoils the whole batch.
    expect((await post(t.app, '/oga/approvals/bulk', { ids: [...ids, 999999] }, organiser)).code).toBe(404);
    expect(await waiting()).toHaveLength(3);
    expect(await waiting(rival)).toEqual([]);
  });

  it('bulk approval decides all, audits each and e-mails the exhibitor in its language; a rejection carries the comment', async () => {
    const list = await waiting();
    const ids = list.filter((w) => w.formCode !== 'S04').map((w) => w.id);
    const result = await post(t.app, '/oga/approvals/bulk', { ids, comment: '承認します' }, organiser);
    expect(result.data).toEqual({ approved: 2 });
    expect((await waiting()).map((w) => w.formCode)).toEqual(['S04']);
    const s04 = list.find((w) => w.formCode === 'S04')!.id;
    expect((await post(t.app, `/oga/approvals/${s04}`, { decision: 'rejected', comment: 'Extra badges are sold out.' }, organiser)).code).toBe(200);

    const sent = await mails();
    expect(sent).toHaveLength(3);
    const approvedSubject = translate('ja', 'approvals.mail.approved.subject', { form: `VIP ${translate('ja', 'forms.vip.title')}`, event: 'x' }).replace(/x$/, '');
    expect(sent.some((m) => m.subject.startsWith(approvedSubject))).toBe(true);
    const rejection = sent.find((m) => m.subject.includes('S04'))!;
    expect(rejection.subject).toContain(translate('ja', 'forms.s04.title'));
    expect(rejection.text_body).toContain('Extra badges are sold out.');
    const audit = await t.app.db.selectFrom('audit_log').selectAll().where('action', 'like', 'approval.%').execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['approval.approved', 'approval.approved', 'approval.rejected']);
    expect(audit.every((a) => a.actor_role === 'organiser' && a.participation_id !== null)).toBe(true);
  });
});

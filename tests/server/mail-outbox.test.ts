import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ENGINES, type TestApp } from './helpers';

// The mail queue keeps who was sent what and when, but not the body of a delivered message
// after a day: set-password and reset links must not stay readable in the database.

describe.each(ENGINES)('mail outbox on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => t?.close());

  it('clears the bodies of messages delivered more than a day ago, and only those', async () => {
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    const rows = await t.app.db
      .insertInto('mail_outbox')
      .values([
        { to_address: 'old@example.com', subject: 'Old link', text_body: 'https://portal.test/reset-password?token=old', status: 'sent', sent_at: twoDaysAgo },
        { to_address: 'new@example.com', subject: 'New link', text_body: 'https://portal.test/reset-password?token=new', status: 'sent', sent_at: new Date() },
        { to_address: 'failed@example.com', subject: 'Failed', text_body: 'kept for a resend', status: 'failed' },
      ])
      .returning(['id', 'to_address'])
      .execute();
    await t.app.scheduler.runNow('mail-outbox-bodies');
    const after = await t.app.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject', 'text_body'])
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('id')
      .execute();
    expect(after).toEqual([
      { to_address: 'old@example.com', subject: 'Old link', text_body: '' },
      { to_address: 'new@example.com', subject: 'New link', text_body: 'https://portal.test/reset-password?token=new' },
      { to_address: 'failed@example.com', subject: 'Failed', text_body: 'kept for a resend' },
    ]);
  });
});

import type { ApiApp } from '../../lib/api-app';
import type { FastifyRequest } from 'fastify';
import { INVITATION_BATCH_MAX, INVITATION_MESSAGE_MAX_LENGTH, INVITATIONS_PER_DAY_MAX, checkRecipients, invitationFailureOf } from '../../../engine/analytics';
import { API_BASE } from '../../../engine/constants';
import type { Language } from '../../../engine/language';
import { eventDay, eventHour, formatEventDay } from '../../../engine/leads';
import { AppError } from '../../lib/app-error';
import { translate } from '../../lib/messages';
import { envelope } from '../../lib/schemas';
import { invitationRecipientSchema } from '../../../engine/schemas/analytics';
import { eventOf } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { pageOf, pageQuerySchema, pageSchema } from '../../lib/paging';
import { ownParticipation, toNumber } from './shared';
import { formatEventDay as formatDay } from '../../../engine/locale-format';

// LA5: e-mail invitations from an exhibitor to its clients, through the portal's mailer, in
// the sender's language, naming the event, the booth and the exhibitor. Each recipient is one
// row: pending, then sent (with the time) or failed (with a reason code the list translates).
// A mail server that refuses or cannot be reached is a failed invitation, not an error.

const invitationSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    recipientName: { type: 'string' },
    recipientEmail: { type: 'string' },
    senderEmail: { type: 'string' },
    message: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'sent', 'failed'] },
    sentAt: { type: ['string', 'null'], format: 'date-time' },
    createdAt: { type: 'string', format: 'date-time' },
    reason: { type: ['string', 'null'], description: 'Why it failed: unreachable, timeout, refused, recipientRejected, unknown' },
    reasonText: { type: ['string', 'null'], description: "The reason in the caller's language" },
  },
  required: ['id', 'recipientName', 'recipientEmail', 'senderEmail', 'message', 'status', 'sentAt', 'createdAt', 'reason', 'reasonText'],
  additionalProperties: false,
} as const;

type Row = {
  id: number;
  recipient_name: string;
  recipient_email: string;
  sender_email: string;
  message: string;
  status: 'pending' | 'sent' | 'failed';
  sent_at: Date | null;
  created_at: Date;
  failure_reason: string | null;
};

function present(row: Row, language: Language) {
  return {
    id: row.id,
    recipientName: row.recipient_name,
    recipientEmail: row.recipient_email,
    senderEmail: row.sender_email,
    message: row.message,
    status: row.status,
    sentAt: row.sent_at ? new Date(row.sent_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
    reason: row.failure_reason,
    reasonText: row.failure_reason ? translate(language, `invitations.failure.${row.failure_reason}`) : null,
  };
}

const COLUMNS = ['id', 'recipient_name', 'recipient_email', 'sender_email', 'message', 'status', 'sent_at', 'created_at', 'failure_reason'] as const;

export default async function invitationRoutes(app: ApiApp) {
  // LA5: the queue tells how each invitation went; a refusal or a server that stays unreachable
  // is a failed invitation with a reason code.
  app.mailer.onResult('invitation', async (refId, result) => {
    await app.db
      .updateTable('invitations')
      .set(result.status === 'sent' ? { status: 'sent', sent_at: new Date(), failure_reason: null } : { status: 'failed', failure_reason: invitationFailureOf(result.error) })
      .where('id', '=', Number(refId))
      .execute();
  });
  const listFor = async (request: FastifyRequest<{ Querystring: { page: number; limit: number } }>) => {
    const { participation } = ownParticipation(request);
    const counted = await app.db
      .selectFrom('invitations')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('participation_id', '=', participation.id)
      .executeTakeFirst();
    const total = toNumber(counted?.count);
    const page = pageOf(request.query, total);
    const rows = await app.db
      .selectFrom('invitations')
      .select([...COLUMNS])
      .where('participation_id', '=', participation.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return ok({ total, page: page.page, limit: page.limit, items: rows.map((row) => present(row, request.language)) });
  };
  const listSchema = (summary: string) => ({ tags: ['invitations'], summary, querystring: pageQuerySchema, response: { 200: envelope(pageSchema(invitationSchema)) } });

  app.get(`${API_BASE}/invitations`, { config: { screen: 'inviteClients' }, schema: listSchema('LA5: my invitations, latest first') }, listFor);
  app.get(
    `${API_BASE}/analytics/invitations`,
    { config: { screen: 'dashboard', roles: ['exhibitor'] }, schema: listSchema('LA5: my invitations on the dashboard, latest first') },
    listFor,
  );

  app.post(
    `${API_BASE}/invitations`,
    {
      config: { screen: 'inviteClients' },
      schema: {
        tags: ['invitations'],
        summary: `LA5: invite up to ${INVITATION_BATCH_MAX} clients by e-mail; answers each invitation with its status`,
        body: {
          type: 'object',
          required: ['recipients'],
          properties: {
            recipients: {
              type: 'array',
              minItems: 1,
              maxItems: 200,
              items: invitationRecipientSchema,
            },
            message: { type: 'string', maxLength: INVITATION_MESSAGE_MAX_LENGTH },
          },
          additionalProperties: false,
        },
        response: { 200: envelope({ type: 'array', items: invitationSchema }) },
      },
    },
    async (request) => {
      const { participation, auth } = ownParticipation(request);
      const { recipients } = request.body;
      const message = (request.body.message ?? '').trim();
      if (recipients.length > INVITATION_BATCH_MAX) throw new AppError('invitationsTooMany', null, { limit: INVITATION_BATCH_MAX });
      const problems = checkRecipients(recipients);
      if (problems.length > 0) {
        const [first] = problems;
        throw new AppError(first!.field === 'email' ? 'emailInvalid' : 'validationFailed', { problems }, first!.params, first!.key);
      }
      const lastDay = await app.db
        .selectFrom('invitations')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('participation_id', '=', participation.id)
        .where('created_at', '>', new Date(Date.now() - 24 * 3_600_000))
        .executeTakeFirst();
      if (toNumber(lastDay?.count) + recipients.length > INVITATIONS_PER_DAY_MAX) {
        throw new AppError('invitationsDailyLimit', null, { limit: INVITATIONS_PER_DAY_MAX });
      }

      const event = eventOf(auth);
      const offset = event.utc_offset_minutes;
      const exhibitor = auth.exhibitor?.name ?? '';
      const language = request.language;
      // The show's days in the sender's language, in the event's date order.
      const day = (instant: Date) => formatDay(formatEventDay(eventDay(eventHour(instant, offset))), { language, dateOrder: event.date_order });
      const sender = auth.user;
      const results: Row[] = [];
      // One at a time: a batch is small, and each row's outcome is recorded before the next.
      for (const recipient of recipients) {
        const name = recipient.name.trim();
        const email = recipient.email.trim();
        const pending = await app.db
          .insertInto('invitations')
          .values({ participation_id: participation.id, sent_by: sender.id, sender_email: sender.email, recipient_name: name, recipient_email: email, message, status: 'pending' })
          .returning([...COLUMNS])
          .executeTakeFirstOrThrow();
        const params = {
          name,
          exhibitor,
          event: event.name,
          booth: participation.booth_num,
          venue: event.venue,
          dates: `${day(new Date(event.starts_at))} – ${day(new Date(event.ends_at))}`,
          url: event.url,
          sender: sender.display_name,
          senderEmail: sender.email,
        };
        const text = [
          translate(language, 'invitations.mail.text', params),
          message ? `\n${translate(language, 'invitations.mail.personal', { sender: sender.display_name })}\n${message}` : '',
          `\n${translate(language, 'invitations.mail.signature', params)}`,
        ].join('\n');
        // The mail queue delivers it; the invitation turns sent or failed when it knows (below).
        await app.mailer.send({ to: email, replyTo: sender.email, subject: translate(language, 'invitations.mail.subject', params), text, kind: 'invitation', refId: pending.id });
        const row = pending;
        results.push(row);
      }
      return ok(results.map((row) => present(row, language)));
    },
  );
}

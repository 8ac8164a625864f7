import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { AppError } from '../../lib/app-error';
import { translate } from '../../lib/messages';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { AuthContext } from '../../plugins/sessions';
import { mayRead, textIn } from './store';

// CT5: event support — the event's support contacts, the FAQ by category, and a contact form
// whose message goes to the event's support address through the mail queue (the sender gets a
// copy); /faq is the FAQ alone.

const faqSchema = {
  type: 'object',
  properties: { id: { type: 'integer' }, category: { type: 'string' }, question: { type: 'string' }, answer: { type: 'string', description: 'Markdown' } },
  required: ['id', 'category', 'question', 'answer'],
} as const;
const contactSchema = {
  type: 'object',
  properties: { id: { type: 'integer' }, title: { type: 'string' }, body: { type: 'string', description: 'Markdown' } },
  required: ['id', 'title', 'body'],
} as const;

export const SUPPORT_SUBJECT_MAX = 200;
export const SUPPORT_MESSAGE_MAX = 5_000;
/** Messages one user may send through the form per hour. */
const MESSAGES_PER_USER_HOUR = 10;

export default async function supportRoutes(app: ApiApp) {
  const base = `${API_BASE}/content`;

  async function itemsOf(auth: AuthContext, kind: 'faq' | 'supportContact') {
    const rows = await app.db.selectFrom('content').selectAll().where('event_id', '=', eventOf(auth).id).where('kind', '=', kind).orderBy('position').orderBy('id').execute();
    return rows.filter((row) => mayRead(auth, row));
  }

  async function faqOf(auth: AuthContext, language: string) {
    const eventLanguage = eventOf(auth).default_language;
    return (await itemsOf(auth, 'faq')).map((row) => ({
      id: row.id,
      category: textIn(row.category, language, eventLanguage),
      question: textIn(row.title, language, eventLanguage),
      answer: textIn(row.body, language, eventLanguage),
    }));
  }

  app.get(
    `${base}/faq`,
    {
      config: { screen: 'faq' },
      schema: { tags: ['content'], summary: 'CT5: the FAQ of the event, in category order', response: { 200: envelope({ type: 'array', items: faqSchema }) } },
    },
    async (request) => ok(await faqOf(requireAuth(request), request.language)),
  );

  app.get(
    `${base}/support`,
    {
      config: { screen: 'support' },
      schema: {
        tags: ['content'],
        summary: "CT5: the event's support contacts, support address and FAQ",
        response: {
          200: envelope({
            type: 'object',
            properties: { supportEmail: { type: 'string' }, contacts: { type: 'array', items: contactSchema }, faq: { type: 'array', items: faqSchema } },
            required: ['supportEmail', 'contacts', 'faq'],
          }),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const contacts = (await itemsOf(auth, 'supportContact')).map((row) => ({
        id: row.id,
        title: textIn(row.title, request.language, event.default_language),
        body: textIn(row.body, request.language, event.default_language),
      }));
      return ok({ supportEmail: event.support_email, contacts, faq: await faqOf(auth, request.language) });
    },
  );

  app.post(
    `${base}/support/messages`,
    {
      config: { screen: 'support' },
      schema: {
        tags: ['content'],
        summary: "CT5: a message to the event's support address (queued; the sender gets a copy)",
        body: {
          type: 'object',
          required: ['subject', 'message'],
          properties: { subject: { type: 'string', maxLength: SUPPORT_SUBJECT_MAX }, message: { type: 'string', maxLength: SUPPORT_MESSAGE_MAX } },
          additionalProperties: false,
        },
        response: { 200: envelope({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const subject = request.body.subject.trim();
      const message = request.body.message.trim();
      if (!subject || !message) throw new AppError('required');
      if (!event.support_email) throw new AppError('supportUnavailable');
      const recent = await app.db
        .selectFrom('support_messages')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', auth.user.id)
        .where('created_at', '>', new Date(Date.now() - 3_600_000))
        .executeTakeFirstOrThrow();
      if (Number(recent.count) >= MESSAGES_PER_USER_HOUR) throw new AppError('tooManyAttempts');
      const stored = await app.db
        .insertInto('support_messages')
        .values({ event_id: event.id, participation_id: auth.participation?.id ?? null, user_id: auth.user.id, subject, message })
        .returning('id')
        .executeTakeFirstOrThrow();
      const params = {
        event: event.name,
        exhibitor: auth.exhibitor?.name ?? auth.user.display_name,
        booth: auth.participation?.booth_num ?? '',
        name: auth.user.display_name,
        email: auth.user.email,
        account: auth.user.login,
        subject,
        message,
      };
      await app.mailer.send({
        to: event.support_email,
        replyTo: auth.user.email,
        subject: translate(event.default_language, 'support.mail.subject', params),
        text: translate(event.default_language, 'support.mail.text', params),
      });
      await app.mailer.send({
        to: auth.user.email,
        subject: translate(request.language, 'support.mail.copySubject', params),
        text: translate(request.language, 'support.mail.copyText', params),
      });
      return ok({ id: stored.id });
    },
  );
}

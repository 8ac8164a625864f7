import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { AUTHORED_KINDS, contentItemBodySchema, type ContentItemInput } from '../../../engine/schemas/content';
import { catalogue } from '../../../generated/screens';
import { AppError } from '../../lib/app-error';
import { translate } from '../../lib/messages';
import { MAIL_BODY_MARKER, mailHtml, markdownToMailHtml, markdownToMailText } from '../../lib/mail-markdown';
import { envelope, okEnvelope, NO_BODY } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { attachmentSchema, recordedAttachments } from './attachments';
import { indexContent, KIND_SCREEN, missingLanguages, textIn, type ContentRow } from './store';

// Organisers author their current event's content — manuals, announcements (optionally
// e-mailed to the exhibitors through the mail queue), FAQ, Home tips, the LeadGrab introduction and
// support contacts — in every language; a missing translation is flagged here and falls back to
// the event's default language for exhibitors.

const exhibitorModules: readonly string[] = catalogue.modules.filter((module) => !module.startsWith('Organiser'));
/** The request body: the item's one schema, its audience the catalogue's exhibitor modules. */
const itemBody = contentItemBodySchema(exhibitorModules);
type ItemBody = ContentItemInput;

const itemSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    kind: { type: 'string' },
    title: { type: 'object', additionalProperties: { type: 'string' } },
    description: { type: 'object', additionalProperties: { type: 'string' } },
    body: { type: 'object', additionalProperties: { type: 'string' } },
    category: { type: 'object', additionalProperties: { type: 'string' } },
    mandatory: { type: 'boolean' },
    ackRequired: { type: 'boolean' },
    deadline: { type: ['string', 'null'] },
    pinned: { type: 'boolean' },
    audience: { type: 'array', items: { type: 'string' } },
    publishedAt: { type: 'string' },
    position: { type: 'integer' },
    missingLanguages: { type: 'array', items: { type: 'string' } },
    attachments: { type: 'array', items: attachmentSchema },
    acknowledged: { type: 'integer', description: 'Manuals: exhibitors who acknowledged it' },
    viewed: { type: 'integer', description: 'Manuals: exhibitors who opened it' },
  },
  // The counts are the list's, for manuals only; every other property is always there.
  required: [
    'id',
    'kind',
    'title',
    'description',
    'body',
    'category',
    'mandatory',
    'ackRequired',
    'deadline',
    'pinned',
    'audience',
    'publishedAt',
    'position',
    'missingLanguages',
    'attachments',
  ],
  additionalProperties: false,
} as const;
const idParams = { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } }, required: ['id'] } as const;

const clean = (texts: Record<string, string> | undefined) =>
  Object.fromEntries(
    Object.entries(texts ?? {})
      .map(([l, v]) => [l, v.trim()])
      .filter(([, v]) => v),
  );

function present(row: ContentRow, counts?: { viewed: number; acknowledged: number }) {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    description: row.description,
    body: row.body,
    category: row.category,
    mandatory: row.mandatory,
    ackRequired: row.ack_required,
    deadline: row.deadline ? new Date(row.deadline).toISOString() : null,
    pinned: row.pinned,
    audience: row.audience,
    publishedAt: new Date(row.published_at).toISOString(),
    position: row.position,
    missingLanguages: missingLanguages(row),
    attachments: row.attachments ?? [],
    ...(counts ?? {}),
  };
}

export default async function organiserContentRoutes(app: ApiApp) {
  const base = `${API_BASE}/organiser/content`;
  const config = { screen: 'organiserContent' } as const;

  function values(body: ItemBody, eventLanguage: string, eventEndsAt: Date) {
    const title = clean(body.title);
    if (!title[eventLanguage] && Object.keys(title).length === 0) throw new AppError('required', { field: 'title' });
    const deadline = body.deadline ? new Date(body.deadline) : null;
    if (deadline && deadline.getTime() > eventEndsAt.getTime()) throw new AppError('contentDeadlineAfterShow', { field: 'deadline' });
    return {
      kind: body.kind,
      screen_id: KIND_SCREEN[body.kind],
      title: JSON.stringify(title),
      description: JSON.stringify(clean(body.description)),
      body: JSON.stringify(clean(body.body)),
      category: JSON.stringify(clean(body.category)),
      mandatory: body.kind === 'manual' && body.mandatory,
      ack_required: body.kind === 'manual' && body.ackRequired,
      deadline: body.kind === 'manual' ? deadline : null,
      pinned: body.kind === 'announcement' && body.pinned,
      audience: JSON.stringify(body.audience ?? []),
      position: body.position ?? 0,
      published_at: body.publishedAt ? new Date(body.publishedAt) : new Date(),
    };
  }

  /** A manual's attachments as the server recorded them (other kinds hold none). */
  async function attachmentsOf(body: ItemBody, eventId: number): Promise<string> {
    const ids = body.kind === 'manual' ? (body.attachments ?? []).map((attachment) => attachment.id) : [];
    return JSON.stringify(await recordedAttachments(app.db, eventId, ids));
  }

  async function own(eventId: number, id: number): Promise<ContentRow> {
    const row = await app.db.selectFrom('content').selectAll().where('id', '=', id).where('event_id', '=', eventId).executeTakeFirst();
    if (!row) throw new AppError('notFound');
    return row;
  }

  /** Announcements may go out by e-mail to the event's active exhibitors, each in the event language. */
  async function emailAnnouncement(row: ContentRow, event: ReturnType<typeof eventOf>) {
    const people = await app.db
      .selectFrom('users')
      .innerJoin('participations', 'participations.id', 'users.participation_id')
      .select(['users.email', 'users.display_name'])
      .where('participations.event_id', '=', event.id)
      .where('participations.status', '=', 'active')
      .where('users.role', '=', 'exhibitor')
      .where('users.status', '=', 'active')
      .execute();
    const language = event.default_language;
    const title = textIn(row.title, language, language);
    const markdown = textIn(row.body, language, language);
    // The body is Markdown: the text part reads without markup, the HTML part is rendered and safe.
    const bodyText = markdownToMailText(markdown);
    const bodyHtml = markdownToMailHtml(markdown);
    for (const person of people) {
      const params = { name: person.display_name, event: event.name, title };
      await app.mailer.send({
        to: person.email,
        subject: translate(language, 'content.mail.announcementSubject', { event: event.name, title }),
        text: translate(language, 'content.mail.announcementText', { ...params, body: bodyText }),
        html: mailHtml(translate(language, 'content.mail.announcementText', { ...params, body: MAIL_BODY_MARKER }), MAIL_BODY_MARKER, bodyHtml),
        dedupeKey: `announcement:${row.id}:${person.email.toLowerCase()}`,
      });
    }
  }

  app.get(
    base,
    {
      config,
      schema: {
        tags: ['organiser'],
        summary: "The current event's authored content, with missing translations flagged",
        querystring: { type: 'object', properties: { kind: { type: 'string', enum: [...AUTHORED_KINDS] } }, additionalProperties: false },
        response: { 200: envelope({ type: 'array', items: itemSchema }) },
      },
    },
    async (request) => {
      const event = eventOf(requireAuth(request));
      let query = app.db
        .selectFrom('content')
        .selectAll()
        .where('event_id', '=', event.id)
        .where('kind', 'in', [...AUTHORED_KINDS]);
      if (request.query.kind) query = query.where('kind', '=', request.query.kind);
      const rows = await query.orderBy('kind').orderBy('position').orderBy('published_at', 'desc').execute();
      const statuses = await app.db
        .selectFrom('manual_status')
        .select((eb) => ['content_id', eb.fn.countAll<number>().as('viewed'), eb.fn.count<number>('acknowledged_at').as('acknowledged')])
        .where('content_id', 'in', rows.length ? rows.map((r) => r.id) : [0])
        .groupBy('content_id')
        .execute();
      const counts = new Map(statuses.map((s) => [s.content_id, { viewed: Number(s.viewed), acknowledged: Number(s.acknowledged) }]));
      return ok(rows.map((row) => present(row, row.kind === 'manual' ? (counts.get(row.id) ?? { viewed: 0, acknowledged: 0 }) : undefined)));
    },
  );

  app.post(
    base,
    { config, schema: { tags: ['organiser'], summary: 'Author a content item for the current event', body: itemBody, response: { 200: envelope(itemSchema) } } },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const attachments = await attachmentsOf(request.body, event.id);
      // The item and its search rows together: the search reads them as one version (see search.ts).
      const row = await app.db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('content')
          .values({ ...values(request.body, event.default_language, new Date(event.ends_at)), attachments, event_id: event.id, updated_by: auth.user.id })
          .returningAll()
          .executeTakeFirstOrThrow();
        await indexContent(trx, inserted, event.default_language);
        return inserted;
      });
      await app.audit.record({ action: 'content.create', subjectType: row.kind, subjectId: row.id, after: present(row) }, { request });
      if (row.kind === 'announcement' && request.body.emailExhibitors) await emailAnnouncement(row, event);
      return ok(present(row));
    },
  );

  app.put(
    `${base}/:id`,
    {
      config,
      schema: { tags: ['organiser'], summary: 'Change a content item of the current event', params: idParams, body: itemBody, response: { 200: envelope(itemSchema) } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const before = await own(event.id, request.params.id);
      const attachments = await attachmentsOf(request.body, event.id);
      const row = await app.db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('content')
          .set({ ...values(request.body, event.default_language, new Date(event.ends_at)), attachments, updated_at: new Date(), updated_by: auth.user.id })
          .where('id', '=', before.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await indexContent(trx, updated, event.default_language);
        return updated;
      });
      await app.audit.record({ action: 'content.update', subjectType: row.kind, subjectId: row.id, before: present(before), after: present(row) }, { request });
      if (row.kind === 'announcement' && request.body.emailExhibitors) await emailAnnouncement(row, event);
      return ok(present(row));
    },
  );

  app.delete(
    `${base}/:id`,
    { config, schema: { tags: ['organiser'], summary: 'Remove a content item of the current event', params: idParams, body: NO_BODY, response: okEnvelope } },
    async (request) => {
      const auth = requireAuth(request);
      const before = await own(eventOf(auth).id, request.params.id);
      await app.db.deleteFrom('content').where('id', '=', before.id).execute();
      await app.audit.record({ action: 'content.delete', subjectType: before.kind, subjectId: before.id, before: present(before) }, { request });
      return ok(null);
    },
  );
}

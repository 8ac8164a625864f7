import type { ApiApp } from '../../lib/api-app';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_BASE } from '../../../engine/constants';
import { formatEventDay, eventDay, eventHour } from '../../../engine/leads';
import { buildShowroom, showroomFiles } from '../../../engine/showroom';
import { showroomSchema, type Showroom } from '../../../engine/schemas/showroom';
import { AppError } from '../../lib/app-error';
import { contentDisposition } from '../../lib/content-disposition';
import { sendStoredFile } from '../../lib/send-stored-file';
import { translate } from '../../lib/messages';
import { envelope, fileAnswer, MEDIA_TYPE } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { fileKey, readWhole } from '../../plugins/storage';
import type { AuthContext } from '../../plugins/sessions';
import { POSTER_SIZES, renderPoster, type PosterSize } from './poster';
import { formatEventDay as formatDay } from '../../../engine/locale-format';

// CT5: the digital showroom — the exhibitor's company and products from its submitted S01/S02
// (as forms.yaml `showroom:` declares), previewed, published or unpublished, at a public address
// that needs no login and shows published data only; and the poster that points to it.

const stateSchema = {
  type: 'object',
  properties: { published: { type: 'boolean' }, slug: { type: 'string' }, url: { type: 'string' }, publishedAt: { type: ['string', 'null'] }, showroom: showroomSchema },
  required: ['published', 'slug', 'url', 'publishedAt', 'showroom'],
  additionalProperties: false,
} as const;
const publicSchema = {
  type: 'object',
  properties: {
    exhibitor: { type: 'string' },
    booth: { type: 'string' },
    event: { type: 'string' },
    eventUrl: { type: 'string' },
    dates: { type: 'string' },
    venue: { type: 'string' },
    showroom: showroomSchema,
  },
  required: ['exhibitor', 'booth', 'event', 'eventUrl', 'dates', 'venue', 'showroom'],
  additionalProperties: false,
} as const;
const SLUG = /^[a-z0-9-]{6,80}$/;
const UPLOAD_ID = /^[A-Za-z0-9_-]{43}$/;

export default async function showroomRoutes(app: ApiApp) {
  const config = app.config;
  const registry = app.forms.registry;
  const urlOf = (slug: string) => `${config.publicUrl}/showroom?s=${slug}`;

  /** The submitted data of the forms the showroom reads. */
  async function showroomOf(participationId: number): Promise<Showroom> {
    // CT5: the declaration of the set in use.
    const declaration = registry.showroom;
    if (!declaration) return { company: { name: '', description: '', website: '', video: '', address: '', logo: null }, products: [] };
    const forms = [declaration.company.form, ...(declaration.products ? [declaration.products.form] : [])];
    const rows = await app.formEntries.ofForms(participationId, forms);
    return buildShowroom(declaration, Object.fromEntries(rows.filter((row) => row.submitted_data).map((row) => [row.form_id, row.submitted_data])));
  }

  async function stateOf(participationId: number, eventCode: string) {
    const existing = await app.db.selectFrom('showrooms').selectAll().where('participation_id', '=', participationId).executeTakeFirst();
    if (existing) return existing;
    const slug = `${eventCode.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomBytes(6).toString('hex')}`;
    await app.db
      .insertInto('showrooms')
      .values({ participation_id: participationId, slug })
      .onConflict((oc) => oc.column('participation_id').doNothing())
      .execute();
    return app.db.selectFrom('showrooms').selectAll().where('participation_id', '=', participationId).executeTakeFirstOrThrow();
  }

  function participationOf(auth: AuthContext) {
    if (!auth.participation) throw new AppError('notFound');
    return auth.participation;
  }

  const present = async (auth: AuthContext) => {
    const participation = participationOf(auth);
    const state = await stateOf(participation.id, eventOf(auth).code);
    return {
      published: state.published,
      slug: state.slug,
      url: urlOf(state.slug),
      publishedAt: state.published_at ? new Date(state.published_at).toISOString() : null,
      showroom: await showroomOf(participation.id),
    };
  };

  app.get(
    `${API_BASE}/showroom`,
    {
      config: { screen: 'digitalShowroom' },
      schema: { tags: ['showroom'], summary: 'CT5: the showroom as it would be published, its address and state', response: { 200: envelope(stateSchema) } },
    },
    async (request) => ok(await present(requireAuth(request))),
  );

  app.put(
    `${API_BASE}/showroom`,
    {
      config: { screen: 'digitalShowroom', roles: ['exhibitor'] },
      schema: {
        tags: ['showroom'],
        summary: 'CT5: publish or unpublish the showroom',
        body: { type: 'object', required: ['published'], properties: { published: { type: 'boolean' } }, additionalProperties: false },
        response: { 200: envelope(stateSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const participation = participationOf(auth);
      const state = await stateOf(participation.id, eventOf(auth).code);
      if (state.published !== request.body.published) {
        await app.db
          .updateTable('showrooms')
          .set({ published: request.body.published, published_at: request.body.published ? new Date() : state.published_at, updated_at: new Date() })
          .where('participation_id', '=', participation.id)
          .execute();
        await app.audit.record({ action: request.body.published ? 'showroom.publish' : 'showroom.unpublish', subjectType: 'showroom', subjectId: state.slug }, { request });
      }
      return ok(await present(auth));
    },
  );

  /** A published showroom by its address; anything else is "not found". */
  async function published(slug: string) {
    if (!SLUG.test(slug)) throw new AppError('notFound');
    const row = await app.db
      .selectFrom('showrooms')
      .innerJoin('participations', 'participations.id', 'showrooms.participation_id')
      .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
      .innerJoin('events', 'events.id', 'participations.event_id')
      .select([
        'showrooms.participation_id',
        'participations.booth_num',
        'participations.status',
        'exhibitors.name as exhibitor',
        'events.name as event',
        'events.url as event_url',
        'events.venue',
        'events.starts_at',
        'events.ends_at',
        'events.utc_offset_minutes',
        'events.date_order',
      ])
      .where('showrooms.slug', '=', slug)
      .where('showrooms.published', '=', true)
      .executeTakeFirst();
    if (row?.status !== 'active') throw new AppError('notFound');
    return row;
  }

  /** The show's days in the reader's language, in the event's date order. */
  const datesOf = (row: { starts_at: Date; ends_at: Date; utc_offset_minutes: number; date_order: string }, language: string) => {
    const day = (instant: Date) => formatDay(formatEventDay(eventDay(eventHour(new Date(instant), row.utc_offset_minutes))), { language, dateOrder: row.date_order });
    return `${day(row.starts_at)} – ${day(row.ends_at)}`;
  };

  app.get(
    `${API_BASE}/public/showrooms/:slug`,
    {
      config: { public: true },
      schema: {
        tags: ['showroom'],
        summary: 'CT5: a published showroom (no login)',
        params: { type: 'object', properties: { slug: { type: 'string', maxLength: 80 } }, required: ['slug'] },
        response: { 200: envelope(publicSchema) },
      },
    },
    async (request) => {
      const row = await published(request.params.slug);
      return ok({
        exhibitor: row.exhibitor,
        booth: row.booth_num,
        event: row.event,
        eventUrl: row.event_url,
        dates: datesOf(row, request.language),
        venue: row.venue,
        showroom: await showroomOf(row.participation_id),
      });
    },
  );

  app.get(
    `${API_BASE}/public/showrooms/:slug/files/:id`,
    {
      config: { public: true },
      schema: {
        tags: ['showroom'],
        summary: 'CT5: an image the published showroom shows (only those)',
        params: { type: 'object', properties: { slug: { type: 'string', maxLength: 80 }, id: { type: 'string', maxLength: 43 } }, required: ['slug', 'id'] },
        response: { 200: fileAnswer('The image, shown inline', [MEDIA_TYPE.image]) },
      },
    },
    async (request, reply) => {
      const row = await published(request.params.slug);
      const id = request.params.id;
      if (!UPLOAD_ID.test(id) || !showroomFiles(await showroomOf(row.participation_id)).includes(id)) throw new AppError('notFound');
      const upload = await app.db
        .selectFrom('uploads')
        .select(['content_type', 'original_name'])
        .where('id', '=', id)
        .where('participation_id', '=', row.participation_id)
        .executeTakeFirst();
      if (!upload) throw new AppError('notFound');
      return sendStoredFile(app.storage, request, reply, {
        key: fileKey.upload(id),
        name: upload.original_name,
        contentType: upload.content_type,
        disposition: 'inline',
        cacheControl: 'public, max-age=300',
      });
    },
  );

  app.get(
    `${API_BASE}/showroom/poster`,
    {
      config: { screen: 'downloadPoster' },
      schema: {
        tags: ['showroom'],
        summary: 'CT5: the printable poster (PDF) with the booth number and a QR code to the showroom, in the request language',
        querystring: { type: 'object', properties: { size: { type: 'string', enum: Object.keys(POSTER_SIZES) as PosterSize[], default: 'A4' } }, additionalProperties: false },
        response: { 200: fileAnswer('The poster, as an attachment', [MEDIA_TYPE.pdf]) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const participation = participationOf(auth);
      const event = eventOf(auth);
      const state = await stateOf(participation.id, event.code);
      const showroom = await showroomOf(participation.id);
      const language = request.language;
      const companyName = showroom.company.name || auth.exhibitor?.name || '';
      const logoRef = showroom.company.logo;
      const logoBytes = logoRef && UPLOAD_ID.test(logoRef.id) ? await readWhole(app.storage, fileKey.upload(logoRef.id)) : null;
      const logo = logoBytes ? { bytes: logoBytes, type: logoRef!.type } : null;
      const eventName = (event.names as Record<string, string> | undefined)?.[language] || event.name;
      const bytes = await renderPoster({
        size: request.query.size,
        eventName,
        companyName,
        booth: participation.booth_num,
        visitUs: translate(language, 'showroom.poster.visitUs'),
        scan: translate(language, 'showroom.poster.scan'),
        footer: `${datesOf(event, language)} · ${event.venue}`,
        showroomUrl: urlOf(state.slug),
        logo,
      });
      const fileName = `poster-${event.code}-${participation.booth_num.replace(/[^\p{L}\p{N}]+/gu, '-')}-${request.query.size}.pdf`;
      return reply.header('Content-Type', 'application/pdf').header('Content-Disposition', contentDisposition('attachment', fileName)).send(Buffer.from(bytes));
    },
  );

  // The public page's title and description for link previews: the web app's index.html with
  // them filled in (the page itself is the single-page app).
  const indexFile = join(config.webDir, 'index.html');
  app.get('/showroom', { schema: { hide: true, querystring: { type: 'object', properties: { s: { type: 'string' } } } } }, async (request, reply) => {
    if (!existsSync(indexFile)) throw new AppError('notFound');
    let html = readFileSync(indexFile, 'utf8');
    const slug = request.query.s ?? '';
    const row = await published(slug).catch(() => null);
    if (row) {
      const showroom = await showroomOf(row.participation_id);
      const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
      const title = escapeHtml(`${showroom.company.name || row.exhibitor} — ${row.event}`);
      const description = escapeHtml((showroom.company.description || `${row.exhibitor}, ${row.booth_num}`).slice(0, 200));
      html = html.replace(
        /<title>[^<]*<\/title>/,
        `<title>${title}</title><meta name="description" content="${description}"><meta property="og:title" content="${title}"><meta property="og:description" content="${description}">`,
      );
    }
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(html);
  });
}

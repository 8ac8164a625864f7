import type { ApiApp } from '../../lib/api-app';
import { canAccess } from '../../../engine/catalogue';
import { API_BASE } from '../../../engine/constants';
import type { FormDefinition } from '../../../engine/forms/definitions';
import { documentFileName, documentItems, documentReference, itemValues, longDay, particularRows, type DocumentDeclaration } from '../../../engine/forms/documents';
import { interpolate, lookup, type LocaleTable } from '../../../engine/i18n';
import { LANGUAGES, intlLocale, isLanguage, type Language } from '../../../engine/language';
import { eventDate } from '../../../engine/time';
import { catalogue } from '../../../generated/screens';
import type { Participation } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { contentDisposition } from '../../lib/content-disposition';
import { translate } from '../../lib/messages';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { renderLetter } from './letter';

// F7: the documents a submitted form yields (forms.yaml `documents:`; S06: one visa invitation
// letter per applicant), made on request from the current submission (nothing is stored, and
// editing the form does not withdraw them: they follow the submitted copy, F9). Only the
// participation's own users who may open the screen that lists them see them; another exhibitor
// simply finds none.

const itemSchema = {
  type: 'object',
  properties: {
    index: { type: 'integer', description: 'Position of the item in its list (0-based): the PDF is …/<document>/<index>.pdf' },
    name: { type: 'string', description: "The item's name field (S06: the applicant's full name)" },
    summary: { type: 'array', items: { type: 'string' }, description: 'The values of the declared summary fields, in order' },
    reference: { type: 'string', description: 'The reference number printed on the document' },
    fileName: { type: 'string', description: 'The name the PDF is downloaded under' },
  },
  required: ['index', 'name', 'summary', 'reference', 'fileName'],
} as const;

const documentSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    title: { type: 'string', description: "The document's name, in the caller's language" },
    intro: { type: 'string' },
    none: { type: 'string', description: 'What the list says while the form is not submitted' },
    columns: { type: 'array', items: { type: 'string' }, description: 'Titles of the name and summary fields, in the caller’s language' },
    items: { type: 'array', items: itemSchema },
  },
  required: ['id', 'title', 'intro', 'none', 'columns', 'items'],
} as const;

const formParams = { type: 'object', properties: { id: { type: 'string', maxLength: 40 } }, required: ['id'] } as const;

type Translate = (key: string, params?: Record<string, string>) => string;

export default async function documentRoutes(app: ApiApp) {
  const base = `${API_BASE}/forms/:id/documents`;

  /** The form, when this user may see its documents: the screen listing them, and the form's audience. */
  function definitionFor(id: string, request: Parameters<typeof requireAuth>[0]) {
    const auth = requireAuth(request);
    const definition = app.forms.current().definitions.find((candidate) => candidate.id === id);
    const screen = catalogue.screens.find((candidate) => candidate.documentsOf === id);
    if (!definition?.documents?.length || !screen) throw new AppError('notFound');
    if (!canAccess(screen, auth.displayedModules, auth.user.role)) throw new AppError('noPermission');
    const audience = auth.user.role === 'contractor' ? definition.audience === 'both' : auth.user.role === 'exhibitor' || auth.user.role === 'team_user';
    if (!audience || !auth.participation) throw new AppError('noPermission');
    return { auth, definition, participation: auth.participation };
  }

  /** A translator over the built tables and the form's own strings as the set in use has them. */
  function translatorFor(definition: FormDefinition, language: Language): Translate {
    const strings = app.forms.current().stringsFor(definition.id);
    const prefix = `forms.${definition.id}.`;
    return (key, params) => {
      if (!key.startsWith(prefix)) return translate(language, key, params);
      const own = (table: LocaleTable | undefined) => (table ? lookup(table, key.slice(prefix.length)) : undefined);
      const text = own(strings[language]) ?? own(strings.en) ?? key;
      return interpolate(text, params);
    };
  }

  /** The items of the participation's current submission; none while the form is not submitted. */
  async function submittedItems(definition: FormDefinition, participation: Participation, document: DocumentDeclaration) {
    const entry = await app.formEntries.find(participation.id, definition.id);
    if (entry?.status !== 'submitted') return { items: [], issuedAt: new Date() };
    const data = typeof entry.submitted_data === 'string' ? JSON.parse(entry.submitted_data) : entry.submitted_data;
    // A document is dated the day the form was submitted, so every copy of it is the same.
    return { items: documentItems(document, data), issuedAt: new Date(entry.submitted_at ?? entry.updated_at) };
  }

  app.get(
    base,
    {
      schema: {
        tags: ['forms'],
        summary: "F7: the documents this participation's submitted form yields (S06: a visa invitation letter per applicant); empty lists until it is submitted",
        params: formParams,
        response: { 200: envelope({ type: 'array', items: documentSchema }) },
      },
    },
    async (request) => {
      const { auth, definition, participation } = definitionFor(request.params.id, request);
      const t = translatorFor(definition, request.language);
      const schema = app.forms.current().filesFor(definition.id, eventOf(auth).code).schema as { properties?: Record<string, unknown> };
      const listed = [];
      for (const document of definition.documents ?? []) {
        const { items } = await submittedItems(definition, participation, document);
        const text = (part: string) => t(`forms.${definition.id}.${document.text}.${part}`);
        const titleOf = (field: string) => {
          const property = (schema.properties?.[document.each] as { items?: { properties?: Record<string, { title?: string }> } } | undefined)?.items?.properties?.[field];
          return t(property?.title ?? field);
        };
        listed.push({
          id: document.id,
          title: text('title'),
          intro: text('intro'),
          none: text('none'),
          columns: [document.name, ...(document.summary ?? [])].map(titleOf),
          items: items.map((item, index) => {
            const values = itemValues(definition.id, document, schema, item, { language: request.language, dateOrder: eventOf(auth).date_order }, t);
            return {
              index,
              name: values[document.name] ?? '',
              summary: (document.summary ?? []).map((field) => values[field] ?? ''),
              reference: documentReference(eventOf(auth).code, participation.id, index),
              fileName: documentFileName(document.fileName, values[document.name] ?? '', index),
            };
          }),
        });
      }
      return ok(listed);
    },
  );

  app.get(
    `${base}/:document/:index.pdf`,
    {
      schema: {
        tags: ['forms'],
        summary: 'F7: one document of a submitted form as a PDF, in the chosen language (404 when the form is not submitted or there is no such item)',
        params: {
          type: 'object',
          required: ['id', 'document', 'index'],
          properties: { id: { type: 'string', maxLength: 40 }, document: { type: 'string', maxLength: 60 }, index: { type: 'string', maxLength: 40 } },
        },
        querystring: {
          type: 'object',
          properties: {
            download: { type: 'string', maxLength: 5, description: '1 (or true) to download it as an attachment; otherwise it is shown inline' },
            lang: { type: 'string', enum: [...LANGUAGES], description: "The document's language (default: the caller's)" },
          },
        },
        response: {
          200: { description: 'The document (A4)', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
        },
      },
    },
    async (request, reply) => {
      const { auth, definition, participation } = definitionFor(request.params.id, request);
      const document = definition.documents?.find((candidate) => candidate.id === request.params.document);
      // Malformed, out of range and not submitted answer the same.
      if (!document || !/^\d{1,6}$/.test(request.params.index)) throw new AppError('notFound');
      const index = Number(request.params.index);
      const { items, issuedAt } = await submittedItems(definition, participation, document);
      const item = items[index];
      if (!item || !auth.exhibitor) throw new AppError('notFound');

      const language = isLanguage(request.query.lang) ? request.query.lang : request.language;
      const t = translatorFor(definition, language);
      const event = eventOf(auth);
      const schema = app.forms.current().filesFor(definition.id, event.code).schema as { properties?: Record<string, unknown> };
      const eventName = (event.names as Record<string, string> | undefined)?.[language] || event.name;
      const dates = { language, dateOrder: event.date_order };
      const day = (instant: Date | string) => longDay(eventDate(instant, event.utc_offset_minutes), dates);
      const from = day(event.starts_at);
      const to = day(event.ends_at);
      const reference = documentReference(event.code, participation.id, index);
      const booth = participation.booth_num.trim() || '-';
      const values: Record<string, string> = {
        ...itemValues(definition.id, document, schema, item, dates, t),
        event: eventName,
        venue: event.venue,
        dates: from === to ? from : t('documents.dateRange', { from, to }),
        company: auth.exhibitor.legal_name || auth.exhibitor.name,
        booth,
        reference,
        supportEmail: event.support_email,
      };
      const text = (part: string) => t(`forms.${definition.id}.${document.text}.${part}`, values);
      const paragraphs = (part: string) =>
        text(part)
          .split(/\n\s*\n/)
          .map((paragraph) => paragraph.trim())
          .filter(Boolean);
      const name = values[document.name] ?? '';
      const bytes = await renderLetter({
        language: intlLocale(language),
        title: `${text('title')} ${reference} - ${name}`,
        author: eventName,
        letterhead: { name: eventName, lines: [`${event.venue} | ${values.dates}`, t('documents.services', { email: event.support_email })] },
        reference: t('documents.reference', { reference }),
        issued: t('documents.issued', { date: day(issuedAt) }),
        to: text('to'),
        subject: text('subject'),
        greeting: text('greeting'),
        body: paragraphs('body'),
        particularsIntro: text('particulars'),
        particulars: particularRows(definition.id, document, schema, values, t),
        after: paragraphs('after'),
        closing: text('closing'),
        signature: text('signature'),
        issuedAt,
      });
      const download = request.query.download === '1' || request.query.download === 'true';
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Length', bytes.length)
        .header('Content-Disposition', contentDisposition(download ? 'attachment' : 'inline', documentFileName(document.fileName, name, index)))
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );
}

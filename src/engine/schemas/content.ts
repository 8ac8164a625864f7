import type { FromSchema } from 'json-schema-to-ts';
import { MANUAL_ATTACHMENTS_MAX } from '../content-attachments';
import { LANGUAGES, type Language } from '../language';

// CT1–CT4: a content item as the organiser authors it (a manual, an announcement, a FAQ entry, a
// Home tip, the LeadGrab introduction, a support contact), texts in every portal language. This
// schema is the only description: the server's route validates the request with it and the
// console's content editor renders and validates it through the form runtime. Which modules an
// item may be shown to (`audience`) are the catalogue's screens, which the engine does not
// import: the route adds them as the items' enum at registration (contentItemBodySchema), the
// editor offers them as the field's choices.

export const AUTHORED_KINDS = ['manual', 'announcement', 'faq', 'tip', 'introduction', 'supportContact'] as const;
export type AuthoredKind = (typeof AUTHORED_KINDS)[number];

const TITLE_MAX = 300;
const BODY_MAX = 100_000;

/** A text per portal language (the object's keys are the languages, built from LANGUAGES). */
const translated = (max: number) =>
  ({
    type: 'object',
    properties: Object.fromEntries(LANGUAGES.map((l) => [l, { type: 'string', maxLength: max }])) as { [L in Language]: { type: 'string'; maxLength: number } },
    additionalProperties: false,
  }) as const;

/** A stored file's id as the server names it (an attachment's, in URLs and bodies). */
export const storedFileIdSchema = { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' } as const;

export const contentItemSchema = {
  type: 'object',
  required: ['kind', 'title', 'body'],
  additionalProperties: false,
  properties: {
    kind: { type: 'string', enum: [...AUTHORED_KINDS] },
    title: translated(TITLE_MAX),
    description: translated(2_000),
    body: translated(BODY_MAX),
    category: translated(200),
    mandatory: { type: 'boolean', default: false },
    ackRequired: { type: 'boolean', default: false },
    deadline: { type: ['string', 'null'], format: 'date-time' },
    pinned: { type: 'boolean', default: false },
    audience: { type: 'array', items: { type: 'string' }, uniqueItems: true, default: [], description: 'The exhibitor modules it is shown to (every exhibitor when empty)' },
    publishedAt: { type: ['string', 'null'], format: 'date-time', description: 'Published from (now when empty)' },
    position: { type: 'integer', minimum: 0, maximum: 10_000, default: 0 },
    emailExhibitors: { type: 'boolean', default: false, description: 'Announcements: also e-mail the exhibitors (through the mail queue)' },
    attachments: {
      type: 'array',
      maxItems: MANUAL_ATTACHMENTS_MAX,
      default: [],
      description: 'Manuals: the files attached, each uploaded first through POST /oga/organiser/content/attachments (only `id` is read)',
      items: { type: 'object', required: ['id'], properties: { id: storedFileIdSchema } },
    },
  },
} as const;

export type ContentItemInput = FromSchema<typeof contentItemSchema>;

/** The item's schema with the modules it may be shown to as the audience's enum (the server's request check). */
export function contentItemBodySchema(modules: readonly string[]) {
  const { audience } = contentItemSchema.properties;
  return {
    ...contentItemSchema,
    properties: { ...contentItemSchema.properties, audience: { ...audience, items: { ...audience.items, enum: [...modules] } } },
  } as const;
}

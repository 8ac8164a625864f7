import type { UiSchema } from '@rjsf/utils';
import type { AuthoredKind } from '../../engine/schemas/content';

// CT1–CT4: how the content editor shows a content item (engine/schemas/content.ts) with the form
// runtime: texts as locale keys, the fields each kind uses (the others hidden), the language shown
// by the texts, the exhibitor modules offered as the audience. A property the schema gains shows
// after the others ("*") without a change here.

const HIDDEN = { 'ui:widget': 'hidden' } as const;

/** What the editor's UI schema depends on: the item's kind, the language edited, the modules offered, the event's UTC offset. */
export interface ContentUiContext {
  kind: AuthoredKind;
  language: string;
  modules: readonly string[];
  offsetMinutes: number;
}

export function contentUi({ kind, language, modules, offsetMinutes }: ContentUiContext): UiSchema {
  const only = (kinds: AuthoredKind[], ui: UiSchema): UiSchema => (kinds.includes(kind) ? ui : HIDDEN);
  const translatedText = (title: string, options: Record<string, unknown> = {}): UiSchema => ({
    'ui:field': 'translatedText',
    'ui:title': title,
    'ui:options': { language, ...options },
  });
  return {
    'ui:order': ['title', 'category', 'description', 'body', 'mandatory', 'ackRequired', 'deadline', 'attachments', 'pinned', 'emailExhibitors', 'publishedAt', 'audience', '*'],
    'ui:globalOptions': { markRequired: false },
    'ui:options': {
      sections: [
        { fields: ['title', 'category', 'description', 'body'] },
        { fields: ['mandatory', 'ackRequired', 'deadline'], columns: 3 },
        { fields: ['attachments'] },
        { fields: ['pinned', 'emailExhibitors'], columns: 2 },
        { fields: ['publishedAt', 'audience', '*'], columns: 2 },
      ],
    },
    kind: HIDDEN,
    position: HIDDEN,
    title: translatedText(kind === 'faq' ? 'organiserContent.question' : 'organiserContent.title', { markRequired: language === 'en' }),
    category: only(['faq'], translatedText('organiserContent.category')),
    description: only(['manual'], translatedText('organiserContent.description', { multiline: true })),
    body: translatedText(kind === 'faq' ? 'organiserContent.answer' : 'organiserContent.body', {
      markdown: true,
      markdownHelp: 'organiserContent.markdownHelp',
      previewLabel: 'organiserContent.preview',
    }),
    mandatory: only(['manual'], { 'ui:title': 'organiserContent.mandatory' }),
    ackRequired: only(['manual'], { 'ui:title': 'organiserContent.ackRequired' }),
    deadline: only(['manual'], { 'ui:title': 'organiserContent.deadline', 'ui:widget': 'eventDateTime', 'ui:options': { offsetMinutes } }),
    attachments: only(['manual'], { 'ui:field': 'attachments', 'ui:title': 'organiserContent.attachments' }),
    pinned: only(['announcement'], { 'ui:title': 'organiserContent.pinned' }),
    emailExhibitors: only(['announcement'], { 'ui:title': 'organiserContent.emailExhibitors' }),
    publishedAt: { 'ui:title': 'organiserContent.publishedAt', 'ui:widget': 'eventDateTime', 'ui:options': { offsetMinutes } },
    audience: {
      'ui:field': 'checkList',
      'ui:title': 'organiserContent.audience',
      'ui:help': 'organiserContent.audienceHelp',
      'ui:options': { choices: modules.map((module) => ({ value: module, label: module })) },
    },
  };
}

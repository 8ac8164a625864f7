import type { Selectable } from 'kysely';
import { canAccess, findScreen } from '../../../engine/catalogue';
import { LANGUAGES } from '../../../engine/language';
import { pickLanguage } from '../../../engine/search';
import { catalogue } from '../../../generated/screens';
import type { ContentKind, ContentTable } from '../../db/schema';
import type { AuthContext } from '../../plugins/sessions';

// What the content routes share: who may see an item, how it reads in a language, and its
// search rows. Texts are {en, cn, ja, vi}; a missing language falls back to the event's.

export type ContentRow = Selectable<ContentTable>;

/** The screen each kind belongs to (its modules gate the item, as they gate the screen). */
export const KIND_SCREEN: Record<ContentKind, string> = {
  tip: 'home',
  announcement: 'announcements',
  manual: 'manuals',
  faq: 'faq',
  terms: 'home',
  introduction: 'digitalToolsIntroduction',
  supportContact: 'support',
};

export function mayRead(auth: AuthContext, row: Pick<ContentRow, 'screen_id' | 'audience' | 'published_at'>, now = new Date()): boolean {
  const screen = findScreen(catalogue, row.screen_id);
  if (!screen || !canAccess(screen, auth.displayedModules, auth.user.role)) return false;
  if (new Date(row.published_at).getTime() > now.getTime()) return false;
  const audience = row.audience ?? [];
  return audience.length === 0 || audience.some((module) => auth.displayedModules.includes(module));
}

export function textIn(texts: Record<string, string> | null | undefined, language: string, eventLanguage: string): string {
  return pickLanguage(texts, language, eventLanguage);
}

/** Languages whose title or body is missing (flagged to organisers). */
export function missingLanguages(row: Pick<ContentRow, 'title' | 'body'>): string[] {
  return LANGUAGES.filter((language) => !row.title?.[language]?.trim() || !row.body?.[language]?.trim());
}

export { indexContent } from '../../lib/content-search';

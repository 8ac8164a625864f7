import { LANGUAGES, intlLocale } from '../language';
import { COUNTRY_CODES, countryName } from '../locale-format';

// L1: a form's country fields. A schema marks one with the `country` keyword (the
// value is an ISO 3166-1 alpha-2 code, checked by the rule in rules.ts on both sides); its name
// is shown in the reader's language through Intl.DisplayNames in the form (the country widget a
// UI schema chooses), the summary, the submissions export and the letters. A value stored before
// the field held codes and naming no country is kept and shown as it was typed.

type Node = Record<string, unknown>;

/** Whether a schema node is a country field (`"country": true`). */
export function isCountryField(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as Node).country === true;
}

/** A country field's value as a reader sees it: the name in their language, or the value as typed. */
export function shownCountry(value: unknown, language: string): string {
  return typeof value === 'string' ? countryName(value.trim(), language) : '';
}

/** Case, accents, width and spacing do not tell two spellings apart ("viet nam" finds "Việt Nam"). */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s.,'’()-]+/gu, '');
}

// report: not the schema at src/server/modules/organiser-forms/gallery-routes.ts: a country the picker offers (built here, never sent), not the gallery's event reference
export interface CountryChoice {
  code: string;
  /** The name in the user's language. */
  name: string;
}

interface IndexedChoice extends CountryChoice {
  /** Folded names in every portal language (the user's first) and the code. */
  keys: string[];
}

/**
 * Caches of pure functions' answers (the choices of one language never change while the
 * process runs; building them costs a few milliseconds): nothing else is written to them.
 */
const choicesByLanguage = new Map<string, IndexedChoice[]>();

function indexedChoices(language: string): IndexedChoice[] {
  let choices = choicesByLanguage.get(language);
  if (!choices) {
    const namers = [language, ...LANGUAGES.filter((other) => other !== language)].map((each) => new Intl.DisplayNames(intlLocale(each), { type: 'region', fallback: 'none' }));
    const collator = new Intl.Collator(intlLocale(language));
    choices = COUNTRY_CODES.map((code) => {
      const names = namers.map((namer) => namer.of(code)).filter((name): name is string => !!name);
      return { code, name: names[0] ?? code, keys: [...new Set([...names.map(fold), code.toLowerCase()])] };
    }).sort((a, b) => collator.compare(a.name, b.name));
    choicesByLanguage.set(language, choices);
  }
  return choices;
}

/** Every country and region, named and sorted in the user's language. */
export function countryChoices(language: string): CountryChoice[] {
  return indexedChoices(language).map(({ code, name }) => ({ code, name }));
}

/**
 * The countries a typed text finds, best first: the code itself, then names that start with the
 * text, then names that contain it. Names in every portal language count, so a user may type
 * シンガポール, 新加坡 or Singapore whatever the page's language; empty text finds every country.
 */
export function matchCountries(text: string, language: string): CountryChoice[] {
  const query = fold(text);
  const choices = indexedChoices(language);
  if (query === '') return choices.map(({ code, name }) => ({ code, name }));
  const ranked: Array<{ choice: IndexedChoice; rank: number }> = [];
  for (const choice of choices) {
    let rank = Infinity;
    for (const key of choice.keys) {
      if (key === query) rank = Math.min(rank, 0);
      else if (key.startsWith(query)) rank = Math.min(rank, 1);
      else if (key.includes(query)) rank = Math.min(rank, 2);
    }
    if (rank !== Infinity) ranked.push({ choice, rank });
  }
  // Array.prototype.sort is stable: within a rank the language's order stays.
  return ranked.sort((a, b) => a.rank - b.rank).map(({ choice: { code, name } }) => ({ code, name }));
}

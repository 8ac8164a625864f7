import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { countryCode } from '../../../engine/locale-format';

/** 0027: each form's country fields as paths into its data (`*`: every item of a list). */
const FORM_COUNTRY_FIELDS_0027: Record<string, string[][]> = {
  s01: [['distribution', '*', 'country']],
  s03: [['contractor', 'country']],
  s06: [
    ['applicants', '*', 'nationality'],
    ['applicants', '*', 'embassyCountry'],
  ],
  vip: [['invitations', '*', 'country']],
};

/** 0027: nationalities typed into a nationality field (the region's and the most common ones), by their country's code. */
const NATIONALITIES_0027: Record<string, string> = {
  malaysian: 'MY',
  singaporean: 'SG',
  indonesian: 'ID',
  thai: 'TH',
  vietnamese: 'VN',
  filipino: 'PH',
  philippine: 'PH',
  bruneian: 'BN',
  cambodian: 'KH',
  khmer: 'KH',
  laotian: 'LA',
  lao: 'LA',
  burmese: 'MM',
  myanmar: 'MM',
  timorese: 'TL',
  chinese: 'CN',
  taiwanese: 'TW',
  hongkonger: 'HK',
  hongkongese: 'HK',
  macanese: 'MO',
  japanese: 'JP',
  korean: 'KR',
  southkorean: 'KR',
  indian: 'IN',
  pakistani: 'PK',
  bangladeshi: 'BD',
  srilankan: 'LK',
  nepalese: 'NP',
  nepali: 'NP',
  australian: 'AU',
  newzealander: 'NZ',
  american: 'US',
  canadian: 'CA',
  british: 'GB',
  english: 'GB',
  irish: 'IE',
  french: 'FR',
  german: 'DE',
  dutch: 'NL',
  belgian: 'BE',
  swiss: 'CH',
  austrian: 'AT',
  italian: 'IT',
  spanish: 'ES',
  portuguese: 'PT',
  swedish: 'SE',
  norwegian: 'NO',
  danish: 'DK',
  finnish: 'FI',
  polish: 'PL',
  russian: 'RU',
  turkish: 'TR',
  emirati: 'AE',
  saudi: 'SA',
  saudiarabian: 'SA',
  qatari: 'QA',
  egyptian: 'EG',
  southafrican: 'ZA',
  brazilian: 'BR',
  mexican: 'MX',
  argentine: 'AR',
  argentinian: 'AR',
  chilean: 'CL',
};

/** 0027: a stored country value as a code when it names a country or a nationality; anything else as it was. */
function countryValue0027(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return value;
  const code = countryCode(value);
  if (code !== value.trim()) return code;
  return NATIONALITIES_0027[value.toLowerCase().replace(/[^a-z]/g, '')] ?? value;
}

/** 0027: the data with the values at `paths` turned into codes; the same object when nothing changed. */
function withCountryCodes(data: unknown, paths: string[][]): unknown {
  const at = (node: unknown, path: string[]): unknown => {
    if (path.length === 0) return countryValue0027(node);
    const [step, ...rest] = path as [string, ...string[]];
    if (step === '*') {
      if (!Array.isArray(node)) return node;
      const items = node.map((item) => at(item, rest));
      return items.every((item, index) => item === node[index]) ? node : items;
    }
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !(step in node)) return node;
    const child = (node as Record<string, unknown>)[step];
    const next = at(child, rest);
    return next === child ? node : { ...(node as Record<string, unknown>), [step]: next };
  };
  return paths.reduce(at, data);
}

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // L1: the forms' country fields hold ISO 3166-1 alpha-2 codes from here on (the
    // `country` keyword of schemas/README.md), named in each reader's language. The English
    // names (or nationalities) typed so far into drafts and submissions become codes; a value
    // that names no country is kept as typed (shown as it is; the form asks for a choice from
    // the list before the next submit). The fields are named here, as the shipped forms had
    // them when they became country fields: a migration says itself what it changed.
    for (const [formId, paths] of Object.entries(FORM_COUNTRY_FIELDS_0027)) {
      const entries = await db.selectFrom('form_entries').select(['id', 'data', 'submitted_data']).where('form_id', '=', formId).execute();
      for (const entry of entries as Array<{ id: number; data: unknown; submitted_data: unknown }>) {
        const data = withCountryCodes(entry.data, paths);
        const submitted = withCountryCodes(entry.submitted_data, paths);
        if (data === entry.data && submitted === entry.submitted_data) continue;
        await db
          .updateTable('form_entries')
          .set({ data: JSON.stringify(data), submitted_data: submitted === null || submitted === undefined ? null : JSON.stringify(submitted) })
          .where('id', '=', entry.id)
          .execute();
      }
    }
  },
};

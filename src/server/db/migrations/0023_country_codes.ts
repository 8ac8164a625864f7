import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { countryCode } from '../../../engine/locale-format';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LA3, LD2: countries are stored as ISO 3166-1 alpha-2 codes and named in the
    // reader's language by Intl.DisplayNames. The English names stored so far become codes; a
    // value that names no country is kept as it is (and shown as it is). This reads the
    // engine's name index on purpose: it only ever turns a country's name into its code.
    // One statement per distinct name, so the rollup triggers move the dashboard's counts
    // from the name's key to the code's.
    for (const table of ['visitors', 'leads']) {
      const names = await db.selectFrom(table).select('country').distinct().where('country', '!=', '').execute();
      for (const { country } of names as Array<{ country: string }>) {
        const code = countryCode(country);
        if (code !== country) await db.updateTable(table).set({ country: code }).where('country', '=', country).execute();
      }
    }
    // The emptied keys of the old names (count 0) would show as empty bars.
    await db.deleteFrom('lead_rollup').where('dimension', '=', 'country').where('leads', '=', 0).execute();
  },
};

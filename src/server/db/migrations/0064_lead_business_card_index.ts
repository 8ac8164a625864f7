import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LD3: deleting a business-card upload (a card replaced or removed, a privacy erase, the file
    // store's sweep) finds the leads naming it twice: the portal's own "no lead refers to it any
    // more" test, and the database's foreign key (ON DELETE SET NULL), which looks for referencing
    // leads on every deleted upload. Without an index on `business_card` both read the whole
    // leads table: 2.5 s an upload at 5 M leads, measured, so one replaced card took ~5 s and the
    // sweep of 5,000 uploads hours. Partial: few leads carry a card, and a scan (which stores
    // none) writes nothing to it.
    await sql`create index leads_business_card on leads (business_card) where business_card is not null`.execute(db);
  },
};

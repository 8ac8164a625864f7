import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // F9: a submission is never withdrawn by editing. What the columns of
    // form_entries mean from here on (formStatus in src/engine/forms/definitions.ts reads them):
    const meaning: Record<string, string> = {
      data: 'The working copy the exhibitor (or its contractor) edits; autosaved drafts write here only.',
      status: "'submitted' once a submission exists, and it stays so while the working copy is edited; 'draft' = never submitted.",
      submitted_data: 'The current submission: what the organiser, approvals and documents (visa letters) read. Replaced only by a new submission.',
      submitted_at: 'When the current submission was made.',
      approval_status: 'The decision on the current submission (null = none needed); a new submission resets it, a draft never does.',
    };
    for (const [column, text] of Object.entries(meaning)) {
      await sql`comment on column form_entries.${sql.ref(column)} is ${sql.lit(text)}`.execute(db);
    }
    // Entries that an earlier version turned back into drafts by an edit after submitting get their submission back.
    await db.updateTable('form_entries').set({ status: 'submitted' }).where('submitted_data', 'is not', null).execute();
  },
};

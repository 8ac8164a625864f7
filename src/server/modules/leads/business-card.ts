import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

// LD3: a business card replaced or removed from a lead is deleted: its upload record and its
// file. One function, so that deleting a stored file can go through the uploads' storage layer
// in one place when there is one.

/**
 * Deletes a business-card upload that no lead refers to any more (record, then file). A card
 * still referenced (another lead, a concurrent save) is kept. Answers whether it was deleted.
 */
export async function deleteBusinessCard(db: Kysely<Database>, dataDir: string, uploadId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('uploads')
    .where('id', '=', uploadId)
    .where('purpose', '=', 'businessCard')
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('leads').select('leads.id').where('leads.business_card', '=', uploadId))))
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) return false;
  // The record is gone first: a file left behind by a crash is unreachable, never a dangling record.
  await unlink(join(dataDir, 'uploads', uploadId)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  return true;
}

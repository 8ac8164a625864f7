import type { Kysely } from 'kysely';
import { mappingColumns } from '../../engine/crm-export';
import { EXPORT_PRESETS, type ExportMapping } from '../../engine/schemas/export-mapping';
import type { Database } from '../db/schema';

// LD4: an exhibitor's export mapping, read where a lead leaves for its CRM: the leads export
// (XLSX, CSV) and webhook payloads (with the engine's `crmRecord`).

export async function exportMappingOf(db: Kysely<Database>, participationId: number): Promise<ExportMapping> {
  const row = await db.selectFrom('export_mappings').select(['preset', 'columns']).where('participation_id', '=', participationId).executeTakeFirst();
  const preset = EXPORT_PRESETS.find((each) => each === row?.preset) ?? 'portal';
  return { preset, columns: mappingColumns(preset, row?.columns) };
}

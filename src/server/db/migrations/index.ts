import type { Migration, MigrationProvider } from 'kysely/migration';
import { migration as migration0001AccountsAndSessions } from './0001_accounts_and_sessions';
import { migration as migration0002FormsAndUploads } from './0002_forms_and_uploads';
import { migration as migration0003Approvals } from './0003_approvals';
import { migration as migration0004LeadsAndMembers } from './0004_leads_and_members';
import { migration as migration0005MemberCompany } from './0005_member_company';
import { migration as migration0006OrganiserGround } from './0006_organiser_ground';
import { migration as migration0007AuthHardening } from './0007_auth_hardening';
import { migration as migration0008StoragePrivacy } from './0008_storage_privacy';
import { migration as migration0009FormsUx } from './0009_forms_ux';
import { migration as migration0010LeadsUx } from './0010_leads_ux';
import { migration as migration0013OrganiserOperations } from './0013_organiser_operations';
import { migration as migration0014Content } from './0014_content';
import { migration as migration0015Showroom } from './0015_showroom';
import { migration as migration0020FormParts } from './0020_form_parts';
import { migration as migration0023CountryCodes } from './0023_country_codes';
import { migration as migration0025FormData } from './0025_form_data';
import { migration as migration0027FormCountries } from './0027_form_countries';
import { migration as migration0030VisitorDirectory } from './0030_visitor_directory';
import { migration as migration0034PerFormReopen } from './0034_per_form_reopen';
import { migration as migration0040LeadSearchFolded } from './0040_lead_search_folded';
import { migration as migration0041EventDateOrder } from './0041_event_date_order';
import { migration as migration0042FormSetVersions } from './0042_form_set_versions';
import { migration as migration0043Webhooks } from './0043_webhooks';
import { migration as migration0044LeadsApi } from './0044_leads_api';
import { migration as migration0045LeadVisitorFields } from './0045_lead_visitor_fields';
import { migration as migration0046ExportMappings } from './0046_export_mappings';
import { migration as migration0048LeadConsent } from './0048_lead_consent';
import { migration as migration0049OrganiserIndexes } from './0049_organiser_indexes';
import { migration as migration0051ContentChanges } from './0051_content_changes';
import { migration as migration0052LeadRollupNetChange } from './0052_lead_rollup_net_change';
import { migration as migration0053WithdrawnVisitorsDraftListings } from './0053_withdrawn_visitors_draft_listings';
import { migration as migration0054FormEntryProgress } from './0054_form_entry_progress';
import { migration as migration0055AuditActors } from './0055_audit_actors';
import { migration as migration0056LeadKeywordByExhibitor } from './0056_lead_keyword_by_exhibitor';
import { migration as migration0057LeadQualificationIndexes } from './0057_lead_qualification_indexes';
import { migration as migration0058LeadKeywordCovering } from './0058_lead_keyword_covering';
import { migration as migration0059ExhibitorListTexts } from './0059_exhibitor_list_texts';
import { migration as migration0060ParticipationProgress } from './0060_participation_progress';
import { migration as migration0061LeadCjkKeyword } from './0061_lead_cjk_keyword';
import { migration as migration0062TrigramSearchRequired } from './0062_trigram_search_required';
import { migration as migration0063LeadVacuumIndexCleanup } from './0063_lead_vacuum_index_cleanup';
import { migration as migration0064LeadBusinessCardIndex } from './0064_lead_business_card_index';

// Migrations, in code so the embedded database and PostgreSQL run exactly the same ones: one file
// per migration, named `NNNN_what.ts`; Kysely's migrator applies them in name order and records each
// by its name, so a shipped migration keeps its name and its content. A new one gets the next
// number and a line at the end of this list (a unit test checks the list against the folder).
// A migration names its columns itself: it never reads a constant the application may change
// later (that would change what it did). The server is bundled, so the list is static.
export const migrations: Record<string, Migration> = {
  '0001_accounts_and_sessions': migration0001AccountsAndSessions,
  '0002_forms_and_uploads': migration0002FormsAndUploads,
  '0003_approvals': migration0003Approvals,
  '0004_leads_and_members': migration0004LeadsAndMembers,
  '0005_member_company': migration0005MemberCompany,
  '0006_organiser_ground': migration0006OrganiserGround,
  '0007_auth_hardening': migration0007AuthHardening,
  '0008_storage_privacy': migration0008StoragePrivacy,
  '0009_forms_ux': migration0009FormsUx,
  '0010_leads_ux': migration0010LeadsUx,
  '0013_organiser_operations': migration0013OrganiserOperations,
  '0014_content': migration0014Content,
  '0015_showroom': migration0015Showroom,
  '0020_form_parts': migration0020FormParts,
  '0023_country_codes': migration0023CountryCodes,
  '0025_form_data': migration0025FormData,
  '0027_form_countries': migration0027FormCountries,
  '0030_visitor_directory': migration0030VisitorDirectory,
  '0034_per_form_reopen': migration0034PerFormReopen,
  '0040_lead_search_folded': migration0040LeadSearchFolded,
  '0041_event_date_order': migration0041EventDateOrder,
  '0042_form_set_versions': migration0042FormSetVersions,
  '0043_webhooks': migration0043Webhooks,
  '0044_leads_api': migration0044LeadsApi,
  '0045_lead_visitor_fields': migration0045LeadVisitorFields,
  '0046_export_mappings': migration0046ExportMappings,
  '0048_lead_consent': migration0048LeadConsent,
  '0049_organiser_indexes': migration0049OrganiserIndexes,
  '0051_content_changes': migration0051ContentChanges,
  '0052_lead_rollup_net_change': migration0052LeadRollupNetChange,
  '0053_withdrawn_visitors_draft_listings': migration0053WithdrawnVisitorsDraftListings,
  '0054_form_entry_progress': migration0054FormEntryProgress,
  '0055_audit_actors': migration0055AuditActors,
  '0056_lead_keyword_by_exhibitor': migration0056LeadKeywordByExhibitor,
  '0057_lead_qualification_indexes': migration0057LeadQualificationIndexes,
  '0058_lead_keyword_covering': migration0058LeadKeywordCovering,
  '0059_exhibitor_list_texts': migration0059ExhibitorListTexts,
  '0060_participation_progress': migration0060ParticipationProgress,
  '0061_lead_cjk_keyword': migration0061LeadCjkKeyword,
  '0062_trigram_search_required': migration0062TrigramSearchRequired,
  '0063_lead_vacuum_index_cleanup': migration0063LeadVacuumIndexCleanup,
  '0064_lead_business_card_index': migration0064LeadBusinessCardIndex,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

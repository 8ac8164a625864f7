import type { ColumnType, Generated, Selectable } from 'kysely';
import type { PartStates } from '../../engine/forms/parts';
import type { Role } from '../../engine/roles';
import type { ShowDayInput } from '../../engine/schemas/event';

// Table types for kysely. Timestamps are written as Date and read back as Date on both
// PGlite and pg.

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp the database fills in on insert. */
type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface EventTable {
  id: Generated<number>;
  code: string;
  name: string;
  url: string;
  logo_url: string;
  venue: string;
  starts_at: Timestamp;
  ends_at: Timestamp;
  utc_offset_minutes: number;
  /** K2: the order the event writes dates in (DATE_ORDERS); `language` = each reader's language's. */
  date_order: Generated<string>;
  terms_url: string;
  support_email: string;
  organisation_id: number | null;
  /** The event's name per language code (en, cn, ja, vi); `name` is the default-language name. */
  names: ColumnType<Record<string, string>, string | undefined, string>;
  default_language: Generated<string>;
  /** Show days and opening hours in event time. */
  show_days: ColumnType<ShowDay[], string | undefined, string>;
  currency: Generated<string>;
  default_modules: ColumnType<string[], string | undefined, string>;
  default_flags: ColumnType<ParticipationFlags, string | undefined, string>;
  /** Days before a deadline on which reminders go out. */
  reminder_days: ColumnType<number[], string | undefined, string>;
  created_at: DefaultedTimestamp;
  /** Days exhibitors keep leads after the show; null = not set (kept). */
  lead_retention_days: ColumnType<number | null, number | null | undefined, number | null>;
  lead_retention_reminded_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  leads_erased_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** LD1: the visitor fields exhibitors' scanners may keep offline (VISITOR_DIRECTORY_FIELDS); empty = none. */
  visitor_directory_fields: ColumnType<string[], string | undefined, string>;
  /** LD2: the visitor fields exhibitors do not receive at all (engine LEAD_VISITOR_FIELDS); empty = none hidden. */
  hidden_visitor_fields: ColumnType<string[], string | undefined, string>;
  /** LD2: the consent text visitors agreed to at registration, per language code; {} = not set. */
  consent_texts: ColumnType<Record<string, string>, string | undefined, string>;
  /** LD2: the legal basis of keeping visitors' data (engine CONSENT_BASES); null = not set. */
  consent_basis: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A show day as stored in events.show_days: the event schema's (dates and clocks in event time). */
export type ShowDay = ShowDayInput;

export interface OrganisationTable {
  id: Generated<number>;
  name: string;
  created_at: DefaultedTimestamp;
}

export interface ExhibitorTable {
  id: Generated<number>;
  name: string;
  legal_name: string;
  logo_url: string;
  organisation_id: number | null;
  /** The organiser's code for the company (imports update by it). */
  code: string | null;
}

export type ParticipationFlags = Record<string, boolean>;

export interface ParticipationTable {
  id: Generated<number>;
  exhibitor_id: number;
  event_id: number;
  booth_num: string;
  displayed_modules: Json<string[]>;
  flags: Json<ParticipationFlags>;
  status: Generated<'active' | 'disabled'>;
  created_at: DefaultedTimestamp;
  /** O2: the exhibitor's name, kept by trigger (the exhibitors list's order, migration 0059). */
  list_name: Generated<string>;
  /** O2: the list's searched texts folded (searchFold), one per line; null until the list folds them again (migration 0059). */
  search_folded: Generated<string | null>;
}

/**
 * O2: a named deadline (forms.yaml `deadline:`) or quota (schema `quota:`, member quotas) of an
 * event; a row with a participation overrides the event's value for that exhibitor.
 */
export interface DeadlineTable {
  id: Generated<number>;
  event_id: number;
  participation_id: number | null;
  name: string;
  due_at: Timestamp;
}

export interface QuotaTable {
  id: Generated<number>;
  event_id: number;
  participation_id: number | null;
  name: string;
  value: number;
}

/** O2 (migration 0025): a value of a form the organiser sets per event, by the name forms.yaml gives it (a decimal as text). */
export interface EventSettingTable {
  id: Generated<number>;
  event_id: number;
  name: string;
  value: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: DefaultedTimestamp;
  actor_user_id: number | null;
  actor_name: Generated<string>;
  actor_role: Generated<string>;
  organisation_id: number | null;
  event_id: number | null;
  participation_id: number | null;
  action: string;
  subject_type: Generated<string>;
  subject_id: Generated<string>;
  before: ColumnType<unknown, string | null | undefined, string | null>;
  after: ColumnType<unknown, string | null | undefined, string | null>;
  ip: Generated<string>;
}

/** The names an organisation's audit records were written under (kept by a trigger on audit_log), for the "who" filter. */
export interface AuditActorTable {
  organisation_id: number;
  actor_name: string;
}

/** A submit-once form the organiser reopened for one exhibitor (until its next submission). */
export interface FormReopenTable {
  participation_id: number;
  form_id: string;
  reopened_at: DefaultedTimestamp;
  reopened_by: number | null;
  /** F11: the questions (dotted paths) a reopening after a form change asks for; null = the whole form. */
  fields: Json<string[]> | null;
}

/** F11: one version of the form set (files by path relative to FORMS_DIR, the forms' strings). */
export interface FormSetVersionTable {
  id: Generated<number>;
  number: number;
  status: 'draft' | 'published';
  /** How it came: 'files' (FORMS_DIR), 'editor', 'rollback', 'copy', 'import'. */
  source: string;
  author_user_id: number | null;
  author_name: Generated<string>;
  created_at: DefaultedTimestamp;
  comment: Generated<string>;
  /** JSON text of { files: { path: text }, strings: { language: the `forms` table } } (text keeps the key order). */
  content: string;
  content_hash: string;
  problems: Json<Array<{ file: string; path: string; message: string }>>;
}

/** F11: an organiser's unpublished patch of one form for one event. */
export interface FormDraftTable {
  event_id: number;
  form_id: string;
  based_on: number;
  patch: Json<Record<string, unknown>> | null;
  strings: Json<Record<string, Record<string, string>>>;
  problems: Json<Array<{ file: string; path: string; message: string }>>;
  /** F11: names the draft lists under forms.yaml entries' `optional:` (engine OptionalListing). */
  listings: ColumnType<Array<{ entry: string; name: string }>, string | undefined, string>;
  saved_at: DefaultedTimestamp;
  author_user_id: number | null;
  author_name: Generated<string>;
}

export interface MailOutboxTable {
  id: Generated<number>;
  created_at: DefaultedTimestamp;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  kind: Generated<string>;
  ref_id: Generated<string>;
  dedupe_key: string | null;
  status: Generated<'pending' | 'sending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: DefaultedTimestamp;
  locked_until: Timestamp | null;
  last_error: string | null;
  sent_at: Timestamp | null;
}

export type { Role };

export interface UserTable {
  id: Generated<number>;
  /** The account ID as typed, and its lower-case form for look-ups. */
  login: string;
  login_key: string;
  email: string;
  display_name: string;
  password_hash: string;
  role: Role;
  participation_id: number | null;
  /** The user's event; for an organiser the event it is working on (none before its first). */
  event_id: number | null;
  /** An organiser's organisation. */
  organisation_id: number | null;
  status: 'active' | 'disabled';
  show_left_menus: Generated<boolean>;
  created_at: DefaultedTimestamp;
  password_changed_at: DefaultedTimestamp;
  /** LD5: leads a team user may scan; null = no limit. */
  lead_quota: number | null;
  /** The exhibitor who granted this team user or contractor access. */
  created_by: number | null;
  /** P1: a contractor's company ('' for other roles). */
  company: Generated<string>;
  /** The language of the user's last sign-in (e-mails without a request use it). */
  language: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SessionTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  revoked_at: Timestamp | null;
  ip: string;
  /** LD1: set for a scanning device's long-lived token (migration 0010); null for a sign-in. */
  device_name: string | null;
}

export interface LoginFailureTable {
  id: Generated<number>;
  login_key: string;
  ip: string;
  at: Timestamp;
}

export interface PasswordResetTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** A text in each language (en, cn, ja, vi); a missing one falls back to the event's default language. */
export type Translated = Record<string, string>;

export type ContentKind = 'tip' | 'announcement' | 'manual' | 'faq' | 'terms' | 'introduction' | 'supportContact';
export interface LinkCodeTable {
  id: Generated<number>;
  code_hash: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface ScheduledJobTable {
  name: string;
  last_run_at: Timestamp;
}

export interface ContentTable {
  id: Generated<number>;
  event_id: number;
  kind: ContentKind;
  /** The catalogue screen whose modules gate this content. */
  screen_id: string;
  title: Json<Translated>;
  body: Json<Translated>;
  published_at: Timestamp;
  description: ColumnType<Translated, string | undefined, string>;
  category: ColumnType<Translated, string | undefined, string>;
  mandatory: Generated<boolean>;
  ack_required: Generated<boolean>;
  deadline: Timestamp | null;
  pinned: Generated<boolean>;
  /** Modules whose holders see it (any one); empty = everyone who may open the screen. */
  audience: ColumnType<string[], string | undefined, string>;
  attachments: ColumnType<Array<{ id: string; name: string; size: number; type: 'pdf' | 'jpeg' | 'png' }>, string | undefined, string>;
  position: Generated<number>;
  updated_at: DefaultedTimestamp;
  updated_by: number | null;
}

export interface ManualStatusTable {
  content_id: number;
  participation_id: number;
  viewed_at: Timestamp;
  viewed_by: number | null;
  acknowledged_at: Timestamp | null;
  acknowledged_by: number | null;
}

export interface AnnouncementReadTable {
  content_id: number;
  user_id: number;
  read_at: DefaultedTimestamp;
}

/** CT3: how many times an event's content changed (kept by trigger; the search's in-memory texts follow it). */
export interface ContentChangesTable {
  event_id: number;
  changes: ColumnType<string | number, string | number | undefined, string | number>;
}

export interface ContentSearchTable {
  content_id: number;
  language: string;
  folded: string;
}

export interface SupportMessageTable {
  id: Generated<number>;
  event_id: number;
  participation_id: number | null;
  user_id: number | null;
  subject: string;
  message: string;
  created_at: DefaultedTimestamp;
}

export interface UploadTable {
  /** Server-made name: the file is stored as DATA_DIR/uploads/<id>. */
  id: string;
  participation_id: number | null;
  event_id: number;
  user_id: number;
  purpose: string;
  original_name: string;
  content_type: string;
  size: number;
  dpi: number | null;
  sha256: string;
  created_at: DefaultedTimestamp;
}

export interface FormEntryTable {
  id: Generated<number>;
  participation_id: number;
  form_id: string;
  data: Json<Record<string, unknown>>;
  /** Bumped by every save; a save based on another version is refused (no silent overwrite). */
  version: Generated<number>;
  status: Generated<'draft' | 'submitted'>;
  /** What was last submitted (F10); later draft changes do not touch it. */
  submitted_data: Json<Record<string, unknown>> | null;
  submitted_at: Timestamp | null;
  submitted_by: number | null;
  updated_at: DefaultedTimestamp;
  updated_by: number | null;
  /** O1: the organiser's decision on the last submission, when it needs one. */
  approval_status: 'pending' | 'approved' | 'rejected' | null;
  approval_comment: string | null;
  decided_at: Timestamp | null;
  decided_by: number | null;
  /** P1 F4: each part's own submission (engine/forms/parts.ts PartStates); null = one part. */
  parts: Json<PartStates> | null;
  /** O2, kept by the database (generated): status, approval and submitted parts, as the progress matrix reads them (migration 0054). */
  progress: ColumnType<string, never, never>;
  /** O2, kept by the database (generated): the working copy's top-level keys, separated by U+001F. */
  data_keys: ColumnType<string, never, never>;
}

/** O2, kept by statement triggers on form_entries (migration 0060): a participation's entries' progress and working-copy keys, by form id. */
export interface ParticipationProgressTable {
  participation_id: number;
  progress: ColumnType<Record<string, string>, never, never>;
  data_keys: ColumnType<Record<string, string>, never, never>;
  /** The progress as one text, entries by form id (generated). */
  progress_text: ColumnType<string, never, never>;
}

export interface VisitorTable {
  id: Generated<number>;
  event_id: number;
  badge_code: string;
  name: string;
  salutation: string;
  company: string;
  business_nature: string;
  job_title: string;
  country: string;
  mobile: string;
  email: string;
  phone: string;
  address: string;
  /** LD2: when the visitor withdrew consent (null = given); a lead made afterwards copies none of the fields above. */
  consent_withdrawn_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** The visitor profile fields a lead copies at scan time (spec §3 Lead). */
export const VISITOR_PROFILE_FIELDS = ['salutation', 'company', 'business_nature', 'job_title', 'country', 'mobile', 'email', 'phone', 'address'] as const;

export interface LeadTable {
  /** bigserial: pg returns it as a number (see connection.ts), PGlite as a number. */
  id: Generated<number>;
  participation_id: number;
  client_scan_id: string;
  badge_code: string;
  visitor_id: number | null;
  badge_known: boolean;
  visitor_name: string;
  salutation: Generated<string>;
  company: Generated<string>;
  business_nature: Generated<string>;
  job_title: Generated<string>;
  country: Generated<string>;
  mobile: Generated<string>;
  email: Generated<string>;
  phone: Generated<string>;
  address: Generated<string>;
  scanned_by: number;
  scanned_at: Timestamp;
  /** Hours since 1970-01-01T00:00 in event time (UTC + the event's offset). */
  event_hour: number;
  received_at: DefaultedTimestamp;
  lead_type: string | null;
  temperature: string | null;
  follow_up: string | null;
  notes: Generated<string>;
  business_card: string | null;
  tag_answers: ColumnType<Record<string, string[]>, string | undefined, string>;
  interested_products: ColumnType<string[], string | undefined, string>;
  updated_at: Timestamp | null;
  updated_by: number | null;
  /** LD1: scans of this visitor's badge by the exhibitor's people (the first one included). */
  scan_count: Generated<number>;
  /** The latest later scan (null while the lead was scanned once). */
  last_scanned_at: Timestamp | null;
  last_scanned_by: number | null;
  /** LD2: name, company, e-mail and badge code folded for the keyword (engine `leadSearchText`), kept by the application. */
  search_folded: Generated<string>;
  /** LD2: when the lead last changed (set by trigger on every write; the leads API's sync order). */
  changed_at: DefaultedTimestamp;
  /** LD2: how the lead was made (engine CONSENT_SOURCES). */
  consent_source: Generated<string>;
  /** LD2: when the visitor withdrew consent (null = given); the visitor fields are then emptied. */
  consent_withdrawn_at: Timestamp | null;
}

/** LD1: a later scan of a badge that already is a lead of the exhibitor (migration 0010). */
export interface LeadScanTable {
  id: Generated<number>;
  participation_id: number;
  lead_id: number;
  client_scan_id: string;
  scanned_by: number | null;
  scanned_at: Timestamp;
  received_at: DefaultedTimestamp;
}

/** LD2: an exhibitor's API key for its own systems (migration 0044); only the key's hash is kept. */
export interface ApiKeyTable {
  id: Generated<number>;
  participation_id: number;
  created_by: number;
  name: string;
  prefix: string;
  token_hash: string;
  scopes: ColumnType<string[], string, string>;
  created_at: DefaultedTimestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_by: number | null;
}

/** LD4: an exhibitor's export mapping for its CRM (migration 0046); no row = the portal's export. */
export interface ExportMappingTable {
  participation_id: number;
  preset: string;
  columns: ColumnType<unknown, string | undefined, string>;
  updated_at: DefaultedTimestamp;
  updated_by: number | null;
}

export type RollupDimension = 'all' | 'country' | 'user' | 'type' | 'temperature' | 'follow_up' | 'known';

/** Kept by database triggers on `leads`; read-only for the application. */
export interface LeadRollupTable {
  participation_id: number;
  dimension: RollupDimension;
  key: string;
  event_hour: number;
  leads: number;
}

export interface CustomTagTable {
  id: Generated<number>;
  participation_id: number;
  name: string;
  choices: Json<string[]>;
  position: Generated<number>;
  created_at: DefaultedTimestamp;
}

export interface LeadExportTable {
  id: Generated<number>;
  participation_id: number;
  user_id: number;
  file_name: string;
  format: 'csv' | 'xlsx';
  filters: Json<Record<string, unknown>>;
  rows: Generated<number>;
  size: Generated<number>;
  /** The file is DATA_DIR/exports/<storage_name>. */
  storage_name: string;
  created_at: DefaultedTimestamp;
  /** LD2: the ids of the leads in the file (null: made before this was recorded). */
  lead_ids: ColumnType<number[] | null, string | null | undefined, string | null>;
}

export interface InvitationTable {
  id: Generated<number>;
  participation_id: number;
  sent_by: number;
  sender_email: string;
  recipient_name: string;
  recipient_email: string;
  message: Generated<string>;
  status: 'pending' | 'sent' | 'failed';
  sent_at: Timestamp | null;
  failure_reason: string | null;
  created_at: DefaultedTimestamp;
}

export interface ShowroomTable {
  participation_id: number;
  slug: string;
  published: Generated<boolean>;
  published_at: Timestamp | null;
  updated_at: DefaultedTimestamp;
}

/** A file of the database store (FILE_STORE=database). */
export interface StoredFileTable {
  key: string;
  size: ColumnType<string | number, number | undefined, number>;
  complete: Generated<boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface StoredFileChunkTable {
  key: string;
  seq: number;
  data: Buffer;
}

/** LD: a webhook endpoint of an exhibitor (participation) or an organisation (migration 0043). */
export interface WebhookEndpointTable {
  id: Generated<number>;
  participation_id: number | null;
  organisation_id: number | null;
  url: string;
  description: Generated<string>;
  events: ColumnType<string[], string | undefined, string>;
  /** The Standard Webhooks secret (`whsec_…`) that signs; shown to the owner once. */
  secret: string;
  /** During a rotation: the previous secret, which also signs until previous_secret_until. */
  previous_secret: string | null;
  previous_secret_until: Timestamp | null;
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  /** The first failed attempt since the last success (null while it answers). */
  failing_since: Timestamp | null;
  created_by: number | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

/** LD: one message to one endpoint: the queue and the delivery log (migration 0043). */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  endpoint_id: number;
  /** The `webhook-id` header: the same on every attempt and resend, so receivers dedupe. */
  message_id: string;
  event_type: string;
  /** The exact body sent (JSON text). */
  payload: string;
  /** Messages of one endpoint with the same key (a lead) go in order. */
  ordering_key: string | null;
  status: Generated<'pending' | 'sending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: DefaultedTimestamp;
  locked_until: Timestamp | null;
  last_attempt_at: Timestamp | null;
  response_status: number | null;
  last_error: string | null;
  delivered_at: Timestamp | null;
  created_at: DefaultedTimestamp;
}

export interface Database {
  stored_files: StoredFileTable;
  stored_file_chunks: StoredFileChunkTable;
  showrooms: ShowroomTable;
  organisations: OrganisationTable;
  deadlines: DeadlineTable;
  quotas: QuotaTable;
  event_settings: EventSettingTable;
  audit_log: AuditLogTable;
  audit_actors: AuditActorTable;
  mail_outbox: MailOutboxTable;
  events: EventTable;
  exhibitors: ExhibitorTable;
  participations: ParticipationTable;
  users: UserTable;
  sessions: SessionTable;
  login_failures: LoginFailureTable;
  password_resets: PasswordResetTable;
  link_codes: LinkCodeTable;
  scheduled_jobs: ScheduledJobTable;
  content: ContentTable;
  manual_status: ManualStatusTable;
  announcement_reads: AnnouncementReadTable;
  content_search: ContentSearchTable;
  content_changes: ContentChangesTable;
  support_messages: SupportMessageTable;
  uploads: UploadTable;
  form_entries: FormEntryTable;
  participation_progress: ParticipationProgressTable;
  form_reopens: FormReopenTable;
  form_set_versions: FormSetVersionTable;
  form_drafts: FormDraftTable;
  visitors: VisitorTable;
  leads: LeadTable;
  lead_scans: LeadScanTable;
  lead_rollup: LeadRollupTable;
  custom_tags: CustomTagTable;
  lead_exports: LeadExportTable;
  api_keys: ApiKeyTable;
  export_mappings: ExportMappingTable;
  invitations: InvitationTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
}

export type User = Selectable<UserTable>;
export type Participation = Selectable<ParticipationTable>;
export type EventRow = Selectable<EventTable>;
export type Exhibitor = Selectable<ExhibitorTable>;

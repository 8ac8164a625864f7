import type { ColumnType, Generated, Selectable } from 'kysely';

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
  terms_url: string;
  support_email: string;
}

export interface ExhibitorTable {
  id: Generated<number>;
  name: string;
  legal_name: string;
  logo_url: string;
}

export type ParticipationFlags = Record<string, boolean>;

export interface ParticipationTable {
  id: Generated<number>;
  exhibitor_id: number;
  event_id: number;
  booth_num: string;
  displayed_modules: Json<string[]>;
  flags: Json<ParticipationFlags>;
  badges_deadline: Timestamp | null;
  booth_deadline: Timestamp | null;
  product_deadline: Timestamp | null;
  profile_deadline: Timestamp | null;
  badge_quota: number;
  team_user_quota: number;
  contractor_badge_quota: Generated<number>;
}

export type Role = 'exhibitor' | 'team_user' | 'contractor' | 'organiser';

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
  event_id: number;
  status: 'active' | 'disabled';
  show_left_menus: Generated<boolean>;
  created_at: DefaultedTimestamp;
  password_changed_at: DefaultedTimestamp;
}

export interface SessionTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  revoked_at: Timestamp | null;
  ip: string;
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

export interface ContentTable {
  id: Generated<number>;
  event_id: number;
  kind: 'tip' | 'announcement' | 'manual' | 'faq' | 'terms';
  /** The catalogue screen whose modules gate this content. */
  screen_id: string;
  title: Json<Record<string, string>>;
  body: Json<Record<string, string>>;
  published_at: Timestamp;
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
}

export interface Database {
  events: EventTable;
  exhibitors: ExhibitorTable;
  participations: ParticipationTable;
  users: UserTable;
  sessions: SessionTable;
  login_failures: LoginFailureTable;
  password_resets: PasswordResetTable;
  content: ContentTable;
  uploads: UploadTable;
  form_entries: FormEntryTable;
}

export type User = Selectable<UserTable>;
export type Participation = Selectable<ParticipationTable>;
export type EventRow = Selectable<EventTable>;
export type Exhibitor = Selectable<ExhibitorTable>;

import type { ApiBody, ApiData } from '../../../lib/typed-api';

// Members (LD5 team users, P1 contractor logins) as the API answers them (the route schemas),
// so both kinds answer the same shapes.

export type MemberPage = ApiData<'GET', '/members/team-users'>;
export type Member = MemberPage['items'][number];
/** What an edit sends (e-mail, password; company and contact name, or the lead quota). */
export type MemberEdit = ApiBody<'PUT', '/members/team-users/{id}'>;

/** What differs between the two kinds of member on screen. */
export interface MemberKind {
  role: 'team_user' | 'contractor';
  /** API path segment under /members. */
  path: 'team-users' | 'contractors';
  /** Locale namespace under members. */
  ns: 'teamUsers' | 'contractors';
}

export const TEAM_USERS: MemberKind = { role: 'team_user', path: 'team-users', ns: 'teamUsers' };
export const CONTRACTORS: MemberKind = { role: 'contractor', path: 'contractors', ns: 'contractors' };

// Members (LD5 team users, P1 contractor logins) as the API answers them.

export interface Member {
  id: number;
  account: string;
  name: string;
  company: string;
  email: string;
  status: 'active' | 'disabled';
  leadQuota: number | null;
  createdAt: string;
}

export interface MemberPage {
  items: Member[];
  total: number;
  page: number;
  limit: number;
  /** How many may be active at once. */
  quota: number;
  active: number;
}

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

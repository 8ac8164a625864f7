import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../src/server/lib/passwords';
import { DEMO_PASSWORD, login } from './helpers';

// Organiser console tests: an organiser of another organisation, made in the test, to
// show that nothing of the demo organisation's events and exhibitors reaches it (404).

export async function otherOrganiser(app: FastifyInstance, loginId = 'rival.organiser'): Promise<{ token: string; organisationId: number; userId: number }> {
  const organisation = await app.db
    .insertInto('organisations')
    .values({ name: `Rival Shows ${loginId}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const user = await app.db
    .insertInto('users')
    .values({
      login: loginId,
      login_key: loginId.toLowerCase(),
      email: `${loginId}@rival-shows.example`,
      display_name: 'Rival Organiser',
      password_hash: await hashPassword(DEMO_PASSWORD),
      role: 'organiser',
      participation_id: null,
      event_id: null,
      organisation_id: organisation.id,
      status: 'active',
      lead_quota: null,
      created_by: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token: await login(app, loginId), organisationId: organisation.id, userId: user.id };
}

/** A complete, valid event input (a show in the future, UTC+8). */
export function eventInput(code: string, overrides: Record<string, unknown> = {}) {
  return {
    code,
    names: { en: `${code} Expo`, cn: `${code} 博览会` },
    defaultLanguage: 'en',
    showDays: [
      { date: '2031-05-13', opens: '10:00', closes: '18:00' },
      { date: '2031-05-14', opens: '10:00', closes: '17:00' },
    ],
    utcOffsetMinutes: 480,
    dateOrder: 'language',
    venue: 'MITEC, Kuala Lumpur',
    logoUrl: 'https://expo.example/logo.png',
    url: 'https://expo.example',
    termsUrl: 'https://expo.example/terms',
    supportEmail: 'help@expo.example',
    currency: 'MYR',
    settings: { extraBadgeFee: '15.00' },
    deadlines: { badges: '2031-05-01T09:00:00.000Z', booth: '2031-04-20T09:00:00.000Z' },
    defaultModules: ['Forms', 'Support'],
    defaultFlags: { eventShow: true, s01CompanyShow: true },
    defaultQuotas: { badges: 6, teamUsers: 2 },
    reminderDays: [7, 1],
    ...overrides,
  };
}

import type { FastifyInstance } from 'fastify';
import { LEAD_EVENTS, ORGANISER_EVENTS } from '../../plugins/webhooks/service';
import { organisationOf } from '../../lib/organiser-scope';
import { AppError } from '../../lib/app-error';
import type { AuthContext } from '../../plugins/sessions';

// Whose endpoints a request reaches: an exhibitor's (its participation) on Digital Tools →
// Integrations, an organisation's on the console. Every query is limited to the owner: another
// owner's endpoint or delivery answers 404 like an unknown id (P5).

export type OwnerKind = 'exhibitor' | 'organiser';

export interface Owner {
  kind: OwnerKind;
  column: 'participation_id' | 'organisation_id';
  id: number;
  /** The events this owner's endpoints may take. */
  events: readonly string[];
}

export function ownerOf(kind: OwnerKind, auth: AuthContext): Owner {
  if (kind === 'organiser') return { kind, column: 'organisation_id', id: organisationOf(auth), events: ORGANISER_EVENTS };
  if (!auth.participation) throw new AppError('notFound');
  return { kind, column: 'participation_id', id: auth.participation.id, events: LEAD_EVENTS };
}

/** The owner's endpoint, or 404. */
export async function ownedEndpoint(app: FastifyInstance, owner: Owner, id: number) {
  const endpoint = await app.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where(owner.column, '=', owner.id).executeTakeFirst();
  if (!endpoint) throw new AppError('notFound');
  return endpoint;
}

/** The two places endpoints are managed: base path and screen (screens.yaml) per owner kind. */
export const OWNER_ROUTES = [
  { kind: 'exhibitor', base: '/webhooks', screen: 'integrations' },
  { kind: 'organiser', base: '/organiser/webhooks', screen: 'organiserIntegrations' },
] as const;

export const TAGS = ['webhooks'];

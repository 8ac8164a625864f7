import type { ApiApp } from '../../lib/api-app';
import deliveryRoutes from './delivery-routes';
import endpointRoutes from './endpoint-routes';

// LD: webhooks, one route file per resource: endpoints and their delivery log.
export default async function webhooksModule(app: ApiApp) {
  await app.register(endpointRoutes);
  await app.register(deliveryRoutes);
}

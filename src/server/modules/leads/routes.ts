import type { Config } from '../../config';
import type { ApiApp } from '../../lib/api-app';
import deviceRoutes from './devices';
import leadExportRoutes from './export-routes';
import leadRoutes from './lead-routes';
import scanRoutes from './scan-routes';

// Lead capture (LD1-LD4), one route file per resource: scans from the scanning app, its device
// tokens, the leads (list, detail, qualification) and their exports with the download list.
export default async function leadsModule(app: ApiApp, { config }: { config: Config }) {
  await app.register(scanRoutes);
  await app.register(deviceRoutes);
  await app.register(leadRoutes, { config });
  await app.register(leadExportRoutes);
}

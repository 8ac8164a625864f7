import type { ApiApp } from '../../lib/api-app';
import deviceRoutes from './devices';
import leadExportRoutes from './export-routes';
import leadRoutes from './lead-routes';
import scanRoutes from './scan-routes';
import visitorDirectoryRoutes from './visitor-directory';
import leadFieldsRoutes from './lead-fields-routes';

// Lead capture (LD1-LD4), one route file per resource: scans from the scanning app, its device
// tokens, the leads (list, detail, qualification), their exports with the download list, and the
// visitor directory the scanner keeps offline; the organiser's choice of the visitor fields exhibitors receive.
export default async function leadsModule(app: ApiApp) {
  await app.register(scanRoutes);
  await app.register(deviceRoutes);
  await app.register(leadRoutes);
  await app.register(leadExportRoutes);
  await app.register(visitorDirectoryRoutes);
  await app.register(leadFieldsRoutes);
}

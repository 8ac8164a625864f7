import { useTranslation } from 'react-i18next';
import { WebhooksPanel } from '../components/WebhooksPanel';

// LD: Digital Tools → Integrations: the exhibitor's webhooks for its leads.
export default function IntegrationsPage() {
  const { t } = useTranslation();
  return <WebhooksPanel base="" events={['lead.created', 'lead.updated', 'lead.erased']} intro={t('webhooks.intro')} />;
}

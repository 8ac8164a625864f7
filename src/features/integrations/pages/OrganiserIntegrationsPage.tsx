import { useTranslation } from 'react-i18next';
import { WebhooksPanel } from '../components/WebhooksPanel';

// LD: the organiser's webhooks: exhibitors created, forms submitted and published, approvals decided.
export default function OrganiserIntegrationsPage() {
  const { t } = useTranslation();
  return <WebhooksPanel base="/organiser" events={['exhibitor.created', 'submission.submitted', 'approval.decided', 'form.published']} intro={t('webhooks.organiserIntro')} />;
}

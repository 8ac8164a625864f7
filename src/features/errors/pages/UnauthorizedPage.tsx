import { useTranslation } from 'react-i18next';
import { ErrorCard } from '../components/ErrorCard';

export default function UnauthorizedPage() {
  const { t } = useTranslation();
  return <ErrorCard code="401" title={t('screens.unauthorized')} text={t('errors.unauthorizedText')} />;
}

import { useTranslation } from 'react-i18next';
import { ErrorCard } from '../components/ErrorCard';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return <ErrorCard code="404" title={t('screens.notFound')} text={t('errors.notFoundText')} />;
}

import { Alert } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { FormRuntime } from '../components/FormRuntime';

/** F10: what was submitted, read-only (/orderForms/detail?form=s04). */
export default function FormDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const formId = params.get('form');
  if (!formId || !/^[a-z0-9]{2,20}$/.test(formId)) return <Alert severity="warning">{t('errors.notFound')}</Alert>;
  return <FormRuntime formId={formId} readOnly />;
}

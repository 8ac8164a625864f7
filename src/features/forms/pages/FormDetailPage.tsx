import { Navigate, useSearchParams } from 'react-router-dom';
import { SubmissionSummary } from '../components/SubmissionSummary';

/** F10: what was submitted, as a read-only summary (/orderForms/detail?form=s04); without a form, the forms list. */
export default function FormDetailPage() {
  const [params] = useSearchParams();
  const formId = params.get('form');
  if (!formId || !/^[a-z0-9]{2,20}$/.test(formId)) return <Navigate to="/orderForms" replace />;
  return <SubmissionSummary formId={formId} />;
}

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PublicCard } from '../../../components/plain/PublicCard';

export function ErrorCard({ code, title, text }: { code: string; title: string; text: string }) {
  const { t } = useTranslation();
  return (
    <PublicCard labelledBy="error-title">
      <p className="plain-code" aria-hidden>
        {code}
      </p>
      <h1 id="error-title">{title}</h1>
      <p>{text}</p>
      <Link to="/home" className="plain-button" style={{ display: 'inline-block', textDecoration: 'none' }}>
        {t('errors.goHome')}
      </Link>
    </PublicCard>
  );
}

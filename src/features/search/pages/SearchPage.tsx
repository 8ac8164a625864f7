import { Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { NotAvailable } from '../../../components/NotAvailable';

/** R3: /search?keyword= — the keyword is taken from the header; the search itself comes later (CT3). */
export default function SearchPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const keyword = params.get('keyword')?.trim() ?? '';
  return (
    <>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="h6" component="h2">
          {keyword ? t('search.resultsFor', { keyword }) : t('search.noKeyword')}
        </Typography>
      </Paper>
      <NotAvailable />
    </>
  );
}

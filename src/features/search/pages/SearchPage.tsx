import { Alert, Paper, Typography } from '@mui/material';
import { Fragment, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { PAGINATION } from '../../../engine/constants';
import { findMatches } from '../../../engine/search';
import { Pagination } from '../../../components/Pagination';
import { LinkCardSection } from '../../../components/LinkCardSection';
import { PageLoading } from '../../../components/PageLoading';
import { useApi } from '../../../lib/use-api';
import { pageSize } from '../../../engine/pagination';

/** The text with each match of the keyword (case, width and diacritics ignored) marked. */
function Highlighted({ text, keyword }: { text: string; keyword: string }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const match of findMatches(text, keyword)) {
    parts.push(text.slice(at, match.start), <mark key={match.start}>{text.slice(match.start, match.end)}</mark>);
    at = match.end;
  }
  parts.push(text.slice(at));
  return <>{parts.map((part, index) => (typeof part === 'string' ? <Fragment key={`t${index}`}>{part}</Fragment> : part))}</>;
}

/** R3 CT3: /search?keyword= — manuals, announcements, FAQ and forms, grouped by kind, paginated. */
export default function SearchPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const keyword = params.get('keyword')?.trim() ?? '';
  const [paging, setPaging] = useState({ page: PAGINATION.defaultPage, limit: PAGINATION.defaultLimit });
  const { data, error } = useApi('GET', '/search', { query: { keyword, page: paging.page, limit: pageSize(paging.limit) } }, { enabled: Boolean(keyword) });
  const kinds = data ? [...new Set(data.items.map((item) => item.kind))] : [];
  return (
    <>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="h6" component="h2">
          {keyword ? t('search.resultsFor', { keyword }) : t('search.noKeyword')}
        </Typography>
        {data && <Typography color="text.secondary">{t('search.count', { count: data.total })}</Typography>}
      </Paper>
      {error && <Alert severity="error">{error.message}</Alert>}
      {keyword && !data && !error && <PageLoading />}
      {kinds.map((kind) => (
        <LinkCardSection
          key={kind}
          title={t(`search.kind.${kind}`)}
          items={data!.items.filter((item) => item.kind === kind)}
          itemKey={(item) => `${item.kind}-${item.id}`}
          to={(item) => item.path}
        >
          {(item) => (
            <>
              <Typography component="h3" sx={{ fontWeight: 600 }}>
                <Highlighted text={item.title} keyword={data!.keyword ?? keyword} />
              </Typography>
              {item.snippet && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
                  <Highlighted text={item.snippet} keyword={data!.keyword ?? keyword} />
                </Typography>
              )}
            </>
          )}
        </LinkCardSection>
      ))}
      {data && data.total > 0 && <Pagination total={data.total} page={data.page} limit={data.limit} onChange={setPaging} />}
    </>
  );
}

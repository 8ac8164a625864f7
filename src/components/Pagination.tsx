import { useEffect, useState } from 'react';
import { Box, Button, IconButton, MenuItem, Select, TextField, Typography } from '@mui/material';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import MoreHoriz from '@mui/icons-material/MoreHoriz';
import { useTranslation } from 'react-i18next';
import { PAGINATION, SCROLL_TO_TOP_MS } from '../engine/constants';
import { formatNumber } from '../engine/locale-format';
import { currentLanguage } from '../lib/i18n';
import { pageAfterSizeChange, pageCount, pagerCount, pagerItems, pageSize } from '../engine/pagination';
import type { PageState } from '../engine/schemas/page';

/** Y7: after a page change, scroll to the top over 800 ms. */
export function scrollToTop(durationMs = SCROLL_TO_TOP_MS) {
  const start = window.scrollY;
  if (start <= 0) return;
  const began = performance.now();
  const step = (now: number) => {
    const progress = Math.min(1, (now - began) / durationMs);
    const eased = 1 - (1 - progress) ** 3;
    window.scrollTo(0, Math.round(start * (1 - eased)));
    if (progress < 1) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

function useViewportWidth() {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

/** A paged list's state from its first page; `query` is the page request the API takes. */
export function usePaging(limit: number = PAGINATION.defaultLimit) {
  const [paging, setPaging] = useState<PageState>({ page: PAGINATION.defaultPage, limit });
  return { paging, setPaging, query: { page: paging.page, limit: pageSize(paging.limit) } };
}

export interface PaginationProps {
  total: number;
  page: number;
  limit: number;
  /** `total` is an estimate (`about`) or a lower bound (`moreThan`) rather than a count. */
  totalKind?: 'exact' | 'about' | 'moreThan';
  onChange: (next: { page: number; limit: number }) => void;
}

const TOTAL_TEXT = { exact: 'pagination.total', about: 'pagination.totalAbout', moreThan: 'pagination.totalMoreThan' } as const;

/** Y8: total / prev / pager / next / jumper, sizes 10/20/30/50, pager count by viewport width. */
export function Pagination({ total, page, limit, totalKind = 'exact', onChange }: PaginationProps) {
  const { t } = useTranslation();
  const pages = pageCount(total, limit);
  const items = pagerItems(page, pages, pagerCount(useViewportWidth()));
  const [jump, setJump] = useState('');
  const go = (next: number) => {
    const target = Math.min(pages, Math.max(1, next));
    if (target === page) return;
    onChange({ page: target, limit });
    scrollToTop();
  };
  const jumpStep = PAGINATION.pagerCountWide - 2;
  return (
    <Box component="nav" aria-label={t('pagination.label')} sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', py: 2 }}>
      <Typography variant="body2">{t(TOTAL_TEXT[totalKind], { total: formatNumber(total, currentLanguage()) })}</Typography>
      <Select
        size="small"
        value={limit}
        slotProps={{ input: { 'aria-label': t('pagination.pageSize') } }}
        onChange={(event) => {
          const nextLimit = Number(event.target.value);
          onChange({ page: pageAfterSizeChange(page, nextLimit, total), limit: nextLimit });
        }}
      >
        {PAGINATION.pageSizes.map((size) => (
          <MenuItem key={size} value={size}>
            {t('pagination.perPage', { size })}
          </MenuItem>
        ))}
      </Select>
      <IconButton aria-label={t('pagination.previous')} disabled={page <= 1} onClick={() => go(page - 1)}>
        <ChevronLeft />
      </IconButton>
      {items.map((item) =>
        typeof item === 'number' ? (
          <Button
            key={item}
            size="small"
            variant={item === page ? 'contained' : 'text'}
            aria-current={item === page ? 'page' : undefined}
            aria-label={t('pagination.page', { page: item })}
            onClick={() => go(item)}
            sx={{ minWidth: 36 }}
          >
            {item}
          </Button>
        ) : (
          <IconButton
            key={item}
            aria-label={t(item === 'prev-more' ? 'pagination.morePrevious' : 'pagination.moreNext')}
            onClick={() => go(item === 'prev-more' ? page - jumpStep : page + jumpStep)}
          >
            <MoreHoriz />
          </IconButton>
        ),
      )}
      <IconButton aria-label={t('pagination.next')} disabled={page >= pages} onClick={() => go(page + 1)}>
        <ChevronRight />
      </IconButton>
      <TextField
        size="small"
        label={t('pagination.goTo')}
        value={jump}
        sx={{ width: 120 }}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        onChange={(event) => setJump(event.target.value.replace(/\D/g, ''))}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && jump) {
            go(Number(jump));
            setJump('');
          }
        }}
      />
    </Box>
  );
}

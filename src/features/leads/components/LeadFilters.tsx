import { useEffect, useState } from 'react';
import { Box, Button, IconButton, InputAdornment, MenuItem, TextField } from '@mui/material';
import Search from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import { FOLLOW_UP_ACTIONS, LEAD_TEMPERATURES, LEAD_TYPES } from '../../../engine/leads';
import { UNSET, type LeadFilters } from '../../../engine/leads-rules';
import { compareCountries, countryName } from '../../../engine/locale-format';
import { currentLanguage } from '../../../lib/i18n';
import { useApi } from '../../../lib/use-api';

export function useLeadOptions() {
  return useApi('GET', '/leads/options');
}

const ALL = '';

function CodeSelect<Code extends string>({
  label,
  value,
  codes,
  group,
  onChange,
}: {
  label: string;
  value: Code | typeof UNSET | undefined;
  codes: readonly Code[];
  group: string;
  onChange: (value: Code | typeof UNSET | undefined) => void;
}) {
  const { t } = useTranslation();
  return (
    // A select answers only the values of its own items: ALL (''), UNSET or one of `codes`.
    <TextField
      select
      size="small"
      label={label}
      value={value ?? ALL}
      onChange={(event) => onChange((event.target.value as Code | typeof UNSET) || undefined)}
      sx={{ minWidth: { xs: '100%', sm: 170 } }}
    >
      <MenuItem value={ALL}>{t('leads.filter.all')}</MenuItem>
      <MenuItem value={UNSET}>{t('leads.filter.none')}</MenuItem>
      {codes.map((code) => (
        <MenuItem key={code} value={code}>
          {t(`leads.${group}.${code}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** LD2: the list's filters; each change answers the whole new set (the page goes back to 1). */
export function LeadFiltersBar({ value, onChange }: { value: LeadFilters; onChange: (next: LeadFilters) => void }) {
  const { t } = useTranslation();
  const { data: options } = useLeadOptions();
  const [keyword, setKeyword] = useState(value.keyword ?? '');
  useEffect(() => setKeyword(value.keyword ?? ''), [value.keyword]);
  const set = (patch: Partial<LeadFilters>) => onChange({ ...value, ...patch });
  const days = options?.eventDays;
  return (
    <Box
      component="form"
      role="search"
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 2, alignItems: 'center' }}
      onSubmit={(event) => {
        event.preventDefault();
        set({ keyword: keyword.trim() || undefined });
      }}
    >
      <TextField
        size="small"
        label={t('leads.filter.keyword')}
        value={keyword}
        onChange={(event) => setKeyword(event.target.value)}
        sx={{ minWidth: { xs: '100%', sm: 300 } }}
        slotProps={{
          htmlInput: { maxLength: 100 },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton type="submit" edge="end" aria-label={t('leads.filter.search')}>
                  <Search />
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      <CodeSelect label={t('leads.field.leadType')} value={value.leadType} codes={LEAD_TYPES} group="type" onChange={(leadType) => set({ leadType })} />
      <CodeSelect label={t('leads.field.temperature')} value={value.temperature} codes={LEAD_TEMPERATURES} group="temperature" onChange={(temperature) => set({ temperature })} />
      <CodeSelect label={t('leads.field.followUp')} value={value.followUp} codes={FOLLOW_UP_ACTIONS} group="followUp" onChange={(followUp) => set({ followUp })} />
      {options && options.users.length > 1 && (
        <TextField
          select
          size="small"
          label={t('leads.field.scannedBy')}
          value={value.scannedBy ? String(value.scannedBy) : ALL}
          onChange={(event) => set({ scannedBy: event.target.value ? Number(event.target.value) : undefined })}
          sx={{ minWidth: { xs: '100%', sm: 170 } }}
        >
          <MenuItem value={ALL}>{t('leads.filter.all')}</MenuItem>
          {options.users.map((user) => (
            <MenuItem key={user.id} value={String(user.id)}>
              {user.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        select
        size="small"
        label={t('leads.field.country')}
        value={value.country ?? ALL}
        onChange={(event) => set({ country: event.target.value || undefined })}
        sx={{ minWidth: { xs: '100%', sm: 170 } }}
      >
        <MenuItem value={ALL}>{t('leads.filter.all')}</MenuItem>
        {[...(options?.countries ?? [])].sort(compareCountries(currentLanguage())).map((country) => (
          <MenuItem key={country} value={country}>
            {countryName(country, currentLanguage())}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        type="date"
        label={t('leads.filter.from')}
        value={value.from ?? ''}
        onChange={(event) => set({ from: event.target.value || undefined })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: days?.first, max: value.to ?? days?.last } }}
      />
      <TextField
        size="small"
        type="date"
        label={t('leads.filter.to')}
        value={value.to ?? ''}
        onChange={(event) => set({ to: event.target.value || undefined })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: value.from ?? days?.first, max: days?.last } }}
      />
      <Button onClick={() => onChange({})}>{t('leads.filter.clear')}</Button>
    </Box>
  );
}

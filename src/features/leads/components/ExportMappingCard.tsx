import { useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, IconButton, MenuItem, Stack, TextField, Typography } from '@mui/material';
import Delete from '@mui/icons-material/Delete';
import { useTranslation } from 'react-i18next';
import {
  EXPORT_COLUMNS_MAX,
  EXPORT_FIELDS,
  EXPORT_HEADER_MAX,
  EXPORT_PRESETS,
  type ExportColumn,
  type ExportField,
  type ExportPreset,
} from '../../../engine/schemas/export-mapping';
import { SUCCESS_MESSAGES } from '../../../engine/errors';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import { showToast } from '../../../lib/toast';

/**
 * LD4: the exhibitor's CRM export format: the portal's own, Salesforce's or HubSpot's lead import
 * columns, or its own columns (lead field → column name). Exports and webhook payloads use it.
 * A team user sees it; only the exhibitor changes it.
 */
export function ExportMappingCard({ canChange }: { canChange: boolean }) {
  const { t } = useTranslation();
  const { data, mutate } = useApi('GET', '/leads/export-mapping');
  const [preset, setPreset] = useState<ExportPreset | null>(null);
  const [columns, setColumns] = useState<ExportColumn[]>([]);
  const [problem, setProblem] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (data && preset === null) {
      setPreset(data.mapping.preset);
      setColumns(data.mapping.preset === 'custom' ? [...data.mapping.columns] : []);
    }
  }, [data, preset]);
  if (!data || preset === null) return null;
  const fieldLabel = (field: ExportField) => (field === 'firstName' || field === 'lastName' ? t(`leads.mapping.${field}`) : t(`leads.field.${field}`));
  const shownColumns = preset === 'salesforce' || preset === 'hubspot' ? data.presets[preset] : preset === 'custom' ? columns : [];

  const save = async () => {
    if (preset === 'custom' && (columns.length === 0 || columns.some((column) => !column.header.trim()))) {
      setProblem(t('leads.mapping.columnsRequired'));
      return;
    }
    setSaving(true);
    try {
      await typedApi.put('/leads/export-mapping', { body: { preset, columns: preset === 'custom' ? columns : [] } });
      showToast('success', t(SUCCESS_MESSAGES.saved));
      await mutate();
    } catch {
      // The API client has shown the reason.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('leads.mapping.title')}
        </Typography>
        <Typography sx={{ mb: 2 }}>{t('leads.mapping.intro')}</Typography>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <TextField
            select
            size="small"
            label={t('leads.mapping.preset')}
            value={preset}
            disabled={!canChange}
            onChange={(event) => {
              setPreset(event.target.value as ExportPreset);
              setProblem('');
            }}
            sx={{ minWidth: { xs: 0, sm: 260 }, maxWidth: '100%', alignSelf: { xs: 'stretch', sm: 'flex-start' } }}
          >
            {EXPORT_PRESETS.map((each) => (
              <MenuItem key={each} value={each}>
                {t(`leads.mapping.presets.${each}`)}
              </MenuItem>
            ))}
          </TextField>
          {preset !== 'custom' && shownColumns.length > 0 && (
            <Typography variant="body2" color="text.secondary">
              {t('leads.mapping.columns')}: {shownColumns.map((column) => column.header).join(', ')}
            </Typography>
          )}
          {preset === 'custom' && (
            <Stack spacing={1} role="group" aria-label={t('leads.mapping.columns')}>
              {columns.map((column, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place and have no identity of their own
                <Box key={index} sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                  <TextField
                    select
                    size="small"
                    label={t('leads.mapping.field', { n: index + 1 })}
                    value={column.field}
                    disabled={!canChange}
                    onChange={(event) => setColumns(columns.map((each, at) => (at === index ? { ...each, field: event.target.value as ExportField } : each)))}
                    sx={{ minWidth: { xs: 0, sm: 200 }, maxWidth: '100%' }}
                  >
                    {EXPORT_FIELDS.map((field) => (
                      <MenuItem key={field} value={field}>
                        {fieldLabel(field)}
                      </MenuItem>
                    ))}
                  </TextField>
                  <TextField
                    size="small"
                    label={t('leads.mapping.header', { n: index + 1 })}
                    value={column.header}
                    disabled={!canChange}
                    slotProps={{ htmlInput: { maxLength: EXPORT_HEADER_MAX } }}
                    onChange={(event) => {
                      setColumns(columns.map((each, at) => (at === index ? { ...each, header: event.target.value } : each)));
                      setProblem('');
                    }}
                  />
                  {canChange && (
                    <IconButton aria-label={t('leads.mapping.remove', { n: index + 1 })} onClick={() => setColumns(columns.filter((_, at) => at !== index))}>
                      <Delete />
                    </IconButton>
                  )}
                </Box>
              ))}
              {canChange && columns.length < EXPORT_COLUMNS_MAX && (
                <Button sx={{ alignSelf: 'flex-start' }} onClick={() => setColumns([...columns, { field: 'email', header: '' }])}>
                  {t('leads.mapping.add')}
                </Button>
              )}
            </Stack>
          )}
          {problem && <Alert severity="error">{problem}</Alert>}
          {canChange && (
            <Button variant="contained" disabled={saving} onClick={() => void save()}>
              {t('leads.mapping.save')}
            </Button>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}

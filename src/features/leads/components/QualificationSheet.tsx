import { useState } from 'react';
import { Box, Button, Checkbox, Drawer, FormControlLabel, FormGroup, FormLabel, MenuItem, Stack, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { FOLLOW_UP_ACTIONS, LEAD_TEMPERATURES, LEAD_TYPES } from '../../../engine/leads';
import { LEAD_NOTES_MAX } from '../../../engine/leads-rules';
import type { TagDefinition } from '../../../engine/schemas/custom-tag';

// LD3 at the booth: the qualification of a scanned lead in one compact bottom sheet (temperature,
// lead type, follow-up action, notes and the exhibitor's custom tags, with the lead detail's
// labels). It is opened by a tap and closed by saving or swiping away: the next scan never waits.

export interface SheetQualification {
  leadType?: string;
  temperature?: string;
  followUp?: string;
  notes?: string;
  tagAnswers?: Record<string, string[]>;
}

export function QualificationSheet({
  open,
  title,
  initial,
  tags,
  onSave,
  onClose,
}: {
  open: boolean;
  title: string;
  initial: SheetQualification;
  tags: TagDefinition[];
  onSave: (qualification: SheetQualification) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form, setForm] = useState<SheetQualification>(initial);
  const [missing, setMissing] = useState<string[]>([]);
  const set = (patch: Partial<SheetQualification>) => {
    setForm((current) => ({ ...current, ...patch }));
    setMissing((current) => current.filter((field) => !(field in patch)));
  };
  // The lead detail's rule: a qualified lead has its type, temperature and follow-up action.
  const save = () => {
    const absent = (['leadType', 'temperature', 'followUp'] as const).filter((field) => !form[field]);
    setMissing(absent);
    if (absent.length === 0) onSave(form);
  };

  const select = (field: 'leadType' | 'followUp', codes: readonly string[], group: string) => (
    <TextField
      select
      required
      fullWidth
      size="small"
      label={t(`leads.field.${field}`)}
      value={form[field] ?? ''}
      onChange={(event) => set({ [field]: event.target.value || undefined })}
      error={missing.includes(field)}
      helperText={missing.includes(field) ? t(`leads.required.${field}`) : undefined}
    >
      {codes.map((code) => (
        <MenuItem key={code} value={code}>
          {t(`leads.${group}.${code}`)}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Drawer anchor="bottom" open={open} onClose={onClose} slotProps={{ paper: { sx: { maxHeight: '85vh', borderTopLeftRadius: 12, borderTopRightRadius: 12 } } }}>
      <Box
        component="form"
        noValidate
        aria-label={title}
        sx={{ p: 2, maxWidth: 560, mx: 'auto', width: '100%', boxSizing: 'border-box' }}
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <Typography variant="h6" component="h2" sx={{ mb: 1.5, overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
        <Stack spacing={1.5}>
          <Box>
            <FormLabel id="sheet-temperature" sx={{ display: 'block', mb: 0.5 }}>
              {t('leads.field.temperature')} *
            </FormLabel>
            <ToggleButtonGroup
              exclusive
              fullWidth
              size="small"
              aria-labelledby="sheet-temperature"
              value={form.temperature ?? null}
              onChange={(_event, value: string | null) => set({ temperature: value ?? undefined })}
            >
              {LEAD_TEMPERATURES.map((code) => (
                <ToggleButton key={code} value={code}>
                  {t(`leads.temperature.${code}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
            {missing.includes('temperature') && (
              <Typography variant="caption" color="error" role="alert">
                {t('leads.required.temperature')}
              </Typography>
            )}
          </Box>
          {select('leadType', LEAD_TYPES, 'type')}
          {select('followUp', FOLLOW_UP_ACTIONS, 'followUp')}
          <TextField
            label={t('leads.field.notes')}
            multiline
            minRows={2}
            size="small"
            value={form.notes ?? ''}
            onChange={(event) => set({ notes: event.target.value })}
            slotProps={{ htmlInput: { maxLength: LEAD_NOTES_MAX } }}
          />
          {tags.map((tag) => {
            const chosen = form.tagAnswers?.[String(tag.id)] ?? [];
            return (
              <Box key={tag.id} component="fieldset" sx={{ border: 0, m: 0, p: 0 }}>
                <FormLabel component="legend">{tag.name}</FormLabel>
                <FormGroup row>
                  {tag.choices.map((choice) => (
                    <FormControlLabel
                      key={choice}
                      label={choice}
                      control={
                        <Checkbox
                          size="small"
                          checked={chosen.includes(choice)}
                          onChange={(event) => {
                            const next = event.target.checked ? [...chosen, choice] : chosen.filter((c) => c !== choice);
                            set({ tagAnswers: { ...form.tagAnswers, [String(tag.id)]: next } });
                          }}
                        />
                      }
                    />
                  ))}
                </FormGroup>
              </Box>
            );
          })}
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
            <Button onClick={onClose}>{t('leads.scanner.sheet.close')}</Button>
            <Button type="submit" variant="contained">
              {t('leads.scanner.sheet.save')}
            </Button>
          </Stack>
        </Stack>
      </Box>
    </Drawer>
  );
}

import { useState, type FormEvent } from 'react';
import { Alert, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_OPTIONS } from '../../../engine/language';
import { typedApi } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';
import { showToast } from '../../../lib/toast';
import { useEvent, type EventSummary } from '../api';

type Field = 'code' | 'names' | 'firstShowDay';

/** A date a year on, on the same weekday (52 weeks): next year's run of a show usually keeps its weekdays. */
const sameWeekdayNextYear = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 364 * 86_400_000).toISOString().slice(0, 10);

/**
 * O2: "New event from …": the new event's code, names and first show day; every other date of the
 * source moves by the same number of days on the server. Opens the new event's settings to review.
 */
export function CloneEventDialog({ source, onClose, onCloned }: { source: EventSummary; onClose: () => void; onCloned: (id: number) => void }) {
  const { t } = useTranslation();
  const { data: event } = useEvent(source.id);
  const [code, setCode] = useState('');
  const [names, setNames] = useState<Record<string, string>>({});
  const [firstShowDay, setFirstShowDay] = useState<string | null>(null);
  const [carryExhibitors, setCarryExhibitors] = useState(true);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState(false);
  const sourceFirstDay = event?.showDays[0]?.date;
  const day = firstShowDay ?? (sourceFirstDay ? sameWeekdayNextYear(sourceFirstDay) : '');
  const defaultLanguage = event?.defaultLanguage ?? 'en';

  const submit = async (submitted: FormEvent) => {
    submitted.preventDefault();
    setErrors({});
    setFormError('');
    setBusy(true);
    try {
      const filled = Object.fromEntries(Object.entries(names).filter(([, name]) => name.trim() !== ''));
      const answer = await typedApi.post('/organiser/events/{id}/clone', {
        path: { id: source.id },
        body: { code: code.trim(), names: filled, firstShowDay: day, carryExhibitors },
        silent: true,
      });
      showToast('success', t('organiser.events.cloned', { code: code.trim(), event: source.name }));
      onCloned(answer.id);
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      const fields = (failure.data as { fields?: Record<string, string> } | undefined)?.fields ?? {};
      const mine: Partial<Record<Field, string>> = {};
      for (const [path, key] of Object.entries(fields)) {
        const field = (['code', 'names', 'firstShowDay'] as const).find((name) => path === name || path.startsWith(`${name}.`) || path.startsWith(`${name}/`));
        if (field) mine[field] = t(key);
      }
      setErrors(mine);
      if (Object.keys(mine).length === 0) setFormError(failure.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="clone-event-title" fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="clone-event-title">{t('organiser.events.cloneTitle', { event: source.name })}</DialogTitle>
        <DialogContent>
          <Stack spacing={1.5} sx={{ pt: 1 }}>
            <DialogContentText>{t('organiser.events.cloneIntro')}</DialogContentText>
            {formError && <Alert severity="error">{formError}</Alert>}
            <TextField
              label={t('organiser.event.code')}
              value={code}
              required
              autoComplete="off"
              onChange={(change) => setCode(change.target.value)}
              error={Boolean(errors.code)}
              helperText={errors.code ?? t('organiser.event.codeHelp')}
              slotProps={{ htmlInput: { maxLength: 64 } }}
            />
            {LANGUAGE_OPTIONS.map((option) => (
              <TextField
                key={option.code}
                label={t('organiser.event.nameIn', { language: option.label })}
                value={names[option.code] ?? ''}
                required={option.code === defaultLanguage}
                autoComplete="off"
                onChange={(change) => setNames((current) => ({ ...current, [option.code]: change.target.value }))}
                error={option.code === defaultLanguage && Boolean(errors.names)}
                helperText={option.code === defaultLanguage ? errors.names : undefined}
                slotProps={{ htmlInput: { maxLength: 200 } }}
              />
            ))}
            <TextField
              label={t('organiser.events.cloneFirstShowDay')}
              type="date"
              value={day}
              required
              onChange={(change) => setFirstShowDay(change.target.value)}
              error={Boolean(errors.firstShowDay)}
              helperText={errors.firstShowDay}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <FormControlLabel
              control={<Checkbox checked={carryExhibitors} onChange={(change) => setCarryExhibitors(change.target.checked)} />}
              label={t('organiser.events.cloneCarry')}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {t('organiser.events.cloneCancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={busy || !event}>
            {t('organiser.events.cloneCreate')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

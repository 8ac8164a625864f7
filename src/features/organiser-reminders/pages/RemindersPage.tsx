import { useEffect, useState } from 'react';
import type { UiSchema } from '@rjsf/utils';
import { Alert, Box, Button, Checkbox, FormControlLabel, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import { showToast } from '../../../lib/toast';
import { PageLoading } from '../../../components/PageLoading';
import { SchemaForm } from '../../../components/form-runtime/SchemaForm';
import { consoleFormSchema } from '../../../engine/schemas/console-forms';
import { reminderDaysSchema, type ReminderDays } from '../../../engine/schemas/reminder';
import { reminderDaysValidators } from '../../../generated/entity-validators';
import { formatEventTimeWithOffset } from '../../../engine/locale-format';
import { useDateLocale } from '../../../lib/date-locale';
import { useAccountInfo } from '../../../lib/session';

// Reminders: the reminder days of the event, "send a reminder now" to the exhibitors
// with mandatory forms missing, and the reminders sent.

const DAYS_SCHEMA = consoleFormSchema(reminderDaysSchema);
/** The reminder days typed in one input ("14, 7, 1"), checked by the schema the route validates with. */
const DAYS_UI: UiSchema = { days: { 'ui:field': 'numberList', 'ui:title': 'reminders.days', 'ui:help': 'reminders.daysHelp' } };

export default function RemindersPage() {
  const { t } = useTranslation();
  // K2: times in the organiser's current event's time, in the user's language.
  const offsetMinutes = useAccountInfo().data?.utcOffsetMinutes ?? 0;
  const dates = useDateLocale();
  const reminders = useApi('GET', '/organiser/reminders');
  const missing = useApi('GET', '/organiser/progress', { query: { missing: true } });
  const [days, setDays] = useState<ReminderDays>({ days: [] });
  const [selected, setSelected] = useState<number[]>([]);
  useEffect(() => {
    if (reminders.data) setDays({ days: reminders.data.days });
  }, [reminders.data]);

  const saveDays = async (edited: ReminderDays) => {
    await typedApi.put('/organiser/reminders', { body: edited });
    showToast('success', t('reminders.saved'));
    void reminders.mutate();
  };
  const send = async () => {
    const result = await typedApi.post('/organiser/reminders/send', { body: { participationIds: selected } });
    showToast('success', t('reminders.sentToast', result));
    setSelected([]);
    void reminders.mutate();
  };
  const codeOf = new Map(missing.data?.forms.map((f) => [f.id, f.code]));
  const rows = missing.data?.rows ?? [];

  return (
    <Stack spacing={4}>
      <Box component="section">
        {reminders.error && <Alert severity="error">{reminders.error.message}</Alert>}
        <Box sx={{ maxWidth: 480 }}>
          <SchemaForm
            schema={DAYS_SCHEMA}
            validators={reminderDaysValidators}
            ui={DAYS_UI}
            data={days}
            onChange={setDays}
            onSubmit={(edited) => void saveDays(edited)}
            problems={{}}
          >
            <Button type="submit" variant="contained">
              {t('reminders.save')}
            </Button>
          </SchemaForm>
        </Box>
      </Box>

      <Box component="section" aria-labelledby="reminders-send">
        <Typography id="reminders-send" variant="h6" component="h2">
          {t('reminders.sendTitle')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('reminders.sendHelp')}
        </Typography>
        {!missing.data && !missing.error && <PageLoading />}
        {missing.data && rows.length === 0 && <Typography>{t('reminders.noneMissing')}</Typography>}
        {rows.length > 0 && (
          <>
            <FormControlLabel
              control={
                <Checkbox
                  checked={selected.length === rows.length}
                  indeterminate={selected.length > 0 && selected.length < rows.length}
                  onChange={(e) => setSelected(e.target.checked ? rows.map((r) => r.participationId) : [])}
                />
              }
              label={t('reminders.selectAll')}
            />
            <List dense sx={{ maxHeight: 360, overflow: 'auto' }}>
              {rows.map((row) => (
                <ListItem key={row.participationId} disableGutters>
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={selected.includes(row.participationId)}
                        onChange={(e) => setSelected((current) => (e.target.checked ? [...current, row.participationId] : current.filter((id) => id !== row.participationId)))}
                      />
                    }
                    label={`${row.exhibitor} · ${row.boothNum} — ${row.missingMandatory.map((id) => codeOf.get(id) ?? id).join(', ')}`}
                  />
                </ListItem>
              ))}
            </List>
            <Button variant="contained" disabled={selected.length === 0} onClick={() => void send()}>
              {t('reminders.send', { count: selected.length })}
            </Button>
          </>
        )}
      </Box>

      <Box component="section" aria-labelledby="reminders-recent">
        <Typography id="reminders-recent" variant="h6" component="h2">
          {t('reminders.recent')}
        </Typography>
        {reminders.data?.recent.length === 0 && <Typography color="text.secondary">{t('reminders.noneSent')}</Typography>}
        <List dense>
          {reminders.data?.recent.map((r, index) => (
            <ListItem key={index} disableGutters>
              <ListItemText
                primary={`${r.exhibitor} — ${r.forms.join(', ')}`}
                secondary={`${formatEventTimeWithOffset(r.at, dates, offsetMinutes)} · ${r.daysBefore !== null ? t('reminders.automatic', { days: r.daysBefore }) : t('reminders.by', { name: r.by })}`}
              />
            </ListItem>
          ))}
        </List>
      </Box>
    </Stack>
  );
}

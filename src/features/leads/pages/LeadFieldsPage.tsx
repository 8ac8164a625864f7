import { useEffect, useState } from 'react';
import { Alert, Button, Card, CardContent, Checkbox, FormControlLabel, FormGroup, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { LEAD_VISITOR_FIELDS, type LeadVisitorField } from '../../../engine/lead-fields';
import { SUCCESS_MESSAGES } from '../../../engine/errors';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import { showToast } from '../../../lib/toast';

// LD2: the organiser chooses which visitor fields the current event's exhibitors receive with
// their leads (list, detail, exports, the leads API, webhooks, the scanner's offline directory).
// Unticking a field keeps it from every exhibitor from their next read on.

export default function LeadFieldsPage() {
  const { t } = useTranslation();
  const { data, error, mutate } = useApi('GET', '/organiser/lead-fields');
  const [hidden, setHidden] = useState<LeadVisitorField[] | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (data && hidden === null) setHidden([...data.hidden]);
  }, [data, hidden]);

  const save = async () => {
    if (!hidden) return;
    setSaving(true);
    try {
      await typedApi.put('/organiser/lead-fields', { body: { hidden } });
      showToast('success', t(SUCCESS_MESSAGES.saved));
      await mutate();
    } catch {
      // The API client has shown the reason.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack spacing={2}>
      {error && <Alert severity="error">{error.message}</Alert>}
      <Card variant="outlined">
        <CardContent>
          <Typography sx={{ mb: 2 }}>{t('leadFields.intro')}</Typography>
          {hidden && (
            <FormGroup role="group" aria-label={t('leadFields.fields')}>
              {LEAD_VISITOR_FIELDS.map((field) => (
                <FormControlLabel
                  key={field}
                  label={t(`leads.field.${field}`)}
                  control={
                    <Checkbox
                      checked={!hidden.includes(field)}
                      onChange={(event) => setHidden(LEAD_VISITOR_FIELDS.filter((each) => (each === field ? !event.target.checked : hidden.includes(each))))}
                    />
                  }
                />
              ))}
            </FormGroup>
          )}
          <Button sx={{ mt: 2 }} variant="contained" disabled={!hidden || saving} onClick={() => void save()}>
            {t('leadFields.save')}
          </Button>
        </CardContent>
      </Card>
    </Stack>
  );
}

import { useState } from 'react';
import { Alert, Box, Button, FormControl, FormControlLabel, FormLabel, Paper, Radio, RadioGroup, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import type { EditorApi, Impact, SubmissionsChoice } from './editor-api';

// F11: before publishing, what the draft does to the event's exhibitors (drafts and submissions,
// answers dropped, submissions no longer valid, questions new or changed); then publishing, keeping
// those submissions as they are or reopening them for the new or changed questions. A publish based
// on an older version (someone else published meanwhile) or with problems is refused and said so.

/** One line of the impact: a number or a list under its name, in words where the locale has them. */
function ImpactLine({ name, value }: { name: string; value: unknown }) {
  const { t, i18n } = useTranslation();
  const label = i18n.exists(`formEditor.impact.${name}`) ? t(`formEditor.impact.${name}`) : name;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean')
    return (
      <li>
        {label}: <strong>{String(value)}</strong>
      </li>
    );
  if (Array.isArray(value))
    return (
      <li>
        {label}: <strong>{value.length}</strong>
        {value.length > 0 && (
          <Box component="ul" sx={{ pl: 2 }}>
            {value.slice(0, 20).map((item, index) => (
              <li key={index}>
                {typeof item === 'object' && item !== null
                  ? Object.values(item as object)
                      .filter((part) => typeof part !== 'object')
                      .join(' · ')
                  : String(item)}
              </li>
            ))}
          </Box>
        )}
      </li>
    );
  if (value && typeof value === 'object')
    return (
      <li>
        {label}
        <Box component="ul" sx={{ pl: 2 }}>
          {Object.entries(value).map(([key, inner]) => (
            <ImpactLine key={key} name={key} value={inner} />
          ))}
        </Box>
      </li>
    );
  return null;
}

export function PublishPanel({
  api,
  eventId,
  formId,
  basedOn,
  canPublish,
  onPublished,
}: {
  api: EditorApi;
  eventId: string;
  formId: string;
  basedOn: string;
  /** False while the draft has problems or is being saved. */
  canPublish: boolean;
  onPublished: () => void;
}) {
  const { t } = useTranslation();
  const [impact, setImpact] = useState<Impact | null>(null);
  const [loading, setLoading] = useState(false);
  const [comment, setComment] = useState('');
  const [submissions, setSubmissions] = useState<SubmissionsChoice>('keep');
  const [outcome, setOutcome] = useState<{ severity: 'success' | 'error'; text: string; problems?: string[] } | null>(null);

  const readImpact = async () => {
    setLoading(true);
    setOutcome(null);
    try {
      setImpact(await api.impact(eventId, formId));
    } catch (error) {
      setOutcome({ severity: 'error', text: (error as Error).message });
    } finally {
      setLoading(false);
    }
  };

  const publish = async () => {
    setLoading(true);
    try {
      await api.publish(eventId, formId, { basedOn, comment, submissions });
      setOutcome({ severity: 'success', text: t('formEditor.published') });
      setImpact(null);
      setComment('');
      onPublished();
    } catch (error) {
      if (isApiError(error) && error.status === 409) setOutcome({ severity: 'error', text: t('formEditor.stale') });
      else if (isApiError(error) && error.status === 422) {
        const problems = ((error.data as { problems?: Array<{ path: string; message: string }> } | undefined)?.problems ?? []).map(
          (problem) => `${problem.path}: ${problem.message}`,
        );
        setOutcome({ severity: 'error', text: t('formEditor.publishProblems'), problems });
      } else setOutcome({ severity: 'error', text: (error as Error).message });
    } finally {
      setLoading(false);
    }
  };

  return (
    <Paper sx={{ p: 2 }} component="section" aria-labelledby="publish-heading">
      <Typography id="publish-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('formEditor.publishHeading')}
      </Typography>
      <Stack spacing={2}>
        <Button variant="outlined" onClick={readImpact} disabled={loading} sx={{ alignSelf: 'flex-start' }}>
          {t('formEditor.showImpact')}
        </Button>
        {impact && (
          <Box component="section" aria-label={t('formEditor.impactHeading')}>
            <Typography variant="subtitle1" component="h3">
              {t('formEditor.impactHeading')}
            </Typography>
            <Box component="ul" sx={{ pl: 2, my: 1 }}>
              {Object.entries(impact).map(([name, value]) => (
                <ImpactLine key={name} name={name} value={value} />
              ))}
            </Box>
          </Box>
        )}
        <FormControl>
          <FormLabel id="submissions-choice">{t('formEditor.submissionsChoice')}</FormLabel>
          <RadioGroup aria-labelledby="submissions-choice" value={submissions} onChange={(event) => setSubmissions(event.target.value as SubmissionsChoice)}>
            <FormControlLabel value="keep" control={<Radio />} label={t('formEditor.keepSubmissions')} />
            <FormControlLabel value="reopen" control={<Radio />} label={t('formEditor.reopenSubmissions')} />
          </RadioGroup>
        </FormControl>
        <TextField size="small" label={t('formEditor.comment')} value={comment} onChange={(event) => setComment(event.target.value)} />
        {!canPublish && <Alert severity="info">{t('formEditor.fixProblemsFirst')}</Alert>}
        <Button variant="contained" onClick={publish} disabled={loading || !canPublish} sx={{ alignSelf: 'flex-start' }}>
          {t('formEditor.publish')}
        </Button>
        {outcome && (
          <Alert severity={outcome.severity} role={outcome.severity === 'error' ? 'alert' : 'status'}>
            {outcome.text}
            {outcome.problems && outcome.problems.length > 0 && (
              <Box component="ul" sx={{ pl: 2, mb: 0 }}>
                {outcome.problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </Box>
            )}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

import { useState } from 'react';
import { Alert, Box, Button, FormControl, FormControlLabel, FormLabel, Paper, Radio, RadioGroup, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import type { EditorApi, Impact, SubmissionsChoice } from './editor-api';

// F11: before publishing, what the draft does to the event's exhibitors (drafts and submissions,
// answers dropped, submissions no longer valid, questions new or changed); then publishing, keeping
// those submissions as they are or reopening them for the new or changed questions. A publish based
// on an older version (someone else published meanwhile) or with problems is refused and said so.

/** What publishing does, in numbers and the questions concerned (each by its title in the editor's language). */
function ImpactView({ impact, label }: { impact: Impact; label: (key: string | null, fallback: string) => string }) {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-label={t('formEditor.impactHeading')}>
      <Typography variant="subtitle1" component="h3">
        {t('formEditor.impactHeading')}
      </Typography>
      <Box component="ul" sx={{ pl: 2, my: 1 }}>
        <li>{t('formEditor.impact.submissions', { count: impact.submissions })}</li>
        <li>{t('formEditor.impact.drafts', { count: impact.drafts })}</li>
        <li>
          {t('formEditor.impact.invalid', { count: impact.invalidCount })}
          {impact.invalid.length > 0 && (
            <Box component="ul" sx={{ pl: 2 }}>
              {impact.invalid.map((entry) => (
                <li key={entry.participationId}>
                  {entry.company} ({entry.exhibitor})
                </li>
              ))}
            </Box>
          )}
        </li>
        {impact.dropped.map((entry) => (
          <li key={entry.path}>{t('formEditor.impact.dropped', { question: label(entry.title, entry.path), count: entry.answers })}</li>
        ))}
        {impact.questions.map((entry) => (
          <li key={entry.path}>{t(`formEditor.impact.${entry.kind}`, { question: label(entry.title, entry.path) })}</li>
        ))}
      </Box>
    </Box>
  );
}

export function PublishPanel({
  api,
  eventId,
  formId,
  basedOn,
  canPublish,
  onPublished,
  label,
}: {
  api: EditorApi;
  eventId: number;
  formId: string;
  basedOn: number;
  label: (key: string | null, fallback: string) => string;
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
      const done = await api.publish(eventId, formId, { basedOn, comment, submissions });
      setOutcome({ severity: 'success', text: t('formEditor.published', { number: done.version.number, reopened: done.reopened }) });
      setImpact(null);
      setComment('');
      onPublished();
    } catch (error) {
      if (isApiError(error) && error.status === 409) setOutcome({ severity: 'error', text: error.message || t('formEditor.stale') });
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
        {impact && <ImpactView impact={impact} label={label} />}
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

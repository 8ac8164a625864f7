import { optionalListingOf, uniqueListings } from '../../../engine/forms/patch-editor-listings';
import type { OptionalListing } from '../../../engine/schemas/optional-listing';
import { useState } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  QUESTION_KINDS,
  type Condition,
  type NewQuestion,
  type OptionInput,
  type Question,
  type QuestionKind,
  type Texts,
  type TouchedReference,
} from '../../../engine/forms/patch-editor';
import { TextsFields } from './TextsFields';

// F11: the form editor's dialogs: a new question, a question's texts, its condition, and a removal
// that touches a field forms.yaml names (with the fix offered in the same step).

export interface OptionDraft {
  code: string;
  labels: Texts;
}

function OptionsEditor({ options, onChange, fixed = new Set<string>() }: { options: OptionDraft[]; onChange: (options: OptionDraft[]) => void; fixed?: ReadonlySet<string> }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      {options.map((option, index) => (
        <Box key={index} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 1 }}>
            <TextField
              size="small"
              label={t('formEditor.optionCode', { number: index + 1 })}
              value={option.code}
              disabled={fixed.has(option.code)}
              onChange={(event) => onChange(options.map((other, i) => (i === index ? { ...other, code: event.target.value } : other)))}
            />
            <IconButton aria-label={t('formEditor.removeOption', { number: index + 1 })} onClick={() => onChange(options.filter((_, i) => i !== index))}>
              ×
            </IconButton>
          </Box>
          {fixed.has(option.code) ? (
            <Typography variant="body2" color="text.secondary">
              {t('formEditor.sharedOption')}
            </Typography>
          ) : (
            <TextsFields
              what={t('formEditor.optionLabel', { number: index + 1 })}
              texts={option.labels}
              onChange={(labels) => onChange(options.map((other, i) => (i === index ? { ...other, labels } : other)))}
            />
          )}
        </Box>
      ))}
      <Button variant="outlined" onClick={() => onChange([...options, { code: '', labels: {} }])} sx={{ alignSelf: 'flex-start' }}>
        {t('formEditor.addOption')}
      </Button>
    </Stack>
  );
}

/** A new question: kind, id, texts in four languages, options or upload purpose, required. */
export function AddQuestionDialog({
  open,
  container,
  purposes,
  error,
  onCancel,
  onAdd,
}: {
  open: boolean;
  container: string[];
  purposes: string[];
  error: string | null;
  onCancel: () => void;
  onAdd: (question: NewQuestion) => void;
}) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<QuestionKind>('text');
  const [id, setId] = useState('');
  const [title, setTitle] = useState<Texts>({});
  const [help, setHelp] = useState<Texts>({});
  const [required, setRequired] = useState(false);
  const [options, setOptions] = useState<OptionDraft[]>([{ code: '', labels: {} }]);
  const [purpose, setPurpose] = useState(purposes[0] ?? '');
  return (
    <Dialog open={open} onClose={onCancel} fullWidth maxWidth="md" aria-labelledby="add-question-title">
      <DialogTitle id="add-question-title">{t('formEditor.addQuestionTitle')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {error && <Alert severity="error">{error}</Alert>}
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <TextField select size="small" label={t('formEditor.kind')} value={kind} onChange={(event) => setKind(event.target.value as QuestionKind)}>
              {QUESTION_KINDS.map((option) => (
                <MenuItem key={option} value={option}>
                  {t(`formEditor.kinds.${option}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              size="small"
              label={t('formEditor.questionId')}
              value={id}
              onChange={(event) => setId(event.target.value.trim())}
              helperText={t('formEditor.questionIdHelp')}
            />
          </Box>
          <TextsFields what={t('formEditor.questionTitle')} texts={title} onChange={setTitle} />
          <TextsFields what={t('formEditor.helpText')} texts={help} onChange={setHelp} flagMissing={false} multiline />
          {kind === 'choice' && <OptionsEditor options={options} onChange={setOptions} />}
          {kind === 'file' && (
            // The purposes this form's file fields use, or another that forms.yaml declares (the draft's checks judge it).
            <Autocomplete
              freeSolo
              options={purposes}
              value={purpose}
              onInputChange={(_, value) => setPurpose(value.trim())}
              renderInput={(params) => <TextField {...params} size="small" label={t('formEditor.purpose')} helperText={t('formEditor.purposeHelp')} />}
            />
          )}
          <FormControlLabel control={<Checkbox checked={required} onChange={(event) => setRequired(event.target.checked)} />} label={t('formEditor.required')} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('formEditor.cancel')}</Button>
        <Button
          variant="contained"
          onClick={() =>
            onAdd({
              container,
              id,
              kind,
              title,
              help,
              required,
              options: kind === 'choice' ? (options as OptionInput[]) : undefined,
              purpose: kind === 'file' ? purpose : undefined,
            })
          }
        >
          {t('formEditor.add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A question's title, help and (a choice) options in four languages. */
export function TextsDialog({
  question,
  initial,
  sharedOptions,
  error,
  onCancel,
  onSave,
}: {
  question: Question;
  initial: { title: Texts; help: Texts; options: OptionDraft[] };
  sharedOptions: ReadonlySet<string>;
  error: string | null;
  onCancel: () => void;
  onSave: (texts: { title: Texts; help: Texts; options: OptionDraft[] | null }) => void;
}) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(initial.title);
  const [help, setHelp] = useState(initial.help);
  const [options, setOptions] = useState(initial.options);
  return (
    <Dialog open onClose={onCancel} fullWidth maxWidth="md" aria-labelledby="texts-title">
      <DialogTitle id="texts-title">{t('formEditor.textsTitle', { question: question.id })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {error && <Alert severity="error">{error}</Alert>}
          {question.inBase && <Alert severity="info">{t('formEditor.baseTextsNote')}</Alert>}
          <TextsFields what={t('formEditor.questionTitle')} texts={title} onChange={setTitle} />
          <TextsFields what={t('formEditor.helpText')} texts={help} onChange={setHelp} flagMissing={false} multiline />
          {question.kind === 'choice' && <OptionsEditor options={options} onChange={setOptions} fixed={sharedOptions} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('formEditor.cancel')}</Button>
        <Button variant="contained" onClick={() => onSave({ title, help, options: question.kind === 'choice' ? options : null })}>
          {t('formEditor.apply')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** "Show this question when <question> is <answer>", among the questions of the same object. */
export function ConditionDialog({
  question,
  candidates,
  label,
  error,
  onCancel,
  onSave,
}: {
  question: Question;
  candidates: Question[];
  label: (key: string | null, fallback: string) => string;
  error: string | null;
  onCancel: () => void;
  onSave: (condition: Condition | null) => void;
}) {
  const { t } = useTranslation();
  const usable = candidates.filter(
    (candidate) => candidate.id !== question.id && !candidate.condition && ['choice', 'yesNo', 'text', 'number', 'email', 'country', 'date'].includes(candidate.kind),
  );
  const [on, setOn] = useState(question.condition?.on ?? usable[0]?.id ?? '');
  const [value, setValue] = useState(question.condition ? String(question.condition.equals) : '');
  const target = usable.find((candidate) => candidate.id === on);
  const typed = (): string | number | boolean => (target?.kind === 'yesNo' ? value === 'true' : target?.kind === 'number' ? Number(value) : value);
  return (
    <Dialog open onClose={onCancel} fullWidth maxWidth="sm" aria-labelledby="condition-title">
      <DialogTitle id="condition-title">{t('formEditor.conditionTitle', { question: label(question.title, question.id) })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {error && <Alert severity="error">{error}</Alert>}
          {usable.length === 0 ? (
            <Alert severity="info">{t('formEditor.noConditionTargets')}</Alert>
          ) : (
            <>
              <TextField select size="small" label={t('formEditor.conditionOn')} value={on} onChange={(event) => (setOn(event.target.value), setValue(''))}>
                {usable.map((candidate) => (
                  <MenuItem key={candidate.id} value={candidate.id}>
                    {label(candidate.title, candidate.id)}
                  </MenuItem>
                ))}
              </TextField>
              {target?.kind === 'choice' || target?.kind === 'yesNo' ? (
                <TextField select size="small" label={t('formEditor.conditionEquals')} value={value} onChange={(event) => setValue(event.target.value)}>
                  {(target.kind === 'yesNo' ? ['true', 'false'] : target.options).map((option) => (
                    <MenuItem key={option} value={option}>
                      {target.kind === 'yesNo' ? t(option === 'true' ? 'formEditor.yes' : 'formEditor.no') : option}
                    </MenuItem>
                  ))}
                </TextField>
              ) : (
                <TextField
                  size="small"
                  label={t('formEditor.conditionEquals')}
                  value={value}
                  onChange={(event) => setValue(event.target.value)}
                  type={target?.kind === 'number' ? 'number' : 'text'}
                />
              )}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        {question.condition && <Button onClick={() => onSave(null)}>{t('formEditor.conditionRemove')}</Button>}
        <Button onClick={onCancel}>{t('formEditor.cancel')}</Button>
        <Button variant="contained" disabled={!target} onClick={() => onSave({ on, equals: typed() })}>
          {t('formEditor.apply')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Removing a question forms.yaml names: which declaration, and the fixes at hand (hide it instead; the line forms.yaml would need). */
export function RemoveDialog({
  question,
  touched,
  label,
  onCancel,
  onRemove,
  onRemoveListing,
  onHide,
}: {
  question: Question;
  touched: TouchedReference[];
  label: string;
  onCancel: () => void;
  onRemove: () => void;
  /** Removes the question and lists the names under their entries' `optional:` in forms.yaml (the same draft). */
  onRemoveListing: (listings: OptionalListing[]) => void;
  onHide: () => void;
}) {
  const { t } = useTranslation();
  const blocking = touched.filter((reference) => !reference.optional);
  // The fix in the same step: every blocking name can be listed under its entry's optional:.
  const fixes = blocking.map(optionalListingOf);
  const listings = fixes.every((fix) => fix !== null) ? uniqueListings(fixes) : [];
  return (
    <Dialog open onClose={onCancel} fullWidth maxWidth="sm" aria-labelledby="remove-title">
      <DialogTitle id="remove-title">{t('formEditor.removeTitle', { question: label })}</DialogTitle>
      <DialogContent>
        <Stack spacing={1}>
          <Typography variant="body2">{question.inBase ? t('formEditor.removeBaseNote') : t('formEditor.removeNewNote')}</Typography>
          {touched.map((reference) => (
            <Alert key={reference.at} severity={reference.optional ? 'info' : 'warning'}>
              {reference.optional
                ? t('formEditor.referenceOptional', { field: reference.name, at: reference.at })
                : reference.optionable
                  ? t('formEditor.referenceOptionable', { field: reference.name, at: reference.at, name: reference.name.split('.').at(-1) })
                  : t('formEditor.referenceRequired', { field: reference.name, at: reference.at })}
            </Alert>
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('formEditor.cancel')}</Button>
        {question.inBase && <Button onClick={onHide}>{t('formEditor.hideInstead')}</Button>}
        {listings.length > 0 && (
          <Button variant="contained" onClick={() => onRemoveListing(listings)}>
            {t('formEditor.removeAndList', { names: listings.map((listing) => listing.name).join(', ') })}
          </Button>
        )}
        <Button color="error" variant={blocking.length > 0 ? 'outlined' : 'contained'} onClick={onRemove}>
          {t('formEditor.removeAnyway')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

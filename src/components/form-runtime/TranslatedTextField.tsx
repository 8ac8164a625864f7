import { Checkbox, FormControlLabel, Paper, Stack, TextField } from '@mui/material';
import { getUiOptions, type FieldProps } from '@rjsf/utils';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_OPTIONS } from '../../engine/language';
import { Markdown } from '../Markdown';

// A text in every portal language (an object of language → text), edited one language at a time:
// the page chooses the language shown (`ui:options.language`, its tabs above the form). With
// `markdown`, the text is Markdown: a help text says so (`markdownHelp`, a locale key) and a
// preview (`previewLabel`) shows it exactly as readers will. A problem of the shown language is
// said in the input; one of another language names that language.

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function TranslatedTextField(props: FieldProps) {
  const { t } = useTranslation();
  const options = getUiOptions(props.uiSchema);
  const language = text(options.language) ?? 'en';
  const markdown = options.markdown === true;
  const [preview, setPreview] = useState(false);
  const data = isRecord(props.formData) ? props.formData : {};
  const errorsOf = (code: string) => {
    const node = isRecord(props.errorSchema) ? props.errorSchema[code] : undefined;
    return isRecord(node) ? strings(node.__errors) : [];
  };
  const shownErrors = errorsOf(language);
  const otherErrors = LANGUAGE_OPTIONS.filter(({ code }) => code !== language).flatMap(({ code, label }) => errorsOf(code).map((message) => `${label}: ${message}`));
  const problems = [...shownErrors, ...otherErrors];
  const help = markdown && text(options.markdownHelp) ? t(text(options.markdownHelp) ?? '') : undefined;
  const change = (typed: string) => {
    const next: Json = { ...data, [language]: typed };
    if (typed === '') delete next[language];
    props.onChange(next, props.fieldPathId.path);
  };
  const input = (
    <TextField
      id={`${props.fieldPathId.$id}_${language}`}
      fullWidth
      label={text(options.title)}
      required={options.markRequired === true}
      value={text(data[language]) ?? ''}
      error={problems.length > 0 || (props.rawErrors ?? []).length > 0}
      helperText={problems.length > 0 ? problems.join(' ') : help}
      multiline={markdown || options.multiline === true}
      minRows={markdown ? 6 : undefined}
      disabled={props.disabled || props.readonly}
      onChange={(event) => change(event.target.value)}
    />
  );
  if (!markdown) return input;
  const previewLabel = t(text(options.previewLabel) ?? '');
  return (
    <Stack spacing={2}>
      <FormControlLabel control={<Checkbox checked={preview} onChange={(event) => setPreview(event.target.checked)} />} label={previewLabel} />
      {preview ? (
        <Paper variant="outlined" sx={{ p: 2 }} aria-label={previewLabel}>
          <Markdown source={text(data[language]) ?? ''} />
        </Paper>
      ) : (
        input
      )}
    </Stack>
  );
}

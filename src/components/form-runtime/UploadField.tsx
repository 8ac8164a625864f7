import { useEffect, useRef, useState } from 'react';
import { Box, Button, FormHelperText, Link, Stack, Typography } from '@mui/material';
import UploadFile from '@mui/icons-material/UploadFile';
import type { FieldProps, RJSFSchema } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { checkFile, isEmptyFileValue, purposeRule, type FileReference } from '../../engine/forms/files';
import type { RuntimeFormContext } from './QuotaNote';
import { typedApi } from '../../lib/api';
import { ApiError } from '../../lib/api-client';

function isFileReference(value: unknown): value is FileReference {
  return typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string' && value.id !== '';
}

/**
 * V2/V3: a file of a given purpose. The same checks as the server run on the chosen file's bytes
 * before upload (empty, name, type by content, size, dpi), so the user hears at once; the form
 * then holds the server's file reference, never the file itself.
 */
export function UploadField({
  fieldPathId,
  formData,
  onChange,
  disabled,
  readonly,
  uiSchema,
  schema,
  required,
  rawErrors,
  errorSchema,
  registry,
}: FieldProps<unknown, RJSFSchema, Partial<RuntimeFormContext>>) {
  const id = fieldPathId.$id;
  const optionPurpose = uiSchema?.['ui:options']?.purpose;
  const { t } = useTranslation();
  // The schema's title is a locale key; displayUi puts its translation in the UI schema.
  const uiTitle = uiSchema?.['ui:title'];
  const label = typeof uiTitle === 'string' ? uiTitle : typeof schema.title === 'string' ? t(schema.title) : '';
  const value = formData;
  const fieldErrors = [...(rawErrors ?? []), ...(errorSchema?.__errors ?? [])];
  const input = useRef<HTMLInputElement>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  // The schema's `file` keyword names the purpose (the UI schema's option is the older spelling).
  const purpose = String(('file' in schema ? schema.file : undefined) ?? optionPurpose ?? '');
  const rule = purposeRule(registry.formContext?.uploads ?? {}, purpose);
  // rjsf fills a required object field with {} before anything is chosen: only a reference the
  // server made (with its id) is a file, or the field would offer "Replace file" and an empty link.
  const reference = isFileReference(value) ? value : undefined;
  // …and that {} is no value: dropped, so it is never saved and a required field says "Please upload a file".
  const empty = value !== undefined && isEmptyFileValue(value);
  useEffect(() => {
    if (empty) onChange(undefined, fieldPathId.path);
  }, [empty]); // eslint-disable-line react-hooks/exhaustive-deps

  const choose = async (file: File) => {
    setProblems([]);
    const bytes = new Uint8Array(await file.arrayBuffer());
    // The server checks again (and knows every purpose): without a rule here, it alone judges.
    const local = rule ? checkFile(rule, { name: file.name, bytes }) : [];
    if (local.length > 0) {
      setProblems(local.map((p) => t(p.key, p.params)));
      return;
    }
    const body = new FormData();
    body.append('purpose', purpose);
    body.append('file', file, file.name);
    setBusy(true);
    try {
      onChange(await typedApi.post('/uploads', { body, silent: true }), fieldPathId.path);
    } catch (failure) {
      const details = failure instanceof ApiError ? (failure.data as { problems?: Array<{ key: string; params?: Record<string, unknown> }> } | null)?.problems : undefined;
      setProblems(details?.length ? details.map((p) => t(p.key, p.params)) : [failure instanceof Error ? failure.message : String(failure)]);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <Box>
      <Typography variant="body2" component="label" htmlFor={id} sx={{ display: 'block', mb: 0.5 }}>
        {label}
        {required ? ' *' : ''}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Button variant="outlined" startIcon={<UploadFile />} disabled={disabled || readonly || busy} onClick={() => input.current?.click()}>
          {reference ? t('formRuntime.upload.replace') : t('formRuntime.upload.choose')}
        </Button>
        {reference && (
          // A plain link carries no bearer token (it opened "Invalid session."): a click fetches the
          // file with the session and hands it to the browser as a download (C3).
          <Link
            href={`/oga/uploads/${reference.id}`}
            onClick={(event) => {
              event.preventDefault();
              typedApi
                .download('/uploads/{id}', reference.name, { path: { id: reference.id } })
                .catch((failure: unknown) => setProblems([failure instanceof Error ? failure.message : String(failure)]));
            }}
          >
            {reference.name}
          </Link>
        )}
      </Stack>
      <input
        ref={input}
        id={id}
        type="file"
        hidden
        aria-label={label}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void choose(file);
        }}
      />
      {[...new Set([...problems, ...fieldErrors])].map((problem) => (
        <FormHelperText key={problem} error role="alert">
          {problem}
        </FormHelperText>
      ))}
    </Box>
  );
}

import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { Alert, Button, IconButton, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { getUiOptions, type FieldProps } from '@rjsf/utils';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MANUAL_ATTACHMENT_RULE, MANUAL_ATTACHMENTS_MAX } from '../../engine/content-attachments';
import { checkFile, FILE_TYPE_MIME } from '../../engine/forms/files';
import { typedApi } from '../../lib/api';
import type { ApiData } from '../../lib/typed-api';
import { ApiError } from '../../lib/api-client';

// CT1: the files attached to a manual, a field of the form runtime (`"ui:field": "attachments"`)
// over the item's `attachments` (each `{ id }` as the schema asks, with the name, size and type
// the upload answered). Checked here with the server's rule before sending (the server checks
// the bytes again, by their content), then named by the manual when it is saved.

type Attachment = ApiData<'POST', '/organiser/content/attachments'>;

const isAttachment = (value: unknown): value is Attachment =>
  typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string' && 'name' in value && typeof value.name === 'string';

export function AttachmentsField(props: FieldProps) {
  const { t } = useTranslation();
  const value = Array.isArray(props.formData) ? props.formData.filter(isAttachment) : [];
  const onChange = (next: Attachment[]) => props.onChange(next, props.fieldPathId.path);
  const title = getUiOptions(props.uiSchema).title;
  const inputId = useId();
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const accept = MANUAL_ATTACHMENT_RULE.types.map((type) => FILE_TYPE_MIME[type]).join(',');

  const attach = async (file: File) => {
    setProblem('');
    const [first] = checkFile(MANUAL_ATTACHMENT_RULE, { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
    if (first) {
      setProblem(t(first.key, first.params));
      return;
    }
    setBusy(true);
    try {
      const body = new FormData();
      body.append('file', file);
      const attachment = await typedApi.post('/organiser/content/attachments', { body, silent: true });
      onChange([...value, attachment]);
    } catch (failure) {
      setProblem(failure instanceof ApiError || failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={1} component="section" aria-labelledby={`${inputId}-title`}>
      <Typography id={`${inputId}-title`} variant="subtitle1" component="h3">
        {typeof title === 'string' ? title : t('organiserContent.attachments')}
      </Typography>
      {value.length === 0 ? (
        <Typography variant="body2">{t('organiserContent.noAttachments')}</Typography>
      ) : (
        <List dense disablePadding>
          {value.map((file) => (
            <ListItem
              key={file.id}
              disableGutters
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={t('organiserContent.removeAttachment', { name: file.name })}
                  onClick={() => onChange(value.filter((other) => other.id !== file.id))}
                >
                  <DeleteIcon />
                </IconButton>
              }
            >
              <ListItemText primary={file.name} sx={{ wordBreak: 'break-word', pr: 5 }} />
            </ListItem>
          ))}
        </List>
      )}
      {value.length < MANUAL_ATTACHMENTS_MAX && (
        <div>
          <input
            id={inputId}
            type="file"
            accept={accept}
            hidden
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void attach(file);
            }}
          />
          <Button component="label" htmlFor={inputId} variant="outlined" disabled={busy}>
            {t('organiserContent.attachFile')}
          </Button>
        </div>
      )}
      <Typography variant="caption">{t('organiserContent.attachmentHelp')}</Typography>
      {problem && (
        <Alert severity="error" role="alert">
          {problem}
        </Alert>
      )}
    </Stack>
  );
}

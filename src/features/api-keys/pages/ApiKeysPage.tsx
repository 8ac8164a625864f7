import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Checkbox, FormControlLabel, FormGroup, FormHelperText, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { API_KEY_NAME_MAX, API_KEY_SCOPES, type ApiKeyScope } from '../../../engine/api-keys';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import type { ApiData, ApiPath } from '../../../lib/typed-api';
import { showToast } from '../../../lib/toast';
import { UtcTime } from '../../../components/UtcTime';
import { ResponsiveTable, type ResponsiveColumn } from '../../../components/ResponsiveTable';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ShownOnceSecret } from '../../../components/ShownOnceSecret';
import { useAccountInfo } from '../../../lib/session';

// LD2: the exhibitor's API keys for its own systems (a CRM's sync). A key is named, given its
// scopes and shown once; the list shows what each key may read and when it was last used, and
// revokes a key that is no longer needed or has leaked.

type ApiKey = ApiData<'GET', '/api-keys'>[number];

const KEYS_PATH = '/api-keys' satisfies ApiPath<'GET'>;

export default function ApiKeysPage() {
  const { t } = useTranslation();
  const { data: keys, error, mutate } = useApi('GET', KEYS_PATH);
  const { data: account } = useAccountInfo();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['leads:read']);
  const [problems, setProblems] = useState<{ name?: string; scopes?: string }>({});
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const offsetMinutes = account?.utcOffsetMinutes ?? 0;

  const columns: ResponsiveColumn<ApiKey>[] = [
    { key: 'name', label: t('apiKeys.name'), primary: true, cell: (key) => key.name },
    { key: 'prefix', label: t('apiKeys.prefix'), cell: (key) => <code>{key.prefix}…</code> },
    { key: 'scopes', label: t('apiKeys.scopes'), cell: (key) => key.scopes.map((scope) => t(`apiKeys.scope.${scope}`, { nsSeparator: false })).join(', ') },
    { key: 'createdAt', label: t('apiKeys.createdAt'), cell: (key) => <UtcTime value={key.createdAt} offsetMinutes={offsetMinutes} /> },
    { key: 'createdBy', label: t('apiKeys.createdBy'), cell: (key) => key.createdBy },
    {
      key: 'lastUsedAt',
      label: t('apiKeys.lastUsedAt'),
      cell: (key) => (key.lastUsedAt ? <UtcTime value={key.lastUsedAt} offsetMinutes={offsetMinutes} /> : t('apiKeys.neverUsed')),
    },
    {
      key: 'revoke',
      label: t('apiKeys.revoke'),
      header: '',
      actions: true,
      cell: (key) => (
        <Button size="small" color="error" aria-label={t('apiKeys.revokeNamed', { name: key.name })} onClick={() => setRevoking(key)}>
          {t('apiKeys.revoke')}
        </Button>
      ),
    },
  ];

  const add = async () => {
    const trimmed = name.trim();
    const found = { ...(trimmed ? {} : { name: t('apiKeys.nameRequired') }), ...(scopes.length > 0 ? {} : { scopes: t('apiKeys.scopesRequired') }) };
    setProblems(found);
    if (found.name || found.scopes) return;
    setBusy(true);
    try {
      const answer = await typedApi.post(KEYS_PATH, { body: { name: trimmed, scopes }, skipDuplicateCheck: true });
      setCreated({ name: answer.name, key: answer.key });
      setName('');
      await mutate();
    } catch {
      // The API client has shown the reason.
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (key: ApiKey) => {
    try {
      await typedApi.del('/api-keys/{id}', { path: { id: key.id } });
      showToast('success', t('apiKeys.revoked', { name: key.name }));
      await mutate();
    } catch {
      // The API client has shown the reason.
    } finally {
      setRevoking(null);
    }
  };

  return (
    <Stack spacing={2}>
      <Card variant="outlined">
        <CardContent>
          <Typography sx={{ mb: 2 }}>{t('apiKeys.intro')}</Typography>
          <Box
            component="form"
            noValidate
            aria-label={t('apiKeys.add')}
            onSubmit={(event) => {
              event.preventDefault();
              void add();
            }}
          >
            <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
              <TextField
                size="small"
                required
                label={t('apiKeys.name')}
                value={name}
                onChange={(event) => {
                  setName(event.target.value);
                  setProblems((before) => ({ ...before, name: undefined }));
                }}
                error={Boolean(problems.name)}
                helperText={problems.name || t('apiKeys.nameHint')}
                slotProps={{ htmlInput: { maxLength: API_KEY_NAME_MAX } }}
                sx={{ minWidth: 260 }}
              />
              <FormGroup role="group" aria-label={t('apiKeys.scopes')}>
                {API_KEY_SCOPES.map((scope) => (
                  <FormControlLabel
                    key={scope}
                    label={t(`apiKeys.scope.${scope}`, { nsSeparator: false })}
                    control={
                      <Checkbox
                        checked={scopes.includes(scope)}
                        onChange={(event) => {
                          setScopes(API_KEY_SCOPES.filter((each) => (each === scope ? event.target.checked : scopes.includes(each))));
                          setProblems((before) => ({ ...before, scopes: undefined }));
                        }}
                      />
                    }
                  />
                ))}
                {problems.scopes && <FormHelperText error>{problems.scopes}</FormHelperText>}
              </FormGroup>
              <Button type="submit" variant="contained" disabled={busy}>
                {t('apiKeys.add')}
              </Button>
            </Stack>
          </Box>
        </CardContent>
      </Card>
      {created && (
        <ShownOnceSecret
          message={t('apiKeys.keyOnce', { name: created.name })}
          label={t('apiKeys.key')}
          value={created.key}
          copyLabel={t('apiKeys.copy')}
          copiedMessage={t('apiKeys.copied')}
          onClose={() => setCreated(null)}
        />
      )}
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {t('apiKeys.list')}
          </Typography>
          {error && <Alert severity="error">{error.message}</Alert>}
          {keys && keys.length === 0 && <Typography color="text.secondary">{t('apiKeys.none')}</Typography>}
          {keys && keys.length > 0 && <ResponsiveTable label={t('apiKeys.list')} size="small" outlined={false} columns={columns} rows={keys} rowKey={(key) => key.id} />}
        </CardContent>
      </Card>
      <ConfirmDialog
        open={revoking !== null}
        title={t('apiKeys.revokeTitle')}
        text={t('apiKeys.revokeText', { name: revoking?.name ?? '' })}
        cancelLabel={t('apiKeys.cancel')}
        confirmLabel={t('apiKeys.revoke')}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && void revoke(revoking)}
      />
    </Stack>
  );
}

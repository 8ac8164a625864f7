import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Chip,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import type { ApiData } from '../../../lib/typed-api';
import { showToast } from '../../../lib/toast';
import { UtcTime } from '../../../components/UtcTime';
import { ResponsiveTable, type ResponsiveColumn } from '../../../components/ResponsiveTable';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ShownOnceSecret } from '../../../components/ShownOnceSecret';
import { useAccountInfo } from '../../../lib/session';

// LD: webhook endpoints and their delivery logs, for an exhibitor (Digital Tools → Integrations)
// and an organiser (console). Both owners have the same routes under their own base path
// (/webhooks, /organiser/webhooks) with the same schemas: the calls are typed by the exhibitor's
// paths and sent to the owner's.

type Endpoint = ApiData<'GET', '/webhooks/endpoints'>[number];
type Delivery = ApiData<'GET', '/webhooks/endpoints/{id}/deliveries'>['items'][number];
type EventType = Endpoint['events'][number];

export interface WebhooksPanelProps {
  /** '' for the exhibitor's routes, '/organiser' for the organisation's. */
  base: '' | '/organiser';
  /** The events this owner's endpoints may take. */
  events: readonly EventType[];
  intro: string;
}

/** The owner's path of an operation typed by the exhibitor's path (same schema under both bases). */
const at = <P extends string>(base: WebhooksPanelProps['base'], path: P) => `${base}${path}` as P;
const eventKey = (event: string) => `webhooks.event.${event.replace('.', '_')}`;
const URL_MAX = 2000;

function DeliveryLog({ base, endpoint, offsetMinutes }: { base: WebhooksPanelProps['base']; endpoint: Endpoint; offsetMinutes: number }) {
  const { t } = useTranslation();
  const { data, error, mutate } = useApi('GET', at(base, '/webhooks/endpoints/{id}/deliveries'), { path: { id: endpoint.id }, query: { limit: 20 } }, { refreshInterval: 5000 });
  const [shown, setShown] = useState<number | null>(null);

  const resend = async (delivery: Delivery) => {
    try {
      await typedApi.post(at(base, '/webhooks/deliveries/{id}/resend'), { path: { id: delivery.id } });
      showToast('success', t('webhooks.resent'));
      await mutate();
    } catch {
      // The API client has shown the reason.
    }
  };

  const columns: ResponsiveColumn<Delivery>[] = [
    { key: 'event', label: t('webhooks.column.event'), primary: true, cell: (row) => t(eventKey(row.eventType)) },
    {
      key: 'status',
      label: t('webhooks.column.status'),
      cell: (row) => (
        <Stack spacing={0.5}>
          <span>{t(`webhooks.deliveryStatus.${row.status}`)}</span>
          {row.error && (
            <Typography variant="caption" color="text.secondary">
              {row.error}
            </Typography>
          )}
          {row.nextAttemptAt && (
            <Typography variant="caption" color="text.secondary">
              {t('webhooks.nextAttempt', { time: '' })}
              <UtcTime value={row.nextAttemptAt} offsetMinutes={offsetMinutes} />
            </Typography>
          )}
        </Stack>
      ),
    },
    { key: 'code', label: t('webhooks.column.code'), cell: (row) => (row.responseStatus === null ? t('webhooks.noAnswer') : String(row.responseStatus)) },
    { key: 'time', label: t('webhooks.column.time'), cell: (row) => <UtcTime value={row.lastAttemptAt ?? row.createdAt} offsetMinutes={offsetMinutes} /> },
    { key: 'attempts', label: t('webhooks.column.attempts'), cell: (row) => String(row.attempts) },
    {
      key: 'actions',
      label: t('webhooks.actions'),
      header: '',
      actions: true,
      cell: (row) => (
        <Stack direction="row" spacing={1}>
          <Button size="small" onClick={() => setShown(shown === row.id ? null : row.id)}>
            {shown === row.id ? t('webhooks.hidePayload') : t('webhooks.showPayload')}
          </Button>
          <Button size="small" disabled={row.status === 'sending'} onClick={() => void resend(row)}>
            {t('webhooks.resend')}
          </Button>
        </Stack>
      ),
    },
  ];
  const payload = data?.items.find((row) => row.id === shown)?.payload;

  return (
    <Box sx={{ mt: 2 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle1" component="h3">
          {t('webhooks.logOf', { url: endpoint.url })}
        </Typography>
        <Button size="small" onClick={() => void mutate()}>
          {t('webhooks.refresh')}
        </Button>
      </Stack>
      {error && <Alert severity="error">{error.message}</Alert>}
      {data && data.items.length === 0 && <Typography color="text.secondary">{t('webhooks.logEmpty')}</Typography>}
      {data && data.items.length > 0 && (
        <ResponsiveTable label={t('webhooks.logOf', { url: endpoint.url })} size="small" outlined={false} columns={columns} rows={data.items} rowKey={(row) => row.id} />
      )}
      {payload && (
        <Box
          component="pre"
          aria-label={t('webhooks.column.payload')}
          sx={{ mt: 1, p: 1, bgcolor: 'action.hover', borderRadius: 1, overflowX: 'auto', fontSize: '0.8rem', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
        >
          {JSON.stringify(JSON.parse(payload), null, 2)}
        </Box>
      )}
    </Box>
  );
}

export function WebhooksPanel({ base, events, intro }: WebhooksPanelProps) {
  const { t } = useTranslation();
  const { data: endpoints, error, mutate } = useApi('GET', at(base, '/webhooks/endpoints'));
  const { data: account } = useAccountInfo();
  const offsetMinutes = account?.utcOffsetMinutes ?? 0;
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [chosen, setChosen] = useState<EventType[]>([...events]);
  const [problems, setProblems] = useState<{ url?: string; events?: string }>({});
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [logOf, setLogOf] = useState<number | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'rotate' | 'remove'; endpoint: Endpoint } | null>(null);

  const add = async () => {
    const trimmed = url.trim();
    const found = { ...(trimmed ? {} : { url: t('webhooks.urlRequired') }), ...(chosen.length > 0 ? {} : { events: t('errors.webhookEventsRequired') }) };
    setProblems(found);
    if (found.url || found.events) return;
    setBusy(true);
    try {
      const answer = await typedApi.post(at(base, '/webhooks/endpoints'), { body: { url: trimmed, description: description.trim(), events: chosen }, skipDuplicateCheck: true });
      setSecret({ url: answer.endpoint.url, secret: answer.secret });
      setUrl('');
      setDescription('');
      await mutate();
    } catch {
      // The API client has shown the reason.
    } finally {
      setBusy(false);
    }
  };

  const sendTest = async (endpoint: Endpoint) => {
    try {
      await typedApi.post(at(base, '/webhooks/endpoints/{id}/test'), { path: { id: endpoint.id }, skipDuplicateCheck: true });
      showToast('success', t('webhooks.testQueued'));
      setLogOf(endpoint.id);
      await mutate();
    } catch {
      // The API client has shown the reason.
    }
  };

  const switchEndpoint = async (endpoint: Endpoint) => {
    try {
      await typedApi.patch(at(base, '/webhooks/endpoints/{id}'), { path: { id: endpoint.id }, body: { enabled: !endpoint.enabled } });
      showToast('success', endpoint.enabled ? t('webhooks.switchedOff') : t('webhooks.switchedOn'));
      await mutate();
    } catch {
      // The API client has shown the reason.
    }
  };

  const confirmed = async () => {
    if (!confirm) return;
    const { kind, endpoint } = confirm;
    setConfirm(null);
    try {
      if (kind === 'rotate') {
        const answer = await typedApi.post(at(base, '/webhooks/endpoints/{id}/rotate'), { path: { id: endpoint.id } });
        setSecret({ url: endpoint.url, secret: answer.secret });
      } else {
        await typedApi.del(at(base, '/webhooks/endpoints/{id}'), { path: { id: endpoint.id } });
        showToast('success', t('webhooks.removed'));
        if (logOf === endpoint.id) setLogOf(null);
      }
      await mutate();
    } catch {
      // The API client has shown the reason.
    }
  };

  const status = (endpoint: Endpoint) =>
    endpoint.enabled ? (
      <Chip size="small" color="success" label={t('webhooks.statusOn')} />
    ) : (
      <Chip
        size="small"
        color={endpoint.disabledReason === 'failing' ? 'error' : 'default'}
        label={endpoint.disabledReason === 'failing' ? t('webhooks.statusFailing') : t('webhooks.statusOff')}
      />
    );

  return (
    <Stack spacing={2}>
      <Card variant="outlined">
        <CardContent>
          <Typography sx={{ mb: 2 }}>{intro}</Typography>
          <Box
            component="form"
            noValidate
            aria-label={t('webhooks.add')}
            sx={{ display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 640 }}
            onSubmit={(event) => {
              event.preventDefault();
              void add();
            }}
          >
            <TextField
              size="small"
              required
              type="url"
              label={t('webhooks.url')}
              value={url}
              onChange={(event) => {
                setUrl(event.target.value);
                setProblems((current) => ({ ...current, url: undefined }));
              }}
              error={Boolean(problems.url)}
              helperText={problems.url || t('webhooks.urlHint')}
              slotProps={{ htmlInput: { maxLength: URL_MAX, spellCheck: false } }}
            />
            <TextField
              size="small"
              label={t('webhooks.description')}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              slotProps={{ htmlInput: { maxLength: 200 } }}
            />
            <FormControl component="fieldset" error={Boolean(problems.events)}>
              <FormLabel component="legend">{t('webhooks.events')}</FormLabel>
              <FormGroup row>
                {events.map((event) => (
                  <FormControlLabel
                    key={event}
                    control={
                      <Checkbox
                        checked={chosen.includes(event)}
                        onChange={(change) => {
                          setChosen((current) => (change.target.checked ? [...current, event] : current.filter((item) => item !== event)));
                          setProblems((current) => ({ ...current, events: undefined }));
                        }}
                      />
                    }
                    label={
                      <>
                        {t(eventKey(event))} ({/* The event's code as receivers see it in payloads: an identifier, in no language. */}
                        <Box component="code" lang="zxx">
                          {event}
                        </Box>
                        )
                      </>
                    }
                  />
                ))}
              </FormGroup>
              {problems.events && <FormHelperText>{problems.events}</FormHelperText>}
            </FormControl>
            <Box>
              <Button type="submit" variant="contained" disabled={busy}>
                {t('webhooks.add')}
              </Button>
            </Box>
          </Box>
        </CardContent>
      </Card>
      {secret && (
        <ShownOnceSecret
          message={t('webhooks.secretOnce', { url: secret.url })}
          label={t('webhooks.secret')}
          value={secret.secret}
          hint={t('webhooks.verifyHint')}
          copyLabel={t('webhooks.copy')}
          copiedMessage={t('webhooks.copied')}
          onClose={() => setSecret(null)}
        />
      )}
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {t('webhooks.list')}
          </Typography>
          {error && <Alert severity="error">{error.message}</Alert>}
          {endpoints && endpoints.length === 0 && <Typography color="text.secondary">{t('webhooks.none')}</Typography>}
          <Stack spacing={2}>
            {endpoints?.map((endpoint) => (
              <Box key={endpoint.id} component="section" aria-label={endpoint.url} sx={{ borderTop: 1, borderColor: 'divider', pt: 2 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{endpoint.url}</Typography>
                  {status(endpoint)}
                </Stack>
                {endpoint.description && <Typography color="text.secondary">{endpoint.description}</Typography>}
                <Typography variant="body2">{endpoint.events.map((event) => t(eventKey(event))).join(', ')}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {t('webhooks.waiting', { pending: endpoint.pending, failed: endpoint.failed })}
                </Typography>
                {endpoint.failingSince && (
                  <Typography variant="body2" color="error">
                    {t('webhooks.failingSince', { time: '' })}
                    <UtcTime value={endpoint.failingSince} offsetMinutes={offsetMinutes} />
                  </Typography>
                )}
                {endpoint.previousSecretUntil && (
                  <Typography variant="body2" color="text.secondary">
                    {t('webhooks.rotating', { time: '' })}
                    <UtcTime value={endpoint.previousSecretUntil} offsetMinutes={offsetMinutes} />
                  </Typography>
                )}
                <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }} role="group" aria-label={t('webhooks.actionsOf', { url: endpoint.url })}>
                  <Button size="small" variant="outlined" onClick={() => void sendTest(endpoint)}>
                    {t('webhooks.sendTest')}
                  </Button>
                  <Button size="small" variant="outlined" aria-expanded={logOf === endpoint.id} onClick={() => setLogOf(logOf === endpoint.id ? null : endpoint.id)}>
                    {t('webhooks.log')}
                  </Button>
                  <Button size="small" onClick={() => void switchEndpoint(endpoint)}>
                    {endpoint.enabled ? t('webhooks.switchOff') : t('webhooks.switchOn')}
                  </Button>
                  <Button size="small" onClick={() => setConfirm({ kind: 'rotate', endpoint })}>
                    {t('webhooks.rotate')}
                  </Button>
                  <Button size="small" color="error" onClick={() => setConfirm({ kind: 'remove', endpoint })}>
                    {t('webhooks.remove')}
                  </Button>
                </Stack>
                {logOf === endpoint.id && <DeliveryLog base={base} endpoint={endpoint} offsetMinutes={offsetMinutes} />}
              </Box>
            ))}
          </Stack>
        </CardContent>
      </Card>
      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.kind === 'rotate' ? t('webhooks.rotateTitle') : t('webhooks.removeTitle')}
        text={confirm ? t(confirm.kind === 'rotate' ? 'webhooks.rotateText' : 'webhooks.removeText', { url: confirm.endpoint.url }) : ''}
        cancelLabel={t('webhooks.cancel')}
        confirmLabel={confirm?.kind === 'rotate' ? t('webhooks.rotate') : t('webhooks.remove')}
        tone={confirm?.kind === 'remove' ? 'error' : 'primary'}
        onCancel={() => setConfirm(null)}
        onConfirm={() => void confirmed()}
      />
    </Stack>
  );
}

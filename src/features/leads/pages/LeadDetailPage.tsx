import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Autocomplete,
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
  Grid,
  Link,
  MenuItem,
  Stack,
  TextField,
  Typography,
  useMediaQuery,
} from '@mui/material';
import UploadFile from '@mui/icons-material/UploadFile';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { BUSINESS_CARD_PURPOSE, BUSINESS_CARD_RULE, checkFile } from '../../../engine/forms/files';
import { FOLLOW_UP_ACTIONS, LEAD_TEMPERATURES, LEAD_TYPES } from '../../../engine/leads';
import type { LeadVisitorField } from '../../../engine/lead-fields';
import { QUALIFICATION_LIMITS, staleChoices, validateQualification, type Qualification, type QualificationErrors } from '../../../engine/leads-rules';
import { SUCCESS_MESSAGES } from '../../../engine/errors';
import { countryName } from '../../../engine/locale-format';
import { currentLanguage } from '../../../lib/i18n';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import { definedValues, type ApiData } from '../../../lib/typed-api';
import { ApiError } from '../../../lib/api-client';
import { showToast } from '../../../lib/toast';
import { PageLoading } from '../../../components/PageLoading';
import { UtcTime } from '../../../components/UtcTime';

/** A lead with its tags and the exhibitor's products, as GET /leads/{id} answers it. */
type LeadDetail = ApiData<'GET', '/leads/{id}'>;

/** A phone's width (MUI's sm breakpoint). */
const PHONE_QUERY = '(max-width:599.95px)';

type Errors = QualificationErrors & { businessCard?: string };

/** The business card image, read with the session's bearer token (an <img src> could not send it). */
function BusinessCardImage({ id, alt }: { id: string; alt: string }) {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    let objectUrl: string | undefined;
    let live = true;
    typedApi.get('/uploads/{id}', { path: { id }, responseType: 'blob' }).then(
      (blob) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      },
      () => undefined,
    );
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id]);
  return url ? <Box component="img" src={url} alt={alt} sx={{ maxWidth: 320, maxHeight: 200, border: 1, borderColor: 'divider', borderRadius: 1 }} /> : null;
}

function Field({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Grid size={{ xs: 12, sm: 6, md: 4 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="body1" component="div" sx={{ overflowWrap: 'anywhere' }}>
        {value === '' || value === null || value === undefined ? '-' : value}
      </Typography>
    </Grid>
  );
}

function QualificationForm({ detail, onSaved }: { detail: LeadDetail; onSaved: (next: LeadDetail) => void }) {
  const { t } = useTranslation();
  const { lead, tags } = detail;
  const [form, setForm] = useState<Qualification & { products: string[] }>(() => ({
    leadType: lead.leadType,
    temperature: lead.temperature,
    followUp: lead.followUp,
    notes: lead.notes,
    tagAnswers: definedValues(lead.tagAnswers),
    businessCard: lead.businessCard?.id ?? null,
    visitorName: lead.visitorName,
    company: lead.company,
    products: lead.interestedProducts,
  }));
  const [card, setCard] = useState<{ id: string; name: string } | null>(lead.businessCard);
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const message = (key: string | undefined, field: string) => (key ? t(key, { limit: QUALIFICATION_LIMITS[field] ?? 0 }) : ' ');
  const set = (patch: Partial<typeof form>) => setForm((current) => ({ ...current, ...patch }));

  const upload = async (file: File) => {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const problems = checkFile(BUSINESS_CARD_RULE, { name: file.name, bytes });
    if (problems.length > 0) {
      setErrors((e) => ({ ...e, businessCard: t(problems[0]!.key, problems[0]!.params) }));
      return;
    }
    const body = new FormData();
    body.append('purpose', BUSINESS_CARD_PURPOSE);
    body.append('file', file, file.name);
    setUploading(true);
    try {
      const reference = await typedApi.post('/uploads', { body, silent: true, skipDuplicateCheck: true });
      setCard({ id: reference.id, name: reference.name });
      set({ businessCard: reference.id });
      setErrors((e) => ({ ...e, businessCard: undefined }));
    } catch (failure) {
      setErrors((e) => ({ ...e, businessCard: failure instanceof Error ? failure.message : String(failure) }));
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const save = async () => {
    const input: Qualification = { ...form, tagAnswers: form.tagAnswers };
    const found = validateQualification(input, { badgeKnown: lead.badgeKnown, tags, stored: definedValues(lead.tagAnswers) });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      const { products, ...rest } = form;
      // Checked above: each code is one of its list (or unset).
      const codeOf = <Code extends string>(codes: readonly Code[], value: string | null) => codes.find((code) => code === value) ?? null;
      const body = {
        ...rest,
        leadType: codeOf(LEAD_TYPES, rest.leadType),
        temperature: codeOf(LEAD_TEMPERATURES, rest.temperature),
        followUp: codeOf(FOLLOW_UP_ACTIONS, rest.followUp),
        interestedProducts: products.map((p) => p.trim()).filter(Boolean),
        ...(lead.badgeKnown ? { visitorName: undefined, company: undefined } : {}),
      };
      // PATCH: only what the form holds changes; nothing the page does not show is erased.
      const next = await typedApi.patch('/leads/{id}', { path: { id: lead.id }, body, silent: true });
      showToast('success', t(SUCCESS_MESSAGES.saved));
      onSaved(next);
    } catch (failure) {
      const fields = failure instanceof ApiError ? (failure.data as { fields?: Errors } | null)?.fields : undefined;
      if (fields) setErrors(fields);
      else showToast('error', failure instanceof Error ? failure.message : String(failure));
    } finally {
      setSaving(false);
    }
  };

  const select = (field: 'leadType' | 'temperature' | 'followUp', codes: readonly string[], group: string) => (
    <TextField
      select
      required
      fullWidth
      label={t(`leads.field.${field}`)}
      value={form[field] ?? ''}
      onChange={(event) => set({ [field]: event.target.value || null })}
      error={Boolean(errors[field])}
      helperText={message(errors[field], field)}
    >
      {codes.map((code) => (
        <MenuItem key={code} value={code}>
          {t(`leads.${group}.${code}`)}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Box
      component="form"
      noValidate
      aria-label={t('leads.detail.qualification')}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Stack spacing={2}>
        {!lead.badgeKnown && (
          <>
            <Alert severity="info">{t('leads.detail.unknownBadgeHint')}</Alert>
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, md: 6 }}>
                <TextField
                  required
                  fullWidth
                  label={t('leads.field.visitorName')}
                  value={form.visitorName ?? ''}
                  onChange={(e) => set({ visitorName: e.target.value })}
                  error={Boolean(errors.visitorName)}
                  helperText={message(errors.visitorName, 'visitorName')}
                />
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <TextField
                  required
                  fullWidth
                  label={t('leads.field.company')}
                  value={form.company ?? ''}
                  onChange={(e) => set({ company: e.target.value })}
                  error={Boolean(errors.company)}
                  helperText={message(errors.company, 'company')}
                />
              </Grid>
            </Grid>
          </>
        )}
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 4 }}>{select('leadType', LEAD_TYPES, 'type')}</Grid>
          <Grid size={{ xs: 12, md: 4 }}>{select('temperature', LEAD_TEMPERATURES, 'temperature')}</Grid>
          <Grid size={{ xs: 12, md: 4 }}>{select('followUp', FOLLOW_UP_ACTIONS, 'followUp')}</Grid>
        </Grid>
        <TextField
          label={t('leads.field.notes')}
          multiline
          minRows={3}
          value={form.notes}
          onChange={(e) => set({ notes: e.target.value })}
          error={Boolean(errors.notes)}
          helperText={message(errors.notes, 'notes')}
        />
        <Autocomplete
          multiple
          freeSolo
          options={detail.products}
          value={form.products}
          onChange={(_event, value) => set({ products: value })}
          renderInput={(params) => <TextField {...params} label={t('leads.field.interestedProducts')} helperText={t('leads.detail.productsHint')} />}
        />
        <Box>
          <Typography variant="subtitle1" component="h3">
            {t('leads.detail.tags')}
          </Typography>
          {tags.length === 0 && <Typography color="text.secondary">{t('leads.detail.noTags')}</Typography>}
          {tags.map((tag) => {
            const chosen = form.tagAnswers[String(tag.id)] ?? [];
            // Answers stored before the exhibitor removed the choice: shown, and removable.
            const stale = staleChoices(tag, lead.tagAnswers[String(tag.id)] ?? []);
            return (
              <FormControl key={tag.id} component="fieldset" sx={{ display: 'block', mt: 1 }}>
                <FormLabel component="legend">{tag.name}</FormLabel>
                <FormGroup row>
                  {[...tag.choices, ...stale].map((choice) => (
                    <FormControlLabel
                      key={choice}
                      label={stale.includes(choice) ? t('leads.detail.removedChoice', { choice }) : choice}
                      control={
                        <Checkbox
                          checked={chosen.includes(choice)}
                          onChange={(event) => {
                            const next = event.target.checked ? [...chosen, choice] : chosen.filter((c) => c !== choice);
                            set({ tagAnswers: { ...form.tagAnswers, [String(tag.id)]: next } });
                          }}
                        />
                      }
                    />
                  ))}
                </FormGroup>
              </FormControl>
            );
          })}
          {errors.tagAnswers && <FormHelperText error>{t(errors.tagAnswers)}</FormHelperText>}
        </Box>
        <Box>
          <Typography variant="subtitle1" component="h3">
            {t('leads.field.businessCard')}
          </Typography>
          {card && form.businessCard && (
            <Box sx={{ my: 1 }}>
              <BusinessCardImage id={card.id} alt={t('leads.detail.cardAlt', { name: form.visitorName || lead.badgeCode })} />
            </Box>
          )}
          <Stack direction="row" spacing={1}>
            <Button variant="outlined" startIcon={<UploadFile />} disabled={uploading} onClick={() => fileInput.current?.click()}>
              {form.businessCard ? t('leads.detail.replaceCard') : t('leads.detail.uploadCard')}
            </Button>
            {form.businessCard && (
              <Button color="inherit" onClick={() => set({ businessCard: null })}>
                {t('leads.detail.removeCard')}
              </Button>
            )}
          </Stack>
          <input
            ref={fileInput}
            type="file"
            hidden
            accept="image/jpeg,image/png"
            aria-label={t('leads.detail.uploadCard')}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void upload(file);
            }}
          />
          {errors.businessCard && <FormHelperText error>{t(errors.businessCard)}</FormHelperText>}
        </Box>
        <Box>
          <Button type="submit" variant="contained" disabled={saving || uploading}>
            {t('leads.detail.save')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

/** LD2/LD3: every field of a lead (spec §3) and its qualification. */
export default function LeadDetailPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const id = Number(search.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const phone = useMediaQuery(PHONE_QUERY, { noSsr: true });
  const { data, error, mutate } = useApi('GET', '/leads/{id}', { path: { id } }, { enabled: valid });
  if (!valid) return <Alert severity="warning">{t('errors.notFound')}</Alert>;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;
  const { lead } = data;
  // The visitor fields the organiser keeps from exhibitors are not shown at all.
  const shown = (field: LeadVisitorField) => !data.hiddenFields.includes(field);
  const offset = data.utcOffsetMinutes;
  const label = (group: string, code: string | null) => (code ? t(`leads.${group}.${code}`) : t('leads.detail.notQualified'));
  const tagText = data.tags
    .map((tag) => ({ tag, chosen: lead.tagAnswers[String(tag.id)] ?? [] }))
    .filter((entry) => entry.chosen.length > 0)
    .map((entry) => `${entry.tag.name}: ${entry.chosen.join(', ')}`)
    .join(' · ');
  // On a phone the qualification comes first: it is what the user came to do, the visitor's
  // eighteen read-only fields follow.
  const qualificationCard = (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {t('leads.detail.qualification')}
        </Typography>
        <QualificationForm key={lead.updatedAt ?? 'new'} detail={data} onSaved={(next) => void mutate(next, { revalidate: false })} />
      </CardContent>
    </Card>
  );
  return (
    <Stack spacing={2}>
      <Box>
        <Link component={RouterLink} to="/digital-tools/leads">
          {t('leads.detail.back')}
        </Link>
      </Box>
      {phone && qualificationCard}
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {t('leads.detail.visitor')} {!lead.badgeKnown && <Chip size="small" color="warning" variant="outlined" label={t('leads.list.unknownBadge')} />}
          </Typography>
          {lead.consent.state === 'withdrawn' && (
            <Alert severity="warning" sx={{ mb: 2 }}>
              {t('leads.consent.state.withdrawn')}
            </Alert>
          )}
          <Grid container spacing={2} aria-label={t('leads.detail.visitor')} role="group">
            {shown('visitorName') && <Field label={t('leads.field.visitorName')} value={lead.visitorName} />}
            {shown('salutation') && <Field label={t('leads.field.salutation')} value={lead.salutation} />}
            {shown('company') && <Field label={t('leads.field.company')} value={lead.company} />}
            {shown('businessNature') && <Field label={t('leads.field.businessNature')} value={lead.businessNature} />}
            {shown('jobTitle') && <Field label={t('leads.field.jobTitle')} value={lead.jobTitle} />}
            {shown('country') && <Field label={t('leads.field.country')} value={countryName(lead.country, currentLanguage())} />}
            {shown('mobile') && <Field label={t('leads.field.mobile')} value={lead.mobile} />}
            {shown('email') && <Field label={t('leads.field.email')} value={lead.email} />}
            {shown('phone') && <Field label={t('leads.field.phone')} value={lead.phone} />}
            {shown('address') && <Field label={t('leads.field.address')} value={lead.address} />}
            <Field label={t('leads.field.badgeCode')} value={lead.badgeCode} />
            <Field label={t('leads.field.scannedBy')} value={lead.scannedBy.name} />
            <Field label={t('leads.field.scannedAt')} value={<UtcTime value={lead.scannedAt} offsetMinutes={offset} />} />
            {lead.scans && lead.scans.count > 1 && (
              <Field
                label={t('leads.field.scans')}
                value={
                  <>
                    {t('leads.detail.scansSummary', { count: lead.scans.count, name: lead.scans.lastScannedBy.name })}{' '}
                    <UtcTime value={lead.scans.lastSeenAt} offsetMinutes={offset} />
                  </>
                }
              />
            )}
            <Field label={t('leads.field.leadType')} value={label('type', lead.leadType)} />
            <Field label={t('leads.field.temperature')} value={label('temperature', lead.temperature)} />
            <Field label={t('leads.field.followUp')} value={label('followUp', lead.followUp)} />
            <Field label={t('leads.field.interestedProducts')} value={lead.interestedProducts.join(', ')} />
            <Field label={t('leads.detail.tags')} value={tagText} />
            <Field label={t('leads.field.notes')} value={lead.notes} />
            <Field label={t('leads.field.businessCard')} value={lead.businessCard?.name ?? ''} />
            <Field
              label={t('leads.field.consent')}
              value={
                lead.consent.withdrawnAt ? (
                  <>
                    {t('leads.consent.state.withdrawn')} <UtcTime value={lead.consent.withdrawnAt} offsetMinutes={offset} />
                  </>
                ) : (
                  t('leads.consent.state.given')
                )
              }
            />
            <Field label={t('leads.field.consentSource')} value={t(`leads.consent.source.${lead.consent.source}`)} />
          </Grid>
          {lead.updatedAt && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {t('leads.detail.updated', { time: '' })}
              <UtcTime value={lead.updatedAt} offsetMinutes={offset} />
            </Typography>
          )}
        </CardContent>
      </Card>
      {!phone && qualificationCard}
    </Stack>
  );
}

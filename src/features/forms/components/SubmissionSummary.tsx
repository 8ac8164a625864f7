import { Alert, Box, Chip, Link, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { UtcTime } from '../../../components/UtcTime';
import { useAccountInfo } from '../../../lib/session';
import { useDateLocale } from '../../../lib/date-locale';
import { formatEventDay } from '../../../engine/locale-format';
import { helpParams } from '../../../engine/forms/definitions';
import { isCountryField, shownCountry } from '../../../engine/forms/country-field';
import { displayUi } from '../../../components/form-runtime/display';
import { STATUS_COLOR } from './status-colour';
import { useFormPayload } from '../lib/payload';

// F10: what was submitted, as a read-only summary (a list of labelled values), not a disabled
// form: nothing looks editable, and long lists read as text. Labels and enum names come from the
// same translated UI schema the form renders with.

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const isFileReference = (value: unknown): value is { id: string; name: string } =>
  isObject(value) && typeof value.id === 'string' && typeof value.name === 'string' && 'size' in value;

const nodeOrEmpty = (value: unknown): Node => (isObject(value) ? value : {});
const textOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
/** A UI schema's list of texts (`ui:order`, `ui:enumNames`), or null. */
const textsOf = (value: unknown): string[] | null => (Array.isArray(value) ? value.map(String) : null);

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0) || (isObject(value) && Object.values(value).every(isEmpty));
}

/** The property names of an object schema in the UI schema's order (`ui:order`, `*` for the rest). */
function ordered(schema: Node, ui: Node): string[] {
  const names = Object.keys(isObject(schema.properties) ? schema.properties : {});
  const order = textsOf(ui['ui:order']) ?? [];
  const listed = order.filter((name) => names.includes(name));
  const rest = names.filter((name) => !listed.includes(name));
  const star = order.indexOf('*');
  return star < 0 ? [...listed, ...rest] : [...listed.slice(0, star), ...rest, ...listed.slice(star)];
}

function Value({ schema, ui, value, yes, no }: { schema: Node; ui: Node; value: unknown; yes: string; no: string }): ReactNode {
  const { i18n } = useTranslation();
  const dates = useDateLocale();
  if (isFileReference(value)) {
    // The same link the upload field shows.
    return (
      <Link href={`/oga/uploads/${value.id}`} target="_blank" rel="noopener">
        {value.name}
      </Link>
    );
  }
  if (typeof value === 'boolean') return value ? yes : no;
  if (isCountryField(schema)) return shownCountry(value, i18n.language);
  // A day a field holds ("YYYY-MM-DD") in the event's date order, as every other date of the portal.
  if (schema.format === 'date' && typeof value === 'string') return formatEventDay(value, dates);
  const names = textsOf(ui['ui:enumNames']);
  const codes = Array.isArray(schema.enum) ? schema.enum : isObject(schema.items) && Array.isArray(schema.items.enum) ? schema.items.enum : null;
  const label = (code: unknown) => (names && codes && codes.indexOf(code) >= 0 ? names[codes.indexOf(code)] : String(code));
  if (Array.isArray(value)) return value.map(label).join(', ');
  return label(value);
}

/** The heading element of a section `depth` levels into the form: h2 below the page's h1, one level per nesting, at most h6. */
const headingAt = (depth: number) => `h${Math.min(6, depth + 2)}` as 'h2' | 'h3' | 'h4' | 'h5' | 'h6';

function Fields({ schema, ui, data, depth, yes, no }: { schema: Node; ui: Node; data: Node; depth: number; yes: string; no: string }) {
  const properties = nodeOrEmpty(schema.properties);
  // Values are term/description pairs of a list (dl); a section or a list of entries has a heading
  // and its own fields, so it sits between the lists, never inside one (a dl holds only dt/dd groups).
  const parts: Array<{ kind: 'pair' | 'block'; key: string; element: ReactNode }> = [];
  for (const name of ordered(schema, ui)) {
    const child = nodeOrEmpty(properties[name]);
    const childUi = nodeOrEmpty(ui[name]);
    const value = data[name];
    if (childUi['ui:field'] === 'hidden' || isEmpty(value)) continue;
    const title = textOr(childUi['ui:title'], name);
    if (isObject(value) && !isFileReference(value)) {
      parts.push({
        kind: 'block',
        key: name,
        element: (
          <Box key={name} sx={{ mt: 2 }}>
            <Typography component={headingAt(depth)} variant={depth === 0 ? 'h6' : 'subtitle1'}>
              {title}
            </Typography>
            <Fields schema={child} ui={childUi} data={value} depth={depth + 1} yes={yes} no={no} />
          </Box>
        ),
      });
    } else if (Array.isArray(value) && isObject(child.items) && child.items.type === 'object') {
      const itemUi = nodeOrEmpty(childUi.items);
      const itemTitle = textOr(itemUi['ui:title'], title);
      parts.push({
        kind: 'block',
        key: name,
        element: (
          <Box key={name} sx={{ mt: 2 }}>
            <Typography component={headingAt(depth)} variant={depth === 0 ? 'h6' : 'subtitle1'}>
              {title} ({value.length})
            </Typography>
            {value.map((item, index) => (
              <Paper key={index} variant="outlined" sx={{ p: 2, mt: 1 }}>
                <Typography component={headingAt(depth + 1)} variant="subtitle2">
                  {itemTitle} {index + 1}
                </Typography>
                <Fields schema={nodeOrEmpty(child.items)} ui={itemUi} data={isObject(item) ? item : {}} depth={depth + 2} yes={yes} no={no} />
              </Paper>
            ))}
          </Box>
        ),
      });
    } else {
      parts.push({
        kind: 'pair',
        key: name,
        element: (
          <Box key={name} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(10rem, 1fr) 2fr' }, gap: 1, py: 0.5 }}>
            <Typography component="dt" color="text.secondary">
              {title}
            </Typography>
            <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              <Value schema={child} ui={childUi} value={value} yes={yes} no={no} />
            </Typography>
          </Box>
        ),
      });
    }
  }
  // Consecutive pairs make one list.
  const groups: Array<{ kind: 'pair' | 'block'; key: string; elements: ReactNode[] }> = [];
  for (const part of parts) {
    const last = groups.at(-1);
    if (part.kind === 'pair' && last?.kind === 'pair') last.elements.push(part.element);
    else groups.push({ kind: part.kind, key: part.key, elements: [part.element] });
  }
  return (
    <Box>
      {groups.map((group) =>
        group.kind === 'pair' ? (
          <Box key={group.key} component="dl" sx={{ m: 0 }}>
            {group.elements}
          </Box>
        ) : (
          group.elements
        ),
      )}
    </Box>
  );
}

/** F10: the current submission of a form, read-only. */
export function SubmissionSummary({ formId }: { formId: string }) {
  const { t } = useTranslation();
  const { data: payload, error } = useFormPayload(formId);
  const { data: account } = useAccountInfo();
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!payload) return null;
  const submitted = payload.entry?.submittedData;
  const ui = displayUi(payload.ui, payload.schema, formId, t, payload.context.flags, helpParams(payload.definition));
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack direction="row" spacing={1} sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Chip label={t(`formRuntime.status.${payload.status}`)} color={STATUS_COLOR[payload.status]} size="small" />
        {payload.entry?.submittedAt && (
          <Typography variant="body2" color="text.secondary">
            {t('formRuntime.submittedAt')}: <UtcTime value={payload.entry.submittedAt} offsetMinutes={account?.utcOffsetMinutes ?? 0} />
          </Typography>
        )}
      </Stack>
      {payload.changesNotSubmitted && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('formRuntime.changesNotSubmitted')}
        </Alert>
      )}
      {submitted ? (
        <Fields schema={payload.schema} ui={ui} data={submitted} depth={0} yes={t('formRuntime.rjsf.YesLabel')} no={t('formRuntime.rjsf.NoLabel')} />
      ) : (
        <Alert severity="info">{t('formRuntime.notSubmittedYet')}</Alert>
      )}
    </Paper>
  );
}

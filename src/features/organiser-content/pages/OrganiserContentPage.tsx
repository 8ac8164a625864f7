import { Alert, Box, Button, Chip, Dialog, DialogContent, DialogTitle, Tab, Tabs, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_OPTIONS } from '../../../engine/language';
import { AUTHORED_KINDS, contentItemSchema, type AuthoredKind, type ContentItemInput } from '../../../engine/schemas/content';
import { consoleFormSchema } from '../../../engine/schemas/console-forms';
import { catalogue } from '../../../generated/screens';
import { contentItemValidators } from '../../../generated/entity-validators';
import { EntityEditForm } from '../../../components/form-runtime/EntityEditForm';
import { PageLoading } from '../../../components/PageLoading';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { useAccountInfo } from '../../../lib/session';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import type { ApiBody, ApiData } from '../../../lib/typed-api';
import { showToast } from '../../../lib/toast';
import { contentUi } from '../content-ui';

// The organiser authors its current event's content in four languages, sees which
// translations are missing (exhibitors then read the event's default language), previews the
// Markdown exactly as exhibitors will see it, and sees manual acknowledgements. The editor is the
// form runtime over the item's schema (the one the route validates with), its texts one language
// at a time.

const KINDS = AUTHORED_KINDS;
type Kind = AuthoredKind;
/** A module an item can be shown to (the body's `audience` takes the exhibitor modules only). */
type Audience = NonNullable<ApiBody<'POST', '/organiser/content'>['audience']>[number];

/** An item as the organiser's list answers it (the counts are manuals' only). */
type Item = ApiData<'GET', '/organiser/content'>[number];

/** An item being edited: the schema's data, and the id of a saved one. */
interface Draft {
  id?: number;
  input: ContentItemInput & { kind: Kind };
}

const ITEM_SCHEMA = consoleFormSchema(contentItemSchema);
const MODULES = catalogue.modules.filter((module) => !module.startsWith('Organiser'));
const isAudience = (module: string): module is Audience => MODULES.includes(module);

const blank = (kind: Kind): Draft => ({
  input: {
    kind,
    title: {},
    description: {},
    body: {},
    category: {},
    mandatory: false,
    ackRequired: false,
    deadline: null,
    pinned: false,
    audience: [],
    publishedAt: new Date().toISOString(),
    position: 0,
    emailExhibitors: false,
    attachments: [],
  },
});

/** The editable part of an item (its counts and missing languages are the server's, never sent back). */
const draftOf = ({ id, missingLanguages: _missing, viewed: _viewed, acknowledged: _acknowledged, ...editable }: Item, tab: Kind): Draft => ({
  id,
  // The list holds the tab's kind only; the tab names it in the editor's type.
  input: { ...editable, kind: KINDS.find((kind) => kind === editable.kind) ?? tab, emailExhibitors: false },
});

function Editor({ draft, onClose, onSaved }: { draft: Draft; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(draft.input);
  const offsetMinutes = useAccountInfo().data?.utcOffsetMinutes ?? 0;
  const [language, setLanguage] = useState<string>('en');
  const ui = useMemo(() => contentUi({ kind: value.kind, language, modules: MODULES, offsetMinutes }), [value.kind, language, offsetMinutes]);
  const save = async (edited: ContentItemInput) => {
    const body = { ...edited, audience: (edited.audience ?? []).filter(isAudience) };
    await (draft.id ? typedApi.put('/organiser/content/{id}', { path: { id: draft.id }, body }) : typedApi.post('/organiser/content', { body }));
    showToast('success', t('success.saved'));
    onSaved();
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="content-editor-title">
      <DialogTitle id="content-editor-title">{t(`organiserContent.kind.${value.kind}`)}</DialogTitle>
      <DialogContent>
        <Tabs value={language} onChange={(_, next) => setLanguage(next)} aria-label={t('organiserContent.language')} variant="scrollable" sx={{ mb: 2 }}>
          {LANGUAGE_OPTIONS.map(({ code, label }) => (
            <Tab key={code} value={code} label={value.title?.[code]?.trim() ? label : t('organiserContent.missingTab', { language: label })} />
          ))}
        </Tabs>
        <EntityEditForm
          schema={ITEM_SCHEMA}
          validators={contentItemValidators}
          ui={ui}
          data={value}
          onChange={(next) => setValue({ ...next, kind: value.kind })}
          check={() => ({})}
          save={save}
          onCancel={onClose}
        />
      </DialogContent>
    </Dialog>
  );
}

/** The organiser's content of its current event, by kind. */
export default function OrganiserContentPage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<Kind>('manual');
  const [editing, setEditing] = useState<Draft | null>(null);
  const { data, error, mutate } = useApi('GET', '/organiser/content', { query: { kind } });
  const remove = async (item: Item) => {
    await typedApi.del('/organiser/content/{id}', { path: { id: item.id } });
    showToast('success', t('success.deleted'));
    void mutate();
  };
  return (
    <>
      <Tabs value={kind} onChange={(_, next) => setKind(next)} variant="scrollable" aria-label={t('organiserContent.kinds')}>
        {KINDS.map((value) => (
          <Tab key={value} value={value} label={t(`organiserContent.kind.${value}`)} />
        ))}
      </Tabs>
      <Box sx={{ my: 2 }}>
        <Button variant="contained" onClick={() => setEditing(blank(kind))}>
          {t('organiserContent.add', { kind: t(`organiserContent.kind.${kind}`) })}
        </Button>
      </Box>
      {error && <Alert severity="error">{error.message}</Alert>}
      {!data && !error && <PageLoading />}
      {data && data.length === 0 && <Typography color="text.secondary">{t('organiserContent.none')}</Typography>}
      {data && data.length > 0 && (
        <ResponsiveTable
          label={t(`organiserContent.kind.${kind}`)}
          size="small"
          rows={data}
          rowKey={(item) => item.id}
          columns={[
            {
              key: 'title',
              label: t('organiserContent.title'),
              primary: true,
              cell: (item) => (
                <>
                  {item.title.en || Object.values(item.title)[0]}
                  {item.mandatory && <Chip size="small" sx={{ ml: 1 }} label={t('organiserContent.mandatory')} />}
                  {item.pinned && <Chip size="small" sx={{ ml: 1 }} label={t('organiserContent.pinned')} />}
                </>
              ),
            },
            {
              key: 'translations',
              label: t('organiserContent.translations'),
              cell: (item) =>
                item.missingLanguages.length === 0
                  ? t('organiserContent.complete')
                  : t('organiserContent.missing', {
                      languages: item.missingLanguages.map((code) => LANGUAGE_OPTIONS.find((option) => option.code === code)?.label ?? code).join(', '),
                    }),
            },
            ...(kind === 'manual'
              ? [
                  {
                    key: 'acknowledgements',
                    label: t('organiserContent.acknowledgements'),
                    cell: (item: Item) => t('organiserContent.ackCount', { acknowledged: item.acknowledged ?? 0, viewed: item.viewed ?? 0 }),
                  },
                ]
              : []),
            {
              key: 'action',
              label: t('formRuntime.list.action'),
              actions: true,
              cell: (item) => (
                <Box>
                  <Button size="small" onClick={() => setEditing(draftOf(item, kind))}>
                    {t('organiserContent.edit')}
                  </Button>
                  <Button size="small" color="error" onClick={() => void remove(item)}>
                    {t('organiserContent.remove')}
                  </Button>
                </Box>
              ),
            },
          ]}
        />
      )}
      {editing && (
        <Editor
          draft={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void mutate();
          }}
        />
      )}
    </>
  );
}

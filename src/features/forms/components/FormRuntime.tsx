import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Paper, Stack, Typography } from '@mui/material';
import type CoreForm from '@rjsf/core';
import Form from '@rjsf/mui';
import { deepEquals, type ErrorSchema, type RJSFValidationError } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { feeTotal, type FormDefinition } from '../../../engine/forms/definitions';
import { formatMoney } from '../../../engine/money';
import type { FieldError } from '../../../engine/forms/messages';
import { typedApi } from '../../../lib/api';
import { definedValues } from '../../../lib/typed-api';
import { ApiError } from '../../../lib/api-client';
import { dismissToast, showToast } from '../../../lib/toast';
import { UtcTime } from '../../../components/UtcTime';
import { useAccountInfo } from '../../../lib/session';
import { useFormPayload, type PartSummary } from '../lib/payload';
import { serverErrorSchema, serverProblems, withoutHidden } from '../../../components/form-runtime/display';
import { fieldIdOf, topFieldOf } from '../../../components/form-runtime/field-ids';
import { STATUS_COLOR } from './status-colour';
import { DEFAULT_FORM_STATE, fields, formView, ProblemSummary, templates, useServedValidators, widgets } from '../../../components/form-runtime/form-view';
import { PartStatuses } from './PartStatuses';
import { partsOf, partsToSubmit } from '../../../engine/forms/parts';
import { importableLists } from '../../../engine/forms/list-import';
import { ListImport } from './ListImport';

const AUTOSAVE_MS = 1500;

/** F9: how an approval decision is shown on the form. */
const APPROVAL_SEVERITY = { pending: 'info', approved: 'success', rejected: 'error' } as const;

/** A part of a refused save's answer (`errors`, `forms`), when it is a list. */
function answerList(data: unknown, name: 'errors' | 'forms'): unknown[] | undefined {
  if (typeof data !== 'object' || data === null || !(name in data)) return undefined;
  const value: unknown = Reflect.get(data, name);
  return Array.isArray(value) ? value : undefined;
}

/** R5: the section anchor a UI schema node names (`ui:options.anchor`), if any. */
function anchorOf(node: unknown): unknown {
  const options = typeof node === 'object' && node !== null && 'ui:options' in node ? node['ui:options'] : undefined;
  return typeof options === 'object' && options !== null && 'anchor' in options ? options.anchor : undefined;
}

const isFieldError = (value: unknown): value is FieldError =>
  typeof value === 'object' && value !== null && 'path' in value && typeof value.path === 'string' && 'key' in value && typeof value.key === 'string';

/** F9: what a submission sends, in a few lines: each list's entries and the fee of flagged items. */
function SubmitSummary({ schema, definition, data }: { schema: Record<string, unknown>; definition: FormDefinition; data: Record<string, unknown> }) {
  const { t } = useTranslation();
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; title?: string; items?: { type?: string; properties?: Record<string, { title?: string }> } }>;
  const lists = Object.entries(properties).filter(([name, property]) => property.type === 'array' && property.items?.type === 'object' && Array.isArray(data[name]));
  const fee = definition.fee;
  const extras = fee ? feeTotal(fee, data) : null;
  const flagTitle = fee ? (properties[fee.list]?.items?.properties?.[fee.flag]?.title ?? fee.flag) : '';
  return (
    <Box component="ul" sx={{ pl: 2, my: 1 }}>
      {lists.map(([name, property]) => (
        <li key={name}>{t('formRuntime.confirm.entries', { list: property.title ? t(property.title) : name, count: (data[name] as unknown[]).length })}</li>
      ))}
      {fee && extras && extras.count > 0 && <li>{t('formRuntime.quota.fee', { count: extras.count, flag: t(flagTitle), total: formatMoney(extras.total, fee.currency) })}</li>}
    </Box>
  );
}

/**
 * A generated form (F1, F9): rendered from its schema, validated in the browser with the same
 * keywords as the server, saved as a draft while the user types and with "Save draft", then
 * submitted. A save based on an older version is refused by the server and said so.
 *
 * Typing stays cheap in long lists (a keystroke in a 200-item list within a frame):
 * - the rjsf form is uncontrolled: it owns the data and reports changes, which land in a ref,
 *   so a keystroke renders the form, not this component; new data from outside (loading,
 *   copying from the previous event) remounts the form with it;
 * - array items keep their identity where they did not change (StableArrayField), so rjsf's
 *   memoised items render only the one being typed in;
 * - text inputs show a keystroke at once and hand it to rjsf right after that frame is painted
 *   (BufferedInputTemplate; at once on blur and Enter);
 * - list items are laid out and painted only near the screen (ArrayItemTemplate);
 * - validation runs on submit (and on the server), not on each change;
 * - the autosave is debounced and serialises the data only when it fires.
 */
export function FormRuntime({ formId }: { formId: string }) {
  const { t, i18n } = useTranslation();
  const { data: payload, error, mutate } = useFormPayload(formId);
  const { data: account } = useAccountInfo();
  /** The data the form starts from, and a generation that remounts the form when it changes. */
  const [initial, setInitial] = useState<{ data: Record<string, unknown>; generation: number }>({ data: {}, generation: 0 });
  /** The form's current data, as it last reported it (no render per keystroke). */
  const latest = useRef<Record<string, unknown>>({});
  const version = useRef(0);
  /** The data as last loaded or saved, as JSON: autosave runs only when the user changed something. */
  const saved = useRef<string | null>(null);
  /** True while a new form mounts: what it reports then is the data with its defaults, not an edit. */
  const mounting = useRef(true);
  const timer = useRef<number | undefined>(undefined);
  /** The save on its way, if any: saves go one after another, each based on the version the previous one answered. */
  const inFlight = useRef<Promise<unknown>>(Promise.resolve());
  const [extraErrors, setExtraErrors] = useState<ErrorSchema | undefined>();
  /** The message above the form; `refusal`: a refused submit's, which a later draft save does not replace. */
  const [notice, setNotice] = useState<{ kind: 'error' | 'warning' | 'success'; text: string; refusal?: boolean } | null>(null);
  const [stale, setStale] = useState(false);
  /** How many saves are on their way: "Save draft" waits for them (a double click sends one save). */
  const [saving, setSaving] = useState(0);
  /**
   * F9: why the last save failed, shown beside the buttons until a save succeeds (the notice at the
   * top of a long form is out of view), with a toast when it first fails.
   */
  const [notSaved, setNotSaved] = useState<string | null>(null);
  const notSavedToast = useRef<number | null>(null);
  const buttonRow = useRef<HTMLDivElement>(null);
  const notSavedNote = useRef<HTMLParagraphElement>(null);
  // The user at the buttons (they are in the window) sees the whole message below them.
  useEffect(() => {
    const row = buttonRow.current?.getBoundingClientRect();
    if (notSaved !== null && row && row.bottom > 0 && row.top < window.innerHeight) notSavedNote.current?.scrollIntoView({ block: 'nearest' });
  }, [notSaved]);
  /**
   * F9: after the first submit attempt the form validates as the user types, so each error clears
   * as soon as its field is fixed; `problems` is what the summary lists (empty = no summary).
   */
  const [attempted, setAttempted] = useState(false);
  const [problems, setProblems] = useState<RJSFValidationError[]>([]);
  /**
   * F9: which fields' errors are shown. Before a first submit attempt, none (the form is not
   * validated); a submit shows every error (`all`); after it, a field's error clears as soon as it
   * is fixed (live validation on change) and a new one shows once the user leaves that field
   * (`ids`: the fields shown, by input id).
   */
  const reveal = useRef<{ all: boolean; ids: Set<string> }>({ all: false, ids: new Set() });
  const formRef = useRef<CoreForm>(null);
  /** F9: validations run because the user left a field (not a submit): they never move focus. */
  const blurChecks = useRef(0);
  /** How many submits the browser refused: each one moves focus to the problem summary. */
  const [refusals, setRefusals] = useState(0);
  /** F9: the valid data waiting for the user's confirmation before it is submitted. */
  const [confirming, setConfirming] = useState<Record<string, unknown> | null>(null);

  /** Starts the form afresh from `data` (remounting it), unless it already holds that data. */
  const load = (data: Record<string, unknown>) => {
    if (initial.generation > 0 && deepEquals(data, latest.current)) return;
    latest.current = data;
    saved.current = JSON.stringify(data);
    mounting.current = true;
    setInitial((current) => ({ data, generation: current.generation + 1 }));
  };

  useEffect(() => {
    if (!payload) return;
    version.current = payload.entry?.version ?? 0;
    // The form shows the working copy (the submitted copy is SubmissionSummary's).
    load(payload.entry?.data ?? {});
  }, [payload]); // eslint-disable-line react-hooks/exhaustive-deps

  const { data: validateFns, error: validatorError } = useServedValidators(payload?.validator.url);

  const currentView = useMemo(() => {
    if (!payload || !validateFns) return null;
    // P1 F4: a part closed by its own submission (submit-once) is shown, not editable; the user's other parts stay open.
    const lockedFields = new Set(
      (partsOf(payload.definition, payload.schema) ?? []).filter((part) => payload.parts?.some((p) => p.id === part.id && p.locked)).flatMap((part) => part.fields),
    );
    return formView({ formId, ...payload }, validateFns, t, i18n, lockedFields);
    // The language is part of the translated UI schema.
  }, [payload, validateFns, formId, t, i18n.language]); // eslint-disable-line react-hooks/exhaustive-deps
  /**
   * Short main-thread tasks (Lighthouse TBT): the form is rendered from a deferred copy of its view. Its data
   * arrive outside any transition (SWR), so rendering a long form at once was one main-thread task
   * of 160–260 ms on S04; deferred, React renders it in slices that let input through, and the
   * page shows the form as soon as that render completes. Everything below reads this copy, so the
   * effects that look for the form's elements run once the form is there.
   */
  const view = useDeferredValue(currentView);

  /**
   * P1 F4: the top-level fields a submission of `data` sends (null: the whole form). A form with
   * parts submits only some of them (partsToSubmit, as the server decides): the browser validates
   * those, so a part the user leaves to someone else never blocks its submission.
   */
  const submittedFields = useMemo(() => {
    const formParts = payload ? partsOf(payload.definition, payload.schema) : null;
    const views = payload?.parts;
    if (!formParts || !views) return () => null;
    const ids = (test: (part: PartSummary) => boolean) => views.filter(test).map((part) => part.id);
    const pick = (chosen: string[]) => formParts.filter((part) => chosen.includes(part.id));
    const user = {
      mine: pick(ids((part) => part.mine)),
      own: pick(ids((part) => part.own)),
      locked: ids((part) => part.locked),
      submitted: ids((part) => part.submittedAt !== null),
    };
    return (data: Record<string, unknown>) => new Set(partsToSubmit(user, data, payload.entry?.submittedData).flatMap((part) => part.fields));
  }, [payload]);

  /** F9: the translated errors, those of fields not shown yet left out (see `reveal`). */
  const transformErrors = useMemo(() => {
    if (!view) return undefined;
    return (errors: RJSFValidationError[]) => {
      const sent = submittedFields(latest.current);
      const translated = view.transformErrors(errors).filter((problem) => {
        const field = topFieldOf(problem.property);
        return !sent || field === '' || sent.has(field);
      });
      if (reveal.current.all) return translated;
      // A field fixed since its error was shown: a new problem in it waits until the user leaves it again.
      const failing = new Set(translated.map((problem) => fieldIdOf(problem.property)));
      for (const id of reveal.current.ids) if (!failing.has(id)) reveal.current.ids.delete(id);
      return translated.filter((problem) => reveal.current.ids.has(fieldIdOf(problem.property)));
    };
  }, [view, submittedFields]);

  // The form has mounted (it needs the view): from now on what it reports is the user's doing.
  useEffect(() => {
    if (view) mounting.current = false;
  }, [initial.generation, view]);

  // R5: opened at a section (/…#distribution from Home): the UI schema names it (`ui:options.anchor`).
  const { hash } = useLocation();
  const shownSection = useRef<string | null>(null);
  useEffect(() => {
    const anchor = decodeURIComponent(hash.replace(/^#/, ''));
    if (!view || !anchor || shownSection.current === anchor) return;
    const property = Object.entries(view.ui).find(([, node]) => anchorOf(node) === anchor)?.[0];
    const section = property ? (document.getElementById(`root_${property}__title`) ?? document.getElementById(`root_${property}`)) : null;
    if (!section) return;
    shownSection.current = anchor;
    section.scrollIntoView({ block: 'start' });
  }, [hash, view, initial.generation]);

  const disabled = !payload || payload.locked || payload.closed || stale;

  /**
   * Saves (autosave, "Save draft", Submit) wait for the one on its way: sent at once, a Submit
   * made while an autosave is in flight carries the version before that autosave, and the server
   * refuses the user's own newer save as if someone else had saved.
   */
  function save(data: Record<string, unknown>, submit: boolean): Promise<void> {
    window.clearTimeout(timer.current);
    // A submission carries only what the user can see (rjsf fills in defaults for hidden sections too).
    const sent = submit && payload ? withoutHidden(payload.schema, data, payload.context.flags) : data;
    setSaving((count) => count + 1);
    const run = inFlight.current.then(() => send(sent, submit)).finally(() => setSaving((count) => count - 1));
    inFlight.current = run.catch(() => undefined);
    return run;
  }

  async function send(data: Record<string, unknown>, submit: boolean) {
    try {
      const options = { path: { id: formId }, body: { data, version: version.current }, silent: true, skipDuplicateCheck: !submit };
      const result = submit ? await typedApi.post('/forms/{id}/submit', options) : await typedApi.put('/forms/{id}/draft', options);
      version.current = result.version;
      saved.current = JSON.stringify(data);
      setExtraErrors(undefined);
      setNotSaved(null);
      if (notSavedToast.current !== null) dismissToast(notSavedToast.current);
      notSavedToast.current = null;
      if (submit) {
        setProblems([]);
        setAttempted(false);
        reveal.current = { all: false, ids: new Set() };
        setNotice({ kind: 'success', text: t('formRuntime.submitted') });
        await mutate();
      } else {
        // A draft saved while a refused submit's problems are listed is no success to announce.
        setNotice((current) => (current?.refusal ? current : { kind: 'success', text: t('success.saved') }));
        // The list shows whether there are changes not submitted yet.
        if (payload?.entry?.status === 'submitted') void mutate();
      }
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      if (failure.errorId === 'staleVersion') setStale(true);
      // A draft that did not save, or a submission lost on the way, is said where the user is.
      else if (!submit || failure.kind === 'transport') {
        const reason = failure.message;
        setNotSaved(reason);
        if (notSavedToast.current === null) notSavedToast.current = showToast('error', t('formRuntime.notSaved', { reason }));
      }
      if (failure.errorId === 'validationFailed') {
        const errors = (answerList(failure.data, 'errors') ?? []).filter(isFieldError);
        setExtraErrors(serverErrorSchema(errors, t));
        setAttempted(true);
        // A submit the server refuses is listed and focused like one the browser refuses.
        if (submit && errors.length > 0) {
          const refused = serverProblems(errors, t);
          reveal.current = { all: false, ids: new Set([...reveal.current.ids, ...refused.map((problem) => fieldIdOf(problem.property))]) };
          setProblems(refused);
          setRefusals((count) => count + 1);
        }
      }
      const forms = answerList(failure.data, 'forms')?.map(String);
      setNotice({ kind: 'error', text: forms ? `${failure.message} ${forms.join(', ')}` : failure.message, refusal: failure.errorId === 'validationFailed' });
    }
  }

  useEffect(() => () => window.clearTimeout(timer.current), []);

  /** Autosave, AUTOSAVE_MS after the last change: the data is serialised once, here, not per keystroke. */
  function scheduleAutosave() {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      const data = latest.current;
      if (JSON.stringify(data) !== saved.current) void save(data, false);
    }, AUTOSAVE_MS);
  }

  /**
   * The lists a spreadsheet can fill, from the schema (those behind a flag that is
   * off, and those outside a contractor's part, left out as the form leaves them out).
   */
  const sheetLists = useMemo(() => {
    if (!payload) return [];
    const hiddenFields = new Set(
      Object.entries(payload.ui)
        .filter(([, node]) => typeof node === 'object' && node !== null && 'ui:field' in node && node['ui:field'] === 'hidden')
        .map(([name]) => name),
    );
    return importableLists(formId, payload.schema, payload.context.flags).filter((list) => !hiddenFields.has(list.property));
  }, [payload, formId]);

  /** The rows the user accepted are added to the list and saved as a draft at once (nothing lost on leaving). */
  function addRows(list: string, items: Record<string, unknown>[]) {
    const current = latest.current;
    const existing = current[list];
    const next = { ...current, [list]: [...(Array.isArray(existing) ? existing : []), ...items] };
    load(next);
    // A refused save keeps its own message (stale version, closed form).
    void save(next, false).then(() =>
      setNotice((current) =>
        current?.kind === 'error' ? current : { kind: 'success', text: t(items.length === 1 ? 'listImport.addedOne' : 'listImport.addedMany', { count: items.length }) },
      ),
    );
  }

  /** F3: copy the entries of the exhibitor's previous event into this draft. */
  async function inherit() {
    try {
      const result = await typedApi.post('/forms/{id}/inherit', { path: { id: formId }, silent: true });
      version.current = result.version;
      load(definedValues(result.data));
      setNotice({ kind: 'success', text: t('success.inheritedProduct') });
    } catch (failure) {
      if (failure instanceof ApiError) setNotice({ kind: 'error', text: failure.message });
    }
  }

  if (error || validatorError) return <Alert severity="error">{(error ?? validatorError).message}</Alert>;
  if (!payload || !view) return null;

  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack direction="row" spacing={1} sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Chip label={t(`formRuntime.status.${payload.status}`)} color={STATUS_COLOR[payload.status]} size="small" />
        {payload.deadline && (
          <Typography variant="body2" color="text.secondary">
            {t('formRuntime.deadline')}: <UtcTime value={payload.deadline} offsetMinutes={account?.utcOffsetMinutes ?? 0} />
          </Typography>
        )}
      </Stack>
      {payload.parts && (
        <Box sx={{ mb: 2 }}>
          <PartStatuses parts={payload.parts} />
        </Box>
      )}
      {payload.closedPrerequisites.length > 0 ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('formRuntime.prerequisiteClosed', { forms: payload.closedPrerequisites.join(', '), supportEmail: account?.supportEmail ?? '' })}
        </Alert>
      ) : (
        payload.missingPrerequisites.length > 0 && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {t('errors.submitFormsFirst')} {payload.missingPrerequisites.join(', ')}
          </Alert>
        )
      )}
      {payload.changesNotSubmitted && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('formRuntime.changesNotSubmitted')}
        </Alert>
      )}
      {!disabled && payload.status === 'approved' && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('formRuntime.approvedEditWarning')}
        </Alert>
      )}
      {payload.entry?.approval && (
        <Alert severity={APPROVAL_SEVERITY[payload.entry.approval.status]} sx={{ mb: 2 }}>
          {t(`formRuntime.decision.${payload.entry.approval.status}`)}
          {payload.entry.approval.comment ? ` ${t('formRuntime.decision.comment', { comment: payload.entry.approval.comment })}` : ''}
        </Alert>
      )}
      {payload.locked && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('errors.submitOnce')}
        </Alert>
      )}
      {!payload.locked &&
        payload.parts
          ?.filter((part) => part.mine && part.locked)
          .map((part) => (
            <Alert key={part.id} severity="info" sx={{ mb: 2 }}>
              {t('formRuntime.partLocked', { part: t(part.title) })}
            </Alert>
          ))}
      {payload.closed && !payload.locked && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('errors.deadlinePassed')}
        </Alert>
      )}
      {stale && (
        <Alert severity="error" sx={{ mb: 2 }} action={<Button onClick={() => window.location.reload()}>{t('layout.reload')}</Button>}>
          {t('errors.staleVersion')}
        </Alert>
      )}
      {problems.length > 0 && <ProblemSummary problems={problems} refusal={refusals} />}
      {notice && !stale && !(notice.kind === 'error' && problems.length > 0) && (
        <Alert severity={notice.kind} sx={{ mb: 2 }} role={notice.kind === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </Alert>
      )}
      {sheetLists.map((list) => (
        <ListImport
          key={list.property}
          formId={formId}
          formCode={payload.definition.code}
          list={list}
          disabled={disabled}
          currentData={() => latest.current}
          onAccept={(items) => addRows(list.property, items)}
        />
      ))}
      {/* A submit (button or Enter) validates every field: shown all at once (F9). */}
      <Box
        onSubmitCapture={() => {
          reveal.current.all = true;
        }}
      >
        <Form
          ref={formRef}
          key={initial.generation}
          schema={view.schema}
          uiSchema={view.ui}
          formContext={view.formContext}
          initialFormData={initial.data}
          validator={view.validator}
          fields={fields}
          widgets={widgets}
          templates={templates}
          transformErrors={transformErrors}
          customValidate={view.customValidate as never}
          translateString={view.translateString}
          extraErrors={extraErrors}
          liveValidate={attempted ? 'onChange' : undefined}
          // F9: a declaration (`const: true`) is something the user ticks, never pre-ticked; a list
          // that needs entries (`minItems`) starts empty and says how many it needs (QuotaNote), rather
          // than holding blank entries nobody added.
          experimental_defaultFormStateBehavior={DEFAULT_FORM_STATE}
          disabled={disabled}
          showErrorList={false}
          noHtml5Validate
          onChange={(event) => {
            const data = event.formData as Record<string, unknown>;
            latest.current = data;
            // Validated live after a refused submit: the summary follows what is still wrong.
            if (attempted) {
              setProblems(event.errors ?? []);
              if (extraErrors) setExtraErrors(undefined);
              if ((event.errors ?? []).length === 0) setNotice(null);
            }
            // While mounting, rjsf reports the data with its defaults filled in: the starting point, not an edit.
            if (mounting.current) {
              saved.current = JSON.stringify(data);
              return;
            }
            if (!disabled) scheduleAutosave();
          }}
          onBlur={(id) => {
            if (!attempted || reveal.current.ids.has(id)) return;
            // F9: leaving a field shows its error; validated once rjsf has taken the field's last change.
            reveal.current.ids.add(id);
            window.setTimeout(() => {
              // Not a refused submit: the error list is brought up to date, focus stays where the user is.
              blurChecks.current += 1;
              if (formRef.current?.validateForm() !== false) blurChecks.current -= 1;
            }, 0);
          }}
          onSubmit={(event) => {
            reveal.current.all = false;
            setConfirming(event.formData as Record<string, unknown>);
          }}
          onError={(errors) => {
            if (blurChecks.current > 0) {
              blurChecks.current -= 1;
              setProblems(errors);
              return;
            }
            if (reveal.current.all) reveal.current = { all: false, ids: new Set([...reveal.current.ids, ...errors.map((problem) => fieldIdOf(problem.property))]) };
            setAttempted(true);
            setProblems(errors);
            setRefusals((count) => count + 1);
            setNotice({ kind: 'error', text: t('errors.validationFailed'), refusal: true });
          }}
        >
          <Box ref={buttonRow} sx={{ display: 'flex', gap: 2, mt: 2, alignItems: 'center', flexWrap: 'wrap' }}>
            <Button variant="outlined" disabled={disabled || saving > 0} onClick={() => void save(latest.current, false)}>
              {t('formRuntime.saveDraft')}
            </Button>
            {payload.definition.inheritFromPreviousEvent && (
              <Button variant="text" disabled={disabled} onClick={() => void inherit()}>
                {t('formRuntime.inherit')}
              </Button>
            )}
            <Button type="submit" variant="contained" disabled={disabled || payload.missingPrerequisites.length > 0}>
              {t('formRuntime.submit')}
            </Button>
            {notSaved !== null && (
              <Typography ref={notSavedNote} role="alert" variant="body2" color="error" sx={{ flexBasis: { xs: '100%', sm: 'auto' }, flexShrink: 1 }}>
                {t('formRuntime.notSaved', { reason: notSaved })}
              </Typography>
            )}
          </Box>
        </Form>
      </Box>
      <Dialog open={confirming !== null} onClose={() => setConfirming(null)} aria-labelledby="submit-confirm-title">
        <DialogTitle id="submit-confirm-title">{t('formRuntime.confirm.title', { form: t(payload.definition.title) })}</DialogTitle>
        <DialogContent>
          <Typography>{t('formRuntime.confirm.text')}</Typography>
          {confirming && <SubmitSummary schema={payload.schema} definition={payload.definition} data={confirming} />}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(null)}>{t('formRuntime.confirm.cancel')}</Button>
          <Button
            variant="contained"
            onClick={() => {
              const data = confirming!;
              setConfirming(null);
              void save(data, true);
            }}
          >
            {t('formRuntime.confirm.submit')}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}

export default FormRuntime;

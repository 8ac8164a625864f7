import type { OptionalListing } from '../../../engine/schemas/optional-listing';
import type { FormFiles } from '../../../engine/schemas/form-patch';
import { useState } from 'react';
import { Alert, Box, Button, Chip, FormControlLabel, IconButton, Paper, Stack, Switch, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  enumLabelKey,
  moveQuestion,
  questionsOf,
  removeQuestion,
  setCondition,
  setHidden,
  setOptions,
  setRequired,
  setTexts,
  textsOf,
  addQuestion,
  type EditOutcome,
  type EditorForm,
  type MissingTranslation,
  type PatchProblem,
  type Question,
  type TouchedReference,
} from '../../../engine/forms/patch-editor';
import { AddQuestionDialog, ConditionDialog, RemoveDialog, TextsDialog } from './QuestionDialogs';

// F11: the questions of a form (a section's, a list's items') as the organiser edits them without
// JSON: each with its kind, required/hidden/condition, missing translations and the server's
// problems, and the actions on it. Every action is one operation of the patch editor; a refused one
// shows its coded message in the dialog or above the list.

export interface QuestionListContext {
  form: EditorForm;
  files: FormFiles;
  /** Applies an operation's outcome (with names to list under forms.yaml entries' `optional:`); answers the refusal's message, or null. */
  apply: (outcome: EditOutcome, listings?: OptionalListing[]) => string | null;
  /** A question's text in the editor's language. */
  label: (key: string | null, fallback: string) => string;
  /** The server's problems by dotted question route. */
  problems: Map<string, PatchProblem[]>;
  missing: MissingTranslation[];
  /** What removing a question would do to the fields forms.yaml names. */
  touchedBy: (outcome: EditOutcome) => TouchedReference[];
  purposes: string[];
}

type Dialog =
  | { kind: 'add' }
  | { kind: 'texts'; question: Question }
  | { kind: 'condition'; question: Question }
  | { kind: 'remove'; question: Question; touched: TouchedReference[] };

function QuestionRow({
  question,
  index,
  count,
  context,
  open,
}: {
  question: Question;
  index: number;
  count: number;
  context: QuestionListContext;
  open: (dialog: Dialog) => void;
}) {
  const { t } = useTranslation();
  const { form, apply, label } = context;
  const name = label(question.title, question.id);
  const problems = context.problems.get(question.route.join('.')) ?? [];
  const missing = context.missing.filter((entry) => entry.route?.join('.') === question.route.join('.'));
  const [error, setError] = useState<string | null>(null);
  const run = (outcome: EditOutcome) => setError(apply(outcome));
  return (
    <Box component="li" sx={{ listStyle: 'none', border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }} aria-label={name}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <Typography component="p" variant="subtitle2" sx={{ flex: '1 1 12rem' }}>
          {name}{' '}
          <Typography component="span" variant="caption" color="text.secondary">
            {question.id} · {t(`formEditor.kinds.${question.kind}`)}
          </Typography>
        </Typography>
        {!question.inBase && <Chip size="small" color="primary" label={t('formEditor.new')} />}
        {question.hidden && <Chip size="small" label={t('formEditor.hidden')} />}
        {question.condition && (
          <Chip size="small" variant="outlined" label={t('formEditor.shownWhen', { question: question.condition.on, value: String(question.condition.equals) })} />
        )}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.5, mt: 1 }}>
        <FormControlLabel
          control={<Switch size="small" checked={question.required} onChange={(event) => run(setRequired(form, question.route, event.target.checked))} />}
          label={t('formEditor.required')}
        />
        <IconButton size="small" aria-label={t('formEditor.moveUp', { question: name })} disabled={index === 0} onClick={() => run(moveQuestion(form, question.route, index - 1))}>
          ↑
        </IconButton>
        <IconButton
          size="small"
          aria-label={t('formEditor.moveDown', { question: name })}
          disabled={index === count - 1}
          onClick={() => run(moveQuestion(form, question.route, index + 1))}
        >
          ↓
        </IconButton>
        <Button size="small" onClick={() => open({ kind: 'texts', question })} aria-label={t('formEditor.editTextsOf', { question: name })}>
          {t('formEditor.editTexts')}
        </Button>
        <Button size="small" onClick={() => open({ kind: 'condition', question })} aria-label={t('formEditor.conditionOf', { question: name })}>
          {t('formEditor.condition')}
        </Button>
        {question.inBase && (
          <Button
            size="small"
            onClick={() => run(setHidden(form, question.route, !question.hidden))}
            aria-label={t(question.hidden ? 'formEditor.showOf' : 'formEditor.hideOf', { question: name })}
          >
            {t(question.hidden ? 'formEditor.show' : 'formEditor.hide')}
          </Button>
        )}
        <Button
          size="small"
          color="error"
          aria-label={t('formEditor.removeOf', { question: name })}
          onClick={() => {
            const outcome = removeQuestion(form, question.route);
            const touched = context.touchedBy(outcome);
            if (touched.length === 0 && !question.inBase) run(outcome);
            else open({ kind: 'remove', question, touched });
          }}
        >
          {t('formEditor.remove')}
        </Button>
      </Box>
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
      {missing.map((entry) => (
        <Alert key={entry.key} severity="warning" sx={{ mt: 1 }}>
          {t('formEditor.missingIn', { key: entry.key, languages: entry.languages.map((language) => t(`formEditor.languages.${language}`)).join(', ') })}
        </Alert>
      ))}
      {problems.map((problem, at) => (
        <Alert key={at} severity="error" sx={{ mt: 1 }}>
          {problem.message}
        </Alert>
      ))}
      {question.hasQuestions && !question.hidden && <QuestionList container={question.route} context={context} nested />}
    </Box>
  );
}

/** The texts dialog of one question: only what the organiser changed is written (a base question's shared keys stay otherwise). */
function TextsOf({
  question,
  container,
  context,
  error,
  onCancel,
  settle,
}: {
  question: Question;
  container: string[];
  context: QuestionListContext;
  error: string | null;
  onCancel: () => void;
  settle: (outcome: EditOutcome) => void;
}) {
  const { form } = context;
  const initial = {
    title: textsOf(form, question.title),
    help: textsOf(form, question.help),
    options: question.options.map((code) => ({ code, labels: textsOf(form, enumLabelKey(form.formId, question.id, code)) })),
  };
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return (
    <TextsDialog
      question={question}
      initial={initial}
      sharedOptions={new Set(questionsOf(form.base, form.base, container).find((other) => other.id === question.id)?.options ?? [])}
      error={error}
      onCancel={onCancel}
      onSave={({ title, help, options }) => {
        const texts = setTexts(form, question.route, { title: same(title, initial.title) ? undefined : title, help: same(help, initial.help) ? undefined : help });
        if (!texts.ok || !options || same(options, initial.options)) return settle(texts);
        settle(setOptions({ ...form, patch: texts.patch, strings: texts.strings }, question.route, options));
      }}
    />
  );
}

/** The questions of one object, in the form's order, and "Add a question" to it. */
export function QuestionList({ container, context, nested = false }: { container: string[]; context: QuestionListContext; nested?: boolean }) {
  const { t } = useTranslation();
  const { form, files, apply, label } = context;
  const questions = questionsOf(files, form.base, container);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const close = () => (setDialog(null), setDialogError(null));
  /** Applies and closes the dialog, or keeps it open with the refusal. */
  const settle = (outcome: EditOutcome, listings?: OptionalListing[]) => {
    const error = apply(outcome, listings);
    if (error) setDialogError(error);
    else close();
  };
  const where =
    container.length === 0
      ? t('formEditor.theForm')
      : label(questionsOf(files, form.base, container.slice(0, -1)).find((question) => question.id === container.at(-1))?.title ?? null, container.join('.'));

  const body = (
    <>
      <Stack component="ul" spacing={1} sx={{ m: 0, p: 0 }}>
        {questions.map((question, index) => (
          <QuestionRow key={question.id} question={question} index={index} count={questions.length} context={context} open={(next) => (setDialogError(null), setDialog(next))} />
        ))}
      </Stack>
      <Button size="small" variant="outlined" sx={{ mt: 1 }} onClick={() => setDialog({ kind: 'add' })}>
        {t('formEditor.addQuestionTo', { where })}
      </Button>
      {dialog?.kind === 'add' && (
        <AddQuestionDialog
          open
          container={container}
          purposes={context.purposes}
          error={dialogError}
          onCancel={close}
          onAdd={(question) => settle(addQuestion(form, question, question.purpose ? [...context.purposes, question.purpose] : context.purposes))}
        />
      )}
      {dialog?.kind === 'texts' && <TextsOf question={dialog.question} container={container} context={context} error={dialogError} onCancel={close} settle={settle} />}
      {dialog?.kind === 'condition' && (
        <ConditionDialog
          question={dialog.question}
          candidates={questions}
          label={label}
          error={dialogError}
          onCancel={close}
          onSave={(condition) => settle(setCondition(form, dialog.question.route, condition))}
        />
      )}
      {dialog?.kind === 'remove' && (
        <RemoveDialog
          question={dialog.question}
          touched={dialog.touched}
          label={label(dialog.question.title, dialog.question.id)}
          onCancel={close}
          onRemove={() => settle(removeQuestion(form, dialog.question.route))}
          onRemoveListing={(listings) => settle(removeQuestion(form, dialog.question.route), listings)}
          onHide={() => settle(setHidden(form, dialog.question.route, true))}
        />
      )}
    </>
  );
  return nested ? (
    <Box sx={{ mt: 1, pl: 2, borderLeft: 2, borderColor: 'divider' }}>{body}</Box>
  ) : (
    <Paper variant="outlined" sx={{ p: 2 }}>
      {body}
    </Paper>
  );
}

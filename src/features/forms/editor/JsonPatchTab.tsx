import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Typography } from '@mui/material';
import { basicSetup, EditorView } from 'codemirror';
import { jsonSchema } from 'codemirror-json-schema';
import type { JSONSchema7 } from 'json-schema';
import { useTranslation } from 'react-i18next';
import { patchFileSchema, readPatchText } from '../../../engine/forms/patch-editor-json';
import type { FormFiles, FormPatch } from '../../../engine/schemas/form-patch';

// F11: the event's patch as JSON, for implementers: CodeMirror 6 with completion and marks from the
// patch file's JSON Schema (made from the base form), JSON syntax errors as one types. A text that
// reads as a patch replaces the patch (the preview and the checks follow); one that does not is
// said so and changes nothing.

const pretty = (patch: FormPatch | null) => JSON.stringify(patch ?? {}, null, 2);

export default function JsonPatchTab({ base, patch, purposes, onPatch }: { base: FormFiles; patch: FormPatch | null; purposes: string[]; onPatch: (patch: FormPatch) => void }) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  /** The text last taken as the patch: an outside change of the patch replaces the editor's text only when it differs. */
  const taken = useRef(pretty(patch));
  const [problem, setProblem] = useState<string | null>(null);
  const onPatchRef = useRef(onPatch);
  onPatchRef.current = onPatch;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is made once per base form; the patch arrives through the effect below
  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      doc: taken.current,
      parent: host.current,
      extensions: [
        basicSetup,
        jsonSchema(patchFileSchema(base, purposes) as JSONSchema7),
        EditorView.contentAttributes.of({ 'aria-label': t('formEditor.jsonLabel') }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          const text = update.state.doc.toString();
          const outcome = readPatchText(text);
          if (!outcome.ok) return setProblem(t(`formEditor.errors.${outcome.code}`, { detail: outcome.detail ?? '' }));
          setProblem(null);
          taken.current = pretty(outcome.patch);
          onPatchRef.current(outcome.patch);
        }),
      ],
    });
    view.current = editor;
    return () => editor.destroy();
  }, [base]);

  useEffect(() => {
    const text = pretty(patch);
    const editor = view.current;
    if (!editor || text === taken.current) return;
    taken.current = text;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
  }, [patch]);

  return (
    <Box>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('formEditor.jsonExplain')}
      </Typography>
      {problem && (
        <Alert severity="error" role="alert" sx={{ mb: 1 }}>
          {problem}
        </Alert>
      )}
      <Box ref={host} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, '& .cm-editor': { maxHeight: '60vh' }, '& .cm-scroller': { overflow: 'auto' } }} />
    </Box>
  );
}

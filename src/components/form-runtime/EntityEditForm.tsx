import { useState, type ReactNode } from 'react';
import { Box, Button } from '@mui/material';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import type { FieldProblems } from '../../engine/organiser-events';
import { showToast } from '../../lib/toast';
import { fieldProblemsOf, SchemaForm, type EntityValidators } from './SchemaForm';

// A console edit page's form (O2): the entity's schema form, then the page's rules, then the
// save. Whatever refuses the data says so beside the fields — the schema (in the browser), the
// page's rules (`check`), or the server's coded answer (its `fields`) — with a toast that asks
// to fix them; nothing is sent while the browser finds a problem.

interface Props<T> {
  schema: RJSFSchema;
  validators: EntityValidators;
  ui: UiSchema;
  data: T;
  onChange: (data: T) => void;
  /** The rules beyond the schema (field path → locale key), checked before sending. */
  check: (data: T) => FieldProblems;
  /** Sends the data; an ApiError with field problems puts them beside the fields. */
  save: (data: T) => Promise<void>;
  onCancel: () => void;
  /** What follows the fields, before the buttons (sections of the page's own). */
  children?: ReactNode;
  /** The buttons stay in view at the window's foot (a long page). */
  stickyButtons?: boolean;
}

export function EntityEditForm<T extends object>({ schema, validators, ui, data, onChange, check, save, onCancel, children, stickyButtons = false }: Props<T>) {
  const { t } = useTranslation();
  const [problems, setProblems] = useState<FieldProblems>({});
  const [busy, setBusy] = useState(false);
  const fixFields = () => showToast('warning', t('organiser.event.fixFields'));

  const submit = async (edited: T) => {
    const found = check(edited);
    setProblems(found);
    if (Object.keys(found).length > 0) return fixFields();
    setBusy(true);
    try {
      await save(edited);
    } catch (failure) {
      setProblems(fieldProblemsOf(failure));
      showToast('error', failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ maxWidth: 960 }}>
      <SchemaForm
        schema={schema}
        validators={validators}
        ui={ui}
        data={data}
        onChange={onChange}
        onSubmit={(edited) => void submit(edited)}
        onInvalid={fixFields}
        problems={problems}
      >
        <Box sx={{ display: 'grid', gap: 2, mt: 2 }}>
          {children}
          <Box sx={{ display: 'flex', gap: 1, ...(stickyButtons ? { position: 'sticky', bottom: 0, py: 1, bgcolor: 'background.default' } : {}) }}>
            <Button type="submit" variant="contained" disabled={busy}>
              {t('organiser.event.save')}
            </Button>
            <Button onClick={onCancel}>{t('organiser.event.cancel')}</Button>
          </Box>
        </Box>
      </SchemaForm>
    </Box>
  );
}

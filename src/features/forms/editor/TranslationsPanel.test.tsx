import { useState } from 'react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import en from '../../../../locales/en.json';
import s04Schema from '../../../../schemas/forms/s04.schema.json';
import s04Ui from '../../../../schemas/forms/s04.ui.json';
import { addQuestion, type EditOutcome, type EditorForm } from '../../../engine/forms/patch-editor';
import { TranslationsPanel } from './TranslationsPanel';

// F11: the Translations tab keeps what the organiser types, spaces between words included, while
// the draft keeps each text trimmed.

const all = (text: string) => ({ en: text, cn: text, ja: text, vi: text });

function formWithNewQuestion(): EditorForm {
  const form: EditorForm = {
    formId: 's04',
    exhibitCode: 'AFHE2027',
    base: { schema: s04Schema as Record<string, unknown>, ui: s04Ui as Record<string, unknown> },
    patch: null,
    strings: {},
    known: {},
  };
  const outcome = addQuestion(form, { container: [], id: 'dietary', kind: 'text', title: all('Diet') });
  if (!outcome.ok) throw new Error(outcome.error.code);
  return { ...form, patch: outcome.patch, strings: outcome.strings };
}

/** The panel as the editor holds it: each accepted edit becomes the form shown. */
function Editor({ initial, saved }: { initial: EditorForm; saved: EditorForm[] }) {
  const [form, setForm] = useState(initial);
  const apply = (outcome: EditOutcome) => {
    if (!outcome.ok) return outcome.error.code;
    const next = { ...form, patch: outcome.patch, strings: outcome.strings };
    saved.push(next);
    setForm(next);
    return null;
  };
  return <TranslationsPanel form={form} apply={apply} />;
}

beforeAll(() => {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({ resources: { en: { translation: en } }, lng: 'en', initAsync: false, interpolation: { escapeValue: false } });
  }
});
afterEach(cleanup);

describe('F11 TranslationsPanel', () => {
  it('a Japanese title typed word by word keeps its spaces in the field, and the draft keeps it trimmed', () => {
    const saved: EditorForm[] = [];
    render(<Editor initial={formWithNewQuestion()} saved={saved} />);
    const cell = screen.getByRole('textbox', { name: i18next.t('formEditor.textIn', { key: 'forms.s04.byEvent.AFHE2027.dietary.title', language: '日本語' }) });
    // Typed a key at a time: each change is the field's whole value so far.
    for (const typed of ['Dietary', 'Dietary ', 'Dietary n', 'Dietary needs', 'Dietary needs ']) {
      fireEvent.change(cell, { target: { value: typed } });
      expect(cell).toHaveProperty('value', typed);
    }
    expect(saved.at(-1)?.strings.ja?.['forms.s04.byEvent.AFHE2027.dietary.title']).toBe('Dietary needs');
    fireEvent.blur(cell);
    expect(cell).toHaveProperty('value', 'Dietary needs');
  });
});

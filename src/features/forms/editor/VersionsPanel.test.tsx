import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { SWRConfig } from 'swr';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import { screenIs } from '../../../../tests/support/screen-width';
import type { EditorApi, FormVersion } from './editor-api';
import { VersionsPanel } from './VersionsPanel';

// F11, Y8: the published versions are a list like the console's others: a table named by its
// heading on a wide screen, a card per version on a phone, each with its roll-back action.

if (!i18next.isInitialized) {
  void i18next.use(initReactI18next).init({ resources: { en: { translation: en } }, lng: 'en', initAsync: false, interpolation: { escapeValue: false } });
}

const version = (number: number, current: boolean): FormVersion => ({
  id: number,
  number,
  current,
  status: 'published',
  author: 'Organiser One',
  comment: `Change ${number}`,
  createdAt: '2026-11-20T08:00:00.000Z',
  source: 'editor',
  problems: [],
});

const api = { versions: async () => [version(2, true), version(1, false)] } as unknown as EditorApi;

const renderPanel = () =>
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <VersionsPanel api={api} refresh={0} onRolledBack={() => undefined} />
    </SWRConfig>,
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('VersionsPanel', () => {
  it('F11: on a wide screen, a table named "Published versions" with a row per version and a roll-back for the one not in use', async () => {
    screenIs(false);
    renderPanel();
    const table = await screen.findByRole('table', { name: en.formEditor.versionsHeading });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([en.formEditor.version, en.formEditor.publishedAt, en.formEditor.author, en.formEditor.comment, '']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([`2 (${en.formEditor.inUse})`, '1']);
    expect(within(rows[0]!).queryByRole('button')).toBeNull();
    within(rows[1]!).getByRole('button', { name: 'Roll back to version 1' });
    // Any two versions compared: a picker for each.
    screen.getByRole('combobox', { name: en.formEditor.compareFrom });
    screen.getByRole('combobox', { name: en.formEditor.compareTo });
  });

  it('Y8: on a phone, a card per version: its number as the title, who and why, and the roll-back at its foot', async () => {
    screenIs(true);
    renderPanel();
    const list = await screen.findByRole('list', { name: en.formEditor.versionsHeading });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(cards[0]!.textContent).toContain(`2 (${en.formEditor.inUse})`);
    expect(within(cards[1]!).getByText('Change 1')).toBeTruthy();
    expect(within(cards[1]!).getByText('Organiser One')).toBeTruthy();
    within(cards[1]!).getByRole('button', { name: 'Roll back to version 1' });
    expect(screen.queryByRole('table')).toBeNull();
  });
});

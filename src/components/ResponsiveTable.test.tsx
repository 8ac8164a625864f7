import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../locales/en.json';
import { screenIs } from '../../tests/support/screen-width';
import { ResponsiveTable, type ResponsiveColumn } from './ResponsiveTable';

// Y8: one list component — a table on wide screens, a card per row on phones with the row's name,
// its key details and its actions — with the pager under the rows when the list is paged.

if (!i18next.isInitialized) {
  void i18next.use(initReactI18next).init({ resources: { en: { translation: en } }, lng: 'en', initAsync: false, interpolation: { escapeValue: false } });
}

interface Row {
  id: number;
  name: string;
  city: string;
  note: string;
}

const ROWS: Row[] = [
  { id: 1, name: 'Anna', city: 'Hanoi', note: 'first' },
  { id: 2, name: 'Bao', city: 'Osaka', note: 'second' },
];

const COLUMNS: ResponsiveColumn<Row>[] = [
  { key: 'name', label: 'Name', primary: true, cell: (row) => row.name },
  { key: 'city', label: 'City', cell: (row) => row.city },
  { key: 'note', label: 'Note', phone: false, cell: (row) => row.note },
  { key: 'open', label: 'Open', header: '', actions: true, cell: (row) => <button type="button">{`Open ${row.name}`}</button> },
];

beforeEach(() => {
  vi.stubGlobal('innerWidth', 1280);
  vi.stubGlobal('scrollTo', vi.fn());
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ResponsiveTable', () => {
  it('Y8: on a wide screen, a table with every column and a row header where declared', () => {
    screenIs(false);
    render(<ResponsiveTable label="People" rows={ROWS} rowKey={(row) => row.id} columns={[{ ...COLUMNS[0]!, rowHeader: true }, ...COLUMNS.slice(1)]} />);
    const table = screen.getByRole('table', { name: 'People' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'City', 'Note', '']);
    expect(within(table).getByRole('rowheader', { name: 'Anna' })).toBeTruthy();
    expect(within(table).getByRole('cell', { name: 'second' })).toBeTruthy();
  });

  it('Y8: on a phone, a card per row with its name, the details that stay on phones and its actions', () => {
    screenIs(true);
    render(<ResponsiveTable label="People" rows={ROWS} rowKey={(row) => row.id} columns={COLUMNS} />);
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(screen.getByRole('list', { name: 'People' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const first = within(cards[0]!);
    expect(first.getByText('Anna')).toBeTruthy();
    expect(first.getByText('City')).toBeTruthy();
    expect(first.getByText('Hanoi')).toBeTruthy();
    expect(first.queryByText('first'), 'a column marked phone: false stays off the card').toBeNull();
    expect(first.getByRole('button', { name: 'Open Anna' })).toBeTruthy();
  });

  it('Y8: a paged list shows the pager under the rows, and a page change reaches the page', () => {
    screenIs(false);
    const onChange = vi.fn();
    render(<ResponsiveTable label="People" rows={ROWS} rowKey={(row) => row.id} columns={COLUMNS} paging={{ total: 25, page: 1, limit: 10, onChange }} />);
    const pager = screen.getByRole('navigation', { name: en.pagination.label });
    fireEvent.click(within(pager).getByRole('button', { name: en.pagination.next }));
    expect(onChange).toHaveBeenCalledWith({ page: 2, limit: 10 });
  });

  it('Y8: an empty list says so', () => {
    screenIs(false);
    render(<ResponsiveTable label="People" rows={[]} rowKey={(row: Row) => row.id} columns={COLUMNS} empty="Nobody yet" />);
    expect(screen.getByRole('cell', { name: 'Nobody yet' })).toBeTruthy();
  });
});

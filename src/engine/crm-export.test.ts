import { describe, expect, it } from 'vitest';
import { crmRecord, mappingColumns, PRESET_COLUMNS, splitName } from './crm-export';

describe('LD4 CRM export mappings', () => {
  it('splits a name at its last word; a name without spaces is all last name', () => {
    expect(splitName('Nguyen Van An')).toEqual({ firstName: 'Nguyen Van', lastName: 'An' });
    expect(splitName('  Aisyah   Rahman ')).toEqual({ firstName: 'Aisyah', lastName: 'Rahman' });
    expect(splitName('山田太郎')).toEqual({ firstName: '', lastName: '山田太郎' });
    expect(splitName('')).toEqual({ firstName: '', lastName: '' });
  });

  it("presets carry the CRMs' required columns; a custom mapping keeps only known fields", () => {
    expect(PRESET_COLUMNS.salesforce.map((c) => c.header)).toEqual(expect.arrayContaining(['Last Name', 'Company', 'Email', 'Rating']));
    expect(PRESET_COLUMNS.hubspot.map((c) => c.header)).toEqual(expect.arrayContaining(['First Name', 'Last Name', 'Email', 'Company Name']));
    expect(mappingColumns('custom', [{ field: 'email', header: 'E' }, { field: 'shoeSize', header: 'S' }, 'x'])).toEqual([{ field: 'email', header: 'E' }]);
    expect(mappingColumns('portal', [{ field: 'email', header: 'E' }])).toEqual([]);
  });

  it('makes a webhook record from an API-shaped lead', () => {
    const lead = { visitorName: 'Aisyah Rahman', company: 'Borneo', email: 'a@b.example', temperature: 'hot', scannedBy: { name: 'Sam' }, interestedProducts: ['Honey', 'Jam'] };
    expect(crmRecord(lead, [...mappingColumns('hubspot', null).slice(0, 3), { field: 'scannedBy', header: 'Owner' }, { field: 'interestedProducts', header: 'Products' }])).toEqual(
      {
        'First Name': 'Aisyah',
        'Last Name': 'Rahman',
        Email: 'a@b.example',
        Owner: 'Sam',
        Products: 'Honey, Jam',
      },
    );
  });
});

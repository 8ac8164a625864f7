import { describe, expect, it } from 'vitest';
import { previewStrings } from './preview-overlay';

// F11: what the preview shows while a save is on its way: the editor's texts of the shown language
// over the server's last preview, key by key.

const SERVER = {
  en: { title: 'Exhibitor badges', badges: 'Badges', firstName: 'First name', enum: { gender: { female: 'Female', male: 'Male' } } },
  ja: { title: '出展者バッジ', firstName: '名' },
};

describe('the preview laid over with the texts being typed', () => {
  it("answers the server's strings themselves when the editor has no text of the shown language", () => {
    expect(previewStrings('s04', SERVER, {}, 'en')).toBe(SERVER);
    expect(previewStrings('s04', SERVER, { ja: { 'forms.s04.firstName': 'ファーストネーム' } }, 'en')).toBe(SERVER);
  });

  it("lays the editor's text over the server's for the same key, nested keys merged with their siblings kept", () => {
    const shown = previewStrings(
      's04',
      SERVER,
      { en: { 'forms.s04.firstName': 'Given name', 'forms.s04.enum.gender.female': 'Woman', 'forms.s04.badges_prayerRoom': 'Prayer room' } },
      'en',
    );
    expect(shown.en).toEqual({
      title: 'Exhibitor badges',
      badges: 'Badges',
      firstName: 'Given name',
      badges_prayerRoom: 'Prayer room',
      enum: { gender: { female: 'Woman', male: 'Male' } },
    });
    // Other languages are the server's, and the server's strings are not changed.
    expect(shown.ja).toBe(SERVER.ja);
    expect(SERVER.en.firstName).toBe('First name');
    expect(SERVER.en.enum.gender.female).toBe('Female');
  });

  it("leaves out keys of other forms and adds a language the server's preview lacks", () => {
    const shown = previewStrings('s04', SERVER, { vi: { 'forms.s04.firstName': 'Tên', 'forms.s02.productName': 'Sản phẩm' } }, 'vi');
    expect(shown.vi).toEqual({ firstName: 'Tên' });
  });

  it("shows the same texts once the server's answer to the save holds them (nothing changes back)", () => {
    const typed = { en: { 'forms.s04.firstName': 'Given name' } };
    const beforeAnswer = previewStrings('s04', SERVER, typed, 'en');
    const answered = { ...SERVER, en: { ...SERVER.en, firstName: 'Given name' } };
    expect(previewStrings('s04', answered, typed, 'en')).toEqual(beforeAnswer);
  });
});

import { describe, expect, it } from 'vitest';
import { buildShowroom, pointer, showroomFiles, showroomProblems, type ShowroomDeclaration } from './showroom';

const declaration: ShowroomDeclaration = {
  company: { form: 'profile', fields: { name: '/company/companyName', description: '/company/description', logo: '/company/logo' } },
  products: { form: 'products', list: '/items', fields: { name: '/productName', image: '/image', newLaunch: '/newLaunch' } },
};

describe('CT5 showroom from submitted forms', () => {
  it('reads JSON pointers, including escaped keys', () => {
    expect(pointer({ a: { 'b/c': { '~d': 1 } } }, '/a/b~1c/~0d')).toBe(1);
    expect(pointer({ a: 1 }, '/a/b')).toBeUndefined();
  });

  it('builds company and products as declared; skips unnamed products; lists only its files', () => {
    const showroom = buildShowroom(declaration, {
      profile: { company: { companyName: ' Borneo Botanica ', description: 'Honey', logo: { id: 'logo1', name: 'logo.jpg', type: 'jpeg' } } },
      products: { items: [{ productName: 'Tualang Honey', image: { id: 'img1', name: 'h.jpg', type: 'jpeg' }, newLaunch: true }, { productName: '' }] },
    });
    expect(showroom.company).toMatchObject({ name: 'Borneo Botanica', description: 'Honey', logo: { id: 'logo1' } });
    expect(showroom.products).toEqual([expect.objectContaining({ name: 'Tualang Honey', newLaunch: true, image: { id: 'img1', name: 'h.jpg', type: 'jpeg' } })]);
    expect(showroomFiles(showroom)).toEqual(['logo1', 'img1']);
  });

  it('is empty, not broken, without submissions', () => {
    expect(buildShowroom(declaration, {})).toEqual({ company: { name: '', description: '', website: '', video: '', address: '', logo: null }, products: [] });
  });

  it('reports declarations naming unknown forms, fields or non-pointers', () => {
    expect(showroomProblems(declaration, ['profile', 'products'])).toEqual([]);
    expect(showroomProblems({ company: { form: 'nope', fields: { colour: '/x', name: 'company.name' } } }, ['profile'])).toEqual([
      'schemas/forms/forms.yaml showroom.company.form: must name a form of forms.yaml',
      'schemas/forms/forms.yaml showroom.company.fields.colour: unknown (known: name, description, logo, website, video, address)',
      'schemas/forms/forms.yaml showroom.company.fields.name: must be a JSON pointer such as /company/name',
    ]);
  });
});

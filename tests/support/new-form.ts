import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// What an organiser writes to add a whole new form while the portal runs, in a copy of
// the project's files (root/schemas = FORMS_DIR, root/locales, root/screens.yaml): S09, a parking
// pass with one field, its schema and UI schema, its strings in every language, its screen, and
// last its forms.yaml entry (the list names a form whose files are all there).

type Json = Record<string, any>;
const readJson = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;
const writeJson = (path: string, value: unknown) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

export const PARKING_FORM = {
  id: 's09',
  screen: 'parkingPass',
  path: '/myParticipation/parkingPass',
  strings: {
    en: { title: 'S09 Parking pass', plate: 'Number plate' },
    cn: { title: 'S09 停车证', plate: '车牌号码' },
    ja: { title: 'S09 駐車許可証', plate: 'ナンバープレート' },
    vi: { title: 'S09 Thẻ đỗ xe', plate: 'Biển số xe' },
  } as Record<string, { title: string; plate: string }>,
  plateMaxLength: 10,
};

export function addParkingForm(root: string) {
  const formsDir = join(root, 'schemas');
  writeJson(join(formsDir, 'forms', 's09.schema.json'), {
    type: 'object',
    title: 'forms.s09.title',
    additionalProperties: false,
    required: ['plate'],
    properties: { plate: { type: 'string', title: 'forms.s09.plate', maxLength: PARKING_FORM.plateMaxLength } },
  });
  writeJson(join(formsDir, 'forms', 's09.ui.json'), { 'ui:order': ['plate'] });
  for (const [language, strings] of Object.entries(PARKING_FORM.strings)) {
    const file = join(root, 'locales', `${language}.json`);
    const table = readJson(file);
    table.forms.s09 = strings;
    writeJson(file, table);
  }
  const screens = join(root, 'screens.yaml');
  const screen = `  - id: ${PARKING_FORM.screen}\n    path: ${PARKING_FORM.path}\n    layout: main\n    title: forms.s09.title\n    parent: orderForms\n    hidden: true\n    modules: [Forms]\n    form: s09\n`;
  writeFileSync(screens, readFileSync(screens, 'utf8').replace(/\n {2}- id: vehicle\n/, `\n${screen}  - id: vehicle\n`));
  const list = join(formsDir, 'forms', 'forms.yaml');
  const entry = `  - id: s09\n    code: S09\n    title: forms.s09.title\n    screen: ${PARKING_FORM.screen}\n    mandatory: false\n    deadline: booth\n    submitOnceFlag: null\n    prerequisites: []\n    audience: exhibitor\n`;
  writeFileSync(list, readFileSync(list, 'utf8').replace(/\n {2}- id: s07\n/, `\n${entry}  - id: s07\n`));
}

import cn from '../../../locales/cn.json' with { type: 'json' };
import en from '../../../locales/en.json' with { type: 'json' };
import ja from '../../../locales/ja.json' with { type: 'json' };
import vi from '../../../locales/vi.json' with { type: 'json' };
import { createTranslator, type LocaleTable } from '../../engine/i18n';

/** The locale tables the server was built with. */
export const localeTables = { en, cn, ja, vi } as Record<string, LocaleTable>;

/** The server speaks the same locale tables as the browser. */
export const translate = createTranslator(localeTables);

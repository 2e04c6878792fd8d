import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Translator } from './messages.ts';

type LooseT = (key: string, options?: Record<string, unknown>) => string;

/**
 * The translator of the form's templates and widgets; a new one after a language switch,
 * so memoized texts follow the language.
 */
export function useTranslator(): Translator {
  const { t, i18n } = useTranslation();
  return useMemo(
    () => ({ t: (key, options) => (t as unknown as LooseT)(key, options), exists: (key) => i18n.exists(key) }),
    [t, i18n],
  );
}

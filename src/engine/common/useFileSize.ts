import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFileSize, type SizeUnits } from '../form/files.ts';

/**
 * A formatter of file sizes in the current language's units (Bytes, KB, MB, GB — spec §9),
 * renewed after a language switch.
 * @example const size = useFileSize(); size(1536) // '1.5 KB', or '1.5 КБ' in Russian
 */
export function useFileSize(): (bytes: number) => string {
  const { t } = useTranslation();
  return useCallback(
    (bytes: number) => {
      const units = (['bytes', 'kb', 'mb', 'gb'] as const).map((u) =>
        t(`engine.form.size.${u}`),
      ) as unknown as SizeUnits;
      return formatFileSize(bytes, units);
    },
    [t],
  );
}

/**
 * Widgets that are one masked input: phone, PINFL, post index, product classifier code, money.
 */
import type { WidgetProps } from '@rjsf/utils';
import { maskDigits, maskMoney, maskPhone, phoneText } from '../masks.ts';
import { formatMoney } from '../../../shared/format.ts';
import { useTranslator } from '../useTranslator.ts';
import { MaskedInput } from './MaskedInput.tsx';

const digitsText = (value: unknown): string => (typeof value === 'string' ? value : '');
const maskPinfl = (raw: string) => maskDigits(raw, 14);
const maskPostIndex = (raw: string) => maskDigits(raw, 6);
const maskMxik = (raw: string) => maskDigits(raw, 17);

/** Phone with the mask `+998 ## ###-##-##`; stores `+99890-123-45-67` (the `phoneNumber` format). */
export function PhoneWidget(props: WidgetProps) {
  return (
    <MaskedInput widget={props} mask={maskPhone} display={phoneText} inputMode="tel" placeholder="+998 __ ___-__-__" />
  );
}

/** Personal identification number (PINFL / JSHSHIR): 14 digits. */
export function PinflWidget(props: WidgetProps) {
  return <MaskedInput widget={props} mask={maskPinfl} display={digitsText} inputMode="numeric" />;
}

/** Post index: 6 digits. */
export function PostIndexWidget(props: WidgetProps) {
  return <MaskedInput widget={props} mask={maskPostIndex} display={digitsText} inputMode="numeric" />;
}

/** National product classifier code (MXIK / IKPU): 17 digits. */
export function MxikWidget(props: WidgetProps) {
  return <MaskedInput widget={props} mask={maskMxik} display={digitsText} inputMode="numeric" />;
}

/** UZS amount: digits grouped by spaces while typing, no decimals; stores a number. */
export function MoneyWidget(props: WidgetProps) {
  const i18n = useTranslator();
  return (
    <MaskedInput
      widget={props}
      mask={maskMoney}
      display={formatMoney}
      inputMode="numeric"
      contentAfter={i18n.t('engine.form.currency')}
    />
  );
}
